"""The per-card facts engines give playtests (GameStats): opening hands after mulligans,
mulliganed cards not counted as drawn, seth's per-monster facts (issue 14, item 5)."""

from __future__ import annotations

from workbench.domain.engines.base import play_game
from workbench.services.playtest import runner, service


def test_fusion_mulliganed_cards_are_not_drawn_and_the_kept_hand_is_the_opening(repo):
    matchup, _ = service.prepare(repo, "fusion", "lie-yan-ji-feng", "pan-shi-chao-xi", seed=5)
    engine = runner.resolve_engine(matchup.engine)
    checked = 0
    for index in range(0, 40, 2):
        state, _ = runner.new_state(matchup, index, engine=engine)
        p = state.to_act()[0]
        first_hand = {state.cards[i].id for i in state.hand[p]}
        assert state.stats.opening[p] == state.stats.drawn[p] == first_hand
        state.apply(next(a for a in state.legal_actions(p) if a.kind == "mulligan"))
        kept = {state.cards[i].id for i in state.hand[p]}
        assert state.stats.opening[p] == state.stats.drawn[p] == kept
        checked += first_hand != kept  # a card only in the mulliganed hand is not "drawn"
    assert checked > 10


def test_warzone_opening_hand_is_the_dealt_hand(repo):
    matchup, _ = service.prepare(repo, "warzone", "iron-bastion", "vanguard-rush", seed=5)
    state, agents = runner.new_state(matchup, 0)
    opening = [set(s) for s in state.stats.opening]
    # A new game waits on the Areas' rows (§1.12.4): the first turn's draw (§1.6.1) comes
    # after, and it is not "opening".
    assert state.phase == "start"
    assert len(state.p[1].hand) == state.cfg.start_hand == len(state.p[0].hand)
    assert opening[1] == {c.id for c in state.p[1].hand}
    assert opening[0] <= {c.id for c in state.p[0].hand}
    play_game(state, agents)
    assert state.stats.opening == opening
    assert all(opening[p] <= state.stats.drawn[p] for p in (0, 1))


def test_seth_facts_match_the_final_position(repo):
    matchup, _ = service.prepare(repo, "seth", "rot-and-stone", "skyburn-blitz", seed=5)
    seen_removed = 0
    for index in range(20):
        state, agents = runner.new_state(matchup, index)
        play_game(state, agents)
        for p in (0, 1):
            facts = state.stats.facts[p]
            assert facts.get("survived", set()) == {m.card.id for m in state.teams[p] if m.alive}
            removed = {m.card.id for m in state.teams[p] if not m.alive}
            assert facts.get("removed_first", set()) <= removed
            assert bool(facts.get("removed_first")) == bool(removed)
            assert removed <= facts.get("took_damage", set())
            assert facts.get("dealt_damage", set()) <= state.stats.played[p]
            seen_removed += bool(removed)
    assert seen_removed >= 20  # every game ends with a team removed (or the round limit)
