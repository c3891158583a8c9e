"""Issue 13 item 10: one broken ``game.yaml`` must not take down every game.

Before, ``/`` and ``/api/games`` answered 400 or 500 while ``/healthz`` said ok. Now the broken
game is listed with its problem (file, line, message), the other games keep working, and
``/healthz`` and the CLI report it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

BROKEN = "seth"


@pytest.fixture(params=["yaml", "schema"])
def broken(request, data_dir: Path) -> str:
    path = data_dir / BROKEN / "game.yaml"
    if request.param == "yaml":
        path.write_text("id: seth\nname: Seth\nkinds: [\n  oops: {\n", encoding="utf-8")
    else:
        path.write_text("id: seth\nname: Seth\nkinds: 5\n", encoding="utf-8")
    return request.param


def test_the_games_page_lists_the_broken_game_and_the_others(client, broken: str) -> None:
    answer = client.get("/")
    assert answer.status_code == 200
    body = answer.get_data(as_text=True)
    assert 'id="game-warzone"' in body and 'id="game-fusion"' in body
    assert 'id="game-seth"' in body and "seth/game.yaml" in body
    if broken == "yaml":
        assert "line 4" in body or "line 5" in body
    assert client.get("/games/warzone/cards").status_code == 200
    assert client.get("/api/games/fusion/cards").status_code == 200


def test_the_api_lists_the_broken_game_with_its_problem(client, broken: str) -> None:
    answer = client.get("/api/games")
    assert answer.status_code == 200
    games = {g["id"]: g for g in answer.get_json()}
    assert set(games) == {"warzone", "seth", "fusion"}
    assert "problem" not in games["warzone"] and games["warzone"]["cards"] > 0
    problem = games[BROKEN]["problem"]
    assert problem["file"] == "seth/game.yaml" and problem["message"]
    if broken == "yaml":
        assert isinstance(problem["line"], int)
    # The broken game's own pages answer with the problem, not a traceback.
    own = client.get(f"/api/games/{BROKEN}/cards")
    assert own.status_code == 400 and "game.yaml" in own.get_json()["error"]


def test_healthz_reports_the_broken_game(client, broken: str) -> None:
    answer = client.get("/healthz").get_json()
    assert answer["ok"] is True and answer["games"] == 3
    assert [b["game"] for b in answer["broken_games"]] == [BROKEN]
    assert answer["broken_games"][0]["file"] == "seth/game.yaml"


def test_a_broken_definition_is_not_parsed_again_on_every_page(repo, data_dir: Path, monkeypatch) -> None:
    from workbench.storage import repository

    (data_dir / BROKEN / "game.yaml").write_text("id: seth\nkinds: [\n", encoding="utf-8")
    calls = []
    real = repository.parse_yaml
    monkeypatch.setattr(repository, "parse_yaml",
                        lambda *a, **k: calls.append(a[2] if len(a) > 2 else "") or real(*a, **k))
    for _ in range(5):
        good, broken = repo.games_checked()
    assert [b.id for b in broken] == [BROKEN] and calls.count("seth/game.yaml") == 1
    assert good == ["fusion", "warzone"]


def test_the_cli_lists_and_validates_the_other_games(data_dir: Path) -> None:
    (data_dir / BROKEN / "game.yaml").write_text("id: seth\nkinds: [\n", encoding="utf-8")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "workbench", *args, "--data", str(data_dir)],
                              capture_output=True, text=True, timeout=300)

    games = run("games", "--json")
    assert games.returncode == 1, games.stderr
    rows = {r["id"]: r for r in json.loads(games.stdout)}
    assert rows["warzone"]["cards"] > 0 and rows[BROKEN]["problem"]["file"] == "seth/game.yaml"
    started = time.perf_counter()
    check = run("validate", "--json")
    assert check.returncode == 1 and "Traceback" not in check.stderr
    report = json.loads(check.stdout)
    assert set(report["games"]) == {"warzone", "seth", "fusion"}
    assert report["games"][BROKEN]["unreadable"][0]["file"].startswith("game.yaml")
    assert time.perf_counter() - started < 300
