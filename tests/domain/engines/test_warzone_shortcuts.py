"""The warzone engine's and heuristic's speed shortcuts give what their plain definitions give.

Positions come from seeded random games on the sample decks (and under other rule options);
at each one the fast path is compared with a straightforward reference written here: the
heuristic's attack values, a new recruit's "has a paying attack", the recruit potential, the
trap-window check, the per-field caches (rows, instance-name index) after every action, and
the heuristic's own scoring loop against score() for every listed action.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

import pytest

from tests.domain.engines.warzone_fixtures import BASTION, RUSH, options, sample_deck
from workbench.domain.engines.base import RandomAgent
from workbench.domain.engines.warzone import ENGINE, WarzoneState
from workbench.domain.engines.warzone import agents
from workbench.domain.engines.warzone.core import WarzoneCore
from workbench.domain.engines.warzone.cards import BATTLING, GUARDING
from workbench.domain.engines.warzone.rules import (
    band_limit,
    battle_tuple,
    can_direct,
    can_reach,
    reach_by_rows,
)
from workbench.domain.engines.warzone.units import Unit

VARIANTS = [
    {},
    {"interceptors_per_attack": 2, "guarding_can_attack": True, "damage_step_single": False},
    {"attacker_excess_battle_damage": False, "recruit_limit_by_highest_degree": False},
]


def positions(games: int = 6, **opts: object) -> Iterator[WarzoneState]:
    """Every position of a few seeded random games (decks and seats alternating)."""
    for seed in range(games):
        decks = (sample_deck(RUSH), sample_deck(BASTION))
        if seed % 2:
            decks = decks[::-1]
        state = ENGINE.new_game(decks[0], decks[1], options(_log=False, **opts), seed)
        agent = RandomAgent(seed)
        while not state.is_terminal():
            yield state
            player = state.to_act()[0]
            state.apply(agent.choose(state, player))
        yield state


# ------------------------------------------------------------------ references

def reference_attack_values(state: WarzoneState, u: Unit) -> dict[str, float]:
    """attack_values as documented: every reachable target, the defender answering with its
    worst-for-us interceptor of a lower Class (any creature against a Direct Attack) 60 % of
    the time, comrades still to attack able to finish a wound."""
    foe = state.p[1 - u.owner]
    rows = foe.rows()
    cfg = state.cfg
    us = agents._stats(state, u)
    followers = None
    if state.phase == "war" and state.active == u.owner:
        followers = [(x, agents._stats(state, x)) for x in state.p[u.owner].field
                     if x is not u and not x.attacked
                     and (x.pos == BATTLING or cfg.guard_attacks)]

    def value(v: Unit) -> float:
        vs = agents._stats(state, v)
        guarding = v.pos == GUARDING
        att_left, def_left, att_dies, def_dies, to_att, to_def = battle_tuple(
            cfg, u.cls, us[0], us[1], v.cls, vs[0], vs[1], guarding)
        if def_dies:
            val = vs[2]
        else:
            val = 0.1 * (vs[1] - def_left)
            for x, xs in (followers or []) if def_left > 0 else []:
                if can_reach(x.cls, x.card.master, v.cls, rows):
                    f = battle_tuple(cfg, x.cls, xs[0], xs[1], v.cls, vs[0], def_left, guarding)
                    if f[3] and not f[2]:
                        val = 0.6 * vs[2]
                        break
        val = val - us[2] if att_dies else val - 0.3 * (us[1] - att_left)
        if not att_dies and exposed(att_left):
            val -= agents._EXPOSED  # left Battling where one overflow is the last Damage Card
        if to_def:
            val += agents.damage_value(state, v.owner, to_def)
        if to_att:
            val -= agents.damage_value(state, u.owner, to_att)
        return val

    def exposed(left: int) -> bool:
        if followers is None or cfg.pile_limit - len(state.p[u.owner].pile) > 1 or not foe.field:
            return False
        strongest = max(agents._stats(state, w)[0] for w in foe.field)
        return strongest > left and agents.damage_value(state, u.owner, strongest - left) >= agents.LETHAL

    per_unit = [(w, value(w)) for w in foe.field]
    out: dict[str, float] = {}
    intercept = cfg.interceptors > 0
    for v, val in per_unit:
        if can_reach(u.cls, u.card.master, v.cls, rows):
            if intercept:
                worst = min([val] + [wval for w, wval in per_unit if w.cls < v.cls])
                val = 0.6 * worst + (1 - 0.6) * val
            out[v.iid] = val
    if can_direct(u.cls, u.card.master, rows):
        val = agents.damage_value(state, 1 - u.owner, us[0])
        if val < agents.LETHAL and exposed(us[1]):
            val -= agents._EXPOSED
        if intercept:
            worst = min([val] + [wval for _, wval in per_unit])
            val = 0.6 * worst + (1 - 0.6) * val
        out["direct"] = val
    return out


def reference_potential(state: WarzoneState, player: int, card) -> float:
    """The card's body plus the best other bodies in hand that fit under the limit it sets."""
    high = max(state.highest, card.degree)
    slots = band_limit(high) - state.count - 1
    band = 0 if high <= 1 else (1 if high <= 3 else 2)
    others = sorted((c.value for c in state.p[player].hand
                     if c is not card and c.kind == "creature" and c.band <= band), reverse=True)
    return float(card.value + sum(others[:max(slots, 0)]))


# ------------------------------------------------------------------ the heuristic's shortcuts

@pytest.mark.parametrize("variant", VARIANTS)
def test_attack_values_equal_their_definition(variant: dict) -> None:
    compared = 0
    for state in positions(4, **variant):
        for pl in state.p:
            for u in pl.field:
                assert agents.attack_values(state, u) == reference_attack_values(state, u)
                compared += 1
    assert compared > 200


@pytest.mark.parametrize("variant", VARIANTS[:2])
def test_a_new_recruit_pays_exactly_when_its_best_attack_does(variant: dict) -> None:
    outcomes = set()
    for state in positions(4, **variant):
        if state.is_terminal() or state.pending is not None or state.phase != "recruit":
            continue
        me = state.active
        for card in state.p[me].hand:
            if card.kind != "creature":
                continue
            fast = agents._fresh_attack_pays(state, card, {})
            assert fast == (agents.best_attack(state, Unit(card, BATTLING)) > 0), card.iid
            outcomes.add(fast)
    assert outcomes == {True, False}  # both answers occur, so both paths were compared


def test_recruit_potential_counts_the_best_bodies_that_fit() -> None:
    agent = agents.HeuristicAgent(0)
    compared = 0
    for state in positions(4):
        if state.is_terminal() or state.pending is not None or state.phase == "war":
            continue
        me = state.active
        plan: dict = {}
        for card in state.p[me].hand:
            if card.kind == "creature":
                assert agent._potential(state, me, card, plan) == reference_potential(
                    state, me, card)
                compared += 1
    assert compared > 100


# ------------------------------------------------------------------ the engine's shortcuts

def reference_hand_part(hand, band_ok, set_traps) -> tuple[list, list]:
    """The first copy of each card id in hand order: creatures whose Degree band is open and
    spells; those without a chosen target give their actions, the others are listed as cards;
    settable creatures may also be set, traps with an effect are set (when ``set_traps``)."""
    plain, targeted, seen = [], [], set()
    for card in hand:
        if card.id in seen:
            continue
        seen.add(card.id)
        if card.kind == "creature" and band_ok[card.band]:
            (plain.extend(card.recruit_acts) if card.plain_play else targeted.append(card))
            if card.settable:
                plain.append(card.set_act)
        elif card.kind == "spell":
            (plain.append(card.spell_act) if card.plain_play else targeted.append(card))
        elif card.kind == "trap" and card.on_play and set_traps:
            plain.append(card.set_act)
    return plain, targeted


def test_hand_part_lists_the_first_copy_of_each_playable_card() -> None:
    from workbench.domain.engines.warzone.state import _hand_part

    duplicates = 0
    for state in positions(4):
        for pl in state.p:
            for band_ok in ((True, True, True), (True, False, False), (False, True, False)):
                for set_traps in (True, False):
                    _, _, plain, targeted = _hand_part(pl.hand, band_ok, set_traps)
                    assert (list(plain), list(targeted)) == reference_hand_part(
                        pl.hand, band_ok, set_traps)
            duplicates += len({c.id for c in pl.hand}) < len(pl.hand)
    assert duplicates > 50  # hands holding two copies of a card were compared

def test_reach_by_rows_is_can_reach_and_can_direct_for_every_attacker() -> None:
    """The War phase's reach table (one per defender rows, a row per Card.reach_kind) says
    what can_reach and can_direct say, and every card of the sample decks finds its row."""
    for rows in product(range(4), repeat=3):
        table = reach_by_rows(rows)
        for cls in (1, 2, 3):
            for master in (False, True):
                reach = table[2 * cls + master]
                assert reach[1:4] == tuple(can_reach(cls, master, t, rows) for t in (1, 2, 3))
                assert reach[4] == can_direct(cls, master, rows)
    for state in positions(2):
        for pl in state.p:
            for card in pl.deck + pl.hand + [u.card for u in pl.field]:
                if card.kind == "creature":
                    assert card.reach_kind == 2 * card.cls + card.master


@pytest.mark.parametrize("opts", [{}, {"traps_set_first": False}])
def test_answer_check_agrees_with_the_listed_answers(opts) -> None:
    """_may_answer (no listing, a shortcut for the common "no answer") says what listing says,
    with a chain open on each kind of link the state could hold."""
    seen = set()
    for state in positions(6, **opts):
        if state.is_terminal() or state.phase == "start":
            continue
        saved = state.chain  # positions() plays on: put the real chain back
        for c in (0, 1):
            for link in (("attack", 1 - c, None, (), (), "x", None),
                         ("spell", 1 - c, None, (), (), None, None)):
                state.chain = [link]
                listed = bool(state._answers(c, True))
                assert state._may_answer(c) == listed
                seen.add(listed)
        state.chain = saved
    assert seen == {True, False}


@pytest.mark.parametrize("opts", [{}, {"traps_set_first": False}])
def test_the_chain_opens_only_when_an_answer_may_exist(opts) -> None:
    """effects._open and _link skip _may_answer when the player has no set trap and no quick
    card while traps are set first: there is then no answer to list."""
    skipped = 0
    for state in positions(4, **opts):
        if state.is_terminal() or state.phase == "start":
            continue
        saved = state.chain
        for c in (0, 1):
            me = state.p[c]
            if me.traps or me.quick or not state.cfg.set_first:
                continue
            for link in (("attack", 1 - c, None, (), (), "x", None),
                         ("spell", 1 - c, None, (), (), None, None)):
                state.chain = [link]
                assert not state._answers(c, True) and not state._may_answer(c)
                skipped += 1
        state.chain = saved
    assert skipped > 20 or opts


def test_field_caches_follow_every_change_of_the_field() -> None:
    steps = 0
    for state in positions(4):
        for clone in (state, state.clone()):
            for pl in clone.p:
                counts = tuple(sum(1 for u in pl.field if u.cls == c) for c in (1, 2, 3))
                assert pl.rows() == counts
                for u in pl.field:
                    assert clone.unit(u.iid) is u and pl.unit(u.iid) is u
            for card in clone.p[0].hand + clone.p[1].discard:
                assert clone.unit(card.iid) is None  # left the field, or never entered it
        steps += 1
    assert steps > 300


# ------------------------------------------------------------------ search and new-game shortcuts

def _card_file(card_id: str) -> dict:
    import yaml

    from tests.domain.engines.warzone_fixtures import DATA

    card = yaml.safe_load((DATA / "cards" / f"{card_id}.yaml").read_text(encoding="utf-8"))
    card["id"] = card_id
    return card


def test_a_clone_and_its_parent_draw_what_copies_of_the_generator_draw() -> None:
    """The generator is shared frozen by a clone and its parent until one draws (state.rng):
    each then draws what a copy made at the clone draws, whichever draws first, and so do
    clones of clones and re-dealt worlds (seeded from the caller's generator)."""
    import random

    checked = 0
    for k, state in enumerate(positions(2)):
        if k % 15:
            continue
        copy = random.Random()
        copy.setstate(state.rng.getstate())
        expected = [copy.random() for _ in range(4)]
        clone = state.clone(quiet=bool(k % 2))
        grand = clone.clone()
        first, second = (clone, state) if k % 2 else (state, clone)
        assert [first.rng.random() for _ in range(4)] == expected
        assert [second.rng.random() for _ in range(4)] == expected
        assert [grand.rng.random() for _ in range(4)] == expected
        again = random.Random()
        again.setstate(state.rng.getstate())  # the parent drew: it has a live generator again
        later = state.clone()
        value = again.random()
        assert later.rng.random() == value and state.rng.random() == value
        # a re-dealt world's generator is random.Random(64 bits of the caller's), made lazily
        caller = random.Random(k)
        world = state.determinize(k % 2, caller)
        twin = world.clone()
        assert [twin.rng.random() for _ in range(3)] == [world.rng.random() for _ in range(3)]
        checked += 1
    assert checked > 5


def test_a_seeded_generator_is_random_random_of_that_seed() -> None:
    import random

    state = ENGINE.new_game(sample_deck(RUSH), sample_deck(BASTION), options(_log=False), 3)
    state.seed_rng(12345)
    clone = state.clone()
    expected = [random.Random(12345).random()]
    assert [clone.rng.random()] == expected and [state.rng.random()] == expected


def test_quiet_configs_are_made_once_with_logging_off() -> None:
    state = ENGINE.new_game(sample_deck(RUSH), sample_deck(BASTION), options(_log=True), 3)
    cfg = state.cfg
    quiet = cfg.quiet()
    assert quiet is cfg.quiet() and quiet is not cfg and quiet.quiet() is quiet
    assert not quiet.log and cfg.log
    for name in type(cfg).__slots__:
        if name not in ("log", "quiet_twin"):
            assert getattr(quiet, name) == getattr(cfg, name)


def test_a_new_game_knows_what_of_effects_v2_its_decks_use() -> None:
    """new_game takes the flags from the decks (setup._deck_cards); ADAPTER.flags finds them by
    looking at every card of the position."""
    from workbench.domain.engines.warzone.adapter import ADAPTER

    watchers = [_card_file(c) for c in ("tithe-collector", "war-drummer", "shadow-runner",
                                        "veiled-sentinel")]
    rush, bastion = sample_deck(RUSH), sample_deck(BASTION)
    decks = [(rush, bastion), ({**rush, "main": rush["main"] + watchers}, bastion),
             (rush, {**bastion, "main": watchers + bastion["main"]})]
    found = set()
    for a, b in decks:
        state = ENGINE.new_game(a, b, options(_log=False), 1)
        fresh = state.clone()
        fresh._flags = None
        assert state._flags == ADAPTER.flags(fresh)
        found |= state._flags
    assert {"on_draw", "on_phase", "static"} <= found


def test_the_quick_spell_check_is_kept_per_hand() -> None:
    """Player.quick_spells (does the hand hold a quick spell?) follows every change of the hand,
    clones included."""
    from workbench.domain.engines.warzone.cards import make_card

    dart = make_card("a-dart-1", {"id": "dart", "name": "Quick Dart", "kind": "spell", "effects": [
        {"trigger": "on_play", "action": "damage", "target": "opponent", "amount": 100,
         "speed": 2}]}, 1)
    assert dart.quick
    checked = 0
    for k, state in enumerate(positions(3)):
        if state.is_terminal() or state.phase == "start" or k % 3:
            continue
        saved = state.chain  # positions() plays on: put the real chain back
        for c in (0, 1):
            state.chain = [("spell", 1 - c, None, (), (), None, None)]
            pl = state.p[c]
            pl.quick = True  # the sample decks hold no quick card: look at the hand all the same
            state._may_answer(c)
            cached = pl.quick_spells
            assert cached is not None and cached[1] == any(card.quick for card in pl.hand)
            clone = state.clone()
            clone.p[c].traps = []  # the set traps are looked at first
            clone.p[c].hand.append(dart)
            assert clone._may_answer(c)  # a quick spell answers a spell (§1.12.1)
            assert clone.p[c].quick_spells[1]
            clone.p[c].hand.remove(dart)
            assert clone._may_answer(c) == bool(clone._answers(c, True))
            checked += 1
        state.chain = saved
    assert checked > 20


def test_area_values_count_the_creatures_of_each_class() -> None:
    """area_value's inputs (counted at C speed, kept for the decision) are the plain counts of
    creatures by Class in each side's hand and deck, and a kept plan changes no value."""
    checked = 0
    for seed in range(6):
        state = ENGINE.new_game(sample_deck(RUSH), sample_deck(BASTION), options(_log=False), seed)
        while state.pending is not None and state.pending[0] == "areas":
            p = state.pending[1]
            cards, own, theirs = agents._area_inputs(state, p)
            for side, counts in ((p, own), (1 - p, theirs)):
                pl = state.p[side]
                assert counts == [0] + [sum(1 for c in pl.hand + pl.deck
                                            if c.kind == "creature" and c.cls == k) for k in (1, 2, 3)]
            plan: dict = {}
            for act in state.legal_actions(p):
                assert agents.area_value(state, p, act.args, plan) == agents.area_value(
                    state, p, act.args)
                checked += 1
            state.apply(state.legal_actions(p)[seed % 2])
    assert checked > 20


def test_position_value_sums_unit_value() -> None:
    """position_value's material (summed from _all_stats when no filtered standing change is in
    play) is the sum of unit_value over each field, as written in its definition."""
    import math

    checked = 0
    for k, state in enumerate(positions(4)):
        if k % 5:
            continue
        for player in (0, 1):
            score = 0.0
            for side, sign in ((player, 1.0), (1 - player, -1.0)):
                pl = state.p[side]
                material = sum(agents.unit_value(state, u) for u in pl.field)
                room = max(state.cfg.pile_limit - len(pl.pile), 0)
                health = 2500.0 * (pl.life / state.cfg.start_life + room / state.cfg.pile_limit)
                score += sign * (material + health + 150.0 * len(pl.hand))
            assert agents.position_value(state, player) == 1.0 / (1.0 + math.exp(-score / 1500.0))
            checked += 1
    assert checked > 50


_QUICK_DART = {"id": "dart", "name": "Quick Dart", "kind": "spell", "effects": [
    {"trigger": "on_play", "action": "damage", "target": "opponent", "amount": 100, "speed": 2}]}
_LURKER = {"id": "lurker", "name": "Reed Lurker", "kind": "creature", "class": 2, "degree": 4,
           "strength": 700, "resilience": 600, "keywords": ["settable"]}


def test_a_new_game_knows_which_players_hold_quick_or_settable_cards() -> None:
    """Player.quick and Player.settable, taken by new_game from the deck and kept by clones and
    re-dealt worlds, say whether any of the player's cards is a quick spell or has a quick
    effect, and whether any is a settable creature; a player built otherwise assumes both."""
    from workbench.domain.engines.warzone.units import Player

    assert Player(2500).quick and Player(2500).settable
    rush, bastion = sample_deck(RUSH), sample_deck(BASTION)
    seen = set()
    for extra_a, extra_b in (([], []), ([_QUICK_DART], []), ([], [_LURKER]),
                             ([_QUICK_DART, _LURKER], [_QUICK_DART])):
        state = ENGINE.new_game({**rush, "main": rush["main"] + extra_a},
                                {**bastion, "main": extra_b + bastion["main"]}, options(_log=False), 2)
        for world in (state, state.clone(), state.determinize(0, __import__("random").Random(1))):
            for k, pl in enumerate(world.p):
                cards = pl.deck + pl.hand + (state.to_place[k] or [] if state.to_place else [])
                assert pl.quick == any(c.quick or c.quick_effect for c in cards)
                assert pl.settable == any(c.settable for c in cards)
                seen.add((pl.quick, pl.settable))
    assert seen == {(False, False), (True, False), (False, True), (True, True)}


def test_damage_value_and_left_equal_their_plain_definitions() -> None:
    """damage_value splits damage as rules.damage_split does (inlined there), and state.left
    is resilience minus the damage carried (its body inlined), under every §1.10 option."""
    from workbench.domain.engines.warzone.rules import damage_split

    checked = 0
    for variant in VARIANTS:
        for k, state in enumerate(positions(3, **variant)):
            if k % 4:
                continue
            for u in state.p[0].field + state.p[1].field:
                assert state.left(u) == state.resilience(u) - u.damage
            cfg = state.cfg
            for player in (0, 1):
                pl = state.p[player]
                for amount in (0, 50, 450, 499, 500, 950, 1000, 2600):
                    if amount <= 0:
                        expected = 0.0
                    else:
                        cards, rest = damage_split(cfg, amount)
                        room = cfg.pile_limit - len(pl.pile)
                        if rest >= pl.life or cards >= room or cards > len(pl.deck):
                            expected = agents.LETHAL
                        else:
                            expected = 3000.0 * (rest / pl.life + cards / room)
                    assert agents.damage_value(state, player, amount) == expected
                    checked += 1
    assert checked > 500


def test_in_play_is_the_creature_itself_on_a_field() -> None:
    """ADAPTER.in_play (an identity scan of both fields) says what its definition says: the
    creature with that instance name on either field is this very unit."""
    from workbench.domain.engines.warzone.adapter import ADAPTER

    checked = 0
    for k, state in enumerate(positions(3)):
        if k % 3:
            continue
        units = state.p[0].field + state.p[1].field
        for u in units + [x.copy() for x in units]:
            assert ADAPTER.in_play(state, u) == (state.unit(u.iid) is u)
            checked += 1
    assert checked > 200



def test_the_state_keeps_its_fields_in_slots_and_a_clone_sets_every_one() -> None:
    """A field added to __init__ but not to __slots__ fails at once; one that clone() forgets
    reads as unset here."""
    for state in positions(games=2):
        assert not hasattr(state, "__dict__")
        copy = state.clone()
        for name in WarzoneCore.__slots__:
            getattr(state, name)  # AttributeError: a slot __init__ never sets
            getattr(copy, name)  # AttributeError: a slot clone leaves unset


def plain_choice(state: WarzoneState, player: int, acts: list) -> tuple[object, list]:
    """The heuristic's one-ply decision as its docstring defines it: every listed action scored
    by ``HeuristicAgent.score`` (each with a plan of its own), the best one (the first listed
    among equals) with the recruit position ``_placed`` chooses; and, in the player's own
    phase, the rest of the actions that score above 0, best first, as the moves to take next.
    A Guarding recruit scores as its Battling twin and is never queued (its position is chosen
    when the twin is taken)."""
    agent = agents.HeuristicAgent(0)
    scores = [agent.score(state, player, act, {}) for act in acts]
    best = acts[scores.index(max(scores))]
    if best.kind == "recruit":
        best = agent._placed(state, player, best, acts, {})
    ranked = sorted((-s, i) for i, s in enumerate(scores)
                    if s > 0 and not (acts[i].kind == "recruit" and acts[i].args[1] == GUARDING))
    rest = [acts[i] for _, i in ranked[1:]] if state.pending is None else []
    return best, rest


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_fresh_decision_chooses_and_ranks_what_scoring_every_action_does(variant: dict) -> None:
    """HeuristicAgent._choose scores the commonest kinds in its own loop (recruits sharing a
    card's body value, an attacker's values computed once, positions by a dict) instead of
    calling score() for each action: with no moves queued yet it picks the action, and queues
    the next ones, that scoring each action plainly gives."""
    kinds = set()
    for state in positions(4, **variant):
        if state.is_terminal():
            continue
        player = state.to_act()[0]
        acts = state.legal_actions(player)
        if len(acts) < 2:
            continue
        fast = agents.HeuristicAgent(0)
        chosen = fast._choose(state, player, acts)
        best, rest = plain_choice(state, player, acts)
        assert chosen is best, (state.phase, state.pending, chosen, best)
        if state.pending is None:
            assert fast._queue[1] == rest
        kinds.add(chosen.kind)
    assert {"recruit", "attack", "spell", "position", "end_phase"} <= kinds
