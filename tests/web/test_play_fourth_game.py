"""A fourth game gets a table with no core change: a made-up game whose engine lives in this test
module is played on the generic board (its zones come from the engine's snapshot)."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.pages_helpers import page_token
from workbench.domain.engines.base import Action, Engine, GameResult, GameStats, RandomAgent, State
from workbench.domain.errors import IllegalAction


class PebbleState(State):
    """Each player holds their bag in hand; in turn they toss one pebble; the heavier pile wins."""

    def __init__(self, deck_a: Any, deck_b: Any, options: Any, seed: int) -> None:
        self.rng = random.Random(seed)
        self.log: list[str] = []
        self.stats = GameStats()
        self.cards = {}
        self.hand: list[list[str]] = [[], []]
        for p, deck in enumerate((deck_a, deck_b)):
            for n, card in enumerate(deck["bag"]):
                name = f"{'ab'[p]}{n}"
                self.cards[name] = card
                self.hand[p].append(name)
        self.tossed: list[list[str]] = [[], []]
        self.turn = 1
        self.active = 0

    def to_act(self) -> tuple[int, ...]:
        return () if self.is_terminal() else (self.active,)

    def legal_actions(self, player: int) -> list[Action]:
        if player != self.active or self.is_terminal():
            return []
        return [Action("toss", (i,), f"toss {self.cards[i]['name']} ({i})") for i in self.hand[player]]

    def apply(self, action: Action) -> None:
        if action not in self.legal_actions(self.active):
            raise IllegalAction(f"{action} is not legal")
        p = self.active
        self.hand[p].remove(action.args[0])
        self.tossed[p].append(action.args[0])
        self.log.append(f"Turn {self.turn} — P{p + 1} tosses {self.cards[action.args[0]]['name']} ({action.args[0]})")
        self.active = 1 - p
        self.turn += 1
        if not self.hand[self.active] and self.hand[1 - self.active]:
            self.active = 1 - self.active

    def weight(self, p: int) -> int:
        return sum(int(self.cards[i]["weight"]) for i in self.tossed[p])

    def is_terminal(self) -> bool:
        return not self.hand[0] and not self.hand[1]

    def result(self) -> GameResult:
        a, b = self.weight(0), self.weight(1)
        winner = None if a == b else (0 if a > b else 1)
        return GameResult(winner, f"P1 tossed {a}, P2 tossed {b}", self.turn - 1)

    def clone(self) -> State:
        raise NotImplementedError


def _snapshot(state: State) -> dict[str, Any]:
    assert isinstance(state, PebbleState)
    return {"turn": state.turn, "to_act": list(state.to_act()),
            "cards": {name: card["id"] for name, card in state.cards.items()},  # instance -> card id
            "players": [{"weight": state.weight(p), "hand": list(state.hand[p]), "hand_count": len(state.hand[p]),
                         "tossed": list(state.tossed[p])} for p in (0, 1)]}


PEBBLE_ENGINE = Engine(game="pebbles", new_game=PebbleState, agents={"random": RandomAgent}, snapshot=_snapshot)
PEBBLE_BOARD_ENGINE = dataclasses.replace(PEBBLE_ENGINE, board_template=str(Path(__file__).with_name("pebble_board.html")))
"""The same engine shipping its own table layout, as an engine package outside workbench/ does."""

GAME_YAML = """\
id: pebbles
name: Pebble Toss
engine: tests.web.test_play_fourth_game:PEBBLE_ENGINE
kinds:
  pebble:
    label: Pebble
    fields:
      weight: {type: integer, required: true, minimum: 1}
fields:
  name: {type: string, required: true}
zones:
  bag: {label: Bag, kinds: [pebble], min: 3, max: 4}
"""


@pytest.fixture
def pebble_client(tmp_path: Path):
    from workbench.web import create_app

    root = tmp_path / "data"
    (root / "pebbles" / "cards").mkdir(parents=True)
    (root / "pebbles" / "decks").mkdir()
    (root / "pebbles" / "game.yaml").write_text(GAME_YAML)
    for i, weight in enumerate([2, 3, 4]):
        (root / "pebbles" / "cards" / f"p{i}.yaml").write_text(f"name: Pebble {i}\nkind: pebble\nweight: {weight}\n")
    (root / "pebbles" / "decks" / "light.yaml").write_text("name: Light\nzones:\n  bag: {p0: 2, p1: 1}\n")
    (root / "pebbles" / "decks" / "heavy.yaml").write_text("name: Heavy\nzones:\n  bag: {p1: 1, p2: 2}\n")
    app = create_app({"TESTING": True, "DATA_DIR": str(root), "EXPORT_DIR": str(tmp_path / "x"), "SECRET_KEY": "k"})
    with app.test_client() as client:
        yield client


def test_a_fourth_game_is_played_on_the_generic_board(pebble_client):
    client = pebble_client
    token = page_token(client, "/games/pebbles/play")
    answer = client.post("/games/pebbles/play", data={"csrf_token": token, "deck_you": "heavy", "deck_opponent": "light",
                                                      "opponent": "random", "seat": "first", "seed": "1"})
    assert answer.status_code == 303, re.findall(r'role="alert"[^>]*>([^<]*)', answer.get_data(as_text=True))
    url = answer.headers["Location"]
    page = client.get(url).get_data(as_text=True)
    assert 'data-zone="hand"' in page and 'data-zone="tossed"' in page  # zones from the snapshot
    view = client.get(url + "/state").get_json()
    you, them = view["board"]["players"]
    assert [c["name"] for c in you["zone"]["hand"]["cards"]] == ["Pebble 1", "Pebble 2", "Pebble 2"]
    assert them["zone"]["hand"]["count"] == 3 and all(c.get("hidden") for c in them["zone"]["hand"]["cards"])
    assert you["stats"] == [{"key": "weight", "label": "Weight", "value": 0}]
    assert view["moves"][0]["text"] == "Toss Pebble 1"
    headers = {"X-CSRF-Token": token}
    while not view["over"]:
        if view["moves"]:
            view = client.post(url + "/move", json={"seat": 0, "index": 0, "expect": view["decisions"]}, headers=headers).get_json()
        else:
            view = client.post(url + "/advance", json={"expect": view["decisions"]}, headers=headers).get_json()
    assert view["result"]["reason"] == "Heavy tossed 11, Light tossed 7"
    assert view["status"] == "Game over: Heavy won after 6 turns — Heavy tossed 11, Light tossed 7."
    assert any(line.startswith("Turn 2 — Light tosses Pebble") for line in view["log"])


def test_a_game_without_an_engine_says_so_on_its_play_page(tmp_path):
    from workbench.web import create_app

    root = tmp_path / "data"
    (root / "pebbles" / "cards").mkdir(parents=True)
    (root / "pebbles" / "game.yaml").write_text(GAME_YAML.replace("engine: tests.web.test_play_fourth_game:PEBBLE_ENGINE\n", ""))
    app = create_app({"TESTING": True, "DATA_DIR": str(root), "EXPORT_DIR": str(tmp_path / "x"), "SECRET_KEY": "k"})
    with app.test_client() as client:
        body = client.get("/games/pebbles/play").get_data(as_text=True)
        assert 'id="play-no-engine"' in body and 'id="play-form"' not in body
        # both pages say where the docs tell how to add an engine (the Playtest page said nothing)
        assert 'href="/docs/play#for-a-new-game"' in body
        playtest = client.get("/games/pebbles/playtest").get_data(as_text=True)
        assert 'so it cannot be playtested. How to add one: <a href="/docs/game-definitions">Defining a game</a>.' in playtest
        token = page_token(client, "/games/pebbles/play")
        assert client.post("/games/pebbles/play", data={"csrf_token": token}).status_code == 404


def _table_page(tmp_path: Path, engine: str):
    """The table page of a new pebbles game whose game.yaml names ``engine`` (an attribute of this
    module), against the random AI."""
    from workbench.web import create_app

    root = tmp_path / "data"
    (root / "pebbles" / "cards").mkdir(parents=True)
    (root / "pebbles" / "decks").mkdir()
    (root / "pebbles" / "game.yaml").write_text(GAME_YAML.replace(":PEBBLE_ENGINE", f":{engine}"))
    for i, weight in enumerate([2, 3, 4]):
        (root / "pebbles" / "cards" / f"p{i}.yaml").write_text(f"name: Pebble {i}\nkind: pebble\nweight: {weight}\n")
    (root / "pebbles" / "decks" / "light.yaml").write_text("name: Light\nzones:\n  bag: {p0: 2, p1: 1}\n")
    app = create_app({"TESTING": True, "DATA_DIR": str(root), "EXPORT_DIR": str(tmp_path / "x"), "SECRET_KEY": "k"})
    with app.test_client() as client:
        token = page_token(client, "/games/pebbles/play")
        answer = client.post("/games/pebbles/play", data={"csrf_token": token, "deck_you": "light", "deck_opponent": "light",
                                                          "opponent": "random", "seat": "first", "seed": "1"})
        assert answer.status_code == 303
        return client.get(answer.headers["Location"])


def test_an_engine_package_lays_out_its_own_table(tmp_path):
    """A table layout was only a template under the workbench's own templates/play/boards/ (a
    core edit, docs/play.md said so); an engine package now ships it as ``Engine.board_template``
    (found laying out a fourth game's table from the docs)."""
    page = _table_page(tmp_path, "PEBBLE_BOARD_ENGINE").get_data(as_text=True)
    assert "pebble-side" in page  # the engine's layout, not the generic board
    assert page.index('data-zone="tossed"') < page.index('data-zone="hand"')


PEBBLE_MISSING_BOARD_ENGINE = dataclasses.replace(PEBBLE_ENGINE, board_template=str(Path(__file__).with_name("no-such-board.html")))


def test_a_layout_the_engine_names_but_does_not_ship_falls_back_to_the_generic_board(tmp_path):
    page = _table_page(tmp_path, "PEBBLE_MISSING_BOARD_ENGINE")
    assert page.status_code == 200 and 'data-zone="hand"' in page.get_data(as_text=True)
    assert "pebble-side" not in page.get_data(as_text=True)
