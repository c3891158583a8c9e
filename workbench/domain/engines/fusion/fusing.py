"""What a fusion summon (RULES.md §3.10.2) would bring out, cheaply enough to ask at every decision.

``interpreter.fusion_options`` is the plain definition: the extra-deck creatures an effect may
bring out now, each with the materials it would take (the cheapest that fit, hand first, then the
field). The legal actions ask it for every 融合 card in hand at every main-phase decision, and the
heuristic asks again to score the play, so this module answers the same question from a cache.

When the effect's filter and every material filter of the extra deck read printed fields only
(``FusionEffects.static_fusion``), what one extra-deck creature would take depends on just the
cards in hand and on the field that some material filter *of that creature* takes, in the order
the materials are preferred (hand first, each part by worth): a card none of its filters takes is
never picked, and leaving it out of the pool keeps the others' order. ``find_materials`` then
looks only at where in that pool the cards fitting each need are, so the places it picks follow
from which needs each pool card fits (a bit per need): that sequence of bits is the cache key and
the answer is kept as places in the pool. Only the room check (``has_room``: the creature zone
after the materials leave) reads the rest of the field, and it runs on every call. Other effects
ask the interpreter each time. ``tests/domain/engines/test_fusion_caches.py`` compares this with
``fusion_options`` in played positions.
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

    __slots__ = ("canon", "fits", "places")

    def __init__(self) -> None:
        self.canon: list[int] = []  # per instance: the first instance of an equal card mapping
        # canon of an extra-deck creature -> (instance -> the bits of the needs it fits, for the
        # instances fitting one; how many materials it needs), or None when a material filter
        # reads the state in play
        self.fits: dict[int, tuple[dict[int, int], int] | None] = {}
        # (canon of the card, effect index, canon of the creature, the need bits of its pool) ->
        # the places in the pool of the materials it would take before the room check, or None
        self.places: dict[tuple[int, int, int, tuple[int, ...]], tuple[int, ...] | None] = {}


def fusion_choices(s: FusionState, p: int, i: int, e: Effect) -> Options:
    """``fusion_options`` of effect ``e`` of card ``i`` for player ``p`` in position ``s``."""
    extra = s.extra[p]
    if not extra:
        return []
    if e.filter is not None and not ADAPTER.printed_only(e.filter):
        return fusion_options(e, ADAPTER.source(s, p, i, 0), s, ADAPTER)
    cache = s.fusion
    canon = cache.canon or _canon(s, cache)
    definition = canon[i]  # copies of a card ask alike: the card itself is left out of the pool
    fits, memo = cache.fits, cache.places
    worth = s.worths.__getitem__
    unit = i if s.cards[i].is_creature else -1  # the card itself is no material (ADAPTER.source)
    hand, crea = s.hand[p], s.crea[p]
    out: Options = []
    found: dict[int, list[int] | None] = {}  # canon of a creature -> its materials
    for card in extra:
        kind = canon[card]
        if kind in found:
            mats = found[kind]
        else:
            fitting = fits[kind] if kind in fits else _fits(s, cache, card)
            if fitting is None:  # a material filter reads the state in play: the interpreter
                return fusion_options(e, ADAPTER.source(s, p, i, 0), s, ADAPTER)
            bits, count = fitting
            # its pool: the cards it could take, hand first, each part by worth (loops rather
            # than comprehensions: no frame per call)
            pool = []
            for x in hand:
                if x in bits:
                    pool.append(x)
            if len(pool) > 1:
                pool.sort(key=worth)
            field = []
            for u in crea:
                if u in bits and u != unit:
                    field.append(u)
            if field:
                if len(field) > 1:
                    field.sort(key=worth)
                pool += field
            if len(pool) < count:  # fewer cards than it needs: find_materials finds none
                found[kind] = None
                continue
            shape = []
            for x in pool:
                shape.append(bits[x])
            key = (definition, e.index, kind, tuple(shape))
            if key in memo:
                places = memo[key]
                mats = None if places is None else [pool[k] for k in places]
            else:
                mats = _materials(s, e, card, pool, ADAPTER.source(s, p, i, 0))
                if len(memo) > _CACHE_LIMIT:
                    memo.clear()
                memo[key] = None if mats is None else tuple(pool.index(m) for m in mats)
            found[kind] = mats
        if mats is not None:
            out.append((card, mats))
    if not out or len(crea) < s.opts.max_creatures:  # room whatever leaves (FusionState.room)
        return out
    roomy = [option for option in out if ADAPTER.has_room(s, p, option[1])]
    return out if len(roomy) == len(out) else roomy


def _fits(s: FusionState, cache: FusionCache, card: int) -> tuple[dict[int, int], int] | None:
    """Per instance the bits of the needs of extra-deck creature ``card`` it fits (only the
    instances that fit one; a need without a filter fits every card) and how many materials it
    needs; ``None`` when a filter reads the state in play. Kept per deck pairing."""
    bits: dict[int, int] = {}
    count = 0
    answer: tuple[dict[int, int], int] | None = None
    for k, (f, n) in enumerate(s.cards[card].materials):
        count += n
        if f is not None and not ADAPTER.printed_only(f):
            break
        for x in (range(len(s.cards)) if f is None else _fit_set(s, f)):
            bits[x] = bits.get(x, 0) | 1 << k
    else:
        answer = (bits, count)
    cache.fits[cache.canon[card]] = answer
    return answer


def _materials(s: FusionState, e: Effect, card: int, pool: list[int], src: Source) -> list[int] | None:
    """What ``card`` takes from ``pool`` (None: not ``e``'s to bring out, or no materials fit):
    ``find_materials``, after counting the cards each need could take."""
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
