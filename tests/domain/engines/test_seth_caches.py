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


_ADDING: list[dict[str, Any]] = [  # abilities that only add (Effect.adds), and a few that do not
    {"action": "damage", "target": "enemy_creature", "amount": 2},
    {"action": "damage", "target": "enemy_creatures", "amount": 1},
    {"action": "damage", "target": "any_creature", "amount": 3},
    {"action": "damage", "target": "own_creatures", "amount": 1},
    {"action": "damage", "target": "this", "amount": 1},
    {"action": "add_poison", "target": "enemy_creature", "amount": 1},
    {"action": "add_poison", "target": "enemy_creature", "amount": 1, "random": True},
    {"action": "add_poison", "target": "enemy_creatures", "amount": 1},
    {"action": "add_poison", "target": "own_creature", "amount": 2},
    {"action": "add_poison", "target": "this", "amount": 1},
    {"action": "modify_stats", "target": "own_creatures", "stats": {"damage": 1}, "duration": "end_of_turn"},
    {"action": "modify_stats", "target": "enemy_creature", "stats": {"health": -3}, "duration": "permanent"},
    {"action": "heal", "target": "own_creature", "amount": 2},
    {"action": "damage", "target": "enemy_creatures", "amount": 2, "filter": {"health": {"max": 8}}},
]


def _queued_positions(picks: int, seeds: int, pool: list[dict[str, Any]] = _ABILITIES, log: bool = True,
                      twice: bool = False) -> Any:
    """Random step-2 positions of random games with random abilities (of ``pool``), poison and
    counters, each with ``picks`` random abilities to queue (monster, effect, target, activation);
    ``twice``: two of them may be one monster's."""
    import random

    from workbench.domain.engines.base import RandomAgent
    from workbench.domain.engines.seth.state import ABILITY

    for seed in range(seeds):
        rng = random.Random(seed)
        a, b = decks()
        for card in a["team"] + b["team"]:
            card["effects"] = [dict(rng.choice(pool), trigger="activated") for _ in range(rng.randint(1, 2))]
        state = ENGINE.new_game(a, b, dict(DEFAULTS, _log=log), seed)
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
        used: set[tuple[str, int]] = set()
        # twice: a monster with two abilities may queue both (each once)
        for m in [rng.choice(alive) for _ in range(picks)] if twice else rng.sample(alive, picks):
            effect = rng.choice(m.card.abilities)
            if (m.name, effect.index) in used:
                continue
            used.add((m.name, effect.index))
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
    """``queue`` resolved on a clone of ``state`` (§2.7.2) with the shortcut ``flags`` set (on
    the class, for this call: a state keeps only its fields, in slots)."""
    s = state.clone()
    before = {name: getattr(SethState, name) for name in flags}
    for name, value in flags.items():
        setattr(SethState, name, value)
    try:
        s.queued = [[], []]
        for m, effect, target, activation in queue:
            s.queued[m.owner].append((s.by_name[m.name], effect, s.by_name[target.name] if target else None,
                                      activation))
        s.slots = [[], []]
        s.finished = [True, True]
        s._resolve_abilities()
    finally:
        for name, value in before.items():
            setattr(SethState, name, value)
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


def test_abilities_that_commute_resolve_in_turn_as_the_summed_changes_do() -> None:
    """``_resolve_in_turn`` (abilities that only add, none reading what an earlier one changes,
    run one after another) against the plain §2.7.2 path, with two to four abilities queued:
    poison, damage, stat changes, random targets, poisoned activators and assigned flyers."""
    from workbench.domain.engines.seth.state import SethState

    taken = refused = flight_refused = 0
    for picks in (2, 3, 4):
        for seed, state, queue in _queued_positions(picks, 100, _ADDING, log=False, twice=True):
            probe = state.clone()
            probe.queued = [[], []]
            for m, effect, target, activation in queue:
                probe.queued[m.owner].append((probe.by_name[m.name], effect, None, activation))
            commute = probe._commute()
            in_turn = _resolved(state, queue, in_turn=True)
            summed = _resolved(state, queue, in_turn=False, one_alone=False, reach_only=False)
            for u, v in zip(in_turn, summed):
                assert u == v, (seed, queue, commute)
            if commute:
                taken += 1
            else:
                refused += 1
                if all(effect.adds for _, effect, _, _ in queue):
                    flight_refused += any(probe._flight_cuts(side) for side in (0, 1))
    assert taken > 30 and refused > 30 and flight_refused > 5, (taken, refused, flight_refused)
    assert SethState.in_turn  # the shortcut is on in play, with the log off
    for seed, state, queue in _queued_positions(2, 20, _ADDING, log=True):
        # A logged game sums: its lines give each ability's result from the starting state.
        assert _resolved(state, queue, in_turn=True) == _resolved(state, queue, in_turn=False), seed


def _two_abilities(first: dict[str, Any], second: dict[str, Any], same_monster: bool = False,
                   flyer: bool = False, first_p1: bool = False) -> tuple[SethState, list[Any]]:
    """A medium-phase ability step with two queued activations of P2 (``same_monster``: both of
    one monster; ``first_p1``: the first is P1's Spark Witch's) at P1's assigned monster
    (``flyer``: an Ash Drake, Flight not cancelled; else the Spark Witch)."""
    from workbench.domain.engines.seth.state import ABILITY

    a, b = decks()
    witch, healer, boar = a["team"][3], b["team"][3], b["team"][4]  # all medium
    witch["effects"] = [dict(first, trigger="activated")] if first_p1 else []
    healer["effects"] = ([] if first_p1 else [dict(first, trigger="activated")]) + (
        [dict(second, trigger="activated")] if same_monster or first_p1 else [])
    boar["effects"] = [] if same_monster or first_p1 else [dict(second, trigger="activated")]
    state = ENGINE.new_game(a, b, dict(DEFAULTS, _log=False), 0)
    by = state.by_name
    target = by["a-ash-drake" if flyer else "a-spark-witch"]
    users = ([by["a-spark-witch"], by["b-grove-healer"]] if first_p1 else [by["b-grove-healer"]] * 2
             if same_monster else [by["b-grove-healer"], by["b-stone-boar"]])
    state.phase, state.step = 1, ABILITY
    state.now = [[target] + [m for m in users if m.owner == 0 and m is not target],
                 list(dict.fromkeys(m for m in users if m.owner == 1))]
    queue = []
    for k, m in enumerate(users):
        effect = m.card.abilities[k if same_monster else 0]
        aim = target if m.owner == 1 else by["b-grove-healer"]
        queue.append((m, effect, aim if effect.single_target else None, True))
    return state, queue


def test_abilities_that_read_what_an_earlier_one_changes_are_summed() -> None:
    """Each reason ``_commute`` refuses, on a constructed position: run one after another the
    abilities would give another result than §2.7.2's sum (``_resolve_in_turn`` shows it)."""
    poison_self = {"action": "add_poison", "target": "this", "amount": 2}
    damage = {"action": "damage", "target": "enemy_creature", "amount": 3}
    cases = {
        "its own poison, then it pays poison": _two_abilities(poison_self, damage, same_monster=True),
        "the same assigned flyer hit twice": _two_abilities(damage, damage, flyer=True),
        "P1 poisons P2's side, then P2's monster pays poison": _two_abilities(
            {"action": "add_poison", "target": "enemy_creatures", "amount": 1}, damage, first_p1=True),
    }
    for why, (state, queue) in cases.items():
        probe = state.clone()
        probe.queued = [[], []]
        for m, e, t, act in queue:
            probe.queued[m.owner].append((probe.by_name[m.name], e, probe.by_name[t.name] if t else None, act))
        assert not probe._commute(), why
        summed = _resolved(state, queue, in_turn=False, one_alone=False)
        assert _resolved(state, queue, in_turn=True) == summed, why
        probe._resolve_in_turn()  # forced: not what the sum gives
        assert _monsters(probe) != summed[0], why
    state, queue = _two_abilities(damage, damage, flyer=False)  # no Flight to spend: they commute
    probe = state.clone()
    probe.queued = [[], [(probe.by_name[m.name], e, probe.by_name[t.name], act) for m, e, t, act in queue]]
    assert probe._commute()
    assert _resolved(state, queue, in_turn=True) == _resolved(state, queue, in_turn=False, one_alone=False)


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
        s.step = ABILITY
        s.slots, s.finished = [[], []], [True, True]
        s.queued = [[(s.by_name[witch.name], effect, s.by_name[wolf.name], True)],
                    [] if alone else [(s.by_name["b-grove-healer"], heal, s.by_name[boar.name], True)]]
        SethState.one_alone = alone  # type: ignore[misc]  # a class switch (a state has only slots)
        try:
            s._resolve_abilities()
        finally:
            SethState.one_alone = True  # type: ignore[misc]
        assert not s.by_name[wolf.name].alive
        assert s.by_name[witch.name].alive and s.by_name[witch.name].damage_taken == 2, alone


def test_the_lists_of_monsters_in_play_follow_every_removal() -> None:
    """``SethState.living`` (each side's monsters in play, replaced on removal) against the
    plain definition at every decision of games with removals by damage, poison, destroy and
    on_destroyed effects, in the state and in its clones."""
    import random

    from workbench.domain.engines.base import RandomAgent

    extra = [{"trigger": "activated", "action": "destroy", "target": "enemy_creature"},
             {"trigger": "on_destroyed", "action": "damage", "target": "enemy_creatures", "amount": 3},
             {"trigger": "on_play", "action": "add_poison", "target": "enemy_creatures", "amount": 2}]
    removed = 0
    for seed in range(40):
        rng = random.Random(seed)
        a, b = decks()
        for card in a["team"] + b["team"]:
            if rng.random() < 0.4:
                card["effects"] = [rng.choice(extra)]
        state = ENGINE.new_game(a, b, dict(DEFAULTS, _log=seed % 2 == 0), seed)
        agents = [RandomAgent(seed), HeuristicAgent(seed)] if seed % 3 else [HeuristicAgent(seed)] * 2
        while True:
            for s in (state, state.clone()):
                assert s.living == [[m for m in team if m.alive] for team in s.teams], seed
                assert [len(x) for x in s.living] == s.left
            if state.is_terminal():
                break
            state.apply_joint({p: agents[p].choose(state, p) for p in state.to_act()})
        removed += sum(not m.alive for m in state.everyone)
    assert removed > 100


_CHAINS: list[dict[str, Any]] = [  # what can remove more monsters after a removal, and what cannot
    {"trigger": "on_destroyed", "action": "damage", "target": "enemy_creatures", "amount": 3},
    {"trigger": "on_destroyed", "action": "damage", "target": "own_creatures", "amount": 2},
    {"trigger": "on_destroyed", "action": "heal", "target": "own_creatures", "amount": 2},
    {"trigger": "continuous", "action": "modify_stats", "target": "own_creatures", "stats": {"health": 2},
     "duration": "permanent"},
    {"trigger": "on_play", "action": "modify_stats", "target": "own_creatures", "stats": {"health": 3},
     "duration": "while_on_field"},
    {"trigger": "activated", "action": "destroy", "target": "enemy_creature"},
    {"trigger": "activated", "action": "damage", "target": "enemy_creature", "amount": 4},
]


def _games_with_switch(switch: str, a: dict[str, Any], b: dict[str, Any], seed: int) -> list[tuple[Any, ...]]:
    """One logged game of line-ups ``a`` and ``b`` with the speed switch ``switch`` of SethState
    on, then off (heuristic players for odd seeds, random ones for even): result, log, monsters."""
    from workbench.domain.engines.base import RandomAgent

    games = []
    for on in (True, False):
        setattr(SethState, switch, on)
        try:
            setup._OPENINGS.clear()
            state = ENGINE.new_game(a, b, dict(DEFAULTS, _allow_illegal=True), seed)
            kind = HeuristicAgent if seed % 2 else RandomAgent
            result = play_game(state, [kind(seed), kind(seed + 1)])
            games.append((result, state.log, _monsters(state)))
        finally:
            setattr(SethState, switch, True)
    return games


def test_a_removal_looks_again_only_when_a_change_could_remove_more() -> None:
    """``settle_once`` (after a removal the check stops unless an on_destroyed effect, an ended
    standing or while_on_field change … cleared ``settled``) against looking again every time:
    logged games with chains of removals play the same."""
    import random

    chained = 0
    for seed in range(60):
        rng = random.Random(seed)
        a, b = decks()
        for card in a["team"] + b["team"]:
            card["effects"] = [rng.choice(_CHAINS) for _ in range(rng.randint(0, 2))]
        games = _games_with_switch("settle_once", a, b, seed)
        assert games[0] == games[1], seed
        chained += sum("(on destroyed)" in line for line in games[0][1]) > 0
    assert chained > 20


def test_a_clone_maps_the_look_ups_as_building_them_again_does() -> None:
    """``_copy_index`` (clone maps each look-up of ``_index`` to the copied monsters) against
    ``_index`` on the copy, at every decision of games with every kind of trigger."""
    import random

    from workbench.domain.engines.base import RandomAgent

    triggers = [{"trigger": "start_of_turn", "action": "heal", "target": "this", "amount": 1},
                {"trigger": "end_of_turn", "action": "damage", "target": "enemy_creatures", "amount": 1},
                {"trigger": "continuous", "action": "modify_stats", "target": "own_creatures",
                 "stats": {"damage": 1}, "duration": "permanent"},
                {"trigger": "continuous", "action": "cannot_be_targeted", "target": "this"},
                {"trigger": "on_phase", "phase": "medium", "action": "add_poison", "target": "enemy_creatures",
                 "amount": 1}]

    def look_ups(s: SethState) -> tuple[Any, ...]:
        # positions in the state's own teams (list.index compares monsters by identity: a
        # monster of another state raises ValueError)
        everyone = s.teams[0] + s.teams[1]
        at = lambda ms: [everyone.index(m) for m in ms]  # noqa: E731
        return (at(s.everyone), [[at(ms) for ms in lists] for lists in s.by_phase], at(s.static_holders),
                at(s.phase_sources), {k: at(v) for k, v in s.round_sources.items()}, at(s.cont_sources), s.sides)

    for seed in range(30):
        rng = random.Random(seed)
        a, b = decks()
        for card in a["team"] + b["team"]:
            card["effects"] = rng.sample(triggers, rng.randint(0, 2))
        state = ENGINE.new_game(a, b, dict(DEFAULTS, _log=False), seed)
        agent = RandomAgent(seed)
        while not state.is_terminal():
            mapped = state.clone()
            SethState.index_copies = False  # type: ignore[misc]
            try:
                built = state.clone()
            finally:
                SethState.index_copies = True  # type: ignore[misc]
            assert look_ups(mapped) == look_ups(built) == look_ups(state), seed
            assert not set(map(id, mapped.everyone)) & set(map(id, state.everyone))
            state.apply_joint({p: agent.choose(state, p) for p in state.to_act()})


def test_a_phase_nobody_assigns_in_ends_as_its_empty_steps_would_end_it() -> None:
    """``skip_empty`` (a phase with no assignment ends at once) against going through the empty
    ability and split steps: the same log, snapshots and step fields at every decision."""
    from workbench.domain.engines.base import RandomAgent

    def walk(seed: int, skip: bool) -> list[Any]:
        SethState.skip_empty = skip  # type: ignore[misc]
        try:
            a, b = decks()
            state = ENGINE.new_game(a, b, DEFAULTS, seed)
            agents = [RandomAgent(seed), HeuristicAgent(seed)]
            seen = []
            while True:
                seen.append((setup.snapshot(state), list(state.log),
                             [[m.name for m in ms] for ms in state.targets], [dict(t) for t in state.totals],
                             list(state.finished),
                             [[(m.name, i) for m, i, _, _ in q] for q in state.slots], len(state.queued[0]),
                             len(state.queued[1]), sorted(state.choice)))
                if state.is_terminal():
                    return seen
                state.apply_joint({p: agents[p].choose(state, p) for p in state.to_act()})
        finally:
            SethState.skip_empty = True  # type: ignore[misc]

    empty = 0
    for seed in range(40):
        skipped = walk(seed, True)
        assert skipped == walk(seed, False), seed
        empty += sum("assigns nothing" in line for line in skipped[-1][1])
    assert empty > 40


def test_kept_kill_costs_are_the_prices_computed_afresh() -> None:
    """``combat.kill_cost`` with its results kept (``KILL_COST_CACHE``) against pricing every
    call: random targets (damage taken, Flight, assigned or not, element factors under three
    option sets) and budgets of one to three elements, each asked twice; and whole games."""
    import random

    from workbench.domain.engines.seth import combat
    from workbench.domain.engines.seth.cards import ELEMENTS

    rng = random.Random(5)
    asked = 0
    for round_ in range(60):
        options = dict(DEFAULTS, resist_factor=rng.choice((0.5, 0.34, 0)), vulnerable_factor=rng.choice((2, 1.5)),
                       flight_once_per_phase=rng.random() < 0.5, _log=False)
        a, b = decks()
        state = ENGINE.new_game(a, b, options, round_)
        for m in state.everyone:
            m.damage_taken = rng.randint(0, m.health + 1)
        state.now = [rng.sample(state.teams[0], 2), rng.sample(state.teams[1], 2)]
        for _ in range(20):
            player = rng.randint(0, 1)
            target = rng.choice(state.teams[1 - player])
            budget = {e: rng.randint(0, 12) for e in rng.sample(ELEMENTS, rng.randint(1, 3))}
            for used, once in ((False, True), (True, True), (False, False), (True, False)):
                state.flight_once = once  # Decision §2.5, and Flight unused or used this phase
                if used:
                    state.flight_used.add(target.name)
                else:
                    state.flight_used.discard(target.name)
                combat.KILL_COST_CACHE = False
                try:
                    plain = combat.kill_cost(state, player, target, dict(budget))
                finally:
                    combat.KILL_COST_CACHE = True
                assert combat.kill_cost(state, player, target, dict(budget)) == plain, (target.name, budget)
                assert combat.kill_cost(state, player, target, dict(budget)) == plain, (target.name, budget)
                asked += plain is not None
    assert asked > 300

    def games() -> list[Any]:
        a, b = decks()
        return [_play(ENGINE.new_game(a, b, dict(DEFAULTS, _log=False), seed), seed)[1] for seed in range(30)]

    kept = games()
    combat.KILL_COST_CACHE = False
    try:
        assert games() == kept
    finally:
        combat.KILL_COST_CACHE = True


def test_a_split_the_engine_built_is_checked_as_any_split_is() -> None:
    """``KNOWN_SPLITS`` (a split built by ``_split_action`` is checked for legality only)
    against the full check: the engine's candidates and the heuristic's splits, the same
    splits at other split steps and in a game with the decks swapped (another team order),
    with amounts moved or targets changed — the same action back or the same refusal."""
    import random

    from workbench.domain.engines.base import RandomAgent
    from workbench.domain.engines.seth import combat
    from workbench.domain.engines.seth.state import SPLIT
    from workbench.domain.errors import IllegalAction

    def outcome(state: SethState, p: int, action: Any) -> Any:
        try:
            checked = combat.check_split(state, p, action)
        except IllegalAction as exc:
            return ("refused", str(exc))
        return (checked.kind, checked.args, checked.text, checked is action)

    rng = random.Random(3)
    splits: list[Any] = []
    positions = []
    a, b = decks()
    for seed in range(40):
        teams = (a, b) if seed % 2 else (b, a)
        state = ENGINE.new_game(teams[0], teams[1], dict(DEFAULTS, _log=False), seed)
        agent = RandomAgent(seed) if seed % 3 else HeuristicAgent(seed)
        while not state.is_terminal():
            if state.step == SPLIT:
                positions.append(state.clone())
                for p in state.to_act():
                    splits += [x for x in combat.split_candidates(state, p) if x.kind == "split"]
                    splits.append(HeuristicAgent(seed).choose(state, p))
            state.apply_joint({p: agent.choose(state, p) for p in state.to_act()})
    compared = accepted = 0
    for state in positions:
        for p in state.to_act():
            for action in rng.sample(splits, 30):
                variants = [action]
                if (action.kind == "split" and len(action.args) > 1
                        and all(t in state.by_name for t, _, _ in action.args)):
                    (t1, e1, n1), (t2, e2, n2) = action.args[:2]
                    moved = ((t1, e1, n1 + 1), (t2, e2, n2 - 1)) + action.args[2:]
                    variants.append(combat._split_action(state, {(t, e): n for t, e, n in moved}))
                    variants.append(combat._split_action(state, {(t2, e1, ): n1, (t1, e2): n2}))
                for x in variants:
                    fast = outcome(state, p, x)
                    combat.KNOWN_SPLITS = False
                    try:
                        assert outcome(state, p, x) == fast, x
                    finally:
                        combat.KNOWN_SPLITS = True
                    compared += 1
                    accepted += fast[0] != "refused"
    assert compared > 1000 and accepted > 50, (compared, accepted)


def test_the_end_of_a_round_undoes_its_stat_changes_as_a_look_at_every_monster_does() -> None:
    """``note_round_changes`` (the end of a round looks for end-of-round stat changes only after
    one was made) against looking at every monster each round: logged games with such changes
    from abilities, on-play, start- and end-of-round and on-destroyed triggers play the same."""
    import random

    changes = [{"action": "modify_stats", "target": "own_creatures", "stats": {"damage": 2}, "duration": "end_of_turn"},
               {"action": "modify_stats", "target": "enemy_creature", "stats": {"health": -3},
                "duration": "end_of_turn"},
               {"action": "modify_stats", "target": "this", "stats": {"health": 2}, "duration": "permanent"}]
    undone = 0
    for seed in range(40):
        rng = random.Random(seed)
        a, b = decks()
        for card in a["team"] + b["team"]:
            card["effects"] = [dict(rng.choice(changes), trigger=rng.choice(
                ("activated", "on_play", "start_of_turn", "end_of_turn", "on_destroyed"))) for _ in range(rng.randint(0, 2))]
        games = _games_with_switch("note_round_changes", a, b, seed)
        assert games[0] == games[1], seed
        undone += any("end_of_turn" in str(e) for card in a["team"] + b["team"] for e in card["effects"])
    assert undone > 20


def test_quick_seeding_makes_the_generators_random_random_makes() -> None:
    """``QUICK_SEED`` (``seeded`` seeds the C generator directly, ``_copy_rng`` copies into an
    unseeded generator) against ``random.Random(seed)`` and ``random.Random()`` + ``setstate``:
    the same generator states for int seeds of every size and sign, the plain path for other
    seeds, and games (agents' and states' generators) that play the same."""
    import random

    from workbench.domain.engines.seth import state as state_module

    seeds: list[Any] = [0, 1, 7, 2**31 - 1, 2**32, 2**64 + 3, 2**200, -1, -12345, "abc", 2.5, b"xy", True]
    for seed in seeds + list(range(100, 140)):
        made = state_module.seeded(seed)
        plain = random.Random(seed)
        assert made.getstate() == plain.getstate(), seed
        assert [made.random() for _ in range(5)] == [plain.random() for _ in range(5)]
        plain.gauss(0, 1)  # a pending gauss_next is part of the state a copy keeps
        copied = state_module._copy_rng(plain)
        state_module.QUICK_SEED = False
        try:
            assert state_module._copy_rng(plain).getstate() == copied.getstate() == plain.getstate()
        finally:
            state_module.QUICK_SEED = True
        assert copied is not plain and [copied.random() for _ in range(3)] == [plain.random() for _ in range(3)]

    def games() -> list[Any]:
        a, b = decks()
        return [_play(ENGINE.new_game(a, b, dict(DEFAULTS, _log=False), seed), seed)[1] for seed in range(20)]

    quick = games()
    state_module.QUICK_SEED = False
    try:
        assert games() == quick
    finally:
        state_module.QUICK_SEED = True


def test_kept_split_plans_give_the_actions_split_action_builds() -> None:
    """``PLAN_CACHE`` (``plan_action`` and ``element_plan_action`` keep each plan's action by its
    items and the team order) against ``_split_action`` at the split steps of played games, with
    the decks in both seats (two team orders): random plans of one and more elements, each asked
    twice, give the very action ``_split_action`` gives; heuristic games play the same."""
    import random

    from workbench.domain.engines.seth import combat
    from workbench.domain.engines.seth.cards import ELEMENTS
    from workbench.domain.engines.seth.state import SPLIT

    rng = random.Random(11)
    a, b = decks()
    compared = 0
    for seed in range(30):
        teams = (a, b) if seed % 2 else (b, a)
        state = ENGINE.new_game(teams[0], teams[1], dict(DEFAULTS, _log=False), seed)
        agents = [HeuristicAgent(seed), HeuristicAgent(seed + 1)]
        while not state.is_terminal():
            if state.step == SPLIT:
                for p in state.to_act():
                    names = [t.name for t in state.targets[p]]
                    for _ in range(10):
                        element = rng.choice(ELEMENTS)
                        one = {n: rng.randint(1, 9) for n in rng.sample(names, rng.randint(1, len(names)))}
                        many = {(n, rng.choice(ELEMENTS)): rng.randint(1, 9) for n in rng.choices(names, k=4)}
                        for _ in range(2):
                            assert combat.element_plan_action(state, element, dict(reversed(one.items()))) is \
                                combat._split_action(state, {(n, element): x for n, x in one.items()})
                            assert combat.plan_action(state, dict(reversed(many.items()))) is \
                                combat._split_action(state, many)
                            compared += 2
            state.apply_joint({p: agents[p].choose(state, p) for p in state.to_act()})
    assert compared > 1000

    def games() -> list[Any]:
        return [_play(ENGINE.new_game(a, b, dict(DEFAULTS, _log=False), seed), seed)[1] for seed in range(30)]

    kept = games()
    combat.PLAN_CACHE = False
    try:
        assert games() == kept
    finally:
        combat.PLAN_CACHE = True


_SOURCES: list[dict[str, Any]] = [  # effects that read or write their Source (reached, did, attacker, unit)
    {"trigger": "activated", "action": "choose", "options": [  # steps resolve with one Source
        {"action": "damage", "target": "enemy_creature", "amount": 2},
        [{"action": "heal", "target": "this", "amount": 2},
         {"action": "damage", "target": "enemy_creatures", "amount": 1}]]},
    {"trigger": "on_damaged", "action": "damage", "target": "attacker", "amount": 1},
    {"trigger": "on_deal_damage", "action": "add_poison", "target": "enemy_creature", "amount": 1, "random": True},
    {"trigger": "on_destroyed", "action": "damage", "target": "enemy_creatures", "amount": 2},
    {"trigger": "on_destroyed", "action": "heal", "target": "this", "amount": 1},
    {"trigger": "start_of_turn", "action": "add_counters", "target": "this", "counter": "charge", "amount": 1},
    {"trigger": "end_of_turn", "action": "damage", "target": "this", "amount": 1},
    {"trigger": "activated", "action": "add_poison", "target": "enemy_creature", "amount": 1, "random": True},
    {"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 2},
    {"trigger": "on_phase", "phase": "medium", "action": "heal", "target": "own_creatures", "amount": 1},
]


def test_a_kept_source_resolves_as_a_new_source_does() -> None:
    """``keep_sources`` (each monster's effects resolve with one Source kept on it, reset as a new
    one would be) against a new Source per effect: logged games with effects that read what the
    Source holds — the attacker of an on_damaged effect, random targets, on_destroyed effects
    of removed monsters, the steps of a mode — play the same (seth has no ``target: same`` or
    ``if: previous``)."""
    import random

    read = 0
    for seed in range(60):
        rng = random.Random(seed)
        a, b = decks()
        for card in a["team"] + b["team"]:
            card["effects"] = [rng.choice(_SOURCES) for _ in range(rng.randint(0, 2))]
        games = _games_with_switch("keep_sources", a, b, seed)
        assert games[0] == games[1], seed
        read += sum("(on damaged)" in line or "(on destroyed)" in line for line in games[0][1]) > 0
    assert read > 20


def test_the_kept_size_value_gives_the_heuristic_value_of_its_formula() -> None:
    """``MonsterCard.size_value`` (power * 0.5 + 1, kept on the card) gives the heuristic's value
    ``damage * 3 + power * 0.5 + 1`` to the last bit, for every monster at every decision of
    played games and for powers and damage of every size."""
    from workbench.domain.engines.seth.agents import _value
    from workbench.domain.engines.seth.cards import parse_card

    a, b = decks()
    for seed in range(10):
        state = ENGINE.new_game(a, b, dict(DEFAULTS, _log=False), seed)
        agents = [HeuristicAgent(seed), HeuristicAgent(seed + 1)]
        while not state.is_terminal():
            for m in state.everyone:
                assert _value(m) == m.damage * 3 + m.card.power * 0.5 + 1
            state.apply_joint({p: agents[p].choose(state, p) for p in state.to_act()})
    for power in (-7, 0, 1, 3, 10, 999, 2**40 + 1):
        card = parse_card({"id": "x", "power": power, "damage": 1, "health": 2, "speed": ["fast"]})
        for damage in (0, 1, 5, 77, 2**45):
            assert damage * 3 + card.size_value == damage * 3 + card.power * 0.5 + 1


def test_a_split_after_no_removal_takes_the_assigned_monsters_as_looking_at_each_does() -> None:
    """``COUNT_REMOVALS`` (with no removal since the assignment every assigned monster is in
    play) against looking at each assigned monster: logged games with poison on assignment,
    removals by abilities and by on_destroyed effects before the split play the same."""
    import random

    from workbench.domain.engines.base import RandomAgent
    from workbench.domain.engines.seth import state as state_module

    removed = 0
    for seed in range(60):
        rng = random.Random(seed)
        a, b = decks()
        for card in a["team"] + b["team"]:
            card["effects"] = [rng.choice(_CHAINS) if rng.random() < 0.5
                               else dict(rng.choice(_ADDING), trigger="activated") for _ in range(rng.randint(0, 2))]
        games = []
        for on in (True, False):
            state_module.COUNT_REMOVALS = on
            try:
                setup._OPENINGS.clear()
                state = ENGINE.new_game(a, b, dict(DEFAULTS, _allow_illegal=True), seed)
                kind = HeuristicAgent if seed % 2 else RandomAgent
                result = play_game(state, [kind(seed), kind(seed + 1)])
                games.append((result, state.log, _monsters(state)))
            finally:
                state_module.COUNT_REMOVALS = True
        assert games[0] == games[1], seed
        removed += sum("is removed" in line for line in games[0][1]) > 1
    assert removed > 30


def test_a_game_without_counter_effects_skips_the_look_for_emptied_counters() -> None:
    """``note_counters``: a lone ability looks for counters summed to nothing only when a card
    of the game adds or removes named counters (``has_counters``), against looking every time,
    in whole random games with and without such cards."""
    import random

    from workbench.domain.engines.base import RandomAgent

    counting = [{"action": "add_counters", "target": "enemy_creature", "counter": "charge", "amount": 1},
                {"action": "remove_counters", "target": "any_creature", "counter": "charge", "amount": 1}]
    kinds = set()
    for seed in range(40):
        rng = random.Random(seed)
        a, b = decks()
        pool = _ABILITIES + (counting if seed % 2 else [])
        for card in a["team"] + b["team"]:
            card["effects"] = [dict(rng.choice(pool), trigger="activated") for _ in range(rng.randint(0, 2))]
        games = []
        for note in (True, False):
            SethState.note_counters = note
            try:
                state = ENGINE.new_game(a, b, DEFAULTS, seed)
                assert isinstance(state, SethState)
                play_game(state, [RandomAgent(seed), RandomAgent(seed + 1)])
            finally:
                SethState.note_counters = True
            games.append((state.log, [(m.name, m.counters, m.poison, m.damage_taken, m.alive) for m in state.everyone]))
            kinds.add(state.has_counters)
        assert games[0] == games[1], seed
    assert kinds == {True, False}


def test_the_activated_abilities_of_a_card_are_its_abilities_triggered_by_activation() -> None:
    """``MonsterCard.activated`` (what step 2 offers after a monster's first assignment) is the
    card's abilities with trigger ``activated``, in card order."""
    a, b = decks()
    state = ENGINE.new_game(a, b, DEFAULTS, 0)
    assert isinstance(state, SethState)
    assert any(m.card.activated for m in state.everyone)
    for m in state.everyone:
        assert m.card.activated == tuple(e for e in m.card.abilities if e.trigger == "activated")


def test_a_clone_names_its_monsters_as_reading_each_name_does() -> None:
    """``clone`` pairs the copies with the keys of ``order`` (the names in ``everyone``'s order)
    instead of reading each copy's name: the same mapping, on positions of random games."""
    from workbench.domain.engines.base import RandomAgent

    a, b = decks()
    for seed in range(20):
        state = ENGINE.new_game(a, b, DEFAULTS, seed)
        agent = RandomAgent(seed)
        while not state.is_terminal():
            copy = state.clone()
            assert isinstance(copy, SethState)
            assert list(copy.by_name.items()) == [(m.name, m) for m in copy.everyone]
            assert all(x is not y for x, y in zip(copy.everyone, state.everyone))
            state.apply_joint({p: agent.choose(state, p) for p in state.to_act()})


def test_a_clone_sets_every_field_sharing_only_the_fields_copied_as_they_are() -> None:
    """``clone`` copies the fields of ``_SHARED_FIELDS`` as they are and makes the rest: every
    slot of a clone is set, the shared ones to the very objects of the original."""
    from workbench.domain.engines.seth import state as state_module

    a, b = decks()
    state = ENGINE.new_game(a, b, DEFAULTS, 3)
    _ = state.rng  # a generator made: the clone copies it
    copy = state.clone()
    for name in SethState.__slots__:
        value = getattr(copy, name)  # raises AttributeError for a field left unset
        if name in state_module._SHARED_FIELDS:
            assert value is getattr(state, name), name
    assert copy._rng is not state._rng and copy._rng.getstate() == state._rng.getstate()
    assert set(state_module._SHARED_FIELDS) | state_module._CLONE_MADE == set(SethState.__slots__)


def test_every_monster_has_a_damage_factor_for_every_element() -> None:
    """``Monster.mult`` holds every element of ELEMENTS (the hot paths read ``mult[element]``
    without a default of 1): the factors a look-up with the default 1 gives, for every monster
    of played games and of their clones, with resist and vulnerable cards and option values
    that change the factors."""
    from workbench.domain.engines.seth.cards import ELEMENTS

    a, b = decks()
    for card in a["team"][:2] + b["team"][:2]:
        card["resist"], card["vulnerable"] = ["fire"], ["poison", "magical"]
    for seed in range(8):
        options = dict(DEFAULTS, _log=False, _allow_illegal=True, resist_factor=0.25 * (1 + seed % 3),
                       vulnerable_factor=1.5 + seed % 2)
        state = ENGINE.new_game(a, b, options, seed)
        agents = [HeuristicAgent(seed), HeuristicAgent(seed + 1)]
        while not state.is_terminal():
            for s in (state, state.clone()):
                for m in s.everyone:
                    assert set(m.mult) == set(ELEMENTS)
                    for e in ELEMENTS:
                        f = (options["resist_factor"] if e in m.card.resist else 1.0) * (
                            options["vulnerable_factor"] if e in m.card.vulnerable else 1.0)
                        assert m.mult[e] == m.mult.get(e, 1.0) == f
            state.apply_joint({p: agents[p].choose(state, p) for p in state.to_act()})


def test_poison_from_abilities_resolved_together_is_logged_as_their_sum() -> None:
    """Each ability's line says "now N" from the state as resolution began (§2.7.2), so two
    abilities poisoning one monster both said "now 1": a line after them gives the sum."""
    pool = [{"action": "add_poison", "target": "enemy_creature", "amount": 1}]
    found = 0
    for seed, state, queue in _queued_positions(2, 300, pool):
        (_, _, first, _), (_, _, second, _) = queue
        if first is None or first is not second or queue[0][0].owner != queue[1][0].owner:
            continue
        before = first.poison
        monsters, lines, *_ = _resolved(state, queue)
        total = f"  {first.label} has {before + 2} poison counter(s) after the abilities resolved together"
        assert total in lines, lines
        assert sum(f"{first.label} gets 1 poison counter(s)" in line for line in lines) == 2
        found += 1
    assert found >= 3
