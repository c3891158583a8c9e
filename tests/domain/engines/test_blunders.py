"""The heuristic players' blunders found in logged games (issue 15), one constructed position each.

Each position offers the blunder and a sensible alternative; the heuristic must take the
alternative. Where the blunder's card has a use, a second position shows it is still played then.
"""

from __future__ import annotations

from typing import Any

from tests.domain.engines.test_engine_contract import bundled
from tests.domain.engines.warzone_fixtures import options as wz_options
from workbench.domain.engines import load_engine

FUSION_CARDS: dict[str, Any] = {
    "brute": {"name": "Brute", "kind": "creature", "cost": 3, "stars": 3, "atk": 3, "def": 3},
    "wall": {"name": "Wall", "kind": "creature", "cost": 3, "stars": 3, "atk": 1, "def": 5},
    "giant": {"name": "Giant", "kind": "creature", "cost": 6, "stars": 6, "atk": 6, "def": 6},
    "rage": {"name": "Rage", "kind": "magic", "subtype": "normal", "cost": 1,
             "effects": [{"trigger": "on_play", "action": "modify_stats", "target": "own_creature",
                          "stats": {"atk": 2}, "duration": "end_of_turn"}]},
    "spark": {"name": "Spark", "kind": "magic", "subtype": "normal", "cost": 1,
              "effects": [{"trigger": "on_play", "action": "damage", "target": "enemy_creature",
                           "amount": 2}]},
    "bolt": {"name": "Bolt", "kind": "magic", "subtype": "normal", "cost": 1,
             "effects": [{"trigger": "on_play", "action": "damage", "target": "enemy_creature",
                          "amount": 3}]},
    "crystal": {"name": "Crystal", "kind": "item", "subtype": "normal", "cost": 0,
                "effects": [{"trigger": "on_play", "action": "add_mana", "target": "self",
                             "amount": 2}]},
}


def fusion(phase: str, mine: dict[str, Any], theirs: dict[str, Any] | None = None, turn: int = 6):
    engine = load_engine("fusion")
    setup = {"turn": turn, "active": 0, "phase": phase, "cards": FUSION_CARDS,
             "players": [dict({"deck": [{"a-d1": "brute"}, {"a-d2": "brute"}]}, **mine),
                         dict({"deck": [{"b-d1": "brute"}, {"b-d2": "brute"}]}, **(theirs or {}))]}
    return engine.from_setup(setup, bundled("fusion")[2], 1)


def fusion_choice(state) -> Any:
    return load_engine("fusion").agents["heuristic"](0).choose(state, state.to_act()[0])


def test_fusion_does_not_buy_attack_after_combat() -> None:
    state = fusion("main2", {"mana": 3, "hand": [{"a-rage": "rage"}], "creatures": [{"a-brute": "brute"}]})
    assert fusion_choice(state).kind == "end"


def test_fusion_still_boosts_an_attacker_before_combat() -> None:
    state = fusion("main1", {"mana": 3, "hand": [{"a-rage": "rage"}], "creatures": [{"a-brute": "brute"}]})
    assert fusion_choice(state).args[:1] == ("a-rage",)


def test_fusion_does_not_ping_for_damage_that_wears_off() -> None:
    state = fusion("main2", {"mana": 3, "hand": [{"a-spark": "spark"}]},
                   {"creatures": [{"b-wall": "wall"}]})
    assert fusion_choice(state).kind == "end"


def test_fusion_still_burns_what_the_damage_destroys() -> None:
    state = fusion("main2", {"mana": 3, "hand": [{"a-bolt": "bolt"}]},
                   {"creatures": [{"b-brute": "brute"}]})
    assert fusion_choice(state).args == ("a-bolt", "b-brute")


def test_fusion_does_not_make_mana_with_nothing_to_spend_it_on() -> None:
    state = fusion("main2", {"mana": 3, "hand": [{"a-crystal": "crystal"}]})
    assert fusion_choice(state).kind == "end"


def test_fusion_makes_mana_that_pays_for_a_card_in_hand() -> None:
    state = fusion("main2", {"mana": 4, "hand": [{"a-crystal": "crystal"}, {"a-giant": "giant"}]})
    assert fusion_choice(state).args[:1] == ("a-crystal",)


# ---------------------------------------------------------------------- warzone

WZ_CARDS: dict[str, Any] = {
    "knight": {"name": "Knight", "kind": "creature", "class": 1, "degree": 2, "strength": 600,
               "resilience": 450},
    "squire": {"name": "Squire", "kind": "creature", "class": 2, "degree": 1, "strength": 300,
               "resilience": 300},
    "ogre": {"name": "Ogre", "kind": "creature", "class": 1, "degree": 3, "strength": 1300,
             "resilience": 700},
    "ogre3": {"name": "Hill Ogre", "kind": "creature", "class": 3, "degree": 3, "strength": 1300,
              "resilience": 700},
    "might": {"name": "Might", "kind": "spell",
              "effects": [{"trigger": "on_play", "action": "modify_stats", "target": "own_creature",
                           "stats": {"strength": 300}, "duration": "end_of_turn"}]},
}


def warzone(setup: dict[str, Any]):
    engine = load_engine("warzone")
    base = {"cards": WZ_CARDS}
    base.update(setup)
    return engine.from_setup(base, wz_options(_log=False), 1)


def test_warzone_casts_no_strength_boost_on_turn_one() -> None:
    """No attack is allowed on turn 1 (first_no_attack): a boost until end of turn is wasted."""
    deck = [f"knight" for _ in range(6)]
    state = warzone({"turn": 1, "active": 0, "phase": "recruit", "players": [
        {"hand": ["might", "might"], "field": [{"card": "knight", "position": "battling"}], "deck": deck},
        {"field": [{"card": "squire", "position": "battling"}], "deck": deck}]})
    agent = load_engine("warzone").agents["heuristic"](0)
    while state.turn == 1 and not state.is_terminal():
        p = state.to_act()[0]
        action = agent.choose(state, p)
        assert action.kind != "spell", action
        state.apply(action)


def _pile_nine(pile: int):
    deck = ["squire" for _ in range(12)]
    return warzone({"turn": 4, "active": 0, "phase": "war", "players": [
        {"field": [{"card": "knight", "position": "battling", "name": "a-knight"}], "deck": deck,
         "damage_pile": ["squire" for _ in range(pile)]},
        {"field": [{"card": "squire", "position": "battling", "name": "b-squire"},
                   {"card": "ogre3", "position": "guarding", "name": "b-ogre"}], "deck": deck}]})


def test_warzone_leaves_no_creature_exposed_at_damage_pile_nine() -> None:
    """The knight kills the squire, but the squire strikes first (higher Class) and leaves it
    Battling at 150: next turn the ogre's 1300 overflows by two Damage Cards. At 9 of 10 cards
    that loses the game, so the heuristic stays home; with room in the pile it attacks."""
    agent = load_engine("warzone").agents["heuristic"]
    attack = ("a-knight", "b-squire")
    assert agent(0).choose(_pile_nine(5), 0).args == attack
    state = _pile_nine(9)
    assert any(a.args == attack for a in state.legal_actions(0))
    assert agent(0).choose(state, 0).kind == "end_phase"


def test_fusion_heuristic_retargets_an_attack_whose_target_left() -> None:
    """It used to crash (KeyError 'player') scoring a retarget at the opponent."""
    cards = dict(FUSION_CARDS, recall={"name": "Recall", "kind": "magic", "subtype": "quick", "cost": 1,
                                       "effects": [{"trigger": "on_play", "action": "return_to_hand",
                                                    "target": "own_creature"}]},
                 wolf={"name": "Wolf", "kind": "creature", "cost": 2, "stars": 3, "atk": 4, "def": 2})
    setup = {"turn": 6, "active": 0, "phase": "battle", "cards": cards, "players": [
        {"creatures": [{"a-wolf": "wolf"}]},
        {"mana": 1, "creatures": [{"name": "b-imp", "card": "brute", "tapped": True}],
         "magic": [{"name": "b-recall", "card": "recall", "face_down": True}]}]}
    state = load_engine("fusion").from_setup(setup, bundled("fusion")[2], 1)
    state.apply(next(a for a in state.legal_actions(0) if a.args == ("a-wolf", "b-imp")))
    state.apply(next(a for a in state.legal_actions(1) if a.args[:1] == ("b-recall",)))
    assert state.step == "retarget"
    assert fusion_choice(state).args == ("a-wolf", "player")
