"""Effects that ask a player while they resolve (issue 16 items 2, 6, 7): "choose one —",
"unless its controller pays", "look at the top N and put them back in any order".

The answers are real decisions of the right player through the engine's decision interface;
the checks here: validation names the allowed values, each game runs or skips them with a
reason, the rules text reads in English and Chinese, the heuristic answers sensibly, and games
full of these cards keep the observation contract (an ask shows a player nothing it may not see).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.domain.engines.test_agents_fair import place
from tests.domain.engines.test_engine_contract import apply, bundled, random_joint
from workbench.domain.effects import parse_effects
from workbench.domain.effects.text import rules_text
from workbench.domain.effects.vocabulary import UNLESS, vocabulary
from workbench.domain.engines import load_engine
from workbench.domain.engines.base import Action, play_game
from workbench.domain.validation import validate_card

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "effects.md"
GAMES = ("warzone", "fusion", "seth")
SAMPLES = {"warzone": ("battle-edict", "bridge-toll", "scouts-foresight", "war-council", "muster-roll"),
           "fusion": ("jue-ze", "qiang-zheng", "zhan-bu", "ze-jiang"), "seth": ("grove-druid", "storm-caller")}

EDICT = {"trigger": "on_play", "action": "choose",
         "options": [{"action": "damage", "target": "enemy_creature", "amount": 300},
                     {"action": "draw", "target": "self", "amount": 1}]}


def _spell(effects: list[Any]) -> dict[str, Any]:
    return {"name": "Test Spell", "kind": "spell", "text": "Test.", "effects": effects}


def _codes(problems: list[Any]) -> dict[str, Any]:
    return {p.code: p for p in problems if p.code.startswith("effect.")}


@pytest.mark.parametrize(("entry", "code", "named"), [
    (dict(EDICT, options=[EDICT["options"][0]]), "effect.bad_options", "2 to 5"),
    (dict(EDICT, count=2), "effect.bad_count", "1 to 1"),
    (dict(EDICT, options=[dict(EDICT["options"][0], trigger="on_play"), EDICT["options"][1]]),
     "effect.bad_options", "trigger"),
    (dict(EDICT, options=[EDICT, EDICT["options"][1]]), "effect.bad_options", "choose inside a choose"),
    (dict(EDICT, options=[{"action": "damge", "target": "enemy_creature", "amount": 1}, EDICT["options"][1]]),
     "effect.unknown_action", "option 1"),
    ({"trigger": "on_play", "action": "destroy", "target": "enemy_creature", "unless": {"gold": 3}},
     "effect.bad_unless", "pay_life, mana, discard"),
    ({"trigger": "on_play", "action": "destroy", "target": "enemy_creature", "unless": {"pay_life": 0}},
     "effect.bad_unless", "1 or more"),
    ({"trigger": "on_play", "action": "arrange", "amount": 9}, "effect.bad_amount", "1 to 5"),
    ({"trigger": "on_play", "action": "move", "from": "hand", "to": "graveyard", "side": "opponent", "pick": "choose"},
     "effect.bad_pick", "side: own"),
    ({"trigger": "on_play", "action": "move", "from": "deck_top", "to": "hand", "pick": "choose"},
     "effect.bad_pick", "look: N"),
    ({"trigger": "on_play", "action": "move", "from": "deck", "to": "hand", "pick": "mine"},
     "effect.unknown_pick", "best, random, first, choose"),
])
def test_each_broken_choice_is_an_error_naming_what_is_allowed(definitions, entry, code, named):
    problems = _codes(validate_card(definitions["warzone"], _spell([entry]), "t"))
    assert code in problems, problems
    assert problems[code].severity == "error" and named in problems[code].message, problems[code].message
    assert problems[code].message.startswith("effect 1")


def test_the_sample_cards_validate_clean(definitions):
    for game, slugs in SAMPLES.items():
        for slug in slugs:
            card = _sample(game, slug)
            problems = validate_card(definitions[game], card, slug)
            assert [p for p in problems if p.code.startswith("effect.")] == [], (slug, problems)


def _caps(game: str) -> Any:
    caps = load_engine(game).capabilities
    assert caps is not None
    return caps


@pytest.mark.parametrize(("game", "kind", "entry", "reason"), [
    ("seth", "monster", {"trigger": "activated", "action": "damage", "target": "enemy_creature", "amount": 1,
                         "unless": {"pay_life": 2}}, "cannot pay pay_life"),
    ("seth", "monster", {"trigger": "activated", "action": "arrange", "amount": 2}, "does not run arrange"),
    ("seth", "monster", dict(EDICT, trigger="start_of_turn", options=[
        {"action": "heal", "target": "this", "amount": 1}, {"action": "damage", "target": "enemy_creatures", "amount": 1}]),
     "asks for a mode only"),
    ("warzone", "creature", dict(EDICT, trigger="on_attack", options=[
        {"action": "draw", "target": "self", "amount": 1}, {"action": "gain_life", "target": "self", "amount": 1}]),
     "cannot ask a player"),
    ("warzone", "spell", {"trigger": "on_play", "action": "damage", "target": "opponent", "amount": 500,
                          "unless": {"mana": 2}}, "cannot pay mana"),
    ("warzone", "spell", dict(EDICT, options=[{"action": "add_poison", "target": "enemy_creature", "amount": 1},
                                              EDICT["options"][1]]), "option 1: the warzone engine does not run add_poison"),
])
def test_what_an_engine_cannot_ask_is_skipped_with_its_reason(game, kind, entry, reason):
    parsed = parse_effects(kind, [entry], _caps(game))
    assert not parsed.runnable
    assert parsed.skipped[0].code == "effect.unsimulated" and reason in parsed.skipped[0].reason, parsed.skipped


@pytest.mark.parametrize("game", GAMES)
def test_choose_runs_in_every_game(game):
    kind = {"warzone": "spell", "fusion": "magic", "seth": "monster"}[game]
    step = {"action": "damage", "target": "enemy_creature", "amount": 1}
    other = {"action": "heal", "target": "this", "amount": 1} if game == "seth" else {
        "action": "damage", "target": "enemy_creatures", "amount": 1}
    entry = {"trigger": "activated" if game == "seth" else "on_play", "action": "choose", "options": [step, other]}
    parsed = parse_effects(kind, [entry], _caps(game))
    assert not parsed.skipped and parsed.runnable[0].asks and len(parsed.runnable[0].options) == 2


def test_the_docs_list_the_unless_payments_and_the_editor_gets_the_metadata():
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Choices while an effect resolves")[1].split("\n## ")[0]
    rows = section.split("| unless |")[1].split("\n\n")[0]
    assert set(re.findall(r"^\| `(\w+)` \|", rows, re.M)) == set(UNLESS)
    vocab = vocabulary()
    assert vocab["unless"] == UNLESS and set(vocab["labels"]["unless"]) == set(UNLESS)
    assert {"choose", "arrange"} <= set(vocab["labels"]["actions"])
    assert "options" in vocab["keys"] and "unless" in vocab["keys"]
    assert vocab["choose"]["max_options"] == 5 and "trigger" not in vocab["choose"]["step_keys"]


@pytest.mark.parametrize(("entries", "kind", "en", "zh"), [
    ([EDICT], "spell", "Choose one — deal 300 damage to an enemy creature; or draw 1 card.",
     "选择一项——给予一只敌方生物300伤害；或抽1张卡。"),
    ([dict(EDICT, count=2, options=[{"action": "draw", "target": "self", "amount": 1},
                                    [{"action": "damage", "target": "enemy_creature", "amount": 3},
                                     {"action": "modify_stats", "target": "same", "stats": {"atk": -1}}],
                                    {"action": "gain_life", "target": "self", "amount": 3}])], "magic",
     "Choose two — draw 1 card; deal 3 damage to an enemy creature, then it gets -1 ATK until end of turn; "
     "or gain 3 life.",
     "选择两项——抽1张卡；给予一只敌方生物3伤害，然后该目标直到回合结束攻击力-1；或回复3点生命。"),
    ([{"trigger": "on_play", "action": "destroy", "target": "enemy_creature", "unless": {"pay_life": 3}}], "spell",
     "Destroy an enemy creature unless its controller pays 3 life.", "破坏一只敌方生物，除非其控制者支付3点生命。"),
    ([{"trigger": "on_play", "action": "damage", "target": "opponent", "amount": 3, "unless": {"mana": 2}}], "magic",
     "Deal 3 damage to the opponent unless that player pays 2 mana.", "给予对手3伤害，除非该玩家支付2点法力。"),
    ([{"trigger": "on_play", "action": "arrange", "amount": 3}, {"trigger": "on_play", "action": "draw", "amount": 1}],
     "magic", "Look at the top 3 cards of your deck and put them back in any order, then draw 1 card.",
     "查看卡组顶端3张卡，以任意顺序放回，然后抽1张卡。"),
])
def test_the_rules_text_reads_in_english_and_chinese(entries, kind, en, zh):
    assert rules_text(entries, "en", kind) == en
    assert rules_text(entries, "zh", kind) == zh


# ---------------------------------------------------------------- the heuristic answers sensibly

def _scenario(game: str, file: str, n: int) -> dict[str, Any]:
    docs = list(yaml.safe_load_all((ROOT / "card_data" / game / "scenarios" / file).read_text(encoding="utf-8")))
    return docs[n]


def _start(game: str, file: str, n: int, first: Action, **players: Any) -> Any:
    setup = _scenario(game, file, n)["setup"]
    for k, v in players.items():
        setup["players"][int(k[1:])].update(v)
    state = load_engine(game).from_setup(setup, {}, 0)
    state.apply(first)
    return state


def test_the_heuristic_pays_to_save_a_big_creature_and_not_a_small_one():
    engine = load_engine("warzone")
    big = _start("warzone", "choices.yaml", 3, Action("spell", ("a-toll", "b-big")))
    assert engine.agents["heuristic"](0).choose(big, 1).args == ("pay",)
    small = _start("warzone", "choices.yaml", 3, Action("spell", ("a-toll", "b-small")))
    assert engine.agents["heuristic"](0).choose(small, 1).args == ("decline",)


def test_the_heuristic_picks_the_mode_that_pays():
    engine = load_engine("warzone")
    state = _start("warzone", "choices.yaml", 0, Action("spell", ("a-edict",)))
    hero = engine.agents["heuristic"](0)
    assert hero.choose(state, 0).args == ("1",)  # 300 damage destroys a creature; a card is worth less
    state.apply(hero.choose(state, 0))
    assert hero.choose(state, 0).args in (("b-small",), ("b-big",))
    council = _start("warzone", "choices.yaml", 2, Action("spell", ("a-council",)))
    # 200 to each destroys b-small; with two cards left in the deck, 500 Life Points beat a draw
    assert hero.choose(council, 0).args == ("2+3",)


def test_the_heuristic_puts_the_best_card_on_top():
    for game, file, n, first in (("warzone", "choices.yaml", 5, Action("spell", ("a-scry",))),
                                 ("fusion", "24-choices.yaml", 3, Action("play", ("a-scry",)))):
        state = _start(game, file, n, first)
        answer = load_engine(game).agents["heuristic"](0).choose(state, 0).args[0]
        assert answer.startswith("3,"), (game, answer)  # the class 3 creature / the 2/2 imp


def test_the_fusion_opponent_pays_mana_it_would_not_use():
    state = _start("fusion", "24-choices.yaml", 2, Action("play", ("a-tax",)))
    assert load_engine("fusion").agents["heuristic"](0).choose(state, 1).args == ("pay",)


def test_seth_heuristic_picks_a_mode_and_its_target():
    engine = load_engine("seth")
    setup = _scenario("seth", "20-choices.yaml", 1)["setup"]
    state = engine.from_setup(setup, {}, 0)
    state.apply_joint({0: Action("assign", ("a-druid",)), 1: Action("assign", ("b-ox",))})
    pick = engine.agents["heuristic"](0).choose(state, 0)
    assert pick.kind == "activate" and len(pick.args) == 4 and pick in state.legal_actions(0)


# ---------------------------------------------------------------- whole games full of choices

def _sample(game: str, slug: str) -> dict[str, Any]:
    card = yaml.safe_load((ROOT / "card_data" / game / "cards" / f"{slug}.yaml").read_text(encoding="utf-8"))
    return dict(card, id=slug)


def _choice_decks(game: str) -> tuple[Any, Any, dict[str, Any]]:
    """The contract tests' bundled decks with sample choice cards in place of some of their cards."""
    a, b, options = bundled(game)
    zone = {"warzone": "main", "fusion": "main", "seth": "team"}[game]
    samples = [_sample(game, slug) for slug in SAMPLES[game]]
    decks = []
    for deck in (a, b):
        cards = list(deck[zone])
        copies = 2 if game == "seth" else 12
        for k in range(copies):
            cards[k * 3 % len(cards)] = samples[k % len(samples)]
        decks.append(dict(deck, **{zone: cards}))
    return decks[0], decks[1], options


def _choice_games(game: str, games: int, agents: str = "random") -> Any:
    engine = load_engine(game)
    a, b, options = _choice_decks(game)
    for seed in range(games):
        state = engine.new_game(a, b, options, seed)
        if agents == "random":
            rng = random.Random(seed)
            choose = lambda s: random_joint(s, rng)  # noqa: E731
        else:
            players = [engine.agents[agents](seed), engine.agents[agents](seed + 50)]
            choose = lambda s: {p: players[p].choose(s, p) for p in s.to_act()}  # noqa: E731
        while not state.is_terminal():
            yield state
            apply(state, choose(state))


def _asking(state: Any) -> bool:
    game = type(state).__name__
    if game == "WarzoneState":
        return state.pending is not None and state.pending[0] == "ask"
    if game == "FusionState":
        return state.asking is not None
    return state.step == "ability" and any(e.action == "choose" for q in state.queued for _, e, _, _ in q) or any(
        e.action == "choose" for p in state.to_act() for _, _, e, _ in state.slots[p])


@pytest.mark.parametrize("game", GAMES)
def test_games_full_of_choices_keep_the_observation_contract(game):
    asks = 0
    snapshot = load_engine(game).snapshot
    for n, state in enumerate(_choice_games(game, 5 if game == "seth" else 3)):
        asks += _asking(state)
        for p in (0, 1):
            key = state.observe(p).key()
            world = state.determinize(p, random.Random(n))
            assert world.observe(p).key() == key, (game, n, p)
            if _asking(state) and n % 2 == 0:
                other = state.determinize(p, random.Random(1000 + n))
                assert snapshot(other.determinize(p, random.Random(n))) == snapshot(world), (game, n, p)
                if p in state.to_act():
                    assert [x.kind for x in other.legal_actions(p)] == [x.kind for x in state.legal_actions(p)]
    assert asks > 3, f"the random {game} games asked only {asks} times"


@pytest.mark.parametrize("game", GAMES)
def test_the_players_answer_asks_from_their_own_view(game):
    """At asks of heuristic games: the fast players decide the same in every re-dealt world."""
    engine = load_engine(game)
    positions = [s.clone() for s in _choice_games(game, 4, "heuristic") if _asking(s)]
    assert len(positions) >= 3, f"heuristic {game} games asked only {len(positions)} times"
    for name in ("heuristic", "random"):
        for n, state in enumerate(positions[:40]):
            for p in state.to_act():
                if len(state.legal_actions(p)) < 2:
                    continue
                mine = place(state, p, engine.agents[name](n).choose(state.clone(), p))
                other = state.determinize(p, random.Random(n))
                assert place(other, p, engine.agents[name](n).choose(other, p)) == mine, (name, n, p)


def test_the_search_player_answers_an_arrange_from_its_own_view():
    engine = load_engine("fusion")
    state = _start("fusion", "24-choices.yaml", 3, Action("play", ("a-scry",)))
    mine = place(state, 0, engine.agents["search"](1, budget=4).choose(state.clone(), 0))
    for k in range(3):
        other = state.determinize(0, random.Random(k))
        assert other.observe(0).key() == state.observe(0).key()
        assert place(other, 0, engine.agents["search"](1, budget=4).choose(other, 0)) == mine


def test_the_heuristic_takes_the_card_worth_most_and_discards_the_one_worth_least():
    engine = load_engine("warzone")
    state = _start("warzone", "choices.yaml", 6, Action("spell", ("a-muster",)))
    assert engine.agents["heuristic"](0).choose(state, 0).args == ("c3",)
    fusion = _start("fusion", "24-choices.yaml", 4, Action("play", ("a-pick",)))
    assert [a.args for a in fusion.legal_actions(0)] == [("1",), ("2",)]  # the two creatures among the three
    assert load_engine("fusion").agents["heuristic"](0).choose(fusion, 0).args == ("2",)  # the 2/2 imp
    setup = _scenario("warzone", "choices.yaml", 6)["setup"]
    setup["cards"]["toss"] = {"name": "Toss", "kind": "spell", "text": "Discard a card of your choice.",
                              "effects": [{"trigger": "on_play", "action": "move", "from": "hand", "to": "graveyard",
                                           "pick": "choose"}]}
    setup["players"][0]["hand"] = [{"name": "a-toss", "card": "toss"}, {"name": "a-s", "card": "c1"},
                                   {"name": "a-b", "card": "c3"}]
    toss = engine.from_setup(setup, {}, 0)
    toss.apply(Action("spell", ("a-toss",)))
    assert engine.agents["heuristic"](0).choose(toss, 0).args == ("c1",)


def test_a_pick_among_hidden_cards_shows_the_other_player_nothing_of_them():
    engine = load_engine("warzone")
    state = _start("warzone", "choices.yaml", 6, Action("spell", ("a-muster",)))
    assert state.observe(0).public["pending"]["options"] == ["c1", "c3"]
    assert state.observe(1).public["pending"]["options"] == "hidden"
    for k in range(5):  # the other player's worlds ask again from their own cards
        world = state.determinize(1, random.Random(k))
        assert world.observe(1).key() == state.observe(1).key()
        assert {a.args[0] for a in world.legal_actions(0)} <= {c.id for c in world.p[0].deck}
    fusion = _start("fusion", "24-choices.yaml", 4, Action("play", ("a-pick",)))
    assert fusion.observe(1).public["ask"][3] == "hidden" and len(fusion.observe(0).private["seen"]) == 3


def test_only_the_asker_sees_the_cards_it_arranges():
    for game, file, n, first in (("warzone", "choices.yaml", 5, Action("spell", ("a-scry",))),
                                 ("fusion", "24-choices.yaml", 3, Action("play", ("a-scry",)))):
        state = _start(game, file, n, first)
        seen = state.observe(0).private["seen"]
        assert len(seen) == 3
        assert "seen" not in state.observe(1).private
        for k in range(5):  # the asker's re-dealt worlds keep them on top; the other's do not need to
            assert state.determinize(0, random.Random(k)).observe(0).private["seen"] == seen


@pytest.mark.parametrize("game", GAMES)
def test_games_with_choices_replay_from_their_seed_and_actions(game):
    engine = load_engine(game)
    a, b, options = _choice_decks(game)
    first = engine.new_game(a, b, dict(options, _log=True), 7)
    rng = random.Random(7)
    moves = []
    while not first.is_terminal() and len(moves) < 600:
        joint = random_joint(first, rng)
        moves.append(joint)
        apply(first, joint)
    again = engine.new_game(a, b, dict(options, _log=True), 7)
    for joint in moves:
        apply(again, joint)
    assert engine.snapshot(again) == engine.snapshot(first) and again.log == first.log


def test_each_opponent_of_a_pod_decides_for_itself():
    """Fusion with four players: "3 damage to each opponent unless that player pays 2 mana" asks
    every opponent who can pay, in turn order; each one's answer settles only its own share."""
    engine = load_engine("fusion")
    levy = _sample("fusion", "qiang-zheng")
    imp = {"name": "火花小鬼", "kind": "creature", "cost": 1, "stars": 1, "atk": 2, "def": 2, "attribute": "fire",
           "subtype": "恶魔"}
    setup = {"turn": 6, "active": 0, "phase": "main1", "cards": {"tax": levy, "imp": imp},
             "players": [{"mana": 4, "hand": [{"a-tax": "tax"}], "deck": [{"a-d1": "imp"}]},
                         {"mana": 3, "deck": [{"b-d1": "imp"}]}, {"mana": 3, "deck": [{"c-d1": "imp"}]},
                         {"mana": 1, "deck": [{"d-d1": "imp"}]}]}
    state = engine.from_setup(setup, {"players": 4}, 0)
    state.apply(Action("play", ("a-tax",)))
    asked = []
    while state.step == "ask":
        p = state.to_act()[0]
        asked.append(p)
        assert state.observe((p + 1) % 4).public["ask"][:2] == ["unless", p]
        state.apply(Action("choose", ("pay" if p == 1 else "decline",)))
    assert asked == [1, 2]  # the fourth player has 1 mana: it cannot pay, so it is not asked
    assert state.life == [20, 20, 17, 17] and state.mana[1] == 1


@pytest.mark.parametrize("game", ("warzone", "fusion"))
def test_the_heuristic_plays_the_choice_cards(game):
    """A choose card is worth its best mode, an unless card about half its effect, arrange a
    little: the heuristic plays them (a card worth 0 would never leave the hand)."""
    engine = load_engine(game)
    a, b, options = _choice_decks(game)
    played: set[str] = set()
    for seed in range(8):
        state = engine.new_game(a, b, options, seed)
        play_game(state, [engine.agents["heuristic"](seed), engine.agents["heuristic"](seed + 1)])
        played |= state.stats.played[0] | state.stats.played[1]
    wanted = {"warzone": {"battle-edict", "bridge-toll", "scouts-foresight", "war-council"},
              "fusion": {"jue-ze", "qiang-zheng", "zhan-bu", "ze-jiang"}}[game]
    assert wanted <= played, wanted - played
