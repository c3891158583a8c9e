"""Cockatrice cards.xml v4 and .cod decks through their checker."""

from __future__ import annotations

import datetime as dt
import io
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.services.exports import checkers
from tests.services.exports.conftest import HOSTILE_RAW
from workbench.domain.gamedef import parse_definition
from workbench.services.exports import cockatrice
from workbench.services.exports.faces import Faces

TODAY = dt.date(2026, 11, 30)


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_bundled_games_pass(bundled, game):
    definition, cards, decks = bundled[game]
    bundle = cockatrice.export_cockatrice(definition, cards, decks, today=TODAY)
    errors, names = checkers.check_cockatrice(bundle.files[f"{game}.xml"])
    assert errors == []
    assert len(names) == len(cards)
    for deck in decks:
        assert checkers.check_cod(bundle.files[f"decks/{deck['id']}.cod"], names) == []


def test_fields_go_into_prop(bundled):
    definition, cards, _ = bundled["fusion"]
    root = ET.fromstring(cockatrice.export_cockatrice(definition, cards, today=TODAY).files["fusion.xml"])
    card = next(c for c in root.iter("card") if c.findtext("name") == "暗夜魔君")
    prop = card.find("prop")
    assert prop.findtext("type") == "生物 Creature"
    assert prop.findtext("manacost") == "7" and prop.findtext("pt") == "9/6"
    assert prop.findtext("attribute") == "dark" and prop.findtext("name_en") == "Nightfall Overlord"
    assert card.findtext("set") == "FD01"


def test_hostile_text_and_duplicate_names(hostile_definition, hostile_cards, hostile_decks):
    faces = Faces(hostile_definition, renderer=False)
    bundle = cockatrice.export_cockatrice(hostile_definition, hostile_cards, hostile_decks, faces=faces,
                                          base_url="https://img.example.org/c", today=TODAY)
    errors, names = checkers.check_cockatrice(bundle.files["hostile.xml"])
    assert errors == []
    assert "Twin" in names and "Twin (twin-b)" in names
    root = ET.fromstring(bundle.files["hostile.xml"])
    texts = {c.findtext("name"): c.findtext("text") for c in root.iter("card")}
    for card in hostile_cards:
        if card["name"] != "Twin":
            name = cockatrice.xml_safe(card["name"]).strip()
            assert texts[name] == cockatrice.xml_safe(card.get("text") or "")
    urls = [s.get("picurl") for s in root.iter("set") if s.get("picurl")]
    assert urls and all(u.startswith("https://img.example.org/c/pics/") for u in urls)
    assert all(f"pics/{c['id']}.jpg" in bundle.files for c in hostile_cards)
    cod = bundle.files["decks/mixed.cod"]
    assert checkers.check_cod(cod, names) == []
    deck = ET.fromstring(cod)
    main = {c.get("name"): int(c.get("number")) for c in deck.find("zone[@name='main']")}
    assert main["Twin"] == 2 and deck.findtext("deckname") == 'Mixed <deck> & "co"'


def test_checker_catches_undeclared_sets_and_duplicates():
    bad = (b'<?xml version="1.0"?><cockatrice_carddatabase version="4"><sets><set><name>A</name></set></sets>'
           b"<cards><card><name>X</name><set>B</set></card><card><name>X</name><set>A</set></card></cards>"
           b"</cockatrice_carddatabase>")
    errors, _ = checkers.check_cockatrice(bad)
    assert any("not declared" in e for e in errors) and any("not unique" in e for e in errors)


def test_checker_enforces_the_v4_schema_types():
    """The rules restated from cards.xsd v4: cardInSetType attributes, xs:boolean flags, one <text>,
    setType children, integer priority."""
    bad = (b'<?xml version="1.0"?><cockatrice_carddatabase version="4"><sets><set><name>A</name>'
           b"<priority>high</priority><colour>red</colour></set></sets><cards><card><name>X</name>"
           b'<text>a</text><text>b</text><set picurl="http://x/y.png" art="1">A</set><token>yes</token>'
           b"</card></cards></cockatrice_carddatabase>")
    errors, _ = checkers.check_cockatrice(bad)
    for fragment in ("break setType", "not an integer", "appears 2 times", "outside cardInSetType",
                     "not an xs:boolean"):
        assert any(fragment in e for e in errors), (fragment, errors)


# ------------------------------------------------------------------ Cockatrice's own schemas (issue 12)


def _schema_errors(schema, data: bytes) -> list[str]:
    return [f"{e.path}: {e.reason}" for e in schema.iter_errors(io.BytesIO(data))]


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_bundled_games_validate_against_cockatrices_schemas(bundled, cockatrice_schemas, game):
    cards_xsd, deck_xsd = cockatrice_schemas
    definition, cards, decks = bundled[game]
    bundle = cockatrice.export_cockatrice(definition, cards, decks, faces=Faces(definition, renderer=False),
                                          base_url="https://img.example.org/c", today=TODAY)
    assert _schema_errors(cards_xsd, bundle.files[f"{game}.xml"]) == []
    assert decks
    for deck in decks:
        assert _schema_errors(deck_xsd, bundle.files[f"decks/{deck['id']}.cod"]) == []


def test_hostile_game_validates_against_cockatrices_schemas(cockatrice_schemas, hostile_definition, hostile_cards,
                                                            hostile_decks):
    cards_xsd, deck_xsd = cockatrice_schemas
    bundle = cockatrice.export_cockatrice(hostile_definition, hostile_cards, hostile_decks,
                                          faces=Faces(hostile_definition, renderer=False),
                                          base_url="https://img.example.org/c", today=TODAY)
    assert _schema_errors(cards_xsd, bundle.files["hostile.xml"]) == []
    assert _schema_errors(deck_xsd, bundle.files["decks/mixed.cod"]) == []


def test_the_schema_validator_rejects_what_cockatrices_schema_forbids(cockatrice_schemas):
    """The validator is not a rubber stamp: a row that is not an integer, a row before the set, a
    deck count that is not an int, each fail."""
    cards_xsd, deck_xsd = cockatrice_schemas
    head = b'<?xml version="1.0"?><cockatrice_carddatabase version="4"><cards><card><name>X</name>'
    assert _schema_errors(cards_xsd, head + b"<set>A</set><tablerow>two</tablerow></card></cards></cockatrice_carddatabase>")
    assert _schema_errors(cards_xsd, head + b"<tablerow>2</tablerow><set>A</set></card></cards></cockatrice_carddatabase>")
    assert _schema_errors(cards_xsd, head + b"<set>A</set><tablerow>2</tablerow></card></cards></cockatrice_carddatabase>") == []
    bad_deck = (b'<?xml version="1.0"?><cockatrice_deck version="1"><deckname>d</deckname><comments/>'
                b'<zone name="main"><card number="three" name="X"/></zone></cockatrice_deck>')
    assert _schema_errors(deck_xsd, bad_deck)


# ------------------------------------------------------------------ table rows (issue 12)

EXPECTED_ROWS = {
    "warzone": {("creature", None): "2", ("spell", None): "3", ("trap", None): "3", ("area", None): "0"},
    "seth": {("monster", None): "2"},
    "fusion": {("creature", None): "2", ("magic", "normal"): "3", ("magic", "quick"): "3",
               ("magic", "continuous"): "1", ("magic", "aura"): "1", ("magic", "equip"): "1", ("magic", "field"): "1",
               ("item", "normal"): "3", ("item", "artifact"): "1", ("item", "artifact_creature"): "1"},
}


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_every_card_gets_the_table_row_its_game_declares(bundled, game):
    """Without <tablerow> Cockatrice puts every card on row 0 (the land row) and no spell goes to
    the stack; each bundled game declares its rows per kind in game.yaml."""
    definition, cards, _ = bundled[game]
    root = ET.fromstring(cockatrice.export_cockatrice(definition, cards, today=TODAY).files[f"{game}.xml"])
    by_name = {c.findtext("name"): c for c in root.iter("card")}
    names = cockatrice.unique_names(cards)
    seen = set()
    for card in cards:
        key = (card["kind"], card.get("subtype") if card["kind"] in {"magic", "item"} else None)
        element = by_name[names[card["id"]]]
        assert element.findtext("tablerow") == EXPECTED_ROWS[game][key], (card["id"], key)
        assert [c.tag for c in element][-1] == "tablerow"  # after <set>, as cards.xsd orders it
        seen.add(key)
    assert {k[0] for k in seen} == set(definition.kinds)  # every kind of the game was exercised
    if game == "fusion":
        assert {("magic", "normal"), ("magic", "equip"), ("item", "normal"), ("item", "artifact")} <= seen


def test_a_game_that_declares_no_rows_gets_creature_row_for_fighters_and_row_1_otherwise(
        hostile_definition, hostile_cards):
    rules, notes = cockatrice.table_rows(hostile_definition)
    assert notes == []
    root = ET.fromstring(cockatrice.export_cockatrice(hostile_definition, hostile_cards, today=TODAY).files["hostile.xml"])
    names = cockatrice.unique_names(hostile_cards)
    rows = {c.findtext("name"): c.findtext("tablerow") for c in root.iter("card")}
    for card in hostile_cards:
        assert rows[names[card["id"]]] == ("2" if card["kind"] == "thing" else "1")  # thing has ATK/DEF


def test_a_bad_row_declaration_is_reported_and_falls_back(hostile_definition):
    raw = dict(hostile_definition.raw, play={"life": "start_life", "cockatrice": {"tablerow": {
        "thing": 7, "action": {"row": 3, "by": "kind", "rows": {"x": "high"}}, "ghost": 1}}})
    rules, notes = cockatrice.table_rows(parse_definition(raw))
    assert any("'ghost'" in n for n in notes)
    assert any("'thing'" in n and "row 2" in n for n in notes) and any("'action'" in n for n in notes)
    assert cockatrice.table_row(rules, {"kind": "thing"}) == 2 and cockatrice.table_row(rules, {"kind": "action"}) == 1


# ------------------------------------------------------------------ picture files (issue 12)


def test_picture_names_are_corrected_as_cockatrice_corrects_them():
    """The examples in the comment of CardInfo::getCorrectedName (card_info.cpp)."""
    assert cockatrice.corrected_name("Fire // Ice") == "FireIce"
    assert cockatrice.corrected_name("Circle of Protection: Red") == "Circle of Protection Red"
    assert cockatrice.corrected_name('"Ach! Hans, Run!"') == "Ach! Hans, Run!"
    assert cockatrice.corrected_name("Who/What/When/Where/Why") == "Who What When Where Why"
    assert cockatrice.corrected_name("Question Elemental?") == "Question Elemental"
    assert cockatrice.corrected_name("a*b<c>d\\e\x01f\tg\x10h") == "abcdef gh"
    assert cockatrice.corrected_name("暗夜魔君 🂡") == "暗夜魔君 🂡"
    assert cockatrice.corrected_set("CON") == "CON_" and cockatrice.corrected_set("WZ") == "WZ"


def _cockatrice_finds(files, name: str, set_code: str, num: str | None) -> str | None:
    """CardPictureLoaderLocal::tryLoadCardImageFromDisk over pics/CUSTOM: every file is indexed by
    its base name and complete base name; the name variants are tried most specific first."""
    index: dict[str, list[str]] = {}
    for path in files:
        if path.startswith("pics/CUSTOM/"):
            file_name = path.rsplit("/", 1)[1]
            for key in (file_name.split(".", 1)[0], file_name.rsplit(".", 1)[0]):
                index.setdefault(key, []).append(path)
    name, set_code = cockatrice.corrected_name(name), cockatrice.corrected_set(set_code)
    patterns = ["{name}_{set}_{collector}", "{set}_{collector}_{name}", "{name}_{set}", "{name}"]
    for pattern in patterns:
        for sep in ("_", "-"):
            values = {"{name}": name, "{set}": set_code, "{collector}": num or ""}
            variant = pattern.replace("_", sep)
            if any(token in variant and not value for token, value in values.items()):
                continue
            for token, value in values.items():
                variant = variant.replace(token, value)
            if index.get(variant):
                return index[variant][0]
    return None


def test_each_card_finds_its_own_picture_where_cockatrice_looks(hostile_definition, hostile_cards):
    cards = hostile_cards + [
        {"id": "colon", "name": "A:B", "kind": "action", "number": "HX-900"},
        {"id": "plain", "name": "AB", "kind": "action", "number": "HX-901"},
        {"id": "upper", "name": "ab", "kind": "action", "number": "HX-902"},
        {"id": "dotted", "name": "Mr. Smith v2.0", "kind": "action", "number": "HX-903"},
        {"id": "split", "name": "Fire // Ice", "kind": "action", "number": "HX-904"},
    ]
    bundle = cockatrice.export_cockatrice(hostile_definition, cards, faces=Faces(hostile_definition, renderer=False),
                                          today=TODAY)
    root = ET.fromstring(bundle.files["hostile.xml"])
    found = {}
    for element in root.iter("card"):
        set_el = element.find("set")
        path = _cockatrice_finds(bundle.files, element.findtext("name"), set_el.text, set_el.get("num"))
        assert path is not None, element.findtext("name")
        found[element.findtext("name")] = path
    assert len(set(found.values())) == len(found)  # no two cards share a picture
    assert len({p.casefold() for p in found.values()}) == len(found)  # not even on a case-blind disk
    assert found["Fire // Ice"] == "pics/CUSTOM/hostile/FireIce_HX.jpg"
    assert found["Mr. Smith v2.0"] == "pics/CUSTOM/hostile/Mr. Smith v2.0_HX.jpg"
    assert found["Twin"] != found["Twin (twin-b)"]
    names = cockatrice.unique_names(cards)
    assert names["colon"] == "A:B" and names["plain"] == "AB (plain)" and names["upper"] == "ab (upper)"
    pictures = [p for p in bundle.files if p.startswith("pics/")]
    assert len(pictures) == len(cards) and all(p.startswith("pics/CUSTOM/hostile/") for p in pictures)


def test_a_name_no_file_system_can_hold_gets_no_local_picture_and_a_note(hostile_definition):
    cards = [{"id": "pipe", "name": "Left|Right", "kind": "action"}, {"id": "ok", "name": "Fine", "kind": "action"}]
    bundle = cockatrice.export_cockatrice(hostile_definition, cards, faces=Faces(hostile_definition, renderer=False),
                                          today=TODAY)
    assert [p for p in bundle.files if p.startswith("pics/")] == ["pics/CUSTOM/hostile/Fine_HOSTILE.jpg"]
    assert any("pipe" in n and "base URL" in n for n in bundle.notes)
    with_url = cockatrice.export_cockatrice(hostile_definition, cards, faces=Faces(hostile_definition, renderer=False),
                                            base_url="https://img.example.org/c", today=TODAY)
    assert "pics/pipe.jpg" in with_url.files and b'picurl="https://img.example.org/c/pics/pipe.jpg"' in with_url.files["hostile.xml"]


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=1, max_size=120))
def test_every_local_picture_path_is_one_the_export_can_write(name):
    """Whatever the name, a picture path is either safe to write (check_relpath) or left out with a
    note; the export never fails on it."""
    from workbench.storage.export_files import check_relpath

    definition = parse_definition(HOSTILE_RAW)
    cards = [{"id": "c1", "name": name, "kind": "action", "number": "HX-001"}]
    names = cockatrice.unique_names(cards)
    sets = {"c1": "HX"}
    paths, notes = cockatrice.local_pictures(definition, cards, names, sets)
    if paths:
        assert check_relpath(paths["c1"]) == paths["c1"]
        assert paths["c1"].endswith("_HX.jpg")
    else:
        assert notes and "c1" in notes[0]


def _token_makers(bundled):
    """fusion's cards plus two that create tokens: one directly (two at a time), one inside a
    choose option; and a token named like an existing card."""
    definition, cards, _ = bundled["fusion"]
    maker = {"id": "zz-maker", "name": "衍生召唤", "kind": "magic", "subtype": "normal", "cost": 2,
             "number": "FD09-001", "text": "创造2只1/1的衍生物。",
             "effects": [{"trigger": "on_play", "action": "create_token", "target": "self", "count": 2,
                          "token": {"name": "衍生物", "atk": 1, "def": 1}}]}
    chooser = {"id": "zz-chooser", "name": "二择", "kind": "magic", "subtype": "quick", "cost": 3,
               "number": "FD09-002", "text": "选择一项。",
               "effects": [{"trigger": "on_play", "action": "choose", "options": [
                   {"action": "create_token", "target": "self", "token": {"name": "衍生物", "atk": 1, "def": 1}},
                   {"action": "create_token", "target": "self",
                    "token": {"name": "融合", "atk": 3, "def": 3, "attribute": "fire"}}]}]}
    return definition, cards + [maker, chooser]


def test_create_token_effects_give_token_cards_that_cockatrice_reads_as_tokens(bundled):
    """A card that makes tokens names them in <related> (so Cockatrice offers them in the card's
    menu), and each token is a card whose <token> is 1: Cockatrice reads the flag with toInt(), so
    'true' would be read as 0 (cockatrice_xml_4.cpp). Before, tokens were left out altogether."""
    definition, cards = _token_makers(bundled)
    bundle = cockatrice.export_cockatrice(definition, cards, today=TODAY)
    errors, names = checkers.check_cockatrice(bundle.files["fusion.xml"])
    assert errors == []
    root = ET.fromstring(bundle.files["fusion.xml"])
    by_name = {c.findtext("name"): c for c in root.iter("card")}
    assert len(by_name) == len(cards) + 2
    plain = by_name["衍生物"]
    assert plain.findtext("token") == "1"
    assert plain.findtext("prop/pt") == "1/1" and plain.findtext("prop/maintype") == "token"
    assert plain.findtext("set") == "FD09" and plain.findtext("tablerow") == "2"
    # a token named like a card (融合 is a magic card) gets a name of its own
    renamed = by_name["融合 (token)"]
    assert renamed.findtext("token") == "1" and renamed.findtext("prop/attribute") == "fire"
    assert by_name["融合"].find("token") is None
    maker = by_name["衍生召唤"].findall("related")
    assert [(r.text, r.get("count")) for r in maker] == [("衍生物", "2")]
    assert [r.text for r in by_name["二择"].findall("related")] == ["衍生物", "融合 (token)"]
    assert all(c.find("related") is None for c in root.iter("card")
               if c.findtext("name") not in {"衍生召唤", "二择"})
    assert any("2 token cards" in note for note in bundle.notes)


def test_token_cards_validate_against_cockatrices_schema(bundled, cockatrice_schemas):
    definition, cards = _token_makers(bundled)
    cockatrice_schemas[0].validate(io.BytesIO(cockatrice.export_cockatrice(definition, cards, today=TODAY)
                                              .files["fusion.xml"]))


def test_every_set_states_its_priority(bundled):
    """Cockatrice's CockatriceXml4Parser::loadSetsFromXml declares `short priority;` and reads it
    only from a <priority> element, then uses it for the set anyway: a set without one gets
    whatever was in memory. Every set says 40, CardSet::PriorityOther, which Cockatrice's Oracle
    gives a set type it does not know (oracleimporter.cpp getSetPriority)."""
    definition, cards, _ = bundled["fusion"]
    root = ET.fromstring(cockatrice.export_cockatrice(definition, cards, today=TODAY).files["fusion.xml"])
    sets = root.findall("sets/set")
    assert len(sets) == 3 and [s.findtext("priority") for s in sets] == ["40"] * 3


def test_a_token_field_never_overrides_cockatrices_own_props(bundled):
    """Cockatrice keeps the last <prop> child of a name, so a token key named type or pt (not a
    token field the validator allows, but possible in a hand-edited file) is left out."""
    definition, cards, _ = bundled["fusion"]
    odd = {"id": "zz-odd", "name": "怪", "kind": "magic", "subtype": "normal", "cost": 1, "number": "FD09-003",
           "effects": [{"action": "create_token", "token": {"name": "怪物", "atk": 2, "def": 0, "type": "x", "pt": "9/9"}}]}
    root = ET.fromstring(cockatrice.export_cockatrice(definition, cards + [odd], today=TODAY).files["fusion.xml"])
    token = next(c for c in root.iter("card") if c.findtext("name") == "怪物")
    assert [(p.tag, p.text) for p in token.find("prop")] == [("type", "Token"), ("maintype", "token"), ("pt", "2/0"),
                                                             ("atk", "2"), ("def", "0")]
