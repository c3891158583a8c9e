"""``interpreter.find_materials`` and ``fusion_options`` look the fitting cards up once per need
(not once per slot), fail a need that fewer cards fit than it counts at once, and sort the pool
only when an extra-deck creature may come out. Each test compares them with the plain
definitions below (the search over every slot, the pool sorted up front): on random needs and
pools, and on the positions of random fusion games."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from workbench.domain.effects.filters import matches
from workbench.domain.effects.interpreter import find_materials, fusion_options

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_effects_plain_path import _new_game  # noqa: E402


def plain_find_materials(needs, pool, src, s, a) -> list[Any] | None:
    """The search over every slot: one slot per counted material, each slot's fitting cards looked
    up, the slots with the fewest fitting cards placed first, distinct cards."""
    slots = [f for f, n in needs for _ in range(n)]
    if len(slots) > len(pool):
        return None
    fits = [a.material_fits(s, f, pool, src) for f in slots]
    order = sorted(range(len(slots)), key=lambda k: len(fits[k]))
    taken: list[int] = []

    def place(depth: int) -> bool:
        if depth == len(order):
            return True
        for k in fits[order[depth]]:
            if k not in taken:
                taken.append(k)
                if place(depth + 1):
                    return True
                taken.pop()
        return False

    return [pool[k] for k in sorted(taken)] if place(0) else None


def plain_fusion_options(e, src, s, a) -> list[tuple[Any, list[Any]]]:
    """The pool sorted up front (hand first, then the field, each cheapest first), then every
    extra-deck creature through the plain search."""
    c = src.controller
    hand = sorted(a.zone(s, c, "hand"), key=lambda x: a.worth(s, x))
    field = sorted((u for u in a.units(s, c) if u is not src.unit), key=lambda x: a.worth(s, x))
    pool = hand + field
    out = []
    for card in a.zone(s, c, "extra_deck"):
        if e.filter is not None and not matches(e.filter, card, src, s, a):
            continue
        needs = a.materials(s, card)
        if not needs:
            continue
        mats = plain_find_materials(needs, pool, src, s, a)
        if mats is not None and a.has_room(s, c, mats):
            out.append((card, mats))
    return out


class Tags:
    """An adapter whose cards are sets of tags and whose filters are tags (None: any card)."""

    def __init__(self) -> None:
        self.calls = 0

    def material_fits(self, s: Any, f: Any, pool: Any, src: Any) -> list[int]:
        self.calls += 1
        return [k for k, card in enumerate(pool) if f is None or f in card]


def test_find_materials_meets_the_search_over_every_slot_on_random_needs() -> None:
    rng = random.Random(5)
    tags = "abcd"
    met = failed = 0
    for _ in range(3000):
        pool = [frozenset(t for t in tags if rng.random() < 0.4) for _ in range(rng.randrange(7))]
        needs = [(rng.choice([None, *tags]), rng.randrange(1, 4)) for _ in range(rng.randrange(1, 4))]
        fast, plain = Tags(), Tags()
        got = find_materials(needs, pool, None, None, fast)  # type: ignore[arg-type]
        assert got == plain_find_materials(needs, pool, None, None, plain), (needs, pool)
        assert fast.calls <= plain.calls
        met += got is not None
        failed += got is None
    assert met > 300 and failed > 300  # both outcomes, often


def test_fusion_options_match_the_plain_definition_in_random_fusion_games() -> None:
    from workbench.domain.engines.fusion.adapter import ADAPTER

    compared = found = 0
    for seed in range(6):
        s = _new_game("fusion", seed, False)
        effects = [(i, e) for i, c in enumerate(s.cards) for e in c.on_play if e.action == "fusion_summon"]
        assert effects, "the bundled fusion decks fusion summon"
        rng = random.Random(seed)
        while not s.is_terminal():
            for p in s.to_act():
                for i, e in effects:
                    src = ADAPTER.source(s, p, i, 0)
                    options = fusion_options(e, src, s, ADAPTER)
                    assert options == plain_fusion_options(e, src, s, ADAPTER)
                    compared += 1
                    found += bool(options)
            (p,) = s.to_act()
            legal = s.legal_actions(p)
            s.apply(legal[rng.randrange(len(legal))])
    assert compared > 1000 and found > 20

