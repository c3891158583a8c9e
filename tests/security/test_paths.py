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


ROUTE_HOSTILE = ["..", "%2e%2e", "..%2F..%2Fgame", "..%2f..%2f..%2f..%2fetc%2fpasswd", "%2Fetc%2Fpasswd",
                 "a%5C..%5Cb", "a%00b", "x" * 300]
ROUTE_DEFAULTS = {"game": "seth", "card_id": "glass-wasp", "deck_id": "skyburn-blitz"}


def _routes_with_arguments(app):
    import re

    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or not rule.arguments:
            continue
        for arg in sorted(rule.arguments):
            yield rule, arg, re


def test_every_route_refuses_hostile_values_in_every_argument(env, guard):
    """Walks app.url_map, so routes added by any feature are covered without listing them here."""
    client = env.app.test_client(use_cookies=False)
    checked = 0
    for rule, arg, re in _routes_with_arguments(env.app):
        for value in ROUTE_HOSTILE:
            if arg == "index" or "int:" in rule.rule and f"<int:{arg}>" in rule.rule:
                continue  # an int converter cannot carry a path; werkzeug answers 404 before the view
            url = rule.rule
            for name in rule.arguments:
                raw = value if name == arg else ROUTE_DEFAULTS.get(name, "nope")
                url = re.sub(r"<(?:[a-z]+:)?%s>" % name, raw, url)
            url = url.replace("<int:index>", "0")
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                answer = client.open(url, method=method)
                checked += 1
                if answer.status_code in (307, 308):  # werkzeug merging "//": follow it, it must end in a 4xx
                    location = answer.headers["Location"]
                    assert not location.startswith("//") and "evil" not in location
                    answer = client.open(location, method=method)
                assert 400 <= answer.status_code < 500, (rule.endpoint, method, url[:80], answer.status_code)
                assert b"Traceback" not in answer.data
    assert checked > 100
    assert client.get("/healthz").status_code == 200


@pytest.mark.parametrize("rel", ["../../../../etc/passwd", "..%2f..%2f..%2fetc%2fpasswd", "%2Fetc%2Fpasswd",
                                 "csv/..%2F..%2F..%2Fcard_data%2Fseth%2Fgame.yaml", "..\\..\\x", "a%00b",
                                 ".imports/x", "/etc/passwd"], ids=_short)
def test_export_downloads_stay_in_the_export_folder(anon, rel, guard):
    answer = anon.get(f"/games/seth/exports/{rel}", follow_redirects=True)
    assert 400 <= answer.status_code < 500, answer.status_code
    assert b"root:" not in answer.data and b"kinds:" not in answer.data
