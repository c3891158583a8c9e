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
from typing import TYPE_CHECKING, Any

from workbench.domain.engines.base import Observation

if TYPE_CHECKING:  # pragma: no cover
    from workbench.domain.engines.warzone.state import WarzoneState


class Observe:
    """Mixin of :class:`WarzoneState`: ``observe`` and ``determinize``."""

    def observe(self: WarzoneState, player: int) -> Observation:  # type: ignore[misc]
        """``player``'s view: the snapshot without deck orders and the opponent's hand."""
        from workbench.domain.engines.warzone.setup import snapshot

        snap = snapshot(self)
        private: dict[str, Any] = {}
        for side, view in enumerate(snap["players"]):
            deck = view.pop("deck")
            hand = view.pop("hand")
            traps = view.pop("traps")
            if side == player:
                private["hand"] = hand
                private["deck"] = sorted(deck)  # its own cards, order unknown
                private["traps"] = traps
            else:
                pl = self.p[side]
                hidden = [c for c, _ in pl.traps] + [u.card for u in pl.field if u.face_down]
                view["unseen"] = sorted(c.id for c in pl.hand + pl.deck + hidden)  # as card ids
                view["trap_turns"] = [t for _, t in pl.traps]
                for u in pl.field:
                    if u.face_down:  # only where it stands and what it has been through
                        entry = view["field"][u.iid]
                        view["field"][u.iid] = {"class": entry["class"], "position": entry["position"],
                                                "damage": entry["damage"], "face_down": True,
                                                "attacked": entry["attacked"]}
        snap.pop("result", None)  # derived from the rest; its reason names no hidden card
        return Observation(player, snap, private)

    def determinize(self: WarzoneState, player: int,  # type: ignore[misc]
                    rng: random.Random) -> WarzoneState:
        """A quiet clone with ``player``'s deck reshuffled and the opponent's hand and deck
        re-dealt from their pooled cards; the game's own generator is reseeded from ``rng``."""
        s = self.clone(quiet=True)
        by_iid = _by_iid
        me = s.p[player]
        deck = sorted(me.deck, key=by_iid)
        rng.shuffle(deck)
        me.deck = deck
        foe = s.p[1 - player]
        pool = sorted(foe.hand + foe.deck + [c for c, _ in foe.traps], key=by_iid)
        rng.shuffle(pool)
        if foe.traps:  # set traps are some of its traps, which ones is unknown (§1.12.2)
            traps = [c for c in pool if c.is_trap][:len(foe.traps)]
            taken = set(map(id, traps))
            foe.traps = [(c, t) for c, (_, t) in zip(traps, foe.traps)]
            pool = [c for c in pool if id(c) not in taken]
        n = len(foe.hand)
        foe.hand = pool[:n]
        foe.deck = pool[n:]
        foe.hand_acts = None
        s.rng = random.Random(rng.getrandbits(64))
        s._legal = None
        return s


def _by_iid(card: Any) -> str:
    return card.iid
