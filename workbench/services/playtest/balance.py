"""The balance report: what each card of a deck is worth, measured by swapping it out.

For every distinct card of the deck's played zones, the same seeds are played again with that
card's copies replaced by a baseline card, and the change in the deck's win rate is measured pair
by pair. The baseline is the game's declared vanilla card of the kind (``balance: {vanilla:
{KIND: CARD_ID}}`` in game.yaml) or else a *blank card*: the same kind and the same values of
every field that is not a stat (cost, class, speed …), each stat (fields marked ``stat: true``)
set to the average of the kind's cards of the same cost (the budget's ``by`` field; when at least
MIN_SAME_COST exist) or else of all the kind's cards, and no text, keywords or effects.

Both runs share every seed: the same deals (the baseline takes the card's places in the deck),
the same chance, the same players' seeds, so most of the game-to-game noise cancels out in the
difference. The report gives, per card, the paired change with a 95 % interval and, beside it,
the width an unpaired comparison of the same size would have.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from workbench.domain import stats
from workbench.domain.gamedef import GameDefinition
from workbench.services.playtest.runner import Matchup, PlaytestError, run_matchup

NO_CHANGE = 0.02
"""A card "changes nothing" when the whole 95 % interval of its effect lies within ±2 points."""

DROPPED_TYPES = ("text", "effects")

MIN_SAME_COST = 3
"""Average over the kind's cards of the same cost (the game's budget ``by`` field) when at least
this many exist; else over every card of the kind."""


def baseline_card(definition: GameDefinition, card: Mapping[str, Any], library: Sequence[Mapping[str, Any]]
                  ) -> tuple[dict[str, Any], str]:
    """The card that stands in for ``card`` and a sentence saying what it is.

    ``library`` holds every card of the game (mappings with ``id`` and ``kind``), for the kind's
    vanilla card or its average stats.
    """
    kind = str(card.get("kind") or "")
    vanilla = ((definition.raw.get("balance") or {}).get("vanilla") or {}).get(kind)
    if vanilla:
        for other in library:
            if other.get("id") == vanilla:
                return dict(other), f"the game's vanilla {kind} card {other.get('name', vanilla)!r} (game.yaml balance.vanilla)"
    try:
        fields = definition.fields_for(kind)
    except KeyError:
        fields = definition.common_fields
    blank: dict[str, Any] = {}
    averaged = []
    same_kind = [c for c in library if c.get("kind") == kind]
    pool, pool_text = same_kind, f"the game's {len(same_kind)} {kind} cards"
    cost = (definition.budget or {}).get("by")  # the field the game's stat budget grows with
    if cost and cost in card:
        same_cost = [c for c in same_kind if c.get(cost) == card[cost]]
        if len(same_cost) >= MIN_SAME_COST:
            pool, pool_text = same_cost, f"the game's {len(same_cost)} {kind} cards with {cost} {card[cost]}"
    for f in fields:
        if f.name not in card and not f.spec.get("stat"):
            continue
        if f.spec.get("type") in DROPPED_TYPES or f.name in ("keywords", "flavor", "art", "number", "creator"):
            continue
        if f.spec.get("stat"):
            values = [c[f.name] for c in pool if isinstance(c.get(f.name), int) and not isinstance(c.get(f.name), bool)]
            if values:
                blank[f.name] = round(sum(values) / len(values))
                averaged.append(f"{f.name} {blank[f.name]}")
            elif f.name in card:
                blank[f.name] = card[f.name]
            continue
        blank[f.name] = card[f.name]
    blank["kind"] = kind
    blank["id"] = f"blank-{kind}-for-{card['id']}"
    blank["name"] = f"Blank {kind} ({', '.join(averaged) or 'no stats'})"
    what = (f"a blank {kind}: the card's other fields, the average stats of {pool_text} "
            f"({', '.join(averaged) or 'none'}), no text, keywords or effects")
    return blank, what


def swap_card(deck: Mapping[str, Sequence[Mapping[str, Any]]], card_id: str, baseline: Mapping[str, Any]
              ) -> dict[str, list[Mapping[str, Any]]]:
    """The deck with every copy of ``card_id`` replaced by ``baseline`` (in the same places)."""
    stand_in = dict(baseline)
    return {zone: [stand_in if str(c["id"]) == card_id else c for c in cards] for zone, cards in deck.items()}


def pair_scores(records: Sequence[Mapping[str, Any]]) -> list[float]:
    """Deck A's per-game score of each seed pair (0, ¼, ½, ¾ or 1) from a report's game lines."""
    return stats.pair_scores([stats.a_points(r) for r in records])


paired_change = stats.paired_difference
"""The paired change of the deck's score with the card against without it (see stats)."""


def run_balance(
    matchup: Matchup,
    definition: GameDefinition,
    library: Sequence[Mapping[str, Any]],
    games: int,
    *,
    zones: Sequence[str] | None = None,
    workers: int | None = None,
    backend: Any = None,
    progress: Callable[[int, int], None] | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """Deck A's balance report against deck B: ``games`` games per distinct card (and once as is).

    Returns ``{"schema", "baseline", "games_per_card", "win_rate_a", "cards": [...], "elapsed_s"}``;
    each card row: ``card``, ``name``, ``copies``, ``baseline`` (what stood in), ``win_rate_without``,
    ``change`` (win rate with the card minus without, paired, with ``ci95``, ``width`` and
    ``unpaired_width``), ``no_change`` (the interval lies within ±NO_CHANGE) and ``unclear`` (it
    holds 0 but is wider). Rows are sorted by the change, largest first.
    Raises PlaytestError for a deck without cards; CancelledRun when ``should_cancel`` says so.
    """
    started = time.perf_counter()
    played = [z for z in matchup.deck_a if zones is None or z in zones]
    copies: dict[str, int] = {}
    cards_by_id: dict[str, Mapping[str, Any]] = {}
    for zone in played:
        for card in matchup.deck_a[zone]:
            cid = str(card["id"])
            copies[cid] = copies.get(cid, 0) + 1
            cards_by_id.setdefault(cid, card)
    if not copies:
        raise PlaytestError("the deck has no cards in the zones the engine plays")
    games += games % 2
    total = games * (len(copies) + 1)
    step = 0

    def report_progress(done: int, _total: int) -> None:
        if progress:
            progress(step * games + done, total)

    base = run_matchup(matchup, games, workers, backend=backend, progress=report_progress, should_cancel=should_cancel)
    base_scores = pair_scores(base["records"])
    rows = []
    for cid in sorted(copies):
        step += 1
        stand_in, what = baseline_card(definition, cards_by_id[cid], library)
        swapped = replace(matchup, deck_a=swap_card(matchup.deck_a, cid, stand_in),
                          card_ids={**matchup.card_ids, "a": sorted({*matchup.card_ids.get("a", ()), stand_in["id"]} - {cid})})
        report = run_matchup(swapped, games, workers, backend=backend, progress=report_progress,
                             should_cancel=should_cancel)
        change = paired_change(base_scores, pair_scores(report["records"]))
        ci = change["ci95"]
        rows.append({
            "card": cid,
            "name": str(cards_by_id[cid].get("name", cid)),
            "copies": copies[cid],
            "baseline": what,
            "win_rate_without": report["win_rate_a"],
            "change": change,
            "no_change": bool(ci) and -NO_CHANGE < ci[0] and ci[1] < NO_CHANGE,
            "unclear": bool(ci) and ci[0] <= 0 <= ci[1] and not (-NO_CHANGE < ci[0] and ci[1] < NO_CHANGE),
        })
    rows.sort(key=lambda r: -(r["change"]["value"] if r["change"]["value"] is not None else -math.inf))
    widths = [r["change"]["width"] for r in rows if r["change"]["width"]]
    unpaired = [r["change"]["unpaired_width"] for r in rows if r["change"]["unpaired_width"]]
    elapsed = time.perf_counter() - started
    return {
        "schema": 1,
        "game": matchup.game,
        "deck_a": matchup.label_a,
        "deck_b": matchup.label_b,
        "seed": matchup.seed,
        "agents": list(matchup.agents),
        "games_per_card": games,
        "win_rate_a": base["win_rate_a"],
        "no_change_within": NO_CHANGE,
        "cards": rows,
        "mean_width": sum(widths) / len(widths) if widths else None,
        "mean_unpaired_width": sum(unpaired) / len(unpaired) if unpaired else None,
        "games": total,
        "elapsed_s": round(elapsed, 2),
        "games_per_s": round(total / elapsed, 1) if elapsed > 0 else None,
    }


def balance_report(repo: Any, game: str, deck: Any, vs: Any, games: int, *, seed: int = 0,
                   agents: Sequence[str] = ("heuristic", "heuristic"), overrides: Mapping[str, Any] | None = None,
                   workers: int | None = None, backend: Any = None, progress: Callable[[int, int], None] | None = None,
                   should_cancel: Callable[[], bool] | None = None) -> dict[str, Any]:
    """:func:`run_balance` for saved (or pasted) decks of a repository, with the decks' facts.

    Raises like :func:`workbench.services.playtest.service.prepare`.
    """
    from workbench.services.playtest import service

    matchup, facts = service.prepare(repo, game, deck, vs, agents=agents, overrides=overrides, seed=seed)
    definition = repo.game(game)
    library = [dict(data, id=cid) for cid, data in repo.card_index(game).items()]
    result = run_balance(matchup, definition, library, games, zones=service.play_zones(definition),
                         workers=workers, backend=backend, progress=progress, should_cancel=should_cancel)
    result["decks"] = facts["decks"]
    return result
