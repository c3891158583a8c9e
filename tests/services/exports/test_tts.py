"""Tabletop Simulator: sheets within 10 x 7 and 4096 px, RGB; CardID = key * 100 + index."""

from __future__ import annotations

import io
import json

from PIL import Image

from tests.services.exports import checkers
from workbench.services.exports import tts
from workbench.services.exports.common import one_line
from workbench.services.exports.faces import Faces

BASE = "https://cdn.example.org/tts/"


def test_bundled_deck(bundled):
    definition, cards, decks = bundled["warzone"]
    deck = decks[0]
    bundle = tts.export_tts(definition, cards, deck, base_url=BASE)
    assert checkers.check_tts(bundle.files, bundle.main, BASE) == []
    state = json.loads(bundle.files[bundle.main])
    copies = sum(n for zone in deck["zones"].values() for n in zone.values())
    assert len(state["ObjectStates"][0]["ContainedObjects"]) == copies


def test_many_cards_span_several_sheets(hostile_definition):
    cards = [{"id": f"c{i:03d}", "name": f"Card {i}", "kind": "action", "text": "x"} for i in range(150)]
    faces = Faces(hostile_definition, renderer=lambda d, c: Image.new("RGBA", (40, 56), (i % 255, 0, 0, 255)
                                                                       if (i := int(c["id"][1:])) else (0, 0, 0, 0)))
    bundle = tts.export_tts(hostile_definition, cards, faces=faces, base_url=BASE)
    assert checkers.check_tts(bundle.files, bundle.main, BASE) == []
    state = json.loads(bundle.files[bundle.main])["ObjectStates"][0]
    key = tts.first_deck_key("hostile", "hostile")
    assert sorted(state["CustomDeck"], key=int) == [str(key), str(key + 1), str(key + 2)]
    assert state["DeckIDs"][:2] == [key * 100, key * 100 + 1] and state["DeckIDs"][69] == (key + 1) * 100
    assert state["DeckIDs"][-1] == (key + 2) * 100 + 11
    assert state["CustomDeck"][str(key + 2)]["NumWidth"] == 10 and state["CustomDeck"][str(key + 2)]["NumHeight"] == 2
    with Image.open(io.BytesIO(bundle.files["hostile-sheet-1.jpg"])) as sheet:
        assert sheet.size == (4000, 3920) and sheet.mode == "RGB"


def test_local_file_urls_and_hostile_names(hostile_definition, hostile_cards, hostile_decks, tmp_path):
    base = tmp_path.as_uri() + "/"
    bundle = tts.export_tts(hostile_definition, hostile_cards, hostile_decks[0], base_url=base)
    assert checkers.check_tts(bundle.files, bundle.main, base) == []
    state = json.loads(bundle.files[bundle.main])["ObjectStates"][0]
    nicknames = {o["Nickname"] for o in state["ContainedObjects"]}
    assert "Twin" in nicknames
    assert any("file://" in note for note in bundle.notes)


def test_checker_catches_a_bad_card_id(hostile_definition, hostile_cards):
    bundle = tts.export_tts(hostile_definition, hostile_cards[:3], base_url=BASE)
    state = json.loads(bundle.files[bundle.main])
    state["ObjectStates"][0]["ContainedObjects"][0]["CardID"] = 199
    broken = dict(bundle.files, **{bundle.main: json.dumps(state).encode()})
    errors = checkers.check_tts(broken, bundle.main, BASE)
    assert any("DeckIDs" in e for e in errors) and any("deck key 1" in e or "outside" in e for e in errors)


def test_one_card_is_saved_as_a_card_not_a_deck_of_one(hostile_definition, hostile_cards):
    """TTS shows no DeckCustom of one card (a one-card export did not show up:
    JonathanGuberman/unmatched_maker#55), so one card alone is the Card object itself, with its
    own CustomDeck; two cards stay a deck."""
    one = {"id": "solo", "name": "Solo", "zones": {"main": {"card-01": 1}}}
    bundle = tts.export_tts(hostile_definition, hostile_cards, one, base_url=BASE)
    assert checkers.check_tts(bundle.files, bundle.main, BASE) == []
    objects = json.loads(bundle.files[bundle.main])["ObjectStates"]
    assert len(objects) == 1 and objects[0]["Name"] == "Card"
    key = tts.first_deck_key("hostile", "solo")
    assert objects[0]["CardID"] == key * 100 and objects[0]["Nickname"] == one_line(hostile_cards[1]["name"])
    sheet = objects[0]["CustomDeck"][str(key)]
    assert sheet["FaceURL"] == BASE + "solo-sheet-1.jpg" and (sheet["NumWidth"], sheet["NumHeight"]) == (2, 1)
    two = {"id": "pair", "name": "Pair", "zones": {"main": {"card-01": 2}}}
    bundle = tts.export_tts(hostile_definition, hostile_cards, two, base_url=BASE)
    assert json.loads(bundle.files[bundle.main])["ObjectStates"][0]["Name"] == "DeckCustom"


def test_checker_refuses_a_deck_of_one_card(hostile_definition, hostile_cards):
    bundle = tts.export_tts(hostile_definition, hostile_cards[:2], base_url=BASE)
    state = json.loads(bundle.files[bundle.main])
    deck = state["ObjectStates"][0]
    deck["ContainedObjects"], deck["DeckIDs"] = deck["ContainedObjects"][:1], deck["DeckIDs"][:1]
    broken = dict(bundle.files, **{bundle.main: json.dumps(state).encode()})
    assert any("one card" in e for e in checkers.check_tts(broken, bundle.main, BASE))


def test_two_exports_never_share_a_deck_key(bundled):
    """TTS remembers a custom deck's images by its CustomDeck key: a second saved object using the
    same key showed the first one's faces (JonathanGuberman/unmatched_maker#56). Every game and
    deck export starts at its own key, the same each time it is exported, and CardIDs stay
    key * 100 + index inside a 32-bit integer."""
    keys: dict[str, set[str]] = {}
    for game in ("warzone", "seth", "fusion"):
        definition, cards, decks = bundled[game]
        for deck in [None, *decks]:  # two cards each: the key depends on the game and deck only
            few = {"id": deck["id"], "zones": {"main": {cards[0]["id"]: 1, cards[1]["id"]: 2}}} if deck else None
            bundle = tts.export_tts(definition, cards if deck else cards[:2], few, base_url=BASE)
            assert checkers.check_tts(bundle.files, bundle.main, BASE) == []
            obj = json.loads(bundle.files[bundle.main])["ObjectStates"][0]
            keys[f"{game}/{deck['id'] if deck else '-'}"] = set(obj["CustomDeck"])
            assert all(0 < cid < 2**31 for cid in obj["DeckIDs"])
    assert len(keys) == 9
    everything = [k for ks in keys.values() for k in ks]
    assert len(everything) == len(set(everything)), keys
    assert "1" not in everything
    definition, cards, decks = bundled["seth"]
    few = {"id": decks[0]["id"], "zones": {"main": {cards[0]["id"]: 1, cards[1]["id"]: 2}}}
    again = json.loads(tts.export_tts(definition, cards, few, base_url=BASE).files[f"{decks[0]['id']}.json"])
    assert set(again["ObjectStates"][0]["CustomDeck"]) == keys[f"seth/{decks[0]['id']}"]
