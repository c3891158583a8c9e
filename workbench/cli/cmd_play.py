"""``workbench play GAME DECK_A DECK_B [DECK_C [DECK_D]] --seed S``: play one engine game and
write its readable log.

The same decks, options, agents and seed always give the same log: agents get seeds derived
from ``--seed`` and the engine's only randomness is the state's own seeded generator. Engines
that seat more than two players (fusion, RULES.md §3.9) take one deck per seat.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.cli import add_data_option
from workbench.domain.engines import load_engine
from workbench.domain.engines.base import agent_problem, make_agent, play_game
from workbench.domain.errors import UsageError, WorkbenchError
from workbench.storage.repository import Repository


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``play`` sub-command."""
    parser = subparsers.add_parser(
        "play",
        help="play one engine game between two decks (fusion: up to four) and print or save the turn-by-turn log",
        description="Play one game with AI players and write a readable log. Same seed, same log.",
    )
    parser.add_argument("game", help="game id, e.g. seth")
    parser.add_argument("deck_a", help="deck id of player 1")
    parser.add_argument("deck_b", help="deck id of player 2")
    parser.add_argument("more_decks", nargs="*", metavar="DECK",
                        help="deck ids of players 3 and 4 (fusion seats up to four, RULES.md §3.9)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--agents", default="heuristic", metavar="A,B",
                        help="AI players for P1,P2(,P3,P4): random, heuristic, montecarlo or search (the "
                             "strong player; search:N sets its budget, N iterations per decision), e.g. "
                             "search,heuristic; one name plays every seat (default heuristic)")
    parser.add_argument("--format", dest="format_id", default=None, help="a format of game.yaml")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="override a rule option (repeatable), e.g. --option max_rounds=10")
    parser.add_argument("--log", metavar="FILE", help="write the log to FILE instead of standard output")
    add_data_option(parser)
    parser.set_defaults(func=run)


def _overrides(pairs: list[str]) -> dict[str, str]:
    result = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--option wants NAME=VALUE, got {pair!r}")
        result[name.strip()] = value.strip()
    return result


def play_log(repo: Repository, game: str, deck_a: str, deck_b: str, seed: int, agents: list[str],
             format_id: str | None = None, overrides: dict[str, str] | None = None,
             more_decks: list[str] | None = None) -> tuple[list[str], int]:
    """Play one game; return the log lines and the winner code (the winner's seat, 0 for P1;
    the number of seats for a draw: 2 in a two-player game).

    ``more_decks`` seat players 3 and 4 (engines with ``max_players`` above 2); rule option
    ``players``, when given, must match the number of decks. ``agents`` holds one name per seat.
    Raises NotFound (game, deck), EngineNotFound, DefinitionError (format, option) and
    UsageError for a wrong number of decks, WorkbenchError for an unknown agent or budget.
    """
    definition = repo.game(game)
    engine = load_engine(definition.engine or game)
    ids = [deck_a, deck_b, *(more_decks or [])]
    if len(ids) > engine.max_players:
        raise UsageError(f"{game} seats at most {engine.max_players} players, got {len(ids)} decks")
    wanted = (overrides or {}).get("players")
    options = definition.resolve_options(format_id, overrides)
    if wanted is not None and options.get("players") != len(ids):
        raise UsageError(f"--option players={wanted} wants {wanted} decks, got {len(ids)}")
    if "players" in definition.options:
        options["players"] = len(ids)
    options["_log"] = True
    if len(agents) != len(ids):
        raise UsageError(f"--agents names {len(agents)} players for {len(ids)} decks")
    for name in agents:
        problem = agent_problem(engine, name)
        if problem:
            raise WorkbenchError(problem)  # exit 1, as `workbench playtest` refuses an unknown agent
    decks = [repo.deck_cards(game, d) for d in ids]
    state = engine.new_seated(decks, options, seed)
    players = [make_agent(engine, name, seed * 2 + i + 1) for i, name in enumerate(agents)]
    result = play_game(state, players)
    seats = " vs ".join(f"P{k + 1} {d} ({agents[k]})" for k, d in enumerate(ids))
    lines = [f"{definition.name} — {seats}, seed {seed}", *state.log]
    winner = "a draw" if result.winner is None else f"P{result.winner + 1} wins"
    if result.places:
        places = ", ".join(f"P{k + 1} {ids[k]} #{place}" for k, place in enumerate(result.places))
        winner += f" (places: {places})"
    lines.append(f"Result: {winner} after {result.turns} turns — {result.reason}")
    if state.stats.unsimulated:
        lines.append("Cards played without their effect text (unsimulated): "
                     + ", ".join(sorted(state.stats.unsimulated)))
    return lines, len(ids) if result.winner is None else result.winner


def run(args: argparse.Namespace) -> int:
    """Play the game and write the log; exit 0 after a game, 1/2 on errors (see workbench.cli)."""
    seats = 2 + len(args.more_decks)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(agents) == 1:
        agents = agents * seats
    if len(agents) != seats:
        print(f"error: --agents wants {seats} names (one per deck) or one for all, e.g. heuristic,random",
              file=sys.stderr)
        return 2
    repo = Repository(args.data)
    lines, _ = play_log(repo, args.game, args.deck_a, args.deck_b, args.seed, agents,
                        args.format_id, _overrides(args.option), more_decks=args.more_decks)
    text = "\n".join(lines) + "\n"
    if args.log:
        Path(args.log).write_text(text, encoding="utf-8")
        print(lines[-1] if not lines[-1].startswith("Cards") else lines[-2])
        print(f"log written to {args.log}")
    else:
        sys.stdout.write(text)
    return 0
