"""Duration until_your_next_turn (docs/effects.md): the change outlives the turn and ends when
its controller's next turn starts."""

from __future__ import annotations

from workbench.domain.engines import load_engine
from workbench.storage.scenario_files import game_option_defaults

from tests.domain.engines.test_golden import ROOT

_ENDS = ("end_phase", "end_turn", "end", "pass", "done", "keep", "go", "end_battle")


def _pass_turn(state, game):
    """Let the player to act end their turn with the engine's own end/pass actions."""
    start = state.active
    for _ in range(50):
        if state.is_terminal() or state.active != start:
            return
        (p,) = state.to_act()
        acts = [a for a in state.legal_actions(p) if a.kind in _ENDS]
        state.apply(acts[0] if acts else state.legal_actions(p)[0])


def test_warzone_resilience_until_your_next_turn():
    _, options = game_option_defaults(ROOT / "card_data", "warzone")
    wall = {"name": "Shield Wall", "kind": "spell", "effects": [
        {"trigger": "on_play", "action": "modify_stats", "target": "own_creatures", "stats": {"resilience": 300},
         "duration": "until_your_next_turn"}]}
    creature = {"class": 1, "strength": 100, "resilience": 100}
    setup = {"turn": 3, "phase": "recruit", "cards": {"wall": wall}, "players": [
        {"hand": [{"name": "a-wall", "card": "wall"}], "deck": [dict(creature, name=f"a-{i}") for i in range(5)],
         "field": [dict(creature, name="a-x", position="guarding")]},
        {"deck": [dict(creature, name=f"b-{i}") for i in range(5)]}]}
    state = load_engine("warzone").from_setup(setup, dict(options, _log=False), 0)
    state.apply(next(a for a in state.legal_actions(0) if a.kind == "spell"))
    assert state.resilience(state.unit("a-x")) == 400
    _pass_turn(state, "warzone")
    assert state.active == 1 and state.resilience(state.unit("a-x")) == 400  # outlives P1's turn
    _pass_turn(state, "warzone")
    assert state.active == 0 and state.resilience(state.unit("a-x")) == 100  # ends as P1's turn starts


def test_fusion_atk_until_your_next_turn():
    _, options = game_option_defaults(ROOT / "card_data", "fusion")
    roar = {"name": "战吼", "kind": "magic", "subtype": "normal", "cost": 1, "effects": [
        {"trigger": "on_play", "action": "modify_stats", "target": "own_creatures", "stats": {"atk": 2},
         "duration": "until_your_next_turn"}]}
    imp = {"name": "火花小鬼", "kind": "creature", "cost": 1, "stars": 1, "atk": 2, "def": 2}
    setup = {"turn": 6, "active": 0, "phase": "main1", "cards": {"roar": roar, "imp": imp}, "players": [
        {"mana": 3, "hand": [{"a-roar": "roar"}], "creatures": [{"a-imp": "imp"}],
         "deck": [{f"a-d{i}": "imp"} for i in range(5)]},
        {"deck": [{f"b-d{i}": "imp"} for i in range(5)]}]}
    state = load_engine("fusion").from_setup(setup, dict(options, _log=False), 0)
    state.apply(next(a for a in state.legal_actions(0) if a.kind == "play"))
    imp_i = state.index["a-imp"]
    assert state.atk(imp_i) == 4
    _pass_turn(state, "fusion")
    assert state.active == 1 and state.atk(imp_i) == 4
    _pass_turn(state, "fusion")
    assert state.active == 0 and state.atk(imp_i) == 2
