"""Game definitions: the bundled games parse, options resolve, malformed definitions are refused."""

from __future__ import annotations

import copy

import pytest

from workbench.domain.errors import DefinitionError
from workbench.domain.gamedef import parse_definition


def test_bundled_games_have_the_zones_of_the_rules(definitions):
    assert list(definitions["warzone"].zones) == ["main", "area", "side", "side_area"]
    assert list(definitions["seth"].zones) == ["team"]
    assert list(definitions["fusion"].zones) == ["main", "extra"]


def test_seth_speed_is_multi_valued_and_power_limit_is_a_format_option(definitions):
    speed = next(f for f in definitions["seth"].kinds["monster"].fields if f.name == "speed")
    assert speed.type == "list" and speed.enum == ["fast", "medium", "slow"]
    assert speed.spec["max_items"] == 2
    assert definitions["seth"].resolve_options("skirmish")["power_limit"] == 20
    assert definitions["seth"].default_options()["power_limit"] == 30


def test_every_decision_of_the_rules_is_an_option_with_its_default(definitions):
    wz = definitions["warzone"].default_options()
    assert wz["start_life"] == 2500 and wz["damage_card_step"] == 500 and wz["damage_pile_limit"] == 10
    assert wz["recruit_limit_by_highest_degree"] is True and wz["guarding_can_attack"] is False
    seth = definitions["seth"].default_options()
    assert seth["resist_factor"] == 0.5 and seth["vulnerable_factor"] == 2 and seth["max_rounds"] == 50
    assert seth["max_copies"] is None
    fusion = definitions["fusion"].default_options()
    assert fusion["mana_cap"] == 10 and fusion["hand_limit"] == 6 and fusion["target_strikes_back"] is True
    decisions = [o for d in definitions.values() for o in d.options.values() if o.spec.get("decision")]
    assert len(decisions) >= 12


def test_option_overrides_are_type_checked_with_clear_errors(definitions):
    wz = definitions["warzone"]
    assert wz.resolve_options(overrides={"start_life": "4000"})["start_life"] == 4000
    assert wz.resolve_options(overrides={"guarding_can_attack": "true"})["guarding_can_attack"] is True
    with pytest.raises(DefinitionError, match="no rule option 'start_lif'"):
        wz.resolve_options(overrides={"start_lif": 1})
    with pytest.raises(DefinitionError, match=r"Starting Life Points \(start_life\) must be an integer"):
        wz.resolve_options(overrides={"start_life": "lots"})
    with pytest.raises(DefinitionError, match="minimum is 1"):
        wz.resolve_options(overrides={"start_life": 0})
    with pytest.raises(DefinitionError, match="no format 'modern'"):
        wz.resolve_options("modern")


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d.pop("kinds"), "'kinds' is a required property"),
    (lambda d: d["zones"]["main"].update(kinds=["wizard"]), "unknown kind 'wizard'"),
    (lambda d: d["zones"]["main"].update(min={"option": "nope"}), "rule option 'nope'"),
    (lambda d: d["kinds"]["creature"]["fields"]["class"].update(type="colour"), "kinds/creature/fields/class/type"),
    (lambda d: d.update(id="../evil"), "not a valid id"),
    (lambda d: d["formats"]["quick"]["options"].update(warp=1), "unknown rule option 'warp'"),
])
def test_malformed_definitions_are_refused_with_the_place_named(definitions, mutate, message):
    raw = copy.deepcopy(dict(definitions["warzone"].raw))
    mutate(raw)
    with pytest.raises(DefinitionError, match=message.replace("(", r"\(")):
        parse_definition(raw)


def test_definition_id_must_match_its_folder(definitions):
    with pytest.raises(DefinitionError, match="folder is 'other'"):
        parse_definition(dict(definitions["seth"].raw), expected_id="other")


@pytest.mark.parametrize("word, article", [
    ("integer", "an"), ("Area/Location", "an"), ("Item", "an"), ("Ogre", "an"), ("Beast", "a"),
    ("Unit", "a"), ("unique relic", "a"), ("Usurper", "a"), ("Eulogy", "a"), ("one-shot", "a"),
    ("unidentified relic", "an"), ("hour", "an"), ("Honour guard", "an"), ("Hero", "a"), ("HERO", "a"),
    ("NPC", "an"), ("HQ", "an"), ("GM", "a"), ("X", "an"), ("B", "a"),
])
def test_the_article_before_a_designers_word_goes_by_its_sound(word, article):
    """Refusals name the designer's card kinds ("… is a Unit card"): the article follows how the
    word is said, for the common exceptions to its first letter too."""
    from workbench.domain.gamedef import indefinite_article

    assert indefinite_article(word) == article
