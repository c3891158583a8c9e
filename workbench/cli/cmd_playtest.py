"""``workbench playtest GAME DECK_A DECK_B``: deck A against deck B for N games, with statistics.

With more decks (``DECK_A DECK_B DECK_C [DECK_D]``, or ``--option players=N``), an engine that
seats three or four players (fusion, RULES.md §3.9) plays a **pod**: deck A with N−1 opponents,
seats rotated, deck A's share of the wins against the fair share 1/N
(``workbench.services.playtest.pod``).

Also ``--gauntlet`` (DECK_A against every other deck), ``--goldfish`` (DECK_A alone: opening hands
and development) and ``--variant KEY=VALUE`` (the same seeds under changed rule options). A deck is
a saved deck's id or ``@FILE`` (``-`` for standard input) holding a ``count name`` list.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from workbench.cli import add_data_option
from workbench.cli.output import open_repo, print_json
from workbench.domain import stats
from workbench.domain.errors import WorkbenchError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``playtest`` sub-command."""
    parser = subparsers.add_parser(
        "playtest",
        help="play deck A against deck B many times and report win rates and card statistics",
        description=(
            "Play DECK_A against DECK_B for --games games (every seed twice, seats swapped) and print "
            "the statistics. The same seed gives the same numbers with any --workers. "
            "A deck is a saved deck id or @FILE with 'count name' lines (@- reads standard input)."
        ),
    )
    parser.add_argument("game", help="game id")
    parser.add_argument("deck_a", help="deck A: deck id or @FILE")
    parser.add_argument("deck_b", nargs="?", help="deck B: deck id or @FILE (not with --gauntlet/--goldfish)")
    parser.add_argument("more_decks", nargs="*", metavar="DECK",
                        help="decks C and D: a pod of three or four players (fusion); with --option players=N "
                             "and fewer decks, the last deck fills the empty seats")
    parser.add_argument("--games", "-n", type=int, default=1000, help="games to play (rounded up to even; default 1000)")
    parser.add_argument("--seed", "-s", type=int, default=0, help="root seed (default 0)")
    parser.add_argument("--workers", "-w", type=int, default=None, help="worker processes (default: every core)")
    parser.add_argument("--agents", default="heuristic,heuristic",
                        help="agents for deck A and B: random, heuristic, montecarlo, search "
                             "(strong; search:N sets its budget) (default heuristic,heuristic)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE", help="rule option override (repeatable)")
    parser.add_argument("--format", dest="format_id", default=None, help="format whose options apply (default: deck A's)")
    parser.add_argument("--early-stop", choices=["none", "interval", "sprt"], default="none",
                        help="stop once the answer is known (see docs/playtests.md)")
    parser.add_argument("--agent-check", default=None, metavar="AGENTS",
                        help="also play the first --agent-check-games games with these players (e.g. random) and "
                             "flag a result that depends on the AI")
    parser.add_argument("--agent-check-games", type=int, default=200, help="games for --agent-check (default 200)")
    parser.add_argument("--margin", type=float, default=0.03, help="early-stop margin in win rate (default 0.03 = 3 points)")
    parser.add_argument("--gauntlet", action="store_true", help="DECK_A against every other deck of the game")
    parser.add_argument("--goldfish", action="store_true", help="DECK_A alone: opening hands and development")
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE",
                        help="compare the options as given with these changes, on the same seeds (repeatable)")
    parser.add_argument("--cluster", default=None, metavar="ADDRESS",
                        help="run on a Dask cluster (tcp://host:8786, or 'local'); needs the [cluster] extra")
    parser.add_argument("--save", action="store_true", help="keep the run under the data folder (shown on the web page)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--records", action="store_true", help="with --json: include one line per game")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_data_option(parser)
    parser.set_defaults(func=run)


def parse_pairs(pairs: list[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` -> ``{"a": "1", "b": "x"}``. Raises WorkbenchError for a pair without '='."""
    result = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise WorkbenchError(f"option {pair!r} must be KEY=VALUE")
        result[key.strip()] = value.strip()
    return result


def deck_ref(text: str) -> Any:
    """A deck argument: ``@FILE``/``@-`` becomes a pasted list, anything else a deck id."""
    if not text.startswith("@"):
        return text
    source = text[1:]
    if source == "-":
        return {"text": sys.stdin.read(), "name": "stdin"}
    path = Path(source)
    try:
        return {"text": path.read_text(encoding="utf-8"), "name": path.stem}
    except OSError as exc:
        raise WorkbenchError(f"cannot read deck list {source}: {exc.strerror}") from None


@contextlib.contextmanager
def progress_bar(enabled: bool, label: str) -> Iterator[Any]:
    """A tqdm bar on standard error (rate and time left); yields a ``progress(done, total)`` callback."""
    if not enabled:
        yield None
        return
    import tqdm as tqdm_module
    from tqdm import tqdm

    # No monitor thread: with a single thread the process pool may fork (fast start) instead of spawn.
    tqdm_module.tqdm.monitor_interval = 0
    bar = tqdm(total=0, unit="game", desc=label, file=sys.stderr, dynamic_ncols=True)

    def update(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
            bar.refresh()
        bar.update(done - bar.n)

    try:
        yield update
    finally:
        bar.close()


def run(args: argparse.Namespace) -> int:
    """Run the playtest asked for; print text or JSON. Returns 0, or 2 for usage errors."""
    from workbench.services.playtest import goldfish, service
    from workbench.services.playtest.runner import make_backend, run_matchup

    repo = open_repo(args)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(agents) == 1:
        agents *= 2
    overrides = parse_pairs(args.option)
    modes = sum(bool(x) for x in (args.gauntlet, args.goldfish, args.variant))
    if modes > 1:
        print("error: use only one of --gauntlet, --goldfish, --variant", file=sys.stderr)
        return 2
    if args.games < 1:
        print("error: --games must be at least 1", file=sys.stderr)
        return 2
    show = not args.quiet

    if args.goldfish:
        definition = repo.game(args.game)
        deck = service.load_deck(repo, args.game, deck_ref(args.deck_a))
        options = definition.resolve_options(args.format_id or deck.data.get("format"), overrides)
        result: dict[str, Any] = {"game": args.game, "deck": deck.describe()}
        try:
            result["opening_hands"] = goldfish.opening_hands(definition, deck.cards, options, seed=args.seed)
        except WorkbenchError as exc:
            result["opening_hands"] = {"error": str(exc)}
        if definition.engine:
            result["development"] = goldfish.development(definition.engine, deck.cards, options,
                                                         games=min(args.games, 1000), seed=args.seed, agent=agents[0])
        print_json(result) if args.json else _print_goldfish(result)
        return 0

    if args.gauntlet:
        with progress_bar(show, "gauntlet") as bar:
            result = service.run_gauntlet(repo, args.game, deck_ref(args.deck_a), args.games, agents=agents,
                                          overrides=overrides, seed=args.seed, workers=args.workers, progress=bar)
        print_json(result) if args.json else _print_gauntlet(result)
        return 0

    if not args.deck_b:
        print("error: give DECK_B (or use --gauntlet or --goldfish)", file=sys.stderr)
        return 2
    opponents = [args.deck_b, *args.more_decks]
    players = overrides.get("players")
    if players is not None and str(players).isdigit() and int(players) > len(opponents) + 1:
        opponents += [opponents[-1]] * (int(players) - len(opponents) - 1)
    if len(opponents) > 1:
        return _run_pod(args, repo, agents, overrides, opponents, show)
    matchup, facts = service.prepare(repo, args.game, deck_ref(args.deck_a), deck_ref(args.deck_b),
                                     agents=agents, overrides=overrides, format_id=args.format_id, seed=args.seed)

    if args.variant:
        definition = repo.game(args.game)
        second = {**overrides, **parse_pairs(args.variant)}
        result = service.compare_variants(matchup, definition, overrides, second, args.games,
                                          format_id=facts["format"], workers=args.workers)
        print_json(result) if args.json else _print_variants(result)
        return 0

    rule = stats.make_stop_rule(args.early_stop, args.margin)
    with contextlib.ExitStack() as stack:
        if args.cluster:
            from workbench.services.playtest.cluster import dask_backend

            backend = stack.enter_context(dask_backend(args.cluster, args.workers))
        else:
            backend = make_backend(args.workers)
        bar = stack.enter_context(progress_bar(show, f"{matchup.label_a} vs {matchup.label_b}"))
        check = [a.strip() for a in args.agent_check.split(",") if a.strip()] if args.agent_check else None
        report = run_matchup(matchup, args.games, backend=backend, stop_rule=rule, progress=bar,
                             agent_check=check, agent_check_games=args.agent_check_games)
    report["decks"] = facts["decks"]
    report["unplayed_zones"] = facts["unplayed_zones"]
    for row in report.get("unsimulated") or ():
        row["reasons"] = facts["unsimulated_reasons"].get(row["card"], [])
    if args.save:
        from workbench.services.playtest.jobs import build_run
        from workbench.storage.playtest_runs import RunStore

        stop = {"rule": args.early_stop, "margin": args.margin} if rule else None
        report["run_id"] = RunStore(repo).save(args.game, build_run(matchup, facts, report, args.games, args.workers, stop))
    if not args.records:
        report.pop("records", None)
    print_json(report) if args.json else _print_report(report)
    return 0


def _run_pod(args: argparse.Namespace, repo: Any, agents: list[str], overrides: dict[str, str],
             opponents: list[str], show: bool) -> int:
    """A pod of deck A and ``opponents`` (three or four players); text or JSON report."""
    from workbench.services.playtest import service
    from workbench.services.playtest.pod import run_pod

    if args.variant or args.early_stop != "none" or args.agent_check or args.cluster or args.save:
        print("error: a pod (three or four players) runs without --variant, --early-stop, --agent-check, "
              "--cluster and --save", file=sys.stderr)
        return 2
    pod, facts = service.prepare_pod(repo, args.game, deck_ref(args.deck_a), [deck_ref(d) for d in opponents],
                                     agents=agents, overrides=overrides, format_id=args.format_id, seed=args.seed)
    with progress_bar(show, f"{pod.labels[0]} in a pod of {pod.players}") as bar:
        report = run_pod(pod, args.games, args.workers, progress=bar)
    report["decks_info"] = facts["decks"]
    report["unplayed_zones"] = facts["unplayed_zones"]
    if not args.records:
        report.pop("records", None)
    print_json(report) if args.json else _print_pod(report)
    return 0


def _print_pod(report: dict[str, Any]) -> None:
    print(report["headline"])
    print(f"  {report['game']}, {report['games']} games, seed {report['seed']}, agents {'/'.join(report['agents'])} "
          f"(deck A / the opponents); unit: {report['unit']}")
    unplayed = report.get("unplayed_zones") or []
    for z in unplayed:
        print(f"  ! {z['name']} ×{z['copies']} in deck {z['deck'].upper()}'s {z['zone']} zone: never used by the engine")
    print(f"  deck A wins {report['wins_a']} of {report['games']} games ({report['draws']} draws); places: "
          + ", ".join(f"#{p}: {c}" for p, c in report["places_a"].items()))
    print("  deck A by seat       " + ", ".join(f"seat {r['seat'] + 1}: {_ci(r)}" for r in report["score_a_by_seat"]))
    print(f"  first player (seat 1) {_ci(report['first_player_score'])} against the fair share {_pct(report['fair_share'])}")
    for d in report["decks"]:
        print(f"  {d['deck'].upper()} {d['label']:<28} wins {d['wins']:>5}  share {_ci(d['score'])}  mean place {d['mean_place']:.2f}")
    turns = report["turns"]
    if turns["mean"] is not None:
        print(f"  game length          mean {turns['mean']:.1f}, median {turns['median']} turns")
    for reason, count in report["end_reasons"].items():
        print(f"  ended: {reason} ×{count}")
    print(f"  {report['elapsed_s']:.1f} s, {report['games_per_s']} games/s on {report['workers']} worker(s)")


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def _rate(r: dict[str, Any]) -> str:
    low, high = r["ci95"]
    return f"{_pct(r['value'])} (95% interval {_pct(low)}–{_pct(high)})"


def _ci(r: dict[str, Any] | None) -> str:
    if not r or r.get("value") is None:
        return "—"
    low, high = r["ci95"]
    return f"{_pct(r['value'])} ({_pct(low)}–{_pct(high)}, {r['n']} games)"


def _print_report(report: dict[str, Any]) -> None:
    print(f"{report['deck_a']} vs {report['deck_b']} — {report['game']}, {report['games']} games, seed {report['seed']}, "
          f"agents {'/'.join(report['agents'])}")
    not_played = report.get("unsimulated") or []
    unplayed = report.get("unplayed_zones") or []
    if not_played or unplayed:
        print("  NOT PLAYED AS WRITTEN (the figures are about the decks as the engine played them):")
        for u in not_played:
            print(f"    {u['name']}: effects approximated or skipped — in {u['games']} of {report['games']} games, "
                  f"drawn in {u['drawn_games']}")
            for reason in u.get("reasons") or ():
                print(f"      {reason}")
        for z in unplayed:
            print(f"    {z['name']} ×{z['copies']} in deck {z['deck'].upper()}'s {z['zone']} zone: never used by the engine "
                  f"(all {report['games']} games)")
    print(f"  deck A wins {report['wins_a']}, loses {report['wins_b']}, draws {report['draws']}")
    pairs = report.get("pairs") or {}
    print(f"  deck A win rate      {_rate(report['win_rate_a'])} over {pairs.get('n', '?')} seed pairs")
    if pairs:
        print("  pairs (A's points)   " + ", ".join(f"{o}: {c}" for o, c in zip(pairs["outcomes"], pairs["counts"], strict=True)))
    print(f"  first player wins    {_rate(report['first_player_win_rate'])}")
    if (report.get("first_player") or {}).get("favoured"):
        print(f"  ! {report['first_player']['message']}")
    print(f"  deck A going first   {_ci(report.get('win_rate_a_going_first'))}")
    print(f"  deck A going second  {_ci(report.get('win_rate_a_going_second'))}")
    turns = report["turns"]
    print(f"  game length          mean {turns['mean']:.1f}, median {turns['median']} turns" if turns["mean"] is not None else "")
    for reason, count in report["end_reasons"].items():
        print(f"  ended: {reason} ×{count}")
    stop = report.get("early_stop")
    if stop:
        print(f"  early stop: {stop['verdict'] or 'no verdict'} after {stop['games']} games — {stop['reason']}")
    check = report.get("agent_check")
    if check:
        print(f"  with {'/'.join(check['agents'])} players ({check['games']} games): deck A {_ci(check['win_rate_a'])} — {check['message']}")
    rows = sorted((c for c in report["cards"] if c.get("impact") is not None), key=lambda c: -c["impact"])
    if rows:
        print("  cards (improvement when drawn = win rate drawn − not drawn; association, not cause):")
        for card in rows[:8]:
            iwd = card["improvement_when_drawn"]
            print(f"    {card['deck'].upper()} {card['name']:<28} {card['impact'] * 100:+.1f} pts "
                  f"({iwd['ci95'][0] * 100:+.1f} to {iwd['ci95'][1] * 100:+.1f}), drawn in {card['drawn']} games, "
                  f"opening hand {_ci(card.get('win_rate_opening'))}")
    never = report.get("never_played") or []
    if never:
        print("  never played: " + ", ".join(f"{c['deck'].upper()} {c['name']}" for c in never))
    print(f"  {report['elapsed_s']:.1f} s, {report['games_per_s']} games/s on {report['workers']} worker(s)"
          + (f"; saved as run {report['run_id']}" if report.get("run_id") else ""))


def _print_gauntlet(result: dict[str, Any]) -> None:
    print(f"Gauntlet: {result['deck']} against every other deck of {result['game']} (seed {result['seed']})")
    for row in result["rows"]:
        print(f"  vs {row['opponent_name']:<28} {row['wins']:>5}-{row['losses']}-{row['draws']}  {_rate(row['win_rate'])}")
    print(f"  overall {_rate(result['overall'])}")


def _print_variants(result: dict[str, Any]) -> None:
    print(f"Rule variants on the same {result['games']} games (seed {result['seed']}):")
    for i, report in enumerate(result["variants"], start=1):
        print(f"  variant {i} {report['overrides'] or '(as given)'}: deck A {_rate(report['win_rate_a'])}, "
              f"first player {_pct(report['first_player_win_rate']['value'])}, mean {report['turns']['mean']:.1f} turns")
    diff = result["difference"]
    ci = diff.get("win_rate_a_ci95")
    within = f" (95% interval {ci[0] * 100:+.1f} to {ci[1] * 100:+.1f})" if ci else ""
    paired = diff.get("win_rate_a_paired") or {}
    if paired.get("ci95"):
        within += f", paired on the same seeds {paired['ci95'][0] * 100:+.1f} to {paired['ci95'][1] * 100:+.1f}"
    print(f"  change: deck A {diff['win_rate_a'] * 100:+.1f} pts{within}, first player {diff['first_player_win_rate'] * 100:+.1f} pts, "
          f"length {diff['turns_mean']:+.1f} turns")


def _print_goldfish(result: dict[str, Any]) -> None:
    print(f"Goldfish: {result['deck']['name']} ({result['game']})")
    hands = result.get("opening_hands") or {}
    if "error" in hands:
        print(f"  opening hands: {hands['error']}")
    else:
        if hands["mulligans_allowed"]:
            print(f"  opening hand {hands['hand_size']} of {hands['deck_size']}, up to {hands['mulligans_allowed']} "
                  f"mulligan{'s' if hands['mulligans_allowed'] != 1 else ''}; {hands['keep_rule']}")
            print(f"  first hand kept {_pct(hands['p_keep_first_hand'])} (exact); mulligans taken: "
                  + ", ".join(f"{k}: {_pct(v)}" for k, v in hands["mulligans_taken"].items()))
        else:  # the game has no mulligans: every first hand is kept
            print(f"  opening hand {hands['hand_size']} of {hands['deck_size']}, no mulligans (the first hand is kept)")
        for card in hands["cards"][:10]:
            print(f"    {card['copies']}× {card['name']:<28} in opening hand {_pct(card['p_in_opening_hand'])} (sampled {_pct(card['sampled'])})")
    dev = result.get("development")
    if dev:
        kill = dev["kill_turn"]
        print(f"  against a passive opponent ({dev['games']} games): wins on turn {kill['median']} (median), "
              f"{dev['no_kill']} games without a win")
        board = dev["board_turn"]
        print(f"  {dev['board']} different cards played by turn {board['median']} (median, {board['games']} games)")
