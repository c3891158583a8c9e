"""engines/search.py and the agent specs: budgets, skipping forced moves, the matrix solver."""

from __future__ import annotations

import pytest

from tests.domain.engines.test_engine_contract import apply, new_game
from workbench.domain.engines import load_engine
from workbench.domain.engines.base import agent_problem, make_agent, parse_agent
from workbench.domain.engines.search import SearchAgent, solve_zero_sum


def test_agent_specs_carry_a_search_budget() -> None:
    engine = load_engine("warzone")
    assert parse_agent("search:64") == ("search", 64) and parse_agent("heuristic") == ("heuristic", None)
    agent = make_agent(engine, "search:7", 1)
    assert isinstance(agent, SearchAgent) and agent.budget == 7
    assert make_agent(engine, "search", 1).budget > 7  # the game's default
    assert "positive whole number" in agent_problem(engine, "search:0")
    assert "only the search player" in agent_problem(engine, "heuristic:5")
    assert "unknown agent 'genius'" in agent_problem(engine, "genius")
    with pytest.raises(ValueError):
        make_agent(engine, "search:x", 1)


@pytest.mark.parametrize("game", ("warzone", "fusion", "seth"))
def test_search_skips_forced_moves_and_plays_legal_ones(game: str) -> None:
    engine = load_engine(game)
    state = new_game(game, 3)
    players = [make_agent(engine, "search:4", 1), make_agent(engine, "heuristic", 2)]
    forced = searched_before = 0
    n = 0
    while not state.is_terminal() and n < 120:
        acting = state.to_act()
        joint = {}
        for p in acting:
            if p == 0 and len(acting) == 1 and len(state.legal_actions(0)) == 1:
                forced += 1
                searched_before = players[0].searched
            joint[p] = players[p].choose(state, p)
            if p == 0 and len(acting) == 1 and len(state.legal_actions(0)) == 1:
                assert players[0].searched == searched_before  # one legal action: no search
        apply(state, joint)
        n += 1
    assert players[0].searched > 0


def test_regret_matching_solves_small_zero_sum_games() -> None:
    pennies = [[1.0, 0.0], [0.0, 1.0]]
    x = solve_zero_sum(pennies, 2000)
    assert abs(x[0] - 0.5) < 0.05
    rps = [[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]]
    x = solve_zero_sum(rps, 4000)
    assert all(abs(v - 1 / 3) < 0.05 for v in x)
    dominant = [[0.9, 0.8], [0.2, 0.1]]
    assert solve_zero_sum(dominant)[0] > 0.95


def test_web_form_budget_makes_a_search_spec() -> None:
    from workbench.domain.errors import WorkbenchError
    from workbench.web.playtest_views import _agent_spec

    assert _agent_spec({"agent_a": "search", "budget_a": "12"}, "a") == "search:12"
    assert _agent_spec({"agent_a": "search", "budget_a": ""}, "a") == "search"
    assert _agent_spec({"agent_b": "heuristic", "budget_b": "12"}, "b") == "heuristic"
    with pytest.raises(WorkbenchError):
        _agent_spec({"agent_a": "search", "budget_a": "-3"}, "a")


def test_playtest_page_offers_the_strong_player_and_a_budget(client) -> None:
    html = client.get("/games/seth/playtest").get_data(as_text=True)
    assert '<option value="search"' in html and "strong (search)" in html
    assert 'name="budget_a"' in html and 'name="budget_b"' in html


def test_search_budget_is_capped_everywhere() -> None:
    from workbench.domain.engines.base import MAX_SEARCH_BUDGET

    engine = load_engine("seth")
    assert agent_problem(engine, f"search:{MAX_SEARCH_BUDGET}") is None
    assert "at most 10,000" in agent_problem(engine, f"search:{MAX_SEARCH_BUDGET + 1}")
    with pytest.raises(ValueError):
        make_agent(engine, "search:10001", 1)


def test_cli_refuses_a_budget_over_the_cap(capsys) -> None:
    from workbench.cli import main

    code = main(["play", "seth", "rot-and-stone", "skyburn-blitz", "--agents", "search:10001,heuristic"])
    assert code == 1 and "at most 10,000" in capsys.readouterr().err  # as for an unknown agent


def test_gauntlet_and_balance_forms_carry_a_capped_budget(client) -> None:
    from tests.web.pages_helpers import page_token

    from workbench.web.playtest_views import jobs

    for page in ("gauntlet", "balance"):
        html = client.get(f"/games/seth/playtest/{page}?deck=rot-and-stone&agent_a=search&budget_a=5"
                          "&games=2").get_data(as_text=True)
        assert 'name="budget_a"' in html and 'name="budget_b"' in html and 'max="10000"' in html
        assert "at most 10,000" in html
    with client.application.app_context():
        assert not jobs().unfinished("seth")  # a GET with a full query string started nothing
    token = page_token(client, "/games/seth/playtest/gauntlet")
    over = client.post("/games/seth/playtest/gauntlet", data={
        "csrf_token": token, "deck": "rot-and-stone", "games": "2", "seed": "1", "workers": "1",
        "agent_a": "search", "budget_a": "10001"})
    assert over.status_code == 400 and "search budget must be 1–10,000" in over.get_data(as_text=True)
    sneaked = client.post("/games/seth/playtest/balance", data={
        "csrf_token": token, "deck": "rot-and-stone", "vs": "skyburn-blitz", "games": "2", "seed": "1",
        "workers": "1", "agent_a": "search:99999"})
    assert sneaked.status_code == 400 and "at most 10,000" in sneaked.get_data(as_text=True)


class _MatrixGame:
    """One simultaneous step of two players (four choices each), then over: the row player's
    result is ``payoff[row][column]`` (1 won, 0 lost, 0.5 drawn)."""

    def __init__(self, payoff: list[list[float]]) -> None:
        self.payoff = payoff
        self.picked: tuple[int, int] | None = None

    def to_act(self) -> tuple[int, ...]:
        return () if self.picked else (0, 1)

    def legal_actions(self, player: int) -> list:
        from workbench.domain.engines.base import Action

        return [Action("pick", (player, k)) for k in range(4)]

    def determinize(self, player: int, rng) -> _MatrixGame:
        return self.clone()

    def clone(self) -> _MatrixGame:
        other = _MatrixGame(self.payoff)
        other.picked = self.picked
        return other

    def apply_joint(self, actions) -> None:
        self.picked = (actions[0].args[1], actions[1].args[1])

    def is_terminal(self) -> bool:
        return self.picked is not None

    def result(self):
        from workbench.domain.engines.base import GameResult

        value = self.payoff[self.picked[0]][self.picked[1]]
        return GameResult(None if value == 0.5 else (0 if value == 1 else 1), "matrix", 1)


class _First:
    def __init__(self, seed: int = 0) -> None:
        pass

    def choose(self, state, player):
        return state.legal_actions(player)[0]


def _matrix_search(payoff: list[list[float]], **tuning) -> tuple[int, int]:
    agent = SearchAgent(1, _First, lambda s, p: 0.5, budget=48, **tuning)
    choice = agent.choose(_MatrixGame(payoff), 0)
    return choice.args[1], agent.playouts


def test_simultaneous_search_stops_playing_rows_that_equal_an_earlier_one() -> None:
    same = [[1.0, 0.5, 1.0, 0.0]] * 4
    assert _matrix_search(same, prune=False) == (0, 48)
    assert _matrix_search(same) == (0, 16)  # one sweep over the 4 columns, then only row 0 is left


def test_simultaneous_search_settles_early_only_when_the_policys_choice_stands() -> None:
    first_best = [[1.0] * 4, [0.0, 1.0, 0.0, 0.5], [0.5, 0.0, 1.0, 0.0], [0.0] * 4]
    assert _matrix_search(first_best) == (0, 48)
    assert _matrix_search(first_best, settle=0.3) == (0, 16)
    third_best = [first_best[1], first_best[2], first_best[0], first_best[3]]
    row, playouts = _matrix_search(third_best, settle=0.3)
    assert row == 2 and playouts == 48  # it never stands: the whole budget, and the better row


def _stepped(state, player: int, policy, horizon: int, evaluate) -> float:
    """The plain definition of ``rollout``: ``step`` with the policy, then the score."""
    from workbench.domain.engines.search import outcome, step

    for _ in range(horizon):
        if state.is_terminal():
            break
        step(state, policy.choose)
    done = outcome(state, player)
    return done if done is not None else evaluate(state, player)


@pytest.mark.parametrize("game", ("warzone", "fusion", "seth"))
def test_rollout_and_play_game_play_as_the_loop_of_step(game: str) -> None:
    """rollout and play_game bind the methods once; they play what the loop of ``step`` plays."""
    from importlib import import_module

    from tests.domain.engines.test_engine_contract import positions
    from workbench.domain.engines.base import play_game
    from workbench.domain.engines.search import rollout, step

    agents = import_module(f"workbench.domain.engines.{game}.agents")
    heuristic = load_engine(game).agents["heuristic"]
    checked = 0
    for k, state in enumerate(positions(game, 2, every=7)):
        for horizon in (5, 40):
            fast, plain = state.clone(), state.clone()
            v = rollout(fast, 0, heuristic(k), horizon, agents.position_value)
            assert v == _stepped(plain, 0, heuristic(k), horizon, agents.position_value)
            assert fast.observe(0).key() == plain.observe(0).key() and fast.log == plain.log
        if k % 3 == 0:
            fast, plain = state.clone(), state.clone()
            players = [heuristic(k), heuristic(k + 1)]
            result = play_game(fast, [heuristic(k), heuristic(k + 1)])
            while not plain.is_terminal():
                step(plain, lambda s, p: players[p].choose(s, p))
            assert result == plain.result() and fast.log == plain.log
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("game", ("warzone", "fusion", "seth"))
def test_search_in_the_world_itself_decides_as_with_clones_only(game: str, monkeypatch) -> None:
    """``copies`` hands out the re-dealt world as its last copy; the search decides the same as
    when every candidate plays in a clone (``REUSE_WORLD = False``)."""
    from workbench.domain.engines import search
    from tests.domain.engines.test_engine_contract import positions

    engine = load_engine(game)
    decided = 0
    for k, state in enumerate(positions(game, 2, every=5)):
        acting = state.to_act()
        p = acting[0]
        if len(state.legal_actions(p)) < 2:
            continue
        key = state.observe(p).key()
        picks = []
        for reuse in (True, False):
            monkeypatch.setattr(search, "REUSE_WORLD", reuse)
            agent = make_agent(engine, "search:12", k)
            picks.append((agent.choose(state, p), agent.playouts, agent.searched))
        assert picks[0] == picks[1]
        assert state.observe(p).key() == key  # the real position is never played on
        decided += picks[0][2]
        if decided >= 8:
            break
    assert decided >= 4


@pytest.mark.parametrize("game", ("warzone", "fusion", "seth"))
def test_a_worlds_actions_play_in_its_clones_as_their_own(game: str) -> None:
    """The search reads a re-dealt world's legal actions once and applies them to its clones:
    a clone lists equal actions, and the world's action played there gives what the clone's own
    gives (the same observations, log and result after a heuristic playout)."""
    import random

    from tests.domain.engines.test_engine_contract import positions
    from workbench.domain.engines.search import rollout

    heuristic = load_engine(game).agents["heuristic"]
    evaluate = __import__(f"workbench.domain.engines.{game}.agents", fromlist=["position_value"]).position_value
    played = 0
    for k, state in enumerate(positions(game, 2, every=6)):
        acting = state.to_act()
        p = acting[0]
        world = state.determinize(p, random.Random(k))
        listed = world.legal_actions(p)
        for place in range(min(3, len(listed))):
            mine, theirs = world.clone(), world.clone()
            own = theirs.legal_actions(p)
            assert own == listed
            if len(acting) == 1:
                mine.apply(listed[place])
                theirs.apply(own[place])
            else:
                other = next(q for q in acting if q != p)
                reply = world.legal_actions(other)[0]
                mine.apply_joint({p: listed[place], other: reply})
                theirs.apply_joint({p: own[place], other: reply})
            v = rollout(mine, p, heuristic(k), 30, evaluate)
            assert v == rollout(theirs, p, heuristic(k), 30, evaluate)
            assert mine.observe(p).key() == theirs.observe(p).key() and mine.log == theirs.log
            played += 1
    assert played > 20
