"""The seth engine's speed measures must not change play: cached openings, cached actions,
skipped removal checks. Each test compares against a path that does not use the shortcut."""

from __future__ import annotations

from typing import Any

from tests.domain.engines.seth_teams import DEFAULTS, decks
from workbench.domain.engines.base import play_game
from workbench.domain.engines.seth import ENGINE, SethState, setup
from workbench.domain.engines.seth.agents import HeuristicAgent


def _play(state: SethState, seed: int) -> tuple[list[str], tuple[Any, ...]]:
    moves: list[tuple[int, str, tuple[Any, ...]]] = []

    class Recording:
        def __init__(self, agent: HeuristicAgent) -> None:
            self.agent = agent

        def choose(self, s: SethState, p: int):  # type: ignore[no-untyped-def]
            action = self.agent.choose(s, p)
            moves.append((p, action.kind, action.args))
            return action

    result = play_game(state, [Recording(HeuristicAgent(seed)), Recording(HeuristicAgent(seed + 1))])
    return state.log, (result.winner, result.turns, result.reason, tuple(moves))


def test_a_cached_opening_plays_like_a_freshly_built_one() -> None:
    a, b = decks()
    for seed in range(6):
        setup._OPENINGS.clear()
        built = _play(ENGINE.new_game(a, b, DEFAULTS, seed), seed)  # builds and caches the opening
        copied_state = ENGINE.new_game(a, b, DEFAULTS, seed)  # copies the cached opening
        assert copied_state.options is DEFAULTS
        assert _play(copied_state, seed) == built
        assert built[0][-1].startswith("Game over")


def test_an_opening_is_rebuilt_when_the_line_up_or_options_change() -> None:
    a, b = decks()
    ENGINE.new_game(a, b, DEFAULTS, 0)
    a["team"][0] = dict(a["team"][0], damage=1, name="Weak Imp")  # same list object, new card
    state = ENGINE.new_game(a, b, DEFAULTS, 0)
    assert state.teams[0][0].card.name == "Weak Imp" and state.teams[0][0].damage == 1
    quiet = ENGINE.new_game(a, b, dict(DEFAULTS, _log=False), 0)
    assert quiet.log == [] and state.log != []


def test_copies_of_one_opening_do_not_share_monsters() -> None:
    a, b = decks()
    first = ENGINE.new_game(a, b, DEFAULTS, 1)
    second = ENGINE.new_game(a, b, DEFAULTS, 2)
    assert all(x is not y for x, y in zip(first.everyone, second.everyone))
    play_game(first, [HeuristicAgent(1), HeuristicAgent(2)])
    assert all(m.damage_taken == 0 and m.alive for m in second.everyone)
    assert second.by_phase[0][0] and all(m in second.teams[0] for m in second.by_phase[0][0])


def test_heuristic_mirror_games_differ_across_seeds() -> None:
    a, b = decks()
    games = {_play(ENGINE.new_game(a, b, dict(DEFAULTS, _log=False), seed), seed)[1] for seed in range(12)}
    assert len(games) > 1


def test_a_monster_whose_health_drops_to_zero_before_play_is_removed_in_the_first_phase() -> None:
    # A continuous -1 Health effect meets a 1-Health monster: no damage lands on it, so only the
    # full removal check (not the shortcut after lethal damage) can remove it.
    aura = {"name": "Gloom", "power": 4, "damage": 2, "health": 6, "speed": ["slow"], "element": "physical",
            "effects": [{"trigger": "continuous", "action": "modify_stats", "target": "enemy_creatures",
                         "stats": {"health": -1}, "duration": "permanent"}]}
    frail = {"name": "Wisp", "power": 1, "damage": 1, "health": 1, "speed": ["slow"], "element": "magical"}
    fast = {"name": "Runner", "power": 2, "damage": 1, "health": 5, "speed": ["fast"], "element": "physical"}
    state = ENGINE.from_setup({"players": [{"monsters": [dict(aura, name="a-gloom")]},
                                           {"monsters": [dict(frail, name="b-wisp"), dict(fast, name="b-run")]}]},
                              DEFAULTS, 0)
    assert isinstance(state, SethState)
    wisp = state.by_name["b-wisp"]
    assert wisp.health == 0 and wisp.alive  # nothing has checked removals yet
    state.apply_joint({p: ENGINE.agents["heuristic"](0).choose(state, p) for p in state.to_act()})
    while state.phase == 0 and not state.is_terminal():
        state.apply_joint({p: ENGINE.agents["heuristic"](0).choose(state, p) for p in state.to_act()})
    assert not wisp.alive
