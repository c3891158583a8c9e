"""Hostile YAML in the data folder (from a stranger's game, a pulled repository, a restored
backup): alias bombs, object tags, deep nesting, huge files, bad encodings. Every one is a clear
4xx or an "unreadable" entry; nothing is executed and the server keeps serving."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.security.helpers import copy_data
from workbench.domain.errors import DataError
from workbench.storage.yamlio import parse_yaml

MARKER = Path("/tmp/workbench-yaml-pwned")
ALIAS_BOMB = "\n".join(
    ["name: Bomb", "kind: monster", 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},"
       f"*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)}]" for i in range(8)]
)
HOSTILE = {
    "alias-bomb": ALIAS_BOMB.encode(),
    "python-object": f"name: !!python/object/apply:os.system ['touch {MARKER}']\nkind: monster\n".encode(),
    "python-name": b"name: !!python/name:os.system\nkind: monster\n",
    "python-new": b"!!python/object/new:type\nargs: [x, [], {}]\n",
    "deep-nesting": b"name: Deep\nkind: monster\nx: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "deep-mapping": b"name: Deep\nkind: monster\n" + b"".join(b"  " * i + b"k:\n" for i in range(200)),
    "huge": b"name: Huge\nkind: monster\ntext: '" + b"A" * (300 * 1024) + b"'\n",
    "not-utf8": b"name: \xff\xfe\xfa\nkind: monster\n",
    "utf16": "name: Wide\nkind: monster\n".encode("utf-16"),
    "not-a-mapping": b"- just\n- a list\n",
    "broken": b"name: [unclosed\nkind: monster\n",
    "tabs": b"name: X\n\tkind: monster\n",
    "merge-key": b"base: &b {kind: monster}\nname: M\n<<: *b\n",
}


@pytest.fixture(scope="module")
def planted(env):
    for name, body in HOSTILE.items():
        (env.data / "seth" / "cards" / f"{name}.yaml").write_bytes(body)
    return env


@pytest.mark.parametrize("name", sorted(set(HOSTILE) - {"not-a-mapping"}))  # valid YAML; the repository refuses it
def test_parser_refuses_with_a_clear_data_error(name):
    with pytest.raises(DataError) as caught:
        parse_yaml(HOSTILE[name], 256 * 1024, f"{name}.yaml")
    assert str(caught.value) and "Traceback" not in str(caught.value)
    assert not MARKER.exists()


def test_the_api_names_every_unreadable_file_and_serves_the_rest(planted):
    client = planted.app.test_client(use_cookies=False)
    answer = client.get("/api/games/seth/cards")
    assert answer.status_code == 200
    unreadable = {u["id"]: u["error"] for u in answer.json["unreadable"]}
    assert set(HOSTILE) <= set(unreadable)
    assert "anchors and aliases" in unreadable["alias-bomb"]
    assert "256" in unreadable["huge"] or "limit" in unreadable["huge"]
    assert len(answer.json["cards"]) >= 16
    assert not MARKER.exists()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_each_hostile_card_is_a_clear_4xx_everywhere(planted, name):
    client = planted.app.test_client(use_cookies=False)
    got = client.get(f"/api/games/seth/cards/{name}")
    assert got.status_code == 400 and got.json["error"]
    saved = client.put(f"/api/games/seth/cards/{name}", json={"name": "X", "kind": "monster"},
                       headers={"If-Match": '"0000"'})
    assert 400 <= saved.status_code < 500
    page = client.get(f"/games/seth/cards/{name}/edit")
    assert 400 <= page.status_code < 500 and b"Traceback" not in page.data
    assert client.get("/healthz").status_code == 200


def test_pages_that_list_cards_still_work(planted):
    client = planted.app.test_client(use_cookies=False)
    for url in ("/", "/games/seth/cards", "/games/seth/decks", "/games/seth/decks/skyburn-blitz/edit"):
        answer = client.get(url)
        assert answer.status_code == 200, url
    assert not MARKER.exists()


def test_a_hostile_game_definition_is_a_clear_4xx(tmp_path):
    from workbench.web import create_app

    data = copy_data(tmp_path / "card_data")
    (data / "seth" / "game.yaml").write_bytes(HOSTILE["alias-bomb"])
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "SECRET_KEY": "x", "EXPORT_DIR": str(tmp_path / "e")})
    client = app.test_client(use_cookies=False)
    answer = client.get("/api/games/seth")
    assert answer.status_code == 400 and "alias" in answer.json["error"]
    assert client.get("/api/games/warzone").status_code == 200
    assert client.get("/healthz").status_code == 200


def test_cli_reports_hostile_files_clearly(planted, capsys):
    from workbench.cli import main

    code = main(["cards", "seth", "--data", str(planted.data)])
    out = capsys.readouterr().out
    assert code == 0 and "alias-bomb" in out and "UNREADABLE" in out
    assert not MARKER.exists()
