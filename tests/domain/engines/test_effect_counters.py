"""Counters of any name (docs/effects.md): added by effects, read by conditions, paid as costs."""

from __future__ import annotations

from workbench.domain.engines import load_engine
from workbench.domain.engines.base import Action

TOTEM = {"name": "Storm Totem", "kind": "creature", "class": 2, "degree": 2, "strength": 100, "resilience": 400,
         "effects": [
             {"trigger": "start_of_turn", "action": "add_counters", "target": "this", "counter": "charge", "amount": 1},
             {"trigger": "activated", "action": "destroy", "target": "enemy_creature",
              "cost": {"remove_counters": {"charge": 3}}},
             {"trigger": "start_of_turn", "action": "draw", "target": "self", "amount": 1,
              "if": {"counters": {"counter": "charge", "min": 2}}}]}


def _warzone(options):
    setup = {"turn": 3, "phase": "recruit", "cards": {"totem": TOTEM}, "players": [
        {"deck": [{"name": f"a-f{i}", "class": 1, "strength": 100, "resilience": 100} for i in range(4)],
         "field": [{"name": "a-totem", "card": "totem", "position": "guarding"}]},
        {"deck": [{"name": f"b-f{i}", "class": 1, "strength": 100, "resilience": 100} for i in range(4)],
         "field": [{"name": "b-x", "class": 1, "strength": 500, "resilience": 500, "position": "guarding"}]}]}
    return load_engine("warzone").from_setup(setup, dict(options, _log=True), 0)


def test_removing_counters_pays_for_an_activation_only_when_there_are_enough(definitions):
    from workbench.storage.scenario_files import game_option_defaults
    from tests.domain.engines.test_golden import ROOT

    _, options = game_option_defaults(ROOT / "card_data", "warzone")
    state = _warzone(options)
    totem = state.unit("a-totem")
    activate = Action("activate", ("a-totem", "b-x"))
    assert not any(a.kind == "activate" for a in state.legal_actions(0))
    totem.counters = {"charge": 2}
    state._legal = None  # the position changed behind the state's back: list the actions again
    assert not any(a.kind == "activate" for a in state.legal_actions(0))
    totem.counters = {"charge": 3}
    state._legal = None
    legal = [a for a in state.legal_actions(0) if a.kind == "activate"]
    assert [a.args for a in legal] == [activate.args]
    state.apply(legal[0])
    assert state.unit("b-x") is None and totem.counters == {"charge": 0}


def test_a_counter_each_turn_and_a_condition_on_the_count(definitions):
    from workbench.storage.scenario_files import game_option_defaults
    from tests.domain.engines.test_golden import ROOT
    from workbench.domain.effects.interpreter import resolve_all
    from workbench.domain.engines.warzone.adapter import ADAPTER

    _, options = game_option_defaults(ROOT / "card_data", "warzone")
    state = _warzone(options)
    totem = state.unit("a-totem")
    wake = totem.card.start_turn
    hand = len(state.p[0].hand)
    resolve_all(wake, ADAPTER.source(state, 0, totem.card, "a-totem", None), (), state, ADAPTER)
    assert totem.counters == {"charge": 1} and len(state.p[0].hand) == hand  # 1 < 2: no card
    resolve_all(wake, ADAPTER.source(state, 0, totem.card, "a-totem", None), (), state, ADAPTER)
    assert totem.counters == {"charge": 2} and len(state.p[0].hand) == hand + 1
    assert state.clone().unit("a-totem").counters is not totem.counters  # clones own their counters


def test_seth_poison_is_one_counter_name():
    from workbench.domain.effects import parse_effects
    from workbench.domain.engines.seth.adapter import CAPABILITIES

    parsed = parse_effects("monster", [{"trigger": "activated", "action": "add_counters", "target": "enemy_creature",
                                        "counter": "Poison", "amount": 2}], CAPABILITIES)
    assert parsed.runnable and parsed.runnable[0].counter == "poison"
