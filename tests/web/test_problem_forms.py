"""Every problem the validators, the effects checker and the services can report reads Chinese from
its code and values (workbench/web/problem_forms.py): each code the code base emits has a form,
and broken cards and decks built here reach every form, each read back as its form."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from workbench.domain.problems import Problem
from workbench.web.game_text import PROBLEM_FORMS
from workbench.web.problem_forms import FORMS, NESTED, REASONS, STUCK, read_nested, read_problem

ROOT = Path(__file__).resolve().parents[2]
_CODE = re.compile(r"""["']((?:card|deck|effect)\.[a-z_]+)["']""")


def emitted_codes() -> set[str]:
    """Every problem code written as a literal in the domain and the services."""
    codes: set[str] = set()
    for folder in ("workbench/domain", "workbench/services"):
        for path in (ROOT / folder).rglob("*.py"):
            codes |= set(_CODE.findall(path.read_text(encoding="utf-8")))
    return codes


# The validator builds these from a JSON Schema keyword (``card.<keyword>``), not as literals.
SCHEMA_CODES = {"card.minimum", "card.maximum", "card.enum", "card.max_length", "card.type", "card.min_items",
                "card.max_items", "card.unique"}
NOT_SHOWN = {"effect.invalid": "a skipped entry's code inside the playtest parser: the card validator reports "
                               "the entry under its own effect code"}


def test_every_problem_code_the_code_base_emits_has_a_chinese_form() -> None:
    codes = emitted_codes()
    assert {"card.materials", "deck.extra_unsummonable", "effect.bad_token", "effect.bad_ready"} <= codes
    assert len(codes) > 80  # the pattern finds the literals
    without = sorted(code for code in codes | SCHEMA_CODES
                     if code not in FORMS and code not in PROBLEM_FORMS and code not in NOT_SHOWN)
    assert without == []


def _fz(*effects, **fields):  # a fusion creature
    return ("fusion", {"kind": "creature", "name": "火龙", "cost": 3, "attribute": "fire", "subtype": "龙", "stars": 4,
                       "atk": 3, "def": 2, **fields, **({"effects": list(effects)} if effects else {})})


def _fm(*effects, **fields):  # a fusion magic card
    return ("fusion", {"kind": "magic", "name": "火球", "cost": 1, "subtype": "normal", "effects": list(effects), **fields})


def _wz(kind, *effects, **fields):
    base = {"creature": {"class": 1, "degree": 2, "strength": 500, "resilience": 500}}.get(kind, {})
    return ("warzone", {"kind": kind, "name": "Test", **base, **fields, "effects": list(effects)})


def _seth(*effects):
    return ("seth", {"kind": "monster", "name": "Test", "power": 4, "damage": 1, "health": 6, "speed": ["fast"],
                     "element": "poison", "race": "Serpent", "effects": list(effects)})


P = {"trigger": "on_play"}
DMG = {**P, "action": "damage", "target": "enemy_creature", "amount": 1}
STEP = {"action": "damage", "target": "enemy_creature", "amount": 1}
CARDS = [
    ("fusion", "not a card"),
    _wz("creature", strength=555), _wz("creature", degree=0, strength=5000),
    _fz(extra=True), _fz(materials=["火龙"]),
    _fz(extra=True, materials="火龙"), _fz(extra=True, materials=[{"name": "a", "filter": {}}]),
    _fz(extra=True, materials=[{"name": "a", "count": 0}]), _fz(extra=True, materials=[{"name": ""}]),
    _fz(extra=True, materials=[5]), _fz(extra=True, materials=[{"filter": {"nope": 1}}]),
    _fz("x"), _fz({"trigger": "on_play"}), _fz({**P, "action": "fly"}), _fz({"action": "draw", "amount": 1}),
    _fz({"trigger": "whenever", "action": "draw", "amount": 1}), _fz({**DMG, "target": "everyone"}),
    _fz({**DMG, "colour": "red"}),
    _fz({**P, "action": "choose", "unless": {"mana": 1}, "options": [DMG, DMG]}),
    _fz({**DMG, "unless": "pay"}), _fz({**DMG, "unless": {"gold": 1}}), _fz({**DMG, "unless": {"mana": 0}}),
    _fz({**P, "action": "arrange", "amount": 9}), _fz({"trigger": "continuous", "action": "modify_cost",
                                                       "target": "self", "amount": "one"}),
    _fz({**DMG, "amount": -1}), _fz({**DMG, "options": []}), _fz({**DMG, "token": {}}),
    _fz({**DMG, "stats": {"atk": 1}}), _fz({**DMG, "counter": "charge"}), _fz({**DMG, "ready": True}),
    _fz({**DMG, "to": "hand"}), _fz({**P, "action": "move", "from": "hand", "to": "field", "target": "this"}),
    _fz({**P, "action": "move", "target": "this", "to": "hand", "side": "own"}), _fz({**DMG, "phase": "end"}),
    _fz({**DMG, "played": {}}),
    _fz({"trigger": "continuous", "action": "modify_stats", "stats": {"atk": 1}, "duration": "while_on_field"}),
    _fz({**P, "action": "choose", "options": [DMG]}), _fz({**P, "action": "choose", "count": 2, "options": [DMG, DMG]}),
    _fz({**P, "action": "choose", "options": [[], DMG]}), _fz({**P, "action": "choose", "options": ["x", DMG]}),
    _fz({**P, "action": "choose", "options": [{**DMG, "speed": 1}, DMG]}),
    _fz({**P, "action": "choose", "options": [{"action": "choose"}, DMG]}),
    _fz({**P, "action": "choose", "options": [[DMG, {"action": "fly"}], {"action": "damage", "amount": -2}]}),
    _fz({**DMG, "count": 0}), _fz({**DMG, "count": 2}),
    _fz({**P, "action": "create_token"}), _fz({**P, "action": "create_token", "token": {"atk": 1, "def": 1}}),
    _fz({**P, "action": "create_token", "token": {"name": "衍生物", "atk": -1, "def": 1, "wings": 2}}),
    _fz({**P, "action": "damage", "target": "enemy_creature"}), _fz({**DMG, "amount": "X"}),
    _fz({**P, "action": "modify_stats"}), _fz({**P, "action": "modify_stats", "stats": 3}),
    _fz({**P, "action": "modify_stats", "stats": {"atk": "a", "wings": 1}, "duration": "forever"}),
    _fz({**DMG, "trigger": "activated", "cost": 3}),
    _fz({**DMG, "trigger": "activated", "cost": {"mana": -1, "tap": 1, "sacrifice": {"count": 0}, "discard": 0,
                                                  "remove_counters": 2, "gold": 1}}),
    _fz({**DMG, "speed": 7, "once_per_turn": "yes", "random": "yes"}),
    _fz({**P, "action": "add_counters", "target": "this", "amount": 1}), _fz({**DMG, "ready": "yes"}),
    _fz({**P, "action": "move", "target": "this"}), _fz({**P, "action": "move", "from": "moon", "to": "field"}),
    _fz({**P, "action": "move", "target": "this", "to": "field"}), _fz({**P, "action": "move", "from": "deck_bottom", "to": "hand"}),
    _fz({**P, "action": "move", "from": "deck", "to": "hand", "side": "mine", "pick": "worst"}),
    _fz({**P, "action": "move", "from": "deck", "to": "hand", "pick": "choose", "count": 2}),
    _fz({**P, "action": "move", "from": "hand", "to": "graveyard", "look": 2}),
    _fz({"trigger": "on_play", "action": "double_damage"}),
    _fz({"trigger": "continuous", "action": "double_damage", "target": "opponent"}),
    _fz({"trigger": "on_phase", "action": "draw", "amount": 1}),
    _fz({"trigger": "on_phase", "phase": 3, "action": "draw", "amount": 1, "side": "both"}),
    _fz({**DMG, "filter": 3}), _fz({**DMG, "filter": {"wings": 1, "atk": {"more": 2}}}),
    _fz({"trigger": "on_opponent_play", "played": {"wings": 1}, "action": "draw", "amount": 1}),
    _fz({**DMG, "if": {"count": {"min": "a"}}}), _fz({**DMG, "if": {"count": {"zone": "field"}}}),
    _fz({**DMG, "if": {"life": {"side": "mine", "min": 1}}}), _fz({**DMG, "if": {"count": 4}}),
    _fz({**DMG, "per": 4}), _fz({**DMG, "if": {"count": {"colour": 1, "zone": "moon", "min": 1}}}),
    _fz({**DMG, "if": 3}), _fz({**DMG, "if": {"phase": 3}}), _fz({**DMG, "if": {"previous": 1}}),
    _fz({**DMG, "if": {"life": 3}}), _fz({**DMG, "if": {"turn": 3}}), _fz({**DMG, "if": {"counters": 3}}),
    _fz({**DMG, "if": {"luck": 3}}), _fz({**DMG, "if": {"turn": {"min": 1, "side": "own"}}}),
    # the checks service: text against effects, what an engine does not run
    _fm({**P, "action": "damage", "target": "opponent", "amount": 4}, text="造成伤害。"),
    _fm({**P, "action": "move", "from": "hand", "to": "damage_pile"}),
    _fm({**P, "action": "modify_stats", "target": "own_creature", "stats": {"strength": 1}}),
    _fm({"trigger": "continuous", "action": "modify_stats", "target": "this", "stats": {"atk": 1},
         "if": {"turn": {"min": 2}}}),
    _fm({**P, "action": "modify_stats", "target": "own_creatures", "stats": {"atk": 1}, "duration": "while_on_field"}),
    _fz({**P, "action": "damage", "target": "attacker", "amount": 1}),
    _fz({"trigger": "on_attack", "action": "negate"}),
    _fz({**P, "action": "move", "target": "this", "to": "extra_deck"}),
    _fz({"trigger": "continuous", "action": "destroy", "target": "this"}),
    _fz({"trigger": "continuous", "action": "modify_stats", "target": "own_creatures", "stats": {"atk": 1},
         "filter": {"tapped": True}}),
    _seth({**P, "action": "create_token", "token": {"name": "t", "damage": 1, "health": 1}}),
    _seth({**P, "action": "fusion_summon"}), _seth({**P, "action": "damage", "target": "attacker", "amount": 1}),
    _seth({"trigger": "on_destroyed", "action": "choose", "options": [STEP, {**STEP, "target": "own_creature"}]}),
    _seth({"trigger": "activated", "action": "choose", "options": [[STEP, {**STEP, "amount": 2}], STEP]}),
    _seth({"trigger": "continuous", "action": "modify_stats", "target": "own_creatures", "stats": {"damage": 1},
           "filter": {"health": {"min": 2}}}),
    _seth({"trigger": "continuous", "action": "modify_stats", "target": "own_creatures", "stats": {"health": 1},
           "filter": {"damage": {"min": 2}}}),
    _seth({**DMG, "filter": {"summoned_this_turn": True}}), _seth({**DMG, "if": {"counters": {"min": 1}}}),
    _seth({**DMG, "trigger": "activated", "cost": {"mana": 1}}), _seth({**DMG, "amount": "X"}),
    _seth({**P, "action": "modify_stats", "target": "this", "stats": {"damage": 1}, "duration": "until_your_next_turn"}),
    _seth({**DMG, "trigger": "on_phase", "phase": "dawn"}), _seth({**DMG, "unless": {"mana": 1}}),
    _seth({**P, "action": "move", "from": "graveyard", "to": "field", "ready": True}),
    _seth({**P, "action": "move", "from": "graveyard", "to": "hand", "filter": {"summoned_this_turn": True}}),
    _wz("spell", {**P, "action": "create_token", "token": {"name": "t", "strength": 1, "resilience": 1}}),
    _wz("spell", {**P, "action": "fusion_summon"}),
    _wz("creature", {"trigger": "on_attack", "action": "damage", "target": "enemy_creature", "amount": 100}),
    _wz("creature", {"trigger": "on_attack", "action": "damage", "target": "enemy_creatures", "amount": 100,
                     "unless": {"pay_life": 100}}),
    _wz("area", {"trigger": "continuous", "action": "modify_stats", "target": "own_creatures", "stats": {"strength": 1},
                 "if": {"turn": {"min": 2}}}),
    _wz("area", {"trigger": "continuous", "action": "modify_cost", "target": "self", "amount": -1}),
    _wz("creature", {**DMG, "cost": {"discard": 1}}), _wz("creature", {**P, "action": "move", "from": "graveyard",
                                                                        "to": "field", "ready": True}),
    _fz({**P, "action": "move", "from": "graveyard", "to": "field", "ready": True}),
    _wz("spell", {**P, "action": "modify_stats", "target": "own_creatures", "stats": {"strength": 1},
                  "duration": "while_on_field"}),
    _wz("spell", {"trigger": "on_draw", "action": "damage", "target": "opponent", "amount": 100}),
    _wz("spell", {**P, "action": "negate"}), _wz("spell", {**P, "action": "destroy", "target": "attacker"}),
    _wz("spell", {**P, "action": "move", "from": "exile", "to": "hand"}),
    _wz("spell", {**P, "action": "destroy", "target": "this"}),
    _wz("spell", {**P, "action": "damage", "target": "same", "amount": 100}),
    _wz("spell", {**P, "action": "damage", "target": "opponent", "amount": 100, "per": {"zone": "moon"}}),
    _wz("spell", {"trigger": "activated", "action": "damage", "target": "opponent", "amount": 100, "cost": {"discard": 1}}),
]

CARDS += [("seth", {"name": "Swarm", "kind": "monster", "effects": [{}] * 6000})]  # over the size cap


def _deck(zones, **extra):
    return {"name": "t", "zones": zones, **extra}


_EXTRA = {"kind": "creature", "name": "融合龙", "cost": 6, "attribute": "fire", "subtype": "融合", "stars": 7, "atk": 8,
          "def": 6, "extra": True}
NEW_CARDS = {"fusion": {"ex-bare": _EXTRA, "ex-many": {**_EXTRA, "materials": [{"filter": {"attribute": "light"}, "count": 3}]},
                        "broken": {**_EXTRA, "extra": False, "stars": 99}}}
DECKS = [  # (game, deck, deck rules instead of the game's, or game.yaml keys to replace)
    ("seth", _deck({f"zone-{i}": {} for i in range(60)}), None),  # over the zone cap
    ("seth", _deck({"team": {f"card-{i}": 1 for i in range(10_001)}}), None),  # over the entry cap
    ("warzone", "deck", None), ("warzone", _deck(3), None), ("warzone", _deck({"main": 3}), None),
    ("warzone", _deck({"moon": {}}, format="nope"), None),
    ("warzone", _deck({"main": {"archmage-torvin": 0, "banishment": 10**6, "nope": 1, "banner-hall": 1}}), None),
    ("warzone", _deck({"main": {"archmage-torvin": 5, "captain-odalys": 4, "high-archer-sefa": 4}}), None),
    ("warzone", _deck({"area": {"mudfoot-recruit": 1}}), None),  # "is a Creature card" (banner-hall: "is an Area")
    ("fusion", _deck({"main": {"broken": 1}, "extra": {"ex-bare": 1, "ex-many": 1}}), None),
    ("fusion", _deck({"main": {"rong-he": 1}, "extra": {"ex-many": 1}}), None),
    ("fusion", _deck({"main": {"chao-yan-ju-shen": 1}, "extra": {"an-ye-mo-jun": 1}}), None),  # each in the other's zone
    ("fusion", _deck({"main": {"an-ye-mo-jun": 1}}),  # a zone asking a field value other than yes/no
     {"zones": {"main": {"label": "Main deck", "kinds": ["creature"], "cards_with": {"attribute": "light"}}},
      "deck_rules": []}),
    ("seth", _deck({"team": {"ash-adder": 1, "ashen-drake": 1, "bog-lurker": 1, "bone-harvester": 1, "elder-oak": 1}}), None),
    ("seth", _deck({"team": {"ash-adder": 1, "ashen-drake": 1, "bog-lurker": 1, "bone-harvester": 1, "elder-oak": 1}}),
     [{"check": "total_below", "field": "power", "zones": ["team"], "limit": 3, "label": "Total Power"},
      {"check": "total_below", "field": "power", "zones": ["team"], "limit": 3, "label": "Total Power", "strict": False},
      {"check": "magic", "zones": ["team"], "limit": 1}]),
]


def _problems(repo, game: str, card):
    from workbench.services.checks import card_problems

    return card_problems(repo.game(game), card, "test", with_layout=False)


def _deck_problems(repo, game: str, deck, rules):
    import copy

    from workbench.domain.gamedef import parse_definition
    from workbench.domain.validation import validate_deck

    definition = repo.game(game)
    if rules is not None:
        raw = copy.deepcopy(dict(definition.raw))
        raw.update(rules if isinstance(rules, dict) else {"deck_rules": rules})
        definition = parse_definition(raw)
    return validate_deck(definition, deck, {**repo.card_index(game), **NEW_CARDS.get(game, {})})


def _read(problem, hits: set[str]) -> list[str]:
    """The forms ``problem`` reads as (its sentence's and its nested ones'); unread parts as text."""
    read = read_problem(problem.code, problem.message, problem.rule)
    if read is None:
        return [f"{problem.code}: {problem.message}"]
    form, values = read[0][-1]
    hits.add(form)
    unread = []
    for name in set(values) & set(NESTED):
        for part, found in zip(values[name].split(NESTED[name][0] or "\0"), read_nested(name, values[name])):
            if found:
                hits.add(found[1])
            else:
                unread.append(f"{problem.code} ({name}): {part}")
    return unread


def test_broken_cards_and_decks_reach_every_form_and_each_problem_reads_as_one(repo) -> None:  # type: ignore[no-untyped-def]
    hits: set[str] = set()
    unread: list[str] = []
    for game, card in CARDS:
        for problem in _problems(repo, game, card):
            if problem.code not in PROBLEM_FORMS:
                unread += _read(problem, hits)
    for game, deck, rules in DECKS:
        for problem in _deck_problems(repo, game, deck, rules):
            if problem.code not in PROBLEM_FORMS:
                unread += _read(problem, hits)
    for card in LAYOUT_CARDS:
        from workbench.services.checks import card_problems

        for problem in card_problems(repo.game("fusion"), card, "test", with_layout=True):
            unread += _read(problem, hits)
    for code, message, rule, why in WRITTEN:
        unread += _read(Problem("warning", code, message, rule), hits)
    assert unread == []
    every = {f for forms in FORMS.values() for f in forms} | set(REASONS) | set(STUCK)
    assert sorted(every - hits) == []


LAYOUT_CARDS = [{"kind": "magic", "name": "龍" * 30, "cost": 1, "subtype": "normal", "text": "𓀀 " + "造成伤害，" * 59},
                {"kind": "magic", "name": "火球", "cost": 1, "subtype": "normal", "text": "WWWW\n" * 60}]
WRITTEN = [  # messages no sample card reaches, written as their code writes them, and why
    ("card.render_unavailable", "the print layout cannot be checked: no fonts", "print", "a machine without fonts"),
    ("card.render_timeout", "the card's text could not be laid out within 2 s, so the face shows a placeholder; "
     "shorten the text", "print", "a layout slower than its time limit"),
    ("effect.unsimulated", "effect 1: the plug engine does not run heal; playtests play the card without it "
     "(runs: damage, draw) (docs/effects.md)", "docs/effects.md", "a plug-in engine without capabilities"),
    ("effect.unsimulated", "effect 2: plug has no extra deck to fusion summon from (RULES.md §3.10.2 is fusion's); "
     "playtests play the card without it (docs/effects.md)", "docs/effects.md",
     "a plug-in engine that runs fusion_summon: seth and warzone say why not first"),
    ("effect.unsimulated", "effect 1: a spell is not in play to watch for on_draw; playtests play the card without "
     "it (docs/effects.md)", "docs/effects.md", "warzone's spells and traps run on_play only, checked first"),
    ("effect.unsimulated", "effect 1: a standing stat change cannot depend on the stats it changes (filter by race, "
     "element …); playtests play the card without it (docs/effects.md)", "docs/effects.md",
     "the parser refuses a standing filter on a changing stat first"),
]


@pytest.mark.parametrize("code, message, rule, english", [
    ("effect.bad_ready", "effect 2: ready is 'yes'; true or false (docs/effects.md)", "docs/effects.md", "true or false"),
    ("effect.unknown_action", "effect 1, option 2, step 1: action is 'fly'; allowed: draw, damage (docs/effects.md)",
     "docs/effects.md", "allowed"),
    ("card.materials", "material 2: filter key 'wings' is not a card field, stat or state of this game; allowed: atk "
     "(RULES.md §3.10.2)", "RULES.md §3.10.2", "allowed"),
    ("deck.extra_unsummonable", "额外卡组 Extra deck holds creatures the deck cannot bring out — 融合龙 (ex-bare): it has "
     "no materials; 融合龙 (ex-many): the deck holds too few of its materials (attribute light) (§3.10.2)", "§3.10.2",
     "too few"),
    ("effect.unsimulated", "effect 1: option 1: the warzone engine does not run add_poison (runs: damage); playtests "
     "play the card without it (docs/effects.md)", "docs/effects.md", "does not run"),
])
def test_a_problem_reads_chinese_with_its_place_values_and_rule(app, code, message, rule, english) -> None:  # type: ignore[no-untyped-def]
    from workbench.web.game_text import problem_message

    with app.test_request_context("/", headers={"Accept-Language": "zh"}):
        text = problem_message(Problem("error", code, message, rule))
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert problem_message(Problem("error", code, message, rule)) == message
    assert english not in text and text.endswith(f" ({rule})"), text
    assert re.match(r"^(效果|素材|额外卡组)", text), text
    assert re.search(r"[\u4e00-\u9fff]", text.replace("额外卡组 Extra deck", "").replace("融合龙", ""))


_VOCABULARY_NAME = None


def _bare_names(text: str) -> list[str]:
    """Vocabulary names (actions, triggers, keys …) a Chinese message shows bare, not as a label's
    secondary ``label（name）``: outside quotes, YAML examples ``{…}`` and ``key: value``."""
    from workbench.domain.effects.schema import LABELS

    names = {n for part in ("actions", "triggers", "keys", "costs", "durations") for n in LABELS["zh"].get(part, {})}
    names -= {"value", "values", "yes", "no", "name", "range", "step", "steps"}
    text = re.sub(r"\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|'[^']*'|\"[^\"]*\"|\w+: \w+|\([^()]*\)$", " ", text)
    text = re.sub(r"（warzone：[^）]*）", " ", text)  # the engines' phase names (on_phase's list), not vocabulary
    found = re.finditer(r"(?<![A-Za-z_（])([a-z][a-z_]+)(?![A-Za-z_])", text)
    return [m.group(1) for m in found if m.group(1) in names and text[m.end():m.end() + 1] not in ("）", "（")]


def test_chinese_effect_problems_show_labels_with_the_internal_name_second(app, repo) -> None:  # type: ignore[no-untyped-def]
    from workbench.web.game_text import problem_message

    from flask import request

    bare: list[str] = []
    with app.test_request_context("/", headers={"Accept-Language": "zh"}):
        for game, card in CARDS:
            request.view_args = {"game": game}  # the page's game: its fields' labels
            for problem in _problems(repo, game, card):
                if problem.code.startswith("effect."):
                    text = problem_message(problem)
                    bare += [f"{name}: {text}" for name in _bare_names(text)]
        request.view_args = {}
        text = problem_message(Problem("error", "effect.unknown_action", "effect 1: action is 'fly'; allowed: draw, "
                                       "damage (docs/effects.md)", "docs/effects.md"))
    assert text == "效果 1：效果（action）为 'fly'；允许的值：抽卡（draw）、造成伤害（damage） (docs/effects.md)"
    assert sorted(set(bare)) == []


def test_chinese_card_problems_name_fields_by_the_games_labels(client) -> None:  # type: ignore[no-untyped-def]
    from tests.web.pages_helpers import page_token

    token = page_token(client, "/games/warzone/cards")
    card = {"kind": "creature", "name": "Test", "class": 1, "degree": 2, "strength": 3000, "resilience": 3000}
    chinese = client.post("/api/games/warzone/validate", json={"card": card},
                          headers={"X-CSRF-Token": token, "Accept-Language": "zh"}).get_json()["problems"]
    budget = next(p["text"] for p in chinese if p["code"] == "card.budget")
    assert budget.startswith("Strength（strength） + Resilience（resilience）为 6000"), budget
    assert "Degree（degree） 2 的预算" in budget, budget
