"""Issue 13 item 9: symbolic links inside a game folder are not followed for ``playtests/``,
``art/``, ``.audit/`` and ``.locks/`` (cards and decks already refused them).

Before, run files and art were written outside the data folder through a linked folder, and run
files planted in a linked folder were served. Each test links one folder to a folder outside the
data folder and checks that nothing is written there and nothing from there is served.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from PIL import Image

from tests.web.pages_helpers import page_token

GAME = "seth"
CARD = "glass-wasp"
RUN_ID = "20260101-000000-000abcd"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


def files_in(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def link(path: Path, target: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        for child in path.iterdir():
            (target / child.name).write_bytes(child.read_bytes()) if child.is_file() else None
        import shutil

        shutil.rmtree(path)
    os.symlink(target, path)


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 64), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def test_run_files_are_not_written_through_a_linked_playtests_folder(repo, data_dir: Path, outside: Path) -> None:
    from workbench.domain.errors import InvalidId
    from workbench.storage.playtest_runs import LiveRuns, RunStore

    link(data_dir / GAME / "playtests", outside)
    before = files_in(outside)
    with pytest.raises(InvalidId, match="symbolic link"):
        RunStore(repo).save(GAME, {"kind": "matchup", "report": {}})
    with pytest.raises(InvalidId, match="symbolic link"):
        LiveRuns(repo).write_state(GAME, RUN_ID, {"status": "running"})
    assert files_in(outside) == before


def test_a_run_planted_in_a_linked_folder_is_not_served(app, data_dir: Path, outside: Path) -> None:
    (outside / f"{RUN_ID}.json").write_text(json.dumps({"id": RUN_ID, "game": GAME, "kind": "matchup",
                                                       "secret": "from outside", "report": {}}))
    link(data_dir / GAME / "playtests", outside)
    client = app.test_client()
    answer = client.get(f"/api/games/{GAME}/playtests/{RUN_ID}")
    assert answer.status_code in (400, 404)
    assert "from outside" not in answer.get_data(as_text=True)
    page = client.get(f"/games/{GAME}/playtest")
    assert page.status_code == 200 and RUN_ID not in page.get_data(as_text=True)


def test_a_linked_live_folder_is_not_followed(repo, data_dir: Path, outside: Path) -> None:
    from workbench.domain.errors import InvalidId
    from workbench.storage.playtest_runs import LiveRuns

    (data_dir / GAME / "playtests").mkdir(exist_ok=True)
    (outside / f"{RUN_ID}.json").write_text(json.dumps({"status": "running"}))
    link(data_dir / GAME / "playtests" / "live", outside)
    with pytest.raises(InvalidId):
        LiveRuns(repo).state(GAME, RUN_ID)
    with pytest.raises(InvalidId):
        LiveRuns(repo).request_cancel(GAME, RUN_ID)
    assert files_in(outside) == [f"{RUN_ID}.json"]


def test_art_is_not_written_or_read_through_a_linked_art_folder(app, data_dir: Path, outside: Path) -> None:
    from workbench.storage.art import read_art

    (outside / "planted.png").write_bytes(png())
    link(data_dir / GAME / "art", outside)
    before = files_in(outside)
    client = app.test_client()
    token = page_token(client, f"/games/{GAME}/cards/{CARD}/art")
    answer = client.post(f"/games/{GAME}/cards/{CARD}/art", data={"art": (io.BytesIO(png()), "a.png"),
                                                                  "csrf_token": token},
                         headers={"Accept": "application/json"}, content_type="multipart/form-data")
    assert answer.status_code == 400 and "symbolic link" in answer.get_json()["error"]
    assert files_in(outside) == before
    assert read_art(data_dir / GAME, "planted.png") is None


def test_a_planted_art_file_link_is_not_read(data_dir: Path, outside: Path) -> None:
    from workbench.storage.art import read_art

    (outside / "secret.png").write_bytes(png())
    art = data_dir / GAME / "art"
    art.mkdir(exist_ok=True)
    os.symlink(outside / "secret.png", art / "secret.png")
    assert read_art(data_dir / GAME, "secret.png") is None


def test_a_linked_audit_folder_gets_no_line_and_the_save_still_works(repo, data_dir: Path, outside: Path) -> None:
    link(data_dir / ".audit", outside)
    before = {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()}
    stored = repo.get_card(GAME, CARD)
    repo.update_card(GAME, CARD, dict(stored.data, flavor="Changed."), stored.version)
    assert {p: p.read_bytes() for p in outside.rglob("*") if p.is_file()} == before
    assert repo.audit.entries() == []


def test_a_linked_locks_folder_refuses_the_save_and_creates_nothing(app, data_dir: Path, outside: Path) -> None:
    link(data_dir / ".locks", outside)
    client = app.test_client(use_cookies=False)
    card = client.get(f"/api/games/{GAME}/cards/{CARD}")
    answer = client.put(f"/api/games/{GAME}/cards/{CARD}", json=dict(card.get_json()["card"], flavor="x"),
                        headers={"If-Match": card.headers["ETag"].strip('"')})
    assert answer.status_code == 400 and "symbolic link" in answer.get_json()["error"]
    assert files_in(outside) == []


def test_a_planted_lock_file_link_is_refused(repo, data_dir: Path, outside: Path) -> None:
    import hashlib

    from workbench.domain.errors import InvalidId

    victim = outside / "victim.txt"
    victim.write_text("keep me")
    locks = data_dir / ".locks"
    locks.mkdir(exist_ok=True)
    name = hashlib.sha256(f"{GAME}/cards/{CARD}".encode()).hexdigest()[:32] + ".lock"
    os.symlink(victim, locks / name)
    stored = repo.get_card(GAME, CARD)
    with pytest.raises(InvalidId, match="symbolic link"):
        repo.update_card(GAME, CARD, dict(stored.data, flavor="x"), stored.version)
    assert victim.read_text() == "keep me"
