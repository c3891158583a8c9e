"""Cockatrice cards.xml v4 and .cod decks through their checker."""

from __future__ import annotations

import datetime as dt
from xml.etree import ElementTree as ET

import pytest

from tests.services.exports import checkers
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
