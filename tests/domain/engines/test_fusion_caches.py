"""The fusion engine's speed measures must not change play: the cached
creature stats, the heuristic's reused declaration stats and the per-target Action tables.
Each test compares against a path that does not use the shortcut."""

from __future__ import annotations

import random
from typing import Any

import pytest

from workbench.domain.engines.base import RandomAgent
from workbench.domain.engines.fusion import ENGINE, FusionState
from workbench.domain.engines.fusion.agents import HeuristicAgent
from workbench.domain.engines.fusion.samples import sample_deck
from workbench.domain.engines.fusion.state import Shared

OPTIONS = {
    "start_life": 20, "start_hand": 5, "max_mulligans": 3, "mana_cap": 10, "hand_limit": 6,
    "max_creatures": 5, "max_set_magic": 5, "set_max_stars": 4, "first_player_skips_draw": True,
    "target_strikes_back": True, "_log": False,
}


def _games(kinds: tuple[str, str], n: int) -> Any:
    """Yield (state, agents) for ``n`` seeded games between the built-in decks, decks alternating."""
    aggro, control = sample_deck("aggro"), sample_deck("control")
    for g in range(n):
        a, b = (aggro, control) if g % 2 == 0 else (control, aggro)
        agents = [ENGINE.agents[kinds[0]](2 * g), ENGINE.agents[kinds[1]](2 * g + 1)]
        yield ENGINE.new_game(a, b, OPTIONS, g), agents


def _fresh_stats(s: FusionState, i: int) -> tuple[int, int]:
    saved = s._cb
    s._cb = None  # recompute the continuous bonuses too
    try:
        return s._stats(i)
    finally:
        s._cb = saved


def test_cached_creature_stats_always_equal_fresh_ones() -> None:
    """After every action each creature's cached (ATK, DEF) is what the rules compute anew."""
    checked = 0
    for kinds in (("heuristic", "heuristic"), ("random", "random")):
        for s, agents in _games(kinds, 24):
            while not s.is_terminal():
                (p,) = s.to_act()
                s.apply(agents[p].choose(s, p))
                for q in (0, 1):
                    for i in s.crea[q]:
                        assert s.atk_dfn(i) == _fresh_stats(s, i), f"stale stats of {s.names[i]}"
                        checked += 1
    assert checked > 1000


def test_reused_declaration_stats_choose_like_a_fresh_agent() -> None:
    """An attack declaration that reuses the previous one's stats picks what a new agent picks."""
    reused = 0
    for s, agents in _games(("heuristic", "heuristic"), 30):
        while not s.is_terminal():
            (p,) = s.to_act()
            agent = agents[p]
            last = agent._decl
            if s.step == "declare" and last is not None and last[0] is s and last[2] + 1 == len(s.attacks):
                reused += 1
                assert agent.choose(s, p) is HeuristicAgent(0).choose(s, p)
            s.apply(agent.choose(s, p))
    assert reused > 50


def _listing_matches_fresh_tables(s: FusionState, agents: list[Any]) -> int:
    seen = 0
    while not s.is_terminal():
        (p,) = s.to_act()
        fresh = s.clone()
        Shared(s.cards, s.names, s.owner).give_to(fresh)  # empty Action caches
        fresh._legal = None  # a clone keeps the list: build it anew
        listed = s.legal_actions(p)
        rebuilt = fresh.legal_actions(p)
        assert [(a.kind, a.args, a.text) for a in listed] == [(a.kind, a.args, a.text) for a in rebuilt]
        seen += len(listed)
        s.apply(agents[p].choose(s, p))
    return seen


def test_cached_actions_list_what_fresh_tables_list() -> None:
    """Actions read from the per-target tables (filled over many turns) are the ones a state
    with empty tables builds anew: same kinds, arguments and texts, in the same order."""
    for s, agents in _games(("heuristic", "random"), 6):
        assert _listing_matches_fresh_tables(s, agents) > 100
    logged = ENGINE.new_game(sample_deck("aggro"), sample_deck("control"), {**OPTIONS, "_log": True}, 7)
    assert _listing_matches_fresh_tables(logged, [HeuristicAgent(1), RandomAgent(2)]) > 100


def _positions(n: int) -> Any:
    """Positions of seeded heuristic games between the built-in decks, each after an action."""
    for s, agents in _games(("heuristic", "heuristic"), n):
        while not s.is_terminal():
            (p,) = s.to_act()
            s.apply(agents[p].choose(s, p))
            yield s


def test_clones_keep_the_listed_actions_and_stats_a_fresh_look_gives() -> None:
    """A clone shares the listed actions and copies the stats cache: both are what a clone
    that computes them anew finds; the statistics are copied on the clone's first write only,
    and writing them leaves the original's alone."""
    checked = 0
    for s in _positions(8):
        if s.is_terminal():
            continue
        p = s.actor
        listed = s.legal_actions(p)
        for i in s.crea[0] + s.crea[1]:
            s.atk_dfn(i)  # fill the cache the clone copies
        c = s.clone()
        assert c.legal_actions(p) is listed
        fresh = s.clone()
        fresh._legal = None
        assert [(a.kind, a.args) for a in fresh.legal_actions(p)] == [(a.kind, a.args) for a in listed]
        for i in c.crea[0] + c.crea[1]:
            assert c.atk_dfn(i) == _fresh_stats(c, i)
        before = [set(x) for x in s.stats.drawn]
        c.own_stats().drawn[p].add("a card only the clone drew")
        assert [set(x) for x in s.stats.drawn] == before
        assert "a card only the clone drew" in c.stats.drawn[p]
        checked += 1
    assert checked > 300


def test_determinized_worlds_cache_the_stats_of_their_own_cards() -> None:
    """determinize fills the stats cache of the re-dealt world: each creature's cached stats
    are what the rules compute for the card now in its slot."""
    rng = random.Random(3)
    checked = 0
    for s in _positions(8):
        if s.is_terminal() or not s.down:
            continue
        world = s.determinize(s.actor, rng)
        for i in world.crea[0] + world.crea[1]:
            assert world._sc[i] == _fresh_stats(world, i)
            checked += 1
    assert checked > 100


def _plain_guess(s: FusionState, q: int) -> tuple[int, int]:
    """agents._guess by its definition: the mean stats of q's unseen settable creatures."""
    unseen = s.hand[q] + s.deck[q] + [i for i in s.crea[q] if i in s.down]
    pool = [s.cards[i] for i in unseen
            if s.cards[i].kind == "creature" and s.cards[i].stars <= s.opts.set_max_stars]
    if not pool:
        return (0, 1)
    return (round(sum(c.atk for c in pool) / len(pool)), round(sum(c.dfn for c in pool) / len(pool)))


def test_face_down_guess_is_the_mean_of_the_unseen_settable_creatures() -> None:
    """The guess counted from each player's settable creatures less the seen ones is the plain
    mean over hand, deck and face-down creatures: built-in decks, and the bundled decks (extra
    decks, fusion summons) in heuristic and random games."""
    from tests.domain.engines.test_engine_contract import bundled
    from workbench.domain.engines.fusion.agents import _guess

    checked = 0
    for s in _positions(6):
        for q in (0, 1):
            assert _guess(s, q) == _plain_guess(s, q)
            checked += 1
    a, b, options = bundled("fusion")
    for g in range(8):
        s = ENGINE.new_game(a, b, options, g) if g % 2 == 0 else ENGINE.new_game(b, a, options, g)
        agents = [ENGINE.agents["heuristic" if g % 4 < 2 else "random"](g + k) for k in (0, 1)]
        while not s.is_terminal():
            for q in (0, 1):
                assert _guess(s, q) == _plain_guess(s, q)
                checked += 1
            (p,) = s.to_act()
            s.apply(agents[p].choose(s, p))
    assert checked > 2000


def test_fusion_choices_are_what_the_interpreter_finds() -> None:
    """fusing.fusion_choices (cached by the cards that could be materials, copies of one
    extra-deck creature searched once, needs counted before the search) lists what the plain
    ``interpreter.fusion_options`` lists in positions of the bundled decks, whose extra decks
    fuse; the cache is warm from the positions before, as in play."""
    from tests.domain.engines.test_engine_contract import bundled
    from workbench.domain.effects.interpreter import fusion_options
    from workbench.domain.engines.fusion.adapter import ADAPTER
    from workbench.domain.engines.fusion.fusing import fusion_choices

    a, b, options = bundled("fusion")
    fusing = [0, 0]  # positions checked with no option, with some
    for g in range(16):
        s = ENGINE.new_game(a, b, options, g) if g % 2 == 0 else ENGINE.new_game(b, a, options, g)
        agents = [ENGINE.agents["heuristic" if g % 4 < 2 else "random"](g + k) for k in (0, 1)]
        while not s.is_terminal():
            (p,) = s.to_act()
            for q in (0, 1):
                for i in s.hand[q] + s.crea[q]:
                    for e in s.cards[i].on_play:
                        if e.action == "fusion_summon":
                            plain = fusion_options(e, ADAPTER.source(s, q, i, 0), s, ADAPTER)
                            assert fusion_choices(s, q, i, e) == plain
                            fusing[bool(plain)] += 1
            s.apply(agents[p].choose(s, p))
    assert fusing[0] > 100 and fusing[1] > 100, fusing


def _plain_best(agent: HeuristicAgent, s: FusionState, p: int, acts: list[Any], step: str) -> Any:
    """_best_play by its definition for abilities, pass and end: the first action of the best
    ``_score`` (pass in an answer window unless one scores above 0.5)."""
    best, best_score = acts[0], float("-inf")
    for a in acts:
        score = agent._score(s, p, a)
        if score > best_score:
            best, best_score = a, score
    if best_score <= 0.5 and step in ("respond", "window"):
        return acts[0]
    return best


def test_inline_ability_scores_choose_what_the_plain_scores_choose() -> None:
    """_best_play scores abilities inline (one action per target); among the listed abilities,
    pass and end it picks what the plain per-action ``_score`` picks."""
    from tests.domain.engines.test_engine_contract import bundled

    a, b, options = bundled("fusion")
    checked = 0
    for g in range(12):
        s = ENGINE.new_game(a, b, options, g) if g % 2 == 0 else ENGINE.new_game(b, a, options, g)
        agents = [HeuristicAgent(g), HeuristicAgent(g + 1)]
        while not s.is_terminal():
            (p,) = s.to_act()
            acts = [x for x in s.legal_actions(p) if x.kind in ("activate", "pass", "end")]
            if s.step in ("main", "respond", "window") and any(x.kind == "activate" for x in acts):
                judge = HeuristicAgent(0)
                assert judge._best_play(s, p, acts, s.step) is _plain_best(judge, s, p, acts, s.step)
                for x in acts:  # each pair too: the order of every two scores
                    for y in acts:
                        if x is not y:
                            assert judge._best_play(s, p, [x, y], s.step) is _plain_best(judge, s, p, [x, y], s.step)
                checked += 1
            s.apply(agents[p].choose(s, p))
    assert checked > 100, checked


def test_declaration_after_an_attack_lists_what_the_plain_listing_lists() -> None:
    """Right after an attack is declared, ``apply`` derives the next declaration's list from the
    previous one (``_declared_from``): the same Actions, in the same order, as ``_declare_actions``
    finds anew, in heuristic and random games of the built-in and the bundled decks, two and three
    players."""
    from tests.domain.engines.test_engine_contract import bundled

    card_a, card_b, card_options = bundled("fusion")

    def games() -> Any:
        yield from _games(("heuristic", "heuristic"), 30)
        yield from _games(("random", "random"), 10)
        for g in range(30):
            a, b = (card_a, card_b) if g % 2 == 0 else (card_b, card_a)
            yield ENGINE.new_game(a, b, card_options, g), [HeuristicAgent(2 * g), HeuristicAgent(2 * g + 1)]
        for g in range(10):  # three players: attacks on either opponent or its creatures
            decks = [(card_a, card_b)[(k + g) % 2] for k in range(3)]
            yield ENGINE.new_seated(decks, card_options, g), [HeuristicAgent(3 * g + k) for k in range(3)]

    derived = 0
    for s, agents in games():
        while not s.is_terminal():
            (p,) = s.to_act()
            if s.step == "declare" and s._legal is not None:
                derived += 1
                listed = s._legal
                plain = s._declare_actions(p)
                assert [(a.kind, a.args) for a in listed] == [(a.kind, a.args) for a in plain]
                assert all(a is b for a, b in zip(listed, plain))  # the same cached Actions
            s.apply(agents[p].choose(s, p))
    assert derived > 200


def test_a_calm_battle_window_player_can_still_only_pass() -> None:
    """While ``_calm`` holds (a player could only pass in the window after the declaration, and
    only battle declarations came since), that player's plain ``_only_pass`` in a battle window
    is still true: at every decision and after every action of seeded games, built-in and
    bundled decks, two and three players."""
    from tests.domain.engines.test_engine_contract import bundled

    card_a, card_b, card_options = bundled("fusion")

    def games() -> Any:
        yield from _games(("heuristic", "heuristic"), 30)
        yield from _games(("random", "random"), 10)
        for g in range(30):
            a, b = (card_a, card_b) if g % 2 == 0 else (card_b, card_a)
            yield ENGINE.new_game(a, b, card_options, g), [HeuristicAgent(2 * g), HeuristicAgent(2 * g + 1)]
        for g in range(10):
            decks = [(card_a, card_b)[(k + g) % 2] for k in range(3)]
            yield ENGINE.new_seated(decks, card_options, g), [HeuristicAgent(3 * g + k) for k in range(3)]

    def check(s: FusionState) -> int:
        calm = s._calm
        if calm is None or calm[1] is not s.attacks or s.over:
            return 0
        plain = s.clone()
        plain.actor, plain.step, plain.wstage = calm[0], "window", "blocked"
        assert plain._only_pass(), f"P{calm[0] + 1} could answer now ({s.step})"
        return 1

    checked = 0
    for s, agents in games():
        while not s.is_terminal():
            checked += check(s)
            (p,) = s.to_act()
            s.apply(agents[p].choose(s, p))
            checked += check(s)
    assert checked > 500


def test_calm_ends_with_any_other_action_a_trigger_or_a_resolution() -> None:
    """What keeps ``_calm`` true to its definition: an action that is no battle declaration, a
    triggered effect and a resolving chain link each drop it, and a clone (its own attacks
    list) never reads the original's."""
    from workbench.domain.engines.fusion.state import _CALM_KINDS

    assert _CALM_KINDS == {"pass", "retarget", "block", "done", "order"}
    found = 0
    for s in _positions(30):
        if s._calm is None or s._calm[1] is not s.attacks or s.over:
            continue
        found += 1
        w = s._calm[0]
        assert s.clone()._calm[1] is not s.clone().attacks  # a clone's windows ask anew
        triggered = s.clone()
        triggered._calm = (w, triggered.attacks)
        src = triggered.crea[w][0] if triggered.crea[w] else triggered.attacks[0][0]
        triggered._trigger(w, src, _any_effect(triggered))
        assert triggered._calm is None
        resolved = s.clone()
        resolved._calm = (w, resolved.attacks)
        resolved.chain.append([w, src, "effect", (), (), 0, 1, True])  # a negated link: nothing else happens
        resolved._resolve_top()
        assert resolved._calm is None
        (p,) = s.to_act()
        other = [a for a in s.legal_actions(p) if a.kind not in _CALM_KINDS]
        if other:
            acted = s.clone()
            acted._calm = (w, acted.attacks)
            acted.apply(other[0])
            assert acted._calm is None or acted._calm[1] is acted.attacks and acted.step == "window"
    assert found > 20


def _any_effect(s: FusionState) -> Any:
    """Some effect of a card in the game (what it does is not read: only that it triggered)."""
    for card in s.cards:
        for e in card.on_play:
            return e
    raise AssertionError("no card with an effect")


def test_declarations_checked_one_by_one_are_the_listed_ones() -> None:
    """``attack_listed`` and ``_declares`` (how the heuristic declares and ``apply`` checks a
    declaration without listing it) hold for exactly the attacks ``_declare_actions`` lists —
    every pair of a creature and a target or player — and the heuristic without the list
    declares what it declares from the list; built-in and bundled decks, two and three players."""
    from tests.domain.engines.test_engine_contract import bundled
    from workbench.domain.engines.base import Action
    from workbench.domain.engines.fusion.state import FIXED, PLAYER, _PTOK

    card_a, card_b, card_options = bundled("fusion")

    def games() -> Any:
        yield from _games(("heuristic", "heuristic"), 20)
        yield from _games(("random", "random"), 10)
        for g in range(20):
            a, b = (card_a, card_b) if g % 2 == 0 else (card_b, card_a)
            yield ENGINE.new_game(a, b, card_options, g), [HeuristicAgent(2 * g), HeuristicAgent(2 * g + 1)]
        for g in range(10):
            decks = [(card_a, card_b)[(k + g) % 2] for k in range(3)]
            yield ENGINE.new_seated(decks, card_options, g), [HeuristicAgent(3 * g + k) for k in range(3)]

    checked = 0
    for s, agents in games():
        while not s.is_terminal():
            (p,) = s.to_act()
            if s.step == "declare":
                listed = s._declare_actions(p)
                keys = {(a.kind, a.args) for a in listed}
                creatures = [i for zone in s.crea for i in zone]
                for i in creatures:
                    # every seat but, with two players, the own ("player" names the opponent)
                    seats = [q for q in range(s.np) if s.np > 2 or q != p]
                    for t in creatures + [-1 - q for q in seats]:
                        action = s.attack_listed(i, t)
                        assert action is None or s._vouched is action  # apply takes it unchecked
                        target = (PLAYER if s.np == 2 else _PTOK[-1 - t]) if t < 0 else s.names[t]
                        want = ("attack", (s.names[i], target))
                        assert (action is not None) == (want in keys), want
                        assert action is None or (action.kind, action.args) == want
                        found = s._declares(Action(*want))
                        assert (found is not None) == (want in keys) and (found is None or found is action)
                        checked += 1
                for kind in ("go", "end_battle"):
                    found = s._declares(Action(kind, ()))
                    assert (found is not None) == ((kind, ()) in keys)
                    assert found is None or found is listed[-1]  # the listed Action, with its text
                agent = agents[p]
                if isinstance(agent, HeuristicAgent):
                    lazy = HeuristicAgent(0)._declare(s, p, None)
                    assert lazy is HeuristicAgent(0)._declare(s, p, listed)
            s.apply(agents[p].choose(s, p))
    assert checked > 5000


def test_a_declaration_with_malformed_arguments_is_refused_as_illegal() -> None:
    """A free-form move from a play table carries any JSON: in a declaration, arguments that are
    no card or seat names are an IllegalAction (the table answers 4xx), never a crash of the
    shortcut that checks a declaration without listing it."""
    from workbench.domain.engines.base import Action
    from workbench.domain.errors import IllegalAction

    for s in _positions(30):
        if s.step != "declare" or s.over:
            continue
        attacker = s.names[s.crea[s.actor][0]] if s.crea[s.actor] else "nobody"
        for args in (({"a": 1}, "player"), (attacker, ["x"]), (attacker, {"b": 2}), (attacker,), (1, 2, 3)):
            with pytest.raises(IllegalAction):
                s.clone().apply(Action("attack", args))
        return
    raise AssertionError("no declaration among the positions")


def test_an_attack_found_legal_in_one_position_is_checked_again_in_the_next() -> None:
    """``apply`` takes the attack ``attack_listed`` just found legal without checking it again
    (the heuristic's declarations); after any move that attack is checked like any other, so a
    creature that has attacked cannot be declared again with the same Action."""
    from workbench.domain.errors import IllegalAction

    for s, agents in _games(("heuristic", "heuristic"), 20):
        while not s.is_terminal():
            (p,) = s.to_act()
            action = agents[p].choose(s, p)
            if s.step == "declare" and action.kind == "attack" and s._legal is None:
                assert s._vouched is action
                s.apply(action)
                assert s._vouched is None
                if s.step == "declare" and s.actor == p:
                    with pytest.raises(IllegalAction):
                        s.clone().apply(action)  # its attacker is tapped now
                    return
                continue
            s.apply(action)
    raise AssertionError("no second declaration in a row among the games")
