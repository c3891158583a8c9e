"""Every warzone AI player plays the §1.12 rules (issue 17 item 6): the sample decks with a quick
spell, a settable creature and heal-trigger creatures added, under both trap Decisions. Games
end, cards are conserved, and the new choices (Area rows, set traps and creatures, flips, quick
answers, traps in a chain, heal triggers) are all made by the players."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.domain.engines.warzone_fixtures import BASTION, RUSH, options, sample_deck
from workbench.domain.engines.base import RandomAgent
from workbench.domain.engines.warzone import ENGINE, WarzoneState
from workbench.domain.engines.warzone.agents import HeuristicAgent, MonteCarloAgent, search_agent

BRACE = {"id": "brace", "name": "Brace", "kind": "spell", "text": "Quick: +300 Resilience.",
         "effects": [{"trigger": "on_play", "action": "modify_stats", "target": "own_creature",
                      "stats": {"resilience": 300}, "speed": 2}]}
LURKER = {"id": "reed-lurker", "name": "Reed Lurker", "kind": "creature", "class": 2, "degree": 2,
          "strength": 650, "resilience": 600, "keywords": ["settable"],
          "effects": [{"trigger": "on_play", "action": "damage", "target": "enemy_creature",
                       "amount": 300}]}
MEDIC = {"id": "field-medic", "name": "Field Medic", "kind": "creature", "class": 1, "degree": 0,
         "strength": 300, "resilience": 300, "keywords": ["heal_trigger"]}


def deck(deck_id: str) -> dict:
    base = sample_deck(deck_id)
    return dict(base, main=list(base["main"]) + [BRACE] * 4 + [LURKER] * 4 + [MEDIC] * 8)


FACTORIES = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "montecarlo": lambda seed: MonteCarloAgent(seed, playouts=2, max_candidates=2, horizon=1),
    "search": lambda seed: search_agent(seed, budget=4, horizon=6),
}
GAMES = {"random": 20, "heuristic": 12, "montecarlo": 2, "search": 2}


def play(kind: str, seed: int, opts: dict) -> tuple[WarzoneState, Counter]:
    decks = (deck(RUSH), deck(BASTION)) if seed % 2 == 0 else (deck(BASTION), deck(RUSH))
    state = ENGINE.new_game(decks[0], decks[1], opts, seed)
    totals = tuple(len(d["main"]) + 3 for d in decks)
    agents = [FACTORIES[kind](seed), FACTORIES[kind](seed + 7)]
    made: Counter = Counter()
    for _ in range(5000):
        if state.is_terminal():
            break
        p = state.to_act()[0]
        pend = state.pending[0] if state.pending else None
        act = agents[p].choose(state, p)
        kind_of = act.kind
        if kind_of == "set":
            card = next(c for c in state.p[p].hand if c.iid == act.args[0])
            kind_of = f"set {card.kind}"
        elif kind_of == "spell" and pend == "chain":
            kind_of = "quick answer"
        made[kind_of] += 1
        state.apply(act)
        assert (state.card_total(0), state.card_total(1)) == totals
    assert state.is_terminal(), f"{kind} game {seed} did not end"
    return state, made


@pytest.mark.parametrize("kind", sorted(FACTORIES))
@pytest.mark.parametrize("opts", [{}, {"traps_set_first": False}], ids=["set-first", "from-hand"])
def test_every_player_plays_the_timing_rules(kind: str, opts: dict) -> None:
    made: Counter = Counter()
    for seed in range(GAMES[kind]):
        _, counts = play(kind, seed, options(_log=False, **opts))
        made.update(counts)
    assert made["areas"] > 0
    if kind in ("random", "heuristic"):  # enough games to see every choice
        wanted = {"heal", "quick answer", "trap"}
        if kind == "random":  # the heuristic sets a creature only for a later target (below)
            wanted |= {"set creature", "flip"}
        if not opts:
            wanted.add("set trap")
        assert wanted <= set(made), f"{kind} never made {wanted - set(made)}: {dict(made)}"
    if opts:
        assert made["set trap"] == 0


def test_the_heuristic_sets_a_creature_whose_effect_has_no_target_yet_and_flips_it_later() -> None:
    setup = {"turn": 3, "phase": "recruit", "cards": {"lurker": LURKER},
             "players": [
                 {"hand": [{"name": "a-lurker", "card": "lurker"}],
                  "deck": [{"name": f"a-f{i}", "class": 3, "strength": 100, "resilience": 100}
                           for i in range(6)]},
                 {"deck": [{"name": f"b-f{i}", "class": 3, "strength": 100, "resilience": 100}
                           for i in range(6)]}]}
    state = ENGINE.from_setup(setup, options(_log=True), 0)
    agent = HeuristicAgent(0)
    act = agent.choose(state, 0)
    assert (act.kind, act.args) == ("set", ("a-lurker",))  # no enemy creature to hit now
    state.apply(act)
    assert state.unit("a-lurker").face_down
    while not (state.turn == 5 and state.phase == "recruit"):
        p = state.to_act()[0]
        state.apply(agent.choose(state, p))  # P2 recruits its drawn creatures in turn 4
    assert state.p[1].field, "P2 has a creature for the Lurker's effect"
    made = []
    while state.turn == 5 and state.phase == "recruit" and not state.is_terminal():
        p = state.to_act()[0]
        act = agent.choose(state, p)
        made.append((p, act.kind, act.args[:1]))
        state.apply(act)
    assert (0, "flip", ("a-lurker",)) in made, made
    assert not state.unit("a-lurker").face_down


def _night_trigger(ward: bool) -> WarzoneState:
    """P1's Night effect deals 900 damage to P2, who holds a set Counter Ward (a negation) or a
    set trap that only gains 100 Life Points (RULES.md §1.12.3: triggered effects go on the chain)."""
    trap = ({"name": "Counter Ward", "kind": "trap", "effects": [{"trigger": "on_play", "action": "negate"}]}
            if ward else
            {"name": "Small Mercy", "kind": "trap",
             "effects": [{"trigger": "on_play", "action": "gain_life", "target": "self", "amount": 100}]})
    setup = {"turn": 3, "active": 0, "phase": "return", "cards": {
        "adept": {"name": "Ember Adept", "kind": "creature", "class": 2, "degree": 2, "strength": 850,
                  "resilience": 750,
                  "effects": [{"trigger": "end_of_turn", "action": "damage", "target": "opponent", "amount": 900}]},
        "trap": trap}, "players": [
        {"deck": [{"name": f"a-f{i}", "class": 1, "strength": 100, "resilience": 100} for i in range(4)],
         "field": [{"name": "a-adept", "card": "adept", "position": "guarding"}]},
        {"traps": [{"name": "b-trap", "card": "trap"}],
         "deck": [{"name": f"b-f{i}", "class": 1, "strength": 100, "resilience": 100} for i in range(4)],
         "field": [{"name": "b-1", "class": 1, "strength": 300, "resilience": 300, "position": "guarding"}]}]}
    state = ENGINE.from_setup(setup, options(_log=False), 0)
    state.apply(next(a for a in state.legal_actions(0) if a.kind == "end_turn"))
    assert state.pending == ("chain", 1) and [link[0] for link in state.chain] == ["trigger"]
    return state


@pytest.mark.parametrize("kind", ["heuristic", "search", "montecarlo"])
def test_players_negate_a_costly_triggered_effect_and_keep_a_small_trap(kind: str) -> None:
    state = _night_trigger(ward=True)
    act = FACTORIES[kind](1).choose(state, 1)
    assert (act.kind, act.args) == ("trap", ("b-trap",))
    state.apply(act)
    assert state.p[1].life == 2500 and state.pending is None and not state.chain
    if kind == "heuristic":  # a trap worth little is kept for a better moment than a Night effect
        state = _night_trigger(ward=False)
        assert FACTORIES[kind](1).choose(state, 1).kind == "pass"
