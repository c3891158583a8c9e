"""Fusion speed shortcuts of session 12 against their plain definitions, on positions of seeded
games of the bundled decks: the masked decision's direct calls (no ``_choose`` layer), the log's
creature names (one stats look-up) and the state-local statistics write (``own_stats``)."""

from __future__ import annotations

from typing import Any

from tests.domain.engines.test_engine_contract import bundled
from workbench.domain.engines.fusion import ENGINE, FusionState
from workbench.domain.engines.fusion.agents import _BLIND_STEPS


def _positions(games: int) -> Any:
    """Yield (state, heuristic agents) before every decision of ``games`` seeded heuristic games."""
    a, b, options = bundled("fusion")
    for g in range(games):
        state = ENGINE.new_game(a, b, options, g) if g % 2 == 0 else ENGINE.new_game(b, a, options, g)
        agents = [ENGINE.agents["heuristic"](2 * g + k) for k in (0, 1)]
        while not state.is_terminal():
            yield state, agents
            (p,) = state.to_act()
            state.apply(agents[p].choose(state, p))


def test_masked_decisions_choose_what_the_plain_choose_layer_chooses() -> None:
    """With an enemy face-down creature, ``_masked_one`` calls ``_best_play`` (main) and
    ``_declare`` (declare) itself: the same action as handing the decision to ``_choose``."""
    checked = 0
    for s, agents in _positions(16):
        (p,) = s.to_act()
        q = 1 - p
        hidden = [i for i in s.crea[q] if i in s.down]
        if not hidden or s.step in _BLIND_STEPS:
            continue
        agent = agents[p]
        fast = agent._masked_one(s, p, q, hidden)
        plain = agent._masked_one(s, p, q, hidden, agent._choose)
        assert fast is plain, f"{s.step}: {fast} != {plain}"
        checked += 1
    assert checked > 300


def test_log_names_of_creatures_read_their_current_stats() -> None:
    """``_cname`` of a creature on the field names its current ATK and DEF (``atk``, ``dfn``)."""
    checked = 0
    for s, _ in _positions(4):
        for zone in s.crea:
            for i in zone:
                card = s.cards[i]
                assert s._cname(i) == f"{card.name} ({s.names[i]}, {s.atk(i)}/{s.dfn(i)})"
                checked += 1
    assert checked > 500


def test_played_and_drawn_cards_are_counted_in_the_states_own_statistics() -> None:
    """A clone shares the statistics until its first write (``own_stats``): playing and drawing
    in the clone leave the original's counts alone and count in the clone's."""
    checked = 0
    for s, agents in _positions(4):
        if s.step != "main":
            continue
        (p,) = s.to_act()
        before = [set(x) for x in s.stats.played], [set(x) for x in s.stats.drawn]
        clone: FusionState = s.clone()
        clone.apply(agents[p].choose(clone, p))
        assert [set(x) for x in s.stats.played] == before[0]
        assert [set(x) for x in s.stats.drawn] == before[1]
        assert all(old <= new for old, new in zip(before[0], clone.stats.played))
        checked += 1
    assert checked > 50


def test_log_lines_carry_the_turn_prefix_formatted_once() -> None:
    """``_say`` (and ``_do``'s own line) prefix ``Turn {turn} — `` from a table of formatted
    prefixes: the same text as formatting it, inside the table's turns and outside them."""
    a, b, options = bundled("fusion")
    state = ENGINE.new_game(a, b, options, 0)
    for turn in (-1, 0, 1, 7, 999, 1000, 12345):
        state.turn = turn
        state._say("x")
        assert state.log[-1] == f"Turn {turn} — x"


def test_action_log_lines_are_the_plain_format() -> None:
    """Every "P1: …" line ``_do`` writes is ``Turn {turn} — P{seat + 1}: {text}``."""
    checked = 0
    for s, agents in _positions(4):
        (p,) = s.to_act()
        action = agents[p].choose(s, p)
        turn, before = s.turn, len(s.log)
        clone = s.clone()
        clone.logging = True
        clone.log = []
        clone._do(action)
        expected = f"Turn {turn} — P{p + 1}: {action.text or action}"
        if action.kind not in ("pass", "done", "keep", "go", "mulligan", "target"):
            assert clone.log and clone.log[0] == expected
            checked += 1
        assert len(s.log) == before
    assert checked > 200


def test_main_phase_decisions_list_and_choose_what_the_plain_layers_do() -> None:
    """``choose`` lists a main phase with ``_main_actions`` itself (no ``_compute_legal``
    dispatch) and scores it with ``_best_play`` itself (no ``_choose`` layer): the same list and
    the same action as the plain layers."""
    checked = 0
    for s, agents in _positions(8):
        if s.step != "main":
            continue
        (p,) = s.to_act()
        fast_state, plain_state = s.clone(), s.clone()
        fast_state._legal = plain_state._legal = None
        fast = agents[p].choose(fast_state, p)
        plain_list = plain_state._compute_legal()
        assert [(a.kind, a.args) for a in fast_state._legal] == [(a.kind, a.args) for a in plain_list]
        plain_state._legal = plain_list
        hidden = [i for i in s.crea[1 - p] if i in s.down]  # masked alike (nothing when none)
        assert fast == agents[p]._masked_one(plain_state, p, 1 - p, hidden, agents[p]._choose)
        checked += 1
    assert checked > 300


def test_action_descriptions_name_cards_as_the_plain_format() -> None:
    """``_card_text`` (from ``Shared.card_texts``, made once) is ``name (instance)`` for every
    instance, and the plain argument for anything else."""
    a, b, options = bundled("fusion")
    state = ENGINE.new_game(a, b, options, 0)
    for i, name in enumerate(state.names):
        assert state._card_text(name) == f"{state.cards[i].name} ({name})"
    assert state._card_text("none") == "none"
    assert state._card_text(3) == "3"
