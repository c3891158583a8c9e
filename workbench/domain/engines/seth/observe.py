"""What each seth player may know, and re-dealing a position consistently with it.

Seth hides no cards: both line-ups are on the table from the start (RULES.md §2.2). What is
hidden is the opponent's choice in a simultaneous step (§2.7.1). Assignments and damage splits
are applied together, so they are never seen half-made. Abilities (step 2.3.2) are picked one at
a time in this engine, and the picks wait (``queued``) until both players are done: the opponent's
picks so far are hidden. A player sees which abilities the opponent could pick (its assigned
monsters are public), how many it has picked and whether it is done (the engine asks only the
players still picking), but not which ones nor their targets.

``determinize`` re-picks the opponent's hidden picks uniformly: the same number of picks among
its abilities of this step (every mandatory trigger included when it is done), each at a random
legal target.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from workbench.domain.engines.base import Observation

if TYPE_CHECKING:  # pragma: no cover
    from workbench.domain.engines.seth.state import SethState


class Observe:
    """Mixin of :class:`SethState`: ``observe`` and ``determinize``."""

    __slots__ = ()  # the state's fields are SethState's slots

    def observe(self: SethState, player: int) -> Observation:  # type: ignore[misc]  # a mixin of SethState only
        from workbench.domain.engines.seth.setup import snapshot

        snap = snapshot(self)
        snap.pop("result", None)
        q = 1 - player
        picks = _picked(self, q)
        snap["opponent_picks"] = {
            "abilities": sorted([m.name, i, must] for m, i, _e, must in
                                self.slots[q] + [(m, e.index, e, not act) for m, e, _t, act in picks]),
            "picked": len(picks),
            "finished": self.finished[q],
            "forced": [[m.name, e.index] for m, e, _t, _a in _forced(self, q)],
        } if self.step == "ability" else None
        private = {
            "slots": [[m.name, i, must] for m, i, _e, must in self.slots[player]],
            "queued": [[m.name, e.index, t.name if t else None, act] + ([e.mode] if e.mode else [])
                       for m, e, t, act in self.queued[player]],
        }
        return Observation(player, snap, private)

    def determinize(self: SethState, player: int,  # type: ignore[misc]  # a mixin of SethState only
                    rng: random.Random) -> SethState:
        """A quiet clone with the opponent's hidden ability picks re-picked (see the module)."""
        s = self.clone()
        s.logging = False
        s._rng = random.Random(rng.getrandbits(64))
        if s.step != "ability":
            return s
        q = 1 - player
        picks = _picked(s, q)
        if not picks:
            return s
        forced = _forced(s, q)
        # every ability the opponent could pick in this step, in team and effect order
        slots = s.slots[q] + [(m, e.index, _full(m, e), not act) for m, e, _t, act in picks]
        slots.sort(key=lambda x: (s.order[x[0].name], x[1]))
        k = len(picks)
        if s.finished[q]:
            must = [x for x in slots if x[3]]  # done only once every mandatory trigger is picked
            free = [x for x in slots if not x[3]]
            chosen = must + rng.sample(free, k - len(must))
        else:
            chosen = rng.sample(slots, k)
        chosen.sort(key=lambda x: (s.order[x[0].name], x[1]))
        queued = list(forced)
        for m, _i, e, must in chosen:
            target = None
            aim = e
            if e.action == "choose":  # a picked mode is hidden too: re-picked with its target
                modes = s._modes(e)
                arg, aim = modes[rng.randrange(len(modes))]
                e = s.picked_mode(e, arg)
            if aim is not None and aim.single_target:
                options = s._targets_for(m, aim)
                target = options[rng.randrange(len(options))] if options else None
            queued.append((m, e, target, not must))
        s.slots[q] = [x for x in slots if x not in chosen]
        s.queued[q] = queued
        return s


def _forced(s: SethState, q: int) -> list[tuple[Any, ...]]:
    """The opponent's waiting on-play effects with no choice (public: nobody picks them)."""
    return [x for x in s.queued[q] if not x[3] and not x[1].picked]


def _picked(s: SethState, q: int) -> list[tuple[Any, ...]]:
    """The opponent's hidden picks: activated abilities and targeted on-play triggers."""
    return [x for x in s.queued[q] if x[3] or x[1].picked]


def _full(m: Any, e: Any) -> Any:
    """The card's own ability of a queued pick (a picked mode is narrowed to its steps)."""
    if not e.mode:
        return e
    return next(x for x in m.card.abilities if x.index == e.index)
