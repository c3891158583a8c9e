"""What a fusion summon (RULES.md §3.10.2) would bring out, cheaply enough to ask at every decision.

``interpreter.fusion_options`` is the plain definition: the extra-deck creatures an effect may
bring out now, each with the materials it would take (the cheapest that fit, hand first, then the
field). The legal actions ask it for every 融合 card in hand at every main-phase decision, and the
heuristic asks again to score the play, so this module answers the same question from a cache.

When the effect's filter and every material filter of the extra deck read printed fields only
(``FusionEffects.static_fusion``), the answer depends on just the cards in hand and on the field
that could be a material of some extra-deck creature (in the order the materials are preferred)
and on the extra deck: a card no material filter takes is never picked, and leaving it out of the
pool keeps the others' order. Those cards are the cache key, so plays of other cards keep the
answer. Only the room check (``has_room``: the creature zone after the materials leave) reads the
rest of the field, and it runs on every call. Other effects ask the interpreter each time.
``tests/domain/engines/test_fusion_caches.py`` compares this with ``fusion_options`` in played
positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.domain.effects.interpreter import find_materials, fusion_options, matches
from workbench.domain.effects.spec import Source
from workbench.domain.engines.fusion.adapter import ADAPTER

if TYPE_CHECKING:  # pragma: no cover
    from workbench.domain.engines.fusion.cards import Effect
    from workbench.domain.engines.fusion.state import FusionState

Options = list[tuple[int, list[int]]]

_CACHE_LIMIT = 50_000
"""Entries kept per deck pairing before the cache starts over (a long batch of games)."""


class FusionCache:
    """What one deck pairing's fusion summons have found (``Shared.fusion``; clones and games
    of these decks share it): card definitions and instances do not change within it."""

    __slots__ = ("fit", "fit_known", "static", "options", "canon")

    def __init__(self) -> None:
        self.canon: list[int] = []  # per instance: the first instance of an equal card mapping
        self.fit: frozenset[int] | None = None  # see _material_ids
        self.fit_known = False
        # (canon of the card, effect index, extra deck) -> FusionEffects.static_fusion
        self.static: dict[tuple[int, int, tuple[int, ...]], bool] = {}
        # (canon of the card, effect index, material pool, extra deck) -> options before the room check
        self.options: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], Options] = {}


def fusion_choices(s: FusionState, p: int, i: int, e: Effect) -> Options:
    """``fusion_options`` of effect ``e`` of card ``i`` for player ``p`` in position ``s``."""
    cache = s.fusion
    extra = tuple(s.extra[p])
    card = s.cards[i]
    canon = cache.canon or _canon(s, cache)
    definition = canon[i]  # copies of a card ask alike: the card itself is left out of the pool
    static = cache.static.get((definition, e.index, extra))
    if static is None:
        static = cache.static[(definition, e.index, extra)] = ADAPTER.static_fusion(s, e, s.extra[p])
    if not static:
        return fusion_options(e, ADAPTER.source(s, p, i, 0), s, ADAPTER)
    fit = cache.fit if cache.fit_known else _material_ids(s, cache)
    worth = s.worths.__getitem__
    unit = i if card.is_creature else None  # the card itself is no material (ADAPTER.source)
    if fit is None:
        pool = sorted(s.hand[p], key=worth)
        field = [u for u in s.crea[p] if u != unit]
    else:
        pool = [x for x in s.hand[p] if x in fit]
        pool.sort(key=worth)
        field = [u for u in s.crea[p] if u in fit and u != unit]
    if field:
        field.sort(key=worth)
        pool += field
    key = (definition, e.index, tuple(pool), extra)
    found = cache.options.get(key)
    if found is None:
        found = _fitting(s, p, i, e, pool)
        if len(cache.options) > _CACHE_LIMIT:
            cache.options.clear()
        cache.options[key] = found
    if not found or len(s.crea[p]) < s.opts.max_creatures:  # room whatever leaves (FusionState.room)
        return found
    roomy = [option for option in found if ADAPTER.has_room(s, p, option[1])]
    return found if len(roomy) == len(found) else roomy


def _fitting(s: FusionState, p: int, i: int, e: Effect, pool: list[int]) -> Options:
    """``fusion_options``' loop over the extra deck before its room check. Copies of one
    creature take the same materials; a creature whose needs more cards of a filter than the
    pool holds is skipped without the search (``find_materials`` would find none)."""
    src = ADAPTER.source(s, p, i, 0)
    canon = s.fusion.canon
    out: Options = []
    found: dict[int, list[int] | None] = {}  # canon of a creature -> its materials
    for card in s.extra[p]:
        definition = canon[card]
        if definition in found:
            mats = found[definition]
        else:
            mats = found[definition] = _materials(s, e, card, pool, src)
        if mats is not None:
            out.append((card, mats))
    return out


def _materials(s: FusionState, e: Effect, card: int, pool: list[int], src: Source) -> list[int] | None:
    if e.filter is not None and not matches(e.filter, card, src, s, ADAPTER):
        return None
    needs = ADAPTER.materials(s, card)
    if not needs:
        return None
    for f, n in needs:
        if f is not None:
            fit = _fit_set(s, f)
            if sum(1 for x in pool if x in fit) < n:
                return None
        elif len(pool) < n:
            return None
    return find_materials(needs, pool, src, s, ADAPTER)


def _fit_set(s: FusionState, f: Any) -> frozenset[int]:
    """The instances printed-fields filter ``f`` takes (``Shared.mcache``, as material_fits)."""
    hit = s.mcache.get(id(f))
    if hit is None:
        ADAPTER.material_fits(s, f, range(len(s.cards)), ADAPTER.source(s, 0, 0, 0))
        hit = s.mcache[id(f)]
    return hit[0]


def _canon(s: FusionState, cache: FusionCache) -> list[int]:
    """Per instance the first instance whose card mapping is equal (the same printed card, the
    same effects and materials): what one copy finds, every copy finds."""
    first: dict[str, list[int]] = {}  # card id -> the distinct mappings' first instances
    canon = []
    for i, card in enumerate(s.cards):
        seen = first.setdefault(card.id, [])
        for j in seen:
            if s.cards[j].raw == card.raw:
                canon.append(j)
                break
        else:
            seen.append(i)
            canon.append(i)
    cache.canon = canon
    return canon


def _material_ids(s: FusionState, cache: FusionCache) -> frozenset[int] | None:
    """The instances of this game that some printed-fields material filter takes (None when a
    material has no filter: every card may be one), worked out once per deck pairing. Filters on
    the state in play do not count: an extra deck holding such a creature is not static."""
    everyone = range(len(s.cards))
    fit: set[int] = set()
    for j, card in enumerate(s.cards):
        for f, _ in card.materials:
            if f is None:
                cache.fit, cache.fit_known = None, True
                return None
            if ADAPTER.printed_only(f):
                fit.update(ADAPTER.material_fits(s, f, everyone, ADAPTER.source(s, s.owner[j], j, 0)))
    cache.fit, cache.fit_known = frozenset(fit), True
    return cache.fit
