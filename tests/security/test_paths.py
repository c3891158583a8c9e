"""Hostile ids and file names: ``..``, ``/``, ``\\``, NUL, absolute paths, URL-encoded forms,
overlong names. Each gets a clear 4xx (or a clear CLI error) and nothing is written anywhere."""

from __future__ import annotations

import pytest

from workbench.cli import main

# Raw URL path segments as an attacker would type them (already percent-encoded where needed).
HOSTILE_SEGMENTS = [
    "..", "%2e%2e", "%252e%252e", "..%2F..%2Fgame", "..%2f..%2f..%2fetc%2fpasswd", "%2Fetc%2Fpasswd",
    "a%5Cb", "..%5C..%5Cgame", "C:%5Cwindows", "a%00b", "%00", "glass-wasp.yaml", "GLASS-WASP",
    "glass-wasp%00.yaml", ".hidden", "-dash", "x" * 65, "y" * 5000, "%C0%AE%C0%AE", "%E2%80%AE",
]
HOSTILE_IDS = ["..", "../x", "../../etc/passwd", "/etc/passwd", "a\\b", "..\\..\\x", "C:\\x", "a\x00b",
               "x" * 65, "%2e%2e", ".", "", " ", "card.yaml", "Üml", "名前", "a/b", "\u202ecard"]


def _short(value: object) -> str:
    return repr(value)[:24]


@pytest.mark.parametrize("segment", HOSTILE_SEGMENTS, ids=_short)
def test_hostile_card_and_game_ids_in_api_urls(anon, segment, guard):
    client = anon
    urls = [f"/api/games/seth/cards/{segment}", f"/api/games/{segment}/cards",
            f"/api/games/seth/decks/{segment}", f"/api/games/{segment}"]
    for url in urls:
        for method in ("GET", "PUT", "DELETE", "POST"):
            answer = client.open(url, method=method, json={"name": "X", "kind": "monster"},
                                 headers={"If-Match": '"0000"'})
            assert 400 <= answer.status_code < 500, (method, url, answer.status_code)
            if answer.status_code != 405:
                assert answer.is_json and answer.json["error"], (method, url)
    assert client.get("/healthz").status_code == 200


@pytest.mark.parametrize("segment", HOSTILE_SEGMENTS, ids=_short)
def test_hostile_ids_in_page_urls(anon, segment, guard):
    client = anon
    for url in (f"/games/{segment}/cards", f"/games/seth/cards/{segment}/edit", f"/games/{segment}/decks",
                f"/games/seth/decks/{segment}/edit", f"/games/seth/cards/{segment}/delete"):
        answer = client.get(url)
        assert 400 <= answer.status_code < 500, (url, answer.status_code)
        assert b"Traceback" not in answer.data


@pytest.mark.parametrize("bad", HOSTILE_IDS, ids=_short)
def test_hostile_ids_when_creating(anon, bad, guard):
    client = anon
    for collection in ("cards", "decks"):
        answer = client.post(f"/api/games/seth/{collection}", json={"id": bad, "name": "X", "kind": "monster"})
        assert answer.status_code == 400 and "not allowed" in answer.json["error"], (collection, bad)


def test_a_symlinked_card_file_is_not_followed(app, data_dir, tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("name: Outside\nkind: monster\n")
    (data_dir / "seth/cards/sneaky.yaml").symlink_to(outside)
    client = app.test_client(use_cookies=False)
    assert client.get("/api/games/seth/cards/sneaky").status_code == 400
    answer = client.put("/api/games/seth/cards/sneaky", json={"name": "Overwritten", "kind": "monster"},
                        headers={"If-Match": '"x"'})
    assert answer.status_code == 400
    assert outside.read_text() == "name: Outside\nkind: monster\n"
    assert "sneaky" not in {c["id"] for c in client.get("/api/games/seth/cards").json["cards"]}


@pytest.mark.parametrize("bad", ["../seth", "/etc", "a\\b", "x" * 300, "seth/../warzone", "a\x00b"], ids=_short)
def test_cli_refuses_hostile_game_ids(env, bad, capsys, guard):
    for argv in (["cards", bad], ["validate", bad], ["export", bad, "csv", "-o", str(env.exports / "out")]):
        code = main([*argv, "--data", str(env.data)])
        assert code in (1, 2), argv
        err = capsys.readouterr().err
        assert err.startswith("error:") and "Traceback" not in err, (argv, err)


def test_cli_import_refuses_a_missing_or_hostile_file_name(env, capsys, guard):
    for name in ("../../etc/shadow-nope", "/nonexistent/cards.csv", "nul\x00.csv"):
        code = main(["import", "seth", name, "--data", str(env.data), "--dry-run"])
        assert code in (1, 2)
        assert "error" in capsys.readouterr().err.lower()
