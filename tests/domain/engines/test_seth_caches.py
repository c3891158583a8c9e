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
    for seed in range(100):
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


_ABILITIES: list[dict[str, Any]] = [  # what a lone ability may do (§2.7.2's sum covers each)
    {"action": "damage", "target": "enemy_creature", "amount": 3},
    {"action": "damage", "target": "enemy_creatures", "amount": 1},
    {"action": "heal", "target": "own_creature", "amount": 4},
    {"action": "add_poison", "target": "any_creature", "amount": 2},
    {"action": "destroy", "target": "enemy_creature"},
    {"action": "damage", "target": "enemy_creatures", "amount": 2, "filter": {"health": {"max": 8}}},
    {"action": "modify_stats", "target": "own_creatures", "stats": {"damage": 2, "health": -3},
     "duration": "end_of_turn"},
    {"action": "modify_stats", "target": "enemy_creature", "stats": {"health": -4}, "duration": "permanent"},
    {"action": "add_counters", "target": "this", "counter": "charge", "amount": 1},
    {"action": "remove_counters", "target": "any_creature", "counter": "charge", "amount": 1},
    {"action": "remove_counters", "target": "enemy_creature", "counter": "poison", "amount": 1},
    {"action": "choose", "options": [{"action": "heal", "target": "this", "amount": 2},
                                     {"action": "damage", "target": "enemy_creature", "amount": 2}]},
]


def _monsters(state: SethState) -> list[tuple[Any, ...]]:
    return [(m.name, m.damage_taken, m.poison, m.damage, m.health, m.alive,
             dict(m.counters) if m.counters is not None else None) for m in state.everyone]


def _queued_positions(picks: int, seeds: int) -> Any:
    """Random step-2 positions of random games with random abilities, poison and counters, each
    with ``picks`` random abilities to queue (monster, effect, target, activation)."""
    import random

    from workbench.domain.engines.base import RandomAgent
    from workbench.domain.engines.seth.state import ABILITY

    for seed in range(seeds):
        rng = random.Random(seed)
        a, b = decks()
        for card in a["team"] + b["team"]:
            card["effects"] = [dict(rng.choice(_ABILITIES), trigger="activated") for _ in range(rng.randint(1, 2))]
        state = ENGINE.new_game(a, b, DEFAULTS, seed)
        agent = RandomAgent(seed)
        for _ in range(rng.randint(0, 30)):  # play on to a random position
            if state.is_terminal():
                break
            state.apply_joint({p: agent.choose(state, p) for p in state.to_act()})
        if state.is_terminal() or state.step != ABILITY:
            continue
        for x in state.everyone:  # counters to add to, remove and empty
            x.poison = rng.randint(0, 2)
            x.counters = rng.choice((None, {}, {"charge": 1}, {"charge": 1, "other": 2}))
        alive = [x for x in state.everyone if x.alive]
        if len(alive) < picks:
            continue
        queue = []
        for m in rng.sample(alive, picks):
            effect = rng.choice(m.card.abilities)
            if effect.action == "choose":
                effect = state.picked_mode(effect, rng.choice(state._modes(effect))[0])
                aim = next((step for step in effect.options[0] if step.chooses), None)
            else:
                aim = effect if effect.single_target else None
            targets = state._targets_for(m, aim) if aim is not None else []
            if aim is None or targets:
                queue.append((m, effect, rng.choice(targets) if targets else None, rng.random() < 0.8))
        if len(queue) == picks:
            yield seed, state, queue


def _resolved(state: SethState, queue: Any, **flags: bool) -> tuple[Any, ...]:
    """``queue`` resolved on a clone of ``state`` (§2.7.2) with the shortcut ``flags`` set."""
    s = state.clone()
    for name, value in flags.items():
        setattr(s, name, value)
    s.queued = [[], []]
    for m, effect, target, activation in queue:
        s.queued[m.owner].append((s.by_name[m.name], effect, s.by_name[target.name] if target else None, activation))
    s.slots = [[], []]
    s.finished = [True, True]
    s._resolve_abilities()
    return (_monsters(s), s.log[len(state.log):], s.step, s.to_act(), s.is_terminal(),
            sorted(map(str, s.flight_used)))


def test_a_lone_ability_resolves_as_the_summed_simultaneous_changes_do() -> None:
    """``_resolve_one`` (one queued ability runs straight on the monsters) against the plain
    §2.7.2 path (each ability's changes noted, undone and summed)."""
    ran: set[str] = set()
    for seed, state, queue in _queued_positions(1, 100):
        alone = _resolved(state, queue, one_alone=True)
        summed = _resolved(state, queue, one_alone=False, reach_only=False)
        for u, v in zip(alone, summed):
            assert u == v, (seed, queue)
        ran.add(queue[0][1].action)
    assert ran >= {"damage", "heal", "add_poison", "destroy", "modify_stats", "add_counters", "remove_counters"}


def test_comparing_only_what_each_ability_can_change_sums_the_same_changes() -> None:
    """``_changeable`` (after each ability only its own monster and its target's side are
    compared) against comparing every monster, with two to four abilities queued."""
    ran = 0
    for picks in (2, 3, 4):
        for seed, state, queue in _queued_positions(picks, 30):
            reach = _resolved(state, queue, reach_only=True)
            every = _resolved(state, queue, reach_only=False)
            for u, v in zip(reach, every):
                assert u == v, (seed, queue)
            ran += 1
    assert ran > 30


def test_a_poisoned_monster_activating_destroy_takes_its_poison_and_is_not_destroyed() -> None:
    """§2.5 and §2.7.2: the activator's poison damage is not the destroy effect's doing (the
    summing path had counted any damage taken during a destroy ability as a destruction)."""
    from workbench.domain.engines.seth.state import ABILITY

    a, b = decks()
    a["team"][3]["effects"] = [{"trigger": "activated", "action": "destroy", "target": "enemy_creature"}]
    state = ENGINE.new_game(a, b, DEFAULTS, 0)
    witch, wolf, boar = state.by_name["a-spark-witch"], state.by_name["b-thorn-wolf"], state.by_name["b-stone-boar"]
    witch.poison = 2
    effect = witch.card.abilities[0]
    heal = [e for e in state.by_name["b-grove-healer"].card.abilities][0]
    for alone in (True, False):
        s = state.clone()
        s.one_alone = alone  # type: ignore[misc]
        s.step = ABILITY
        s.slots, s.finished = [[], []], [True, True]
        s.queued = [[(s.by_name[witch.name], effect, s.by_name[wolf.name], True)],
                    [] if alone else [(s.by_name["b-grove-healer"], heal, s.by_name[boar.name], True)]]
        s._resolve_abilities()
        assert not s.by_name[wolf.name].alive
        assert s.by_name[witch.name].alive and s.by_name[witch.name].damage_taken == 2, alone
