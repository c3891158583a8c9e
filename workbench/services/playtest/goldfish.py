"""Goldfish: a single deck list on its own — opening hands under the game's mulligan rule, and how
fast it develops against an opponent that never acts unless it must.

Opening hands come from game.yaml's ``play:`` block (``opening_hand``, ``mulligans`` — numbers or
rule-option names). The keep rule is simple and explicit: keep a hand holding at least
``keep_min`` cards of ``keep_kind`` (default: the deck's most common kind), else mulligan while
mulligans remain. Development is measured with the game's engine: the deck plays its own copy
whose player only passes, and we record the turn it wins (the "kill turn") and the turn its
player has first played ``board`` different cards (not counting what the game itself puts out
at its start, such as warzone's Areas).
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Mapping
from typing import Any

from workbench.domain import stats
from workbench.domain.engines.base import Action, State, agent_problem, make_agent
from workbench.domain.errors import WorkbenchError
from workbench.domain.gamedef import GameDefinition
from workbench.services.playtest.runner import PlaytestError, derive_seed, resolve_engine, seats_as_decks

PASSIVE_KINDS = ("pass", "end_turn", "end_phase", "end_battle", "end", "done", "keep", "allow")


class PassiveAgent:
    """An opponent that passes whenever it may; otherwise takes its first legal action."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        for kind in PASSIVE_KINDS:
            for action in actions:
                if action.kind == kind:
                    return action
        return actions[0]


def play_value(definition: GameDefinition, options: Mapping[str, Any], key: str, default: Any) -> Any:
    """A ``play:`` setting of game.yaml: a literal, or the name of a rule option to read."""
    raw = (definition.raw.get("play") or {}).get(key, default)
    if isinstance(raw, str) and raw in options:
        return options[raw]
    return raw


def opening_hands(
    definition: GameDefinition,
    deck: Mapping[str, list[Mapping[str, Any]]],
    options: Mapping[str, Any],
    *,
    samples: int = 2000,
    seed: int = 0,
    keep_kind: str | None = None,
    keep_min: int = 1,
    zone: str | None = None,
) -> dict[str, Any]:
    """Sample opening hands with the mulligan rule and give exact odds beside them.

    Returns hand size, mulligans allowed, the keep rule, how often each number of mulligans was
    taken, the mean count of each kind in kept hands, and per card the exact (hypergeometric)
    and sampled chance of at least one copy in the first hand. Raises PlaytestError when the
    game deals no opening hand or the deck zone is empty.
    """
    hand_size = int(play_value(definition, options, "opening_hand", 0) or 0)
    if hand_size <= 0:
        raise PlaytestError(f"game {definition.id!r} deals no opening hand (game.yaml play.opening_hand)")
    allowed = int(play_value(definition, options, "mulligans", 0) or 0)
    zone = zone or next((z.id for z in definition.zones.values() if z.spec.get("play")), next(iter(definition.zones)))
    library = list(deck.get(zone) or [])
    if len(library) < hand_size:
        raise PlaytestError(f"zone {zone!r} holds {len(library)} cards; an opening hand needs {hand_size}")
    kinds = Counter(str(c.get("kind")) for c in library)
    keep_kind = keep_kind or kinds.most_common(1)[0][0]
    rng = random.Random(derive_seed("goldfish-hands", seed))
    mulligan_counts: Counter[int] = Counter()
    kind_totals: Counter[str] = Counter()
    first_hand_hits: Counter[str] = Counter()
    for _ in range(samples):
        taken = 0
        while True:
            hand = rng.sample(library, hand_size)
            if taken == 0:
                for card_id in {c["id"] for c in hand}:
                    first_hand_hits[card_id] += 1
            enough = sum(1 for c in hand if c.get("kind") == keep_kind) >= keep_min
            if enough or taken >= allowed:
                break
            taken += 1
        mulligan_counts[taken] += 1
        kind_totals.update(str(c.get("kind")) for c in hand)
    copies = Counter(c["id"] for c in library)
    names = {c["id"]: str(c.get("name", c["id"])) for c in library}
    per_card = [
        {
            "card": card_id,
            "name": names[card_id],
            "copies": n,
            "p_in_opening_hand": stats.hypergeom_at_least(1, len(library), n, hand_size),
            "sampled": first_hand_hits[card_id] / samples,
        }
        for card_id, n in sorted(copies.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    keep_exact = stats.hypergeom_at_least(keep_min, len(library), kinds[keep_kind], hand_size)
    return {
        "zone": zone,
        "deck_size": len(library),
        "hand_size": hand_size,
        "mulligans_allowed": allowed,
        "keep_rule": f"keep with at least {keep_min} {keep_kind} card(s)",
        "p_keep_first_hand": keep_exact,
        "samples": samples,
        "mulligans_taken": {str(k): mulligan_counts[k] / samples for k in sorted(mulligan_counts)},
        "mean_kinds_in_kept_hand": {k: kind_totals[k] / samples for k in sorted(kind_totals)},
        "cards": per_card,
    }


def development(
    engine_name: str,
    deck: Mapping[str, list[Mapping[str, Any]]],
    options: Mapping[str, Any],
    *,
    games: int = 100,
    seed: int = 0,
    agent: str = "heuristic",
    board: int = 3,
    max_steps: int = 20_000,
    deck_name: str | None = None,
) -> dict[str, Any]:
    """How fast a deck develops against a passive copy of itself.

    Returns the kill turn (mean, median, histogram; games that did not end in a win are counted
    as ``no_kill``) and the turn its player first has ``board`` different cards played (beyond those
    the game's setup puts out, such as warzone's Areas).
    Raises PlaytestError for an unknown agent, and for a deck the engine cannot set up (a seth
    line-up of four monsters), its reason naming the deck (``deck_name``) rather than a seat.
    """
    engine = resolve_engine(engine_name)
    problem = agent_problem(engine, agent)
    if problem:
        raise PlaytestError(problem)
    kill_turns: list[int] = []
    board_turns: list[int] = []
    no_kill = 0
    opts = dict(options)
    opts["_log"] = False
    for index in range(games):
        game_seed = derive_seed("goldfish", seed, index)
        try:
            state = engine.new_game(deck, deck, opts, game_seed)
        except PlaytestError:
            raise
        except (WorkbenchError, ValueError) as exc:  # the deck sits in both seats: P1 and P2 are it
            raise PlaytestError(f"this deck cannot be played: {seats_as_decks(str(exc), [deck_name, deck_name])}") from None
        # What the game puts out at its start (warzone's three Areas, §1.3.2) is not played by the
        # deck: counted, every warzone deck had "3 different cards played by turn 0".
        at_start = set(state.stats.played[0])
        players = [make_agent(engine, agent, derive_seed(game_seed, "agent")), PassiveAgent()]
        reached: int | None = None
        for _ in range(max_steps):
            if state.is_terminal():
                break
            acting = state.to_act()
            if len(acting) == 1:
                state.apply(players[acting[0]].choose(state, acting[0]))
            else:
                state.apply_joint({p: players[p].choose(state, p) for p in acting})
            if reached is None and len(state.stats.played[0] - at_start) >= board:
                reached = _turn_of(state)
        if state.is_terminal() and state.result().winner == 0:
            kill_turns.append(state.result().turns)
        else:
            no_kill += 1
        if reached is not None:
            board_turns.append(reached)

    def summary(values: list[int]) -> dict[str, Any]:
        return {
            "games": len(values),
            "mean": statistics.fmean(values) if values else None,
            "median": statistics.median(values) if values else None,
            "histogram": stats.histogram(values),
        }

    return {"games": games, "agent": agent, "kill_turn": summary(kill_turns), "no_kill": no_kill,
            "board": board, "board_turn": summary(board_turns)}


def _turn_of(state: State) -> int:
    # Engines keep their turn (warzone, fusion) or round (seth) counter under one of these names.
    for name in ("turn", "round"):
        value = getattr(state, name, None)
        if isinstance(value, int):
            return value
    return 0
