"""Playtest use cases on top of the repository: matchups from saved or pasted decks, gauntlets,
rule-variant comparisons.

A deck reference is a saved deck's id (``"iron-bastion"``) or a mapping ``{"text": "...",
"name": "..."}`` holding a pasted ``count name`` list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.domain import stats
from workbench.domain.gamedef import GameDefinition
from workbench.domain.limits import check_deck_counts
from workbench.services.playtest.decklist import parse_deck_list
from workbench.services.playtest.runner import (
    Matchup,
    PlaytestError,
    check_matchup,
    check_playable,
    deck_ids,
    run_matchup,
    with_options,
)
from workbench.storage.repository import Repository

DeckRef = str | Mapping[str, Any]


@dataclass(frozen=True)
class LoadedDeck:
    """A deck ready for play, with what a stored run needs to recognise it later."""

    id: str | None
    name: str
    data: dict[str, Any]
    cards: dict[str, list[dict[str, Any]]]
    version: str | None

    def describe(self) -> dict[str, Any]:
        """``{id, name, version}`` for reports and stored runs."""
        return {"id": self.id, "name": self.name, "version": self.version}


def play_zones(definition: GameDefinition) -> list[str]:
    """Zones the engine plays from (``play: true``); all zones when none is marked."""
    marked = [z.id for z in definition.zones.values() if z.spec.get("play")]
    return marked or list(definition.zones)


def unplayed_zones(play: Sequence[str], decks: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]]
                   ) -> list[dict[str, Any]]:
    """Cards in zones the engine never plays from (e.g. fusion's extra deck), one row per deck,
    zone and card: ``{deck, zone, card, name, copies}``."""
    rows: list[dict[str, Any]] = []
    for side, deck in sorted(decks.items()):
        for zone, cards in deck.items():
            if zone in play:
                continue
            copies: dict[str, int] = {}
            names: dict[str, str] = {}
            for card in cards:
                cid = str(card["id"])
                copies[cid] = copies.get(cid, 0) + 1
                names[cid] = str(card.get("name", cid))
            rows.extend({"deck": side, "zone": str(zone), "card": cid, "name": names[cid], "copies": n}
                        for cid, n in sorted(copies.items()))
    return rows


def unsimulated_reasons(definition: GameDefinition, decks: Sequence[LoadedDeck]) -> dict[str, list[str]]:
    """Card id -> why the engine does not play the card as written, for the cards of the decks it
    does not (the engine parser's own reasons: skipped effect entries, unknown keywords, rules
    text with nothing that runs). Empty when the engine declares no capabilities."""
    from workbench.domain.effects.parse import parse_effects, simulated
    from workbench.domain.errors import WorkbenchError
    from workbench.services.playtest.runner import resolve_engine

    try:  # resolve_engine: an engine id, or package.module:ATTR for an engine defined elsewhere
        caps = resolve_engine(definition.engine).capabilities if definition.engine else None
    except WorkbenchError:
        caps = None
    if caps is None:
        return {}
    reasons: dict[str, list[str]] = {}
    seen: set[str] = set()
    for deck in decks:
        for cards in deck.cards.values():
            for card in cards:
                cid, kind = str(card["id"]), str(card.get("kind") or "")
                if cid in seen or kind not in definition.kinds:
                    continue
                seen.add(cid)
                found: list[str] = []
                playable = True
                for name in (f.name for f in definition.fields_for(kind) if f.type == "effects"):
                    parsed = parse_effects(kind, card.get(name), caps)
                    found += [f"effect {skip.index + 1}: {skip.reason}" for skip in parsed.skipped]
                    playable = playable and simulated(card, parsed, caps)
                raw = card.get("keywords") or []
                unknown = sorted({str(k).lower() for k in (raw if isinstance(raw, (list, tuple)) else [raw])}
                                 - caps.keywords)
                found += [f"keyword {k!r} is not one the {caps.game} engine knows" for k in unknown]
                if not playable and not found:
                    found.append("it has rules text but no effects or keywords the engine runs: it plays with "
                                 "its stats only")
                if not playable:
                    reasons[cid] = found
    return reasons


def load_deck(repo: Repository, game: str, ref: DeckRef) -> LoadedDeck:
    """Resolve a deck reference. Raises NotFound, InvalidId, DeckListError."""
    if isinstance(ref, Mapping):
        definition = repo.game(game)
        data = parse_deck_list(str(ref.get("text", "")), definition, repo.card_index(game),
                               name=str(ref.get("name") or "Pasted list"))
        return LoadedDeck(None, data["name"], data, repo.resolve_deck(game, data), None)
    stored = repo.get_deck(game, ref)
    return LoadedDeck(ref, str(stored.data.get("name", ref)), stored.data,
                      repo.resolve_deck(game, stored.data), stored.version)


def card_versions(repo: Repository, game: str, decks: Sequence[LoadedDeck]) -> dict[str, str]:
    """Card id -> file version for every card in the decks, so a later run can say what changed."""
    wanted = {c["id"] for deck in decks for cards in deck.cards.values() for c in cards}
    result = {}
    for card_id in sorted(wanted):
        result[card_id] = repo.get_card(game, card_id).version
    return result


def prepare(
    repo: Repository,
    game: str,
    deck_a: DeckRef,
    deck_b: DeckRef,
    *,
    agents: Sequence[str] = ("heuristic", "heuristic"),
    overrides: Mapping[str, Any] | None = None,
    format_id: str | None = None,
    seed: int = 0,
) -> tuple[Matchup, dict[str, Any]]:
    """Build the matchup of two decks and the facts a stored run keeps about it.

    The format defaults to deck A's ``format``. Overrides are type-checked rule options.
    Raises NotFound, DeckListError, DefinitionError (unknown option/format), PlaytestError.
    """
    definition = repo.game(game)
    if not definition.engine:
        raise PlaytestError(f"game {game!r} names no engine in its game.yaml, so it cannot be playtested")
    if len(agents) != 2:
        raise PlaytestError(f"give two agents (deck A, deck B), not {len(agents)}")
    a = load_deck(repo, game, deck_a)
    b = load_deck(repo, game, deck_b)
    fmt = format_id or a.data.get("format") or None
    if fmt and fmt not in definition.formats:
        fmt = None
    options = definition.resolve_options(fmt, overrides)
    zones = play_zones(definition)
    names = {c["id"]: str(c.get("name", c["id"])) for d in (a, b) for cards in d.cards.values() for c in cards}
    matchup = Matchup(
        game=game,
        engine=definition.engine,
        deck_a=a.cards,
        deck_b=b.cards,
        options=options,
        agents=(str(agents[0]), str(agents[1])),
        seed=int(seed),
        label_a=a.id or a.name,
        label_b=b.id or b.name,
        card_ids={"a": deck_ids(a.cards, zones), "b": deck_ids(b.cards, zones)},
        names=names,
    )
    check_matchup(matchup)  # an unknown agent or a budget over the cap is refused before any work
    check_playable(matchup, (a.name, b.name))  # so are decks the engine cannot set up (the table's check)
    facts = {
        "decks": {"a": a.describe(), "b": b.describe()},
        "unplayed_zones": unplayed_zones(zones, {"a": a.cards, "b": b.cards}),
        "unsimulated_reasons": unsimulated_reasons(definition, (a, b)),
        "deck_lists": {"a": a.data.get("zones", {}), "b": b.data.get("zones", {})},
        "card_versions": card_versions(repo, game, (a, b)),
        # The cards as they were, so any game of the run replays exactly after later edits.
        "card_data": {c["id"]: {k: v for k, v in c.items() if k != "id"}
                      for d in (a, b) for cards in d.cards.values() for c in cards},
        "format": fmt,
        "overrides": dict(overrides or {}),
    }
    return matchup, facts


def run_gauntlet(
    repo: Repository,
    game: str,
    deck: DeckRef,
    games: int,
    *,
    opponents: Sequence[str] | None = None,
    agents: Sequence[str] = ("heuristic", "heuristic"),
    overrides: Mapping[str, Any] | None = None,
    seed: int = 0,
    workers: int | None = None,
    progress: Any = None,
    should_cancel: Any = None,
) -> dict[str, Any]:
    """One deck against every other saved deck of the game (or ``opponents``): one row each.

    Each row: opponent, games, wins, losses, draws, win rate with its 95 % interval, first-player
    win rate and mean game length. Raises like :func:`prepare`; PlaytestError with no opponent.
    """
    own_id = deck if isinstance(deck, str) else None
    names = list(opponents) if opponents else [d.id for d in repo.list_decks(game) if d.id != own_id]
    if not names:
        raise PlaytestError(f"game {game!r} has no other deck to play against")
    rows = []
    label = None
    for i, opponent in enumerate(names):
        matchup, facts = prepare(repo, game, deck, opponent, agents=agents, overrides=overrides, seed=seed)
        label = facts["decks"]["a"]["name"]

        def step(done: int, total: int, i: int = i) -> None:
            if progress:
                progress(i * total + done, total * len(names))

        report = run_matchup(matchup, games, workers, progress=step, should_cancel=should_cancel)
        rows.append({
            "opponent": opponent,
            "opponent_name": facts["decks"]["b"]["name"],
            "games": report["games"],
            "wins": report["wins_a"],
            "losses": report["wins_b"],
            "draws": report["draws"],
            "win_rate": report["win_rate_a"],
            "first_player_win_rate": report["first_player_win_rate"],
            "turns_mean": report["turns"]["mean"],
        })
    total = sum(r["games"] for r in rows)
    counts = [sum(r["win_rate"]["counts"][i] for r in rows) for i in range(5)]
    return {"game": game, "deck": label, "seed": seed, "agents": list(agents), "rows": rows,
            "games": total, "overall": stats.pair_rate(counts)}


def compare_variants(
    matchup: Matchup,
    definition: GameDefinition,
    variant_1: Mapping[str, Any],
    variant_2: Mapping[str, Any],
    games: int,
    *,
    format_id: str | None = None,
    workers: int | None = None,
    progress: Any = None,
    should_cancel: Any = None,
) -> dict[str, Any]:
    """The same matchup on the same seeds under two sets of rule-option overrides.

    Returns both reports (without per-game lines) and the change in deck A's win rate (with a 95 %
    interval), the first player's win rate and mean game length (variant 2 minus variant 1).
    ``progress(done, total)`` counts the games of both variants. Raises DefinitionError for an
    unknown or ill-typed option, CancelledRun when ``should_cancel`` says so.
    """
    options = [definition.resolve_options(format_id, overrides) for overrides in (variant_1, variant_2)]
    reports = []
    scores: list[list[float]] = []
    for i, (overrides, resolved) in enumerate(zip((variant_1, variant_2), options, strict=True)):

        def step(done: int, total: int, i: int = i) -> None:
            if progress:
                progress(i * total + done, 2 * total)

        report = run_matchup(with_options(matchup, resolved), games, workers, progress=step, should_cancel=should_cancel)
        scores.append(stats.pair_scores([stats.a_points(r) for r in report.pop("records", None) or ()]))
        report["overrides"] = dict(overrides)
        reports.append(report)
    first, second = reports

    def delta(path: Sequence[str]) -> float | None:
        values = []
        for report in reports:
            value: Any = report
            for key in path:
                value = value[key]
            values.append(value)
        return None if None in values else values[1] - values[0]

    return {
        "variants": reports,
        "difference": {
            "win_rate_a": delta(("win_rate_a", "value")),
            "win_rate_a_ci95": difference_interval(first["win_rate_a"], second["win_rate_a"]),
            # Both variants play the same seeds: the pair-by-pair difference is the precise one.
            "win_rate_a_paired": stats.paired_difference(scores[1], scores[0]),
            "first_player_win_rate": delta(("first_player_win_rate", "value")),
            "turns_mean": delta(("turns", "mean")),
        },
        "seed": matchup.seed,
        "games": first["games"],
    }


def difference_interval(first: Mapping[str, Any], second: Mapping[str, Any]) -> list[float] | None:
    """A 95 % interval for ``second - first`` of two rates with Wilson intervals (Newcombe's method).

    It treats the two runs as independent; both variants play the same seeds, which makes the true
    interval narrower, so this one errs on the wide side. None when a rate has no games.
    """
    p1, p2 = first.get("value"), second.get("value")
    if p1 is None or p2 is None:
        return None
    (l1, u1), (l2, u2) = first["ci95"], second["ci95"]
    d = p2 - p1
    return [d - ((p2 - l2) ** 2 + (u1 - p1) ** 2) ** 0.5, d + ((u2 - p2) ** 2 + (p1 - l1) ** 2) ** 0.5]


def matchup_from_run(run: Mapping[str, Any]) -> Matchup:
    """Rebuild the matchup of a stored run (cards as they were then), e.g. to replay one game.

    Raises PlaytestError when the run lacks what a replay needs.
    """
    try:
        cards = run["card_data"]
        lists = run["deck_lists"]

        def resolve(zones: Mapping[str, Mapping[str, int]]) -> dict[str, list[dict[str, Any]]]:
            # A run file is data from disk: its counts are capped before they are expanded.
            check_deck_counts(zones, "the run's deck")
            return {zone: [dict(cards[cid], id=cid) for cid, n in content.items() for _ in range(int(n))]
                    for zone, content in zones.items()}

        return Matchup(
            game=str(run["game"]),
            engine=str(run["engine"]),
            deck_a=resolve(lists["a"]),
            deck_b=resolve(lists["b"]),
            options=dict(run["options"]),
            agents=(str(run["agents"][0]), str(run["agents"][1])),
            seed=int(run["seed"]),
            label_a=str((run["decks"]["a"] or {}).get("id") or run["decks"]["a"]["name"]),
            label_b=str((run["decks"]["b"] or {}).get("id") or run["decks"]["b"]["name"]),
        )
    except (KeyError, TypeError, IndexError) as exc:
        raise PlaytestError(f"this run cannot be replayed: it lacks {exc}") from None
    except (ValueError, OverflowError) as exc:  # TooMany (a count over the caps), a count that is not a number
        raise PlaytestError(f"this run cannot be replayed: {exc}") from None


def prepare_pod(
    repo: Repository,
    game: str,
    deck_a: DeckRef,
    opponents: Sequence[DeckRef],
    *,
    agents: Sequence[str] = ("heuristic", "heuristic"),
    overrides: Mapping[str, Any] | None = None,
    format_id: str | None = None,
    seed: int = 0,
) -> tuple[Any, dict[str, Any]]:
    """Build the pod of deck A and its opponents (2 or 3 decks, RULES.md §3.9.6) and the facts a
    stored run keeps. Rule option ``players``, when given, must match the seats.

    Raises NotFound, DeckListError, DefinitionError, PlaytestError (an engine that seats fewer).
    """
    from workbench.services.playtest.pod import SIDES, Pod, check_pod

    definition = repo.game(game)
    if not definition.engine:
        raise PlaytestError(f"game {game!r} names no engine in its game.yaml, so it cannot be playtested")
    if len(agents) != 2:
        raise PlaytestError(f"give two agents (deck A, the opponents), not {len(agents)}")
    decks = [load_deck(repo, game, deck_a), *(load_deck(repo, game, ref) for ref in opponents)]
    fmt = format_id or decks[0].data.get("format") or None
    if fmt and fmt not in definition.formats:
        fmt = None
    options = definition.resolve_options(fmt, overrides)
    if (overrides or {}).get("players") is not None and options.get("players") != len(decks):
        raise PlaytestError(f"option players is {options.get('players')} but the pod has {len(decks)} decks")
    if "players" in definition.options:
        options["players"] = len(decks)
    zones = play_zones(definition)
    names = {c["id"]: str(c.get("name", c["id"])) for d in decks for cards in d.cards.values() for c in cards}
    pod = Pod(game=game, engine=definition.engine, decks=tuple(d.cards for d in decks), options=options,
              agents=(str(agents[0]), str(agents[1])), seed=int(seed),
              labels=tuple(d.id or d.name for d in decks), names=names)
    check_pod(pod)
    sides = {SIDES[k]: d for k, d in enumerate(decks)}
    facts = {
        "decks": {side: d.describe() for side, d in sides.items()},
        "unplayed_zones": unplayed_zones(zones, {side: d.cards for side, d in sides.items()}),
        "unsimulated_reasons": unsimulated_reasons(definition, decks),
        "deck_lists": {side: d.data.get("zones", {}) for side, d in sides.items()},
        "card_data": {c["id"]: {k: v for k, v in c.items() if k != "id"}
                      for d in decks for cards in d.cards.values() for c in cards},
        "format": fmt,
        "overrides": dict(overrides or {}),
    }
    return pod, facts
