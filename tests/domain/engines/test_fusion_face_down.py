"""Fusion: what a player may do never depends on an opponent's face-down cards (RULES.md §3.4.2,
Decision ``face_down_hidden``).

The position: player 0 holds Hunt Down (猎杀: destroy an enemy creature with 3 or more ATK);
player 1 has one set creature, and its deck holds creatures on both sides of ATK 3, so worlds
re-dealt from player 0's view put either kind in the face-down place.
"""

from __future__ import annotations

import random
from typing import Any

from tests.domain.engines.test_engine_contract import bundled
from workbench.domain.engines import load_engine
from workbench.domain.engines.fusion.state import FusionState

HUNT = {"name": "猎杀", "kind": "magic", "subtype": "normal", "cost": 2,
        "effects": [{"trigger": "on_play", "action": "destroy", "target": "enemy_creature",
                     "filter": {"atk": {"min": 3}}}]}
OGRE = {"name": "食人魔", "kind": "creature", "cost": 4, "stars": 4, "atk": 4, "def": 4, "attribute": "earth"}
IMP = {"name": "火花小鬼", "kind": "creature", "cost": 1, "stars": 1, "atk": 1, "def": 1, "attribute": "fire"}


def _position(**options: Any) -> FusionState:
    setup = {
        "turn": 6, "active": 0, "phase": "main1",
        "cards": {"hunt": HUNT, "ogre": OGRE, "imp": IMP},
        "players": [
            {"mana": 4, "hand": [{"a-hunt": "hunt"}], "deck": [{"a-d1": "imp"}, {"a-d2": "imp"}]},
            {"creatures": [{"name": "b-set", "card": "ogre", "face_down": True, "tapped": True}],
             "hand": [{"b-h1": "imp"}, {"b-h2": "ogre"}],
             "deck": [{"b-d1": "imp"}, {"b-d2": "imp"}, {"b-d3": "ogre"}, {"b-d4": "imp"}]},
        ],
    }
    state = load_engine("fusion").from_setup(setup, dict(bundled("fusion")[2], **options), 1)
    assert isinstance(state, FusionState)
    return state


def _hunts(state: FusionState) -> list[str]:
    return [str(a) for a in state.legal_actions(0) if a.kind == "play"]


def test_every_world_redealt_from_the_players_view_lists_the_same_actions() -> None:
    state = _position()
    assert _hunts(state) == []  # the set ogre's 4 ATK is hidden: Hunt Down has no target
    for k in range(12):
        world = state.determinize(0, random.Random(k))
        assert _hunts(world) == [], k


def test_with_face_down_hidden_off_the_redealt_worlds_disagree() -> None:
    """The other side of the Decision: filters read the true stats (what the worlds differ in)."""
    state = _position(face_down_hidden=False)
    assert len(_hunts(state)) == 1
    listed = {len(_hunts(state.determinize(0, random.Random(k)))) for k in range(12)}
    assert listed == {0, 1}


def test_the_true_list_is_kept_when_the_heuristic_masks_face_down_stats() -> None:
    """With the option off, the masked heuristic guesses the set creature's ATK (below 3 here:
    mostly imps could be there) but leaves ``apply`` the true list, in which Hunt Down can hit."""
    state = _position(face_down_hidden=False)
    state._legal = None
    load_engine("fusion").agents["heuristic"](0).choose(state, 0)
    fresh = _position(face_down_hidden=False)
    assert [str(a) for a in state._legal or []] == [str(a) for a in fresh.legal_actions(0)]
    assert any(a.kind == "play" for a in state._legal or [])
