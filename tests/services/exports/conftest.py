"""Fixtures for the export tests: the bundled games' cards and a game full of hostile text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.domain.gamedef import parse_definition
from workbench.storage.repository import Repository

BUNDLED = Path(__file__).resolve().parents[3] / "card_data"

HOSTILE_RAW = {
    "id": "hostile",
    "name": "Hostile & <Test> \"Game\"",
    "fields": {
        "name": {"type": "string", "required": True, "label": "Name"},
        "text": {"type": "text", "label": "Text"},
        "flavor": {"type": "text", "label": "Flavor"},
        "creator": {"type": "string", "label": "Creator"},
        "number": {"type": "string", "label": "Number"},
        "tags": {"type": "list", "items": {"type": "string"}, "label": "Tags"},
        "effects": {"type": "effects", "label": "Effects"},
    },
    "kinds": {
        "thing": {"label": "Thing", "fields": {
            "cost": {"type": "integer", "minimum": 0, "label": "Cost"},
            "atk": {"type": "integer", "label": "ATK", "stat": True},
            "def": {"type": "integer", "label": "DEF", "stat": True},
            "rare": {"type": "boolean", "label": "Rare"},
        }},
        "action": {"label": "Action"},
    },
    "zones": {"main": {"label": "Main Deck", "play": True}, "side": {"label": "Side & Spare"}},
    "formats": {"open": {"label": "Open <all>"}},
    "options": {"start_life": {"default": 7, "type": "integer"}},
    "play": {"life": "start_life"},
}

HOSTILE_TEXTS = [
    "tab\there",
    "two\nlines\r\nand CRLF",
    'He said "no", she said \'yes\'',
    r"100% [sure] {brace} (paren), semi; caret^ dollar$ back\slash pipe|bar",
    "漢字のテキスト 融合决斗 — ümlaut",
    "emoji 🂡🃏 and ZWJ 👩‍👩‍👧",
    "  leading and trailing  ",
    "double  spaces   inside",
    "=SUM(A1:A9)",
    "-1 damage",
    "@mention +plus",
    "&amp; <b>not html</b> ]]> &",
    "%r%t%b %% literal percent-codes \\%",
    "",
]


@pytest.fixture(scope="session")
def hostile_definition():
    return parse_definition(HOSTILE_RAW)


@pytest.fixture(scope="session")
def hostile_cards():
    cards = []
    for i, text in enumerate(HOSTILE_TEXTS):
        cards.append({
            "id": f"card-{i:02d}",
            "name": (text.strip() or "Blank").replace("\n", " ")[:60] if i % 2 else f"Card / {i} \"q\"",
            "kind": "thing" if i % 3 else "action",
            "text": text,
            "flavor": HOSTILE_TEXTS[-2 - (i % 5)],
            "creator": "Zoë 🂡",
            "number": f"HX-{i:03d}",
            **({"cost": i, "atk": i * 2, "def": 3, "rare": bool(i % 2)} if i % 3 else {}),
            "tags": ["a b", "ü"] if i % 2 else [],
            "effects": [{"trigger": "on_play", "action": "draw", "amount": 1, "note": text}] if i % 4 == 0 else [],
        })
    # two cards with the same name: Lackey needs (Name, Set) unique, Cockatrice unique names
    cards.append(dict(cards[1], id="twin-a", name="Twin"))
    cards.append(dict(cards[2], id="twin-b", name="Twin"))
    # a card whose text is far longer than one MUSH line
    cards.append({"id": "long-one", "name": "Long", "kind": "action",
                  "text": ("Very long [text] with 100% ; and 漢字 " * 400).strip()})
    return cards


@pytest.fixture(scope="session")
def hostile_decks():
    return [{"id": "mixed", "name": "Mixed <deck> & \"co\"", "zones": {
        "main": {"card-01": 3, "card-02": 1, "twin-a": 2, "long-one": 1}, "side": {"card-04": 2, "twin-b": 1}}}]


@pytest.fixture(scope="session")
def bundled():
    """game id -> (definition, cards with ids, decks with ids) for the three bundled games."""
    repo = Repository(BUNDLED)
    result = {}
    for game in ("warzone", "seth", "fusion"):
        cards = [dict(c.data, id=c.id) for c in repo.list_cards(game)]
        decks = [dict(d.data, id=d.id) for d in repo.list_decks(game)]
        result[game] = (repo.game(game), cards, decks)
    return result


# ------------------------------------------------------------------ Cockatrice's own schemas

# Cockatrice's doc/carddatabase_v4/cards.xsd and doc/deck.xsd (GPL-2.0, github.com/Cockatrice/Cockatrice).
# They are not committed here (files brought from other repositories stay out of this one); the
# tests read them from COCKATRICE_SCHEMA_DIR or from shared/vendor/cockatrice/ beside the checkout.
COCKATRICE_SCHEMA_FILES = ("cards.xsd", "deck.xsd")


def cockatrice_schema_dir() -> Path | None:
    """The first folder holding both schema files, or None."""
    candidates = [os.environ.get("COCKATRICE_SCHEMA_DIR", ""),
                  str(Path(__file__).resolve().parents[3].parent / "shared" / "vendor" / "cockatrice")]
    for candidate in candidates:
        if candidate and all((Path(candidate) / name).is_file() for name in COCKATRICE_SCHEMA_FILES):
            return Path(candidate)
    return None


@pytest.fixture(scope="session")
def cockatrice_schemas():
    """(cards.xsd v4, deck.xsd) as xmlschema validators: a real XML Schema processor, not a restatement."""
    import xmlschema

    folder = cockatrice_schema_dir()
    if folder is None:
        pytest.skip("Cockatrice's cards.xsd and deck.xsd are not on this machine: set COCKATRICE_SCHEMA_DIR "
                    "or put them in shared/vendor/cockatrice/ (see docs/exports.md)")
    return tuple(xmlschema.XMLSchema(str(folder / name)) for name in COCKATRICE_SCHEMA_FILES)


@pytest.fixture
def empty_repo_for_table(tmp_path):
    """A data folder with the bundled games' definitions and no cards (for import round trips)."""
    import shutil

    for game in ("warzone", "seth", "fusion"):
        (tmp_path / game).mkdir()
        shutil.copy(BUNDLED / game / "game.yaml", tmp_path / game / "game.yaml")
    return Repository(tmp_path)
