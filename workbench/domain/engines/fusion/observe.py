"""What each Fusion Duel player may know, and re-dealing a position consistently with it.

Hidden in fusion (RULES.md §3.2, §3.4.2): the order of each deck, every other player's hand, and
the identity of every other player's face-down cards (set creatures and set magic); with three or
four players (§3.9) each opponent is hidden the same way, one pool per opponent. A face-down card shows
where it lies (creature or magic zone), whether it is tapped, the turn it was set and the damage
it carries, nothing else. A player knows its own face-down cards and which cards its deck holds
(not their order). The opponent's unseen cards (hand, deck, face-down) are one pool; the deck
lists are public, so the pool is known as a multiset of card ids.

``determinize`` re-deals that pool: each face-down creature slot gets an unseen settable creature
(a creature of at most ``set_max_stars`` stars), each face-down magic slot an unseen magic card,
the rest is shuffled into hand and deck. Cards are relabelled (instance ``i`` becomes instance
``j`` everywhere: zones, flags, attacks, chain), so the flags of a face-down slot stay with the
slot. Pools are sorted before they are shuffled: two positions a player cannot tell apart
re-deal to the same world for the same generator.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from workbench.domain.engines.base import Observation
from workbench.domain.engines.shuffle import shuffle

if TYPE_CHECKING:  # pragma: no cover
    from workbench.domain.engines.fusion.state import FusionState


class Observe:
    """Mixin of :class:`FusionState`: ``observe`` and ``determinize``."""

    __slots__ = ()  # the state's fields are FusionState's slots

    def hidden_from(self: FusionState, player: int) -> set[int]:  # type: ignore[misc]  # a mixin of FusionState only
        """Instances whose identity ``player`` cannot see: the other players' face-down cards."""
        down = self.down
        return {i for q in range(self.np) if q != player for i in self.crea[q] + self.magic[q] if i in down}

    def observe(self: FusionState, player: int) -> Observation:  # type: ignore[misc]  # a mixin of FusionState only
        s = self
        names, cards = s.names, s.cards
        hidden = s.hidden_from(player)
        slot: dict[int, str] = {}
        for q in range(s.np):
            for zone, ids in (("creature", s.crea[q]), ("magic", s.magic[q])):
                for k, i in enumerate(ids):
                    if i in hidden:
                        slot[i] = f"face-down {zone} {k + 1} of P{q + 1}"

        def label(i: Any) -> Any:
            if isinstance(i, int):
                return (slot.get(i) or names[i]) if i >= 0 else f"p{-1 - i}"
            return i

        players = []
        private: dict[str, Any] = {}
        for q in range(s.np):
            creatures = []
            for i in s.crea[q]:
                view: dict[str, Any] = {
                    "at": label(i), "tapped": i in s.tapped, "face_down": i in s.down,
                    "damage": s.damage.get(i, 0), "set_turn": s.set_turn.get(i),
                    "counters": getattr(s, "counters", {}).get(i),
                }
                if i not in hidden:
                    view.update(card=cards[i].id, atk=s.atk(i), dfn=s.dfn(i), sick=i in s.sick,
                                mods=s.mods.get(i), eot=s.eot.get(i))
                creatures.append(view)
            magic = []
            for i in s.magic[q]:
                view = {"at": label(i), "face_down": i in s.down, "set_turn": s.set_turn.get(i),
                        "tapped": i in s.tapped}
                if i not in hidden:
                    view.update(card=cards[i].id,
                                attached_to=label(s.attached[i]) if i in s.attached else None)
                magic.append(view)
            players.append({
                "life": s.life[q], "mana": s.mana[q], "mana_max": s.mana_max[q],
                "mulligans": s.mulls[q], "hand_count": len(s.hand[q]),
                "deck_count": len(s.deck[q]), "creatures": creatures, "magic": magic,
                "field": [names[i] for i in s.field[q]],
                "graveyard": [names[i] for i in s.grave[q]],
                "exile": [names[i] for i in s.exile[q]],
                "extra_deck": sorted(cards[i].id for i in s.extra[q]),  # a public list (§3.10.2)
            })
            if q == player:
                private["hand"] = [names[i] for i in s.hand[q]]
                private["deck"] = sorted(names[i] for i in s.deck[q])
            else:
                unseen = s.hand[q] + s.deck[q] + sorted(i for i in hidden if s.owner[i] == q)
                players[q]["unseen"] = sorted(cards[i].id for i in unseen)
        public = {
            "turn": s.turn, "active": s.active, "first": s.first, "phase": s.phase,
            "step": s.step, "to_act": list(s.to_act()), "players": players,
            "chain": [[link[0], label(link[1]), link[2],
                       [t if e.action == "negate" else label(t) for e, t in zip(link[3], link[4])],
                       link[5], link[6], link[7]] for link in s.chain],
            "attacks": [[label(a[0]), label(a[1]), [label(b) for b in a[2]], a[3]]
                        for a in s.attacks],
            "pending": [[p, label(src), e.index] for p, src, e in s.pending],
            "targets": [label(t) for t in s.tgt_opts] if s.step == "target" else [],
            "used": sorted(map(list, s.used)), "acts": list(s.acts), "over": s.over,
            "winner": s.winner, "alive": list(s.alive), "places": list(s.places),
            "prio": s.prio, "passes": s.passes, "bseat": s.bseat, "wplayer": s.wplayer,
        }
        asking = getattr(s, "asking", None)
        if asking is not None:  # a resolving effect asks (effects.asks); targets under their labels
            ask = asking[0].ask
            options = [label(s.index[o]) if ask.kind == "target" and o in s.index else o for o in ask.options]
            public["ask"] = [ask.kind, ask.player, ask.card,
                             "hidden" if ask.hidden and ask.player != player else options]
            if ask.seen and ask.player == player:  # the top cards it looks at, top first
                private["seen"] = [names[i] for i in s.deck[player][::-1][:ask.seen]]
        return Observation(player, public, private)

    def determinize(self: FusionState, player: int,  # type: ignore[misc]  # a mixin of FusionState only
                    rng: random.Random) -> FusionState:
        """A quiet clone re-dealt for ``player`` (see the module docstring)."""
        s = self.clone()
        s.logging = False
        cards, down = s.cards, s.down
        perm: dict[int, int] = {}
        # own deck: the same cards, a new order (but the top cards a pending arrange looks at)
        asking = getattr(s, "asking", None)
        seen = asking[0].ask.seen if asking is not None and asking[0].ask.player == player else 0
        kept = s.deck[player][len(s.deck[player]) - seen:] if seen else []
        deck = sorted(s.deck[player][:len(s.deck[player]) - seen])
        shuffle(rng, deck)  # the draws of rng.shuffle, without a call per card
        s.deck[player] = deck + kept
        max_stars = s.opts.set_max_stars
        for q in range(s.np):
            if q == player:
                continue
            # each opponent's unseen pool, re-dealt slot by slot
            crea_slots = [i for i in s.crea[q] if i in down]
            magic_slots = [i for i in s.magic[q] if i in down]
            loose = s.hand[q] + s.deck[q]
            pool = sorted(loose + crea_slots + magic_slots)
            shuffle(rng, pool)
            for slots, fits in ((crea_slots, lambda c: c.kind == "creature" and c.stars <= max_stars),
                                (magic_slots, lambda c: c.kind == "magic" or (c.kind == "item" and c.is_creature))):
                for old in slots:
                    k = next(k for k, j in enumerate(pool) if fits(cards[j]))
                    perm[old] = pool.pop(k)
            for old, new in zip(loose, pool):
                perm[old] = new
        if any(old != new for old, new in perm.items()):
            _relabel(s, perm)
        asking = s.asking
        if asking is not None and asking[0].ask.hidden and asking[0].ask.player != player:
            from workbench.domain.effects.asks import reask
            from workbench.domain.engines.fusion.adapter import ADAPTER

            s.asking = (reask(asking[0], s, ADAPTER), *asking[1:])  # from this world's cards
        s.rng = random.Random(rng.getrandbits(64))
        if getattr(s, "deck_seeds", None) is not None:  # future mulligan shuffles are hidden too
            s.deck_seeds = tuple(rng.getrandbits(32) for _ in range(s.np))
        s._legal = None
        s._vouched = None  # the re-dealt world's cards have other names
        s._cb = None
        # The re-dealt cards have stats of their own: computed once here rather than in each
        # clone a search plays out from this world (clones copy the cache).
        s._sc = {}
        s._sc = {i: s._stats(i) for zone in s.crea for i in zone}
        return s


def _relabel(s: FusionState, perm: dict[int, int]) -> None:
    """Rename instances everywhere by ``perm`` (a bijection on some of them)."""
    get = perm.get

    def m(i: Any) -> Any:
        return get(i, i) if isinstance(i, int) else i

    for key in ("deck", "hand", "crea", "magic", "field", "grave", "exile", "extra"):
        for z in getattr(s, key):
            z[:] = [get(i, i) for i in z]  # zones hold instances only
    for key in ("tapped", "down", "sick"):
        setattr(s, key, {get(i, i) for i in getattr(s, key)})
    for key in ("set_turn", "damage", "mods", "eot", "counters"):
        if hasattr(s, key):
            setattr(s, key, {get(i, i): v for i, v in getattr(s, key).items()})
    s.attached = {get(i, i): get(h, h) for i, h in s.attached.items()}
    s.chain = [[link[0], m(link[1]), link[2], link[3],
                tuple(t if e.action == "negate" else m(t) for e, t in zip(link[3], link[4])),
                *link[5:]] for link in s.chain]
    s.attacks = [[m(a[0]), m(a[1]), [m(b) for b in a[2]], a[3]] for a in s.attacks]
    s.pending = [(p, m(src), e) for p, src, e in s.pending]
    s.tgt_opts = [m(t) for t in s.tgt_opts]
    s.bound = [(m(a), m(b), x, y) for a, b, x, y in s.bound]  # while_on_field (a face-down creature's too)
    s.dealer = {(m(a), k): m(v) for (a, k), v in s.dealer.items()}
    s.lasting = [(c, m(i), x, y) for c, i, x, y in s.lasting]
