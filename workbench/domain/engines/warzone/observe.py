"""What each warzone player may know, and re-dealing a position consistently with it.

Hidden in warzone (RULES.md §1.5): the order of each deck, the opponent's hand, the opponent's
set traps and its set creatures' cards (§1.12.2, §1.12.7: a player sees how many traps are set,
and where a face-down creature stands, not what they are). A player
knows which cards are in its own deck (its deck list minus what it has seen), not their order;
the opponent's hand and deck are one unseen pool (the opponent's deck list is public, so the pool
is known as a multiset of card ids). Everything on the table is public: fields, Areas, Damage
Piles, discard and exile piles, the card being cast, the trigger queue.

``determinize`` sorts each unseen pool by instance name before shuffling it with the caller's
generator, so two positions a player cannot tell apart re-deal to the same world.
"""

from __future__ import annotations

import random
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from workbench.domain.engines.base import Observation
from workbench.domain.engines.shuffle import shuffle

if TYPE_CHECKING:  # pragma: no cover
    from workbench.domain.engines.warzone.state import WarzoneState


class Observe:
    """Mixin of :class:`WarzoneState`: ``observe`` and ``determinize``."""

    __slots__ = ()  # the fields are WarzoneCore's slots

    def observe(self: WarzoneState, player: int) -> Observation:  # type: ignore[misc]  # a mixin of WarzoneState only
        """``player``'s view: the snapshot without deck orders and the opponent's hand."""
        from workbench.domain.engines.warzone.setup import snapshot

        snap = snapshot(self)
        private: dict[str, Any] = {}
        pend = self.pending
        if pend is not None and pend[0] == "ask" and pend[2].ask.hidden and pend[1] != player:
            snap["pending"]["options"] = "hidden"  # cards only the asker sees (not even how many)
        for side, view in enumerate(snap["players"]):
            deck = view.pop("deck")
            hand = view.pop("hand")
            traps = view.pop("traps")
            if side == player:
                private["hand"] = hand
                private["deck"] = sorted(deck)  # its own cards, order unknown
                private["traps"] = traps
                seen = _seen(self, player)
                if seen:  # a pending arrange: the top cards it looks at, top first
                    private["seen"] = deck[:seen]
            else:
                pl = self.p[side]
                hidden = [c for c, _ in pl.traps] + [u.card for u in pl.field if u.face_down]
                view["unseen"] = sorted(c.id for c in pl.hand + pl.deck + hidden)  # as card ids
                view["trap_turns"] = [t for _, t in pl.traps]
                # a face-down creature: only where it stands and what it has been through,
                # under a label (its instance name carries its card id)
                labels = _face_down_labels(self, side)
                if labels:
                    field = {}
                    for iid, entry in view["field"].items():
                        if iid in labels:
                            entry = {"class": entry["class"], "position": entry["position"],
                                     "damage": entry["damage"], "face_down": True,
                                     "attacked": entry["attacked"]}
                        field[labels.get(iid, iid)] = entry
                    view["field"] = field
                    view["rows"] = [[labels.get(i, i) for i in row] for row in view["rows"]]
                    for key in ("pending", "chain"):
                        snap[key] = _renamed(snap[key], labels)
        snap.pop("result", None)  # derived from the rest; its reason names no hidden card
        return Observation(player, snap, private)

    def determinize(self: WarzoneState, player: int,  # type: ignore[misc]  # a mixin of WarzoneState only
                    rng: random.Random) -> WarzoneState:
        """A quiet clone with ``player``'s deck reshuffled and the opponent's hand and deck
        re-dealt from their pooled cards; the game's own generator is reseeded from ``rng``."""
        s = self.clone(quiet=True)
        by_iid = _by_iid
        me = s.p[player]
        seen = _seen(self, player)  # the top cards a pending arrange looks at stay where they are
        kept = me.deck[len(me.deck) - seen:] if seen else []
        deck = sorted(me.deck[:len(me.deck) - seen], key=by_iid)
        shuffle(rng, deck)
        me.deck = deck + kept
        foe = s.p[1 - player]
        pool = sorted(foe.hand + foe.deck + [c for c, _ in foe.traps], key=by_iid)
        shuffle(rng, pool)
        if foe.traps:  # set traps are some of its traps, which ones is unknown (§1.12.2)
            traps = [c for c in pool if c.is_trap][:len(foe.traps)]
            taken = set(map(id, traps))
            foe.traps = [(c, t) for c, (_, t) in zip(traps, foe.traps)]
            pool = [c for c in pool if id(c) not in taken]
        down = [k for k, u in enumerate(foe.field) if u.face_down]
        if down:  # a face-down creature is an unseen settable creature of its Class (§1.12.7)
            rename: dict[str, str] = {}
            pool += [foe.field[k].card for k in down]
            pool.sort(key=by_iid)
            shuffle(rng, pool)
            for k in down:
                u = foe.field[k]
                card = next(c for c in pool if c.kind == "creature" and c.settable and c.cls == u.cls)
                pool.remove(card)
                if card is not u.card:
                    v = u.copy()
                    v.card, v.iid = card, card.iid
                    rename[u.iid] = card.iid
                    foe.field[k] = v
            if rename:
                foe.field_changed()
                s._aura = None
                s.pending = _renamed(s.pending, rename)
                s.chain = [_renamed(link, rename) for link in s.chain]
                s.queue = [_renamed(q, rename) for q in s.queue]
                s.bound = [_renamed(b, rename) for b in s.bound]  # while_on_field changes
                s.lasting = [_renamed(x, rename) for x in s.lasting]
                s._statics = None
        n = len(foe.hand)
        foe.hand = pool[:n]
        foe.deck = pool[n:]
        foe.hand_acts = None
        pend = s.pending
        if pend is not None and pend[0] == "ask" and pend[1] != player and pend[2].ask.hidden:
            from workbench.domain.effects.asks import reask
            from workbench.domain.engines.warzone.adapter import ADAPTER

            s.pending = (pend[0], pend[1], reask(pend[2], s, ADAPTER), pend[3])  # from this world's cards
        s.seed_rng(rng.getrandbits(64))  # random.Random(that), made when first drawn from
        s._legal = None
        return s


def _seen(state: WarzoneState, player: int) -> int:
    """How many top cards of ``player``'s deck a pending ask shows it (effects.asks: arrange)."""
    pend = state.pending
    if pend is None or pend[0] != "ask" or pend[1] != player:
        return 0
    return int(pend[2].ask.seen)


_by_iid = attrgetter("iid")  # a sort key at C speed: the pools hold about fifty cards


def _face_down_labels(state: WarzoneState, side: int) -> dict[str, str]:
    """Instance name -> a label without the card id, for ``side``'s face-down creatures."""
    return {u.iid: f"face-down {k + 1} of P{side + 1}"
            for k, u in enumerate(state.p[side].field) if u.face_down}


def _renamed(value: Any, names: dict[str, str]) -> Any:
    """``value`` (nested tuples, lists and dicts of strings) with instance names replaced."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, tuple):
        return tuple(_renamed(v, names) for v in value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, names) for k, v in value.items()}
    return value
