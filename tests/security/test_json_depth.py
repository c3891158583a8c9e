"""A JSON body nested far too deeply for Python's parser is refused with a 400 that names the
limit, on every route that reads JSON (it was a 500 "internal error": RecursionError escaped
Flask's silent JSON parsing)."""

from __future__ import annotations

import pytest

DEEP = '{"card": ' + "[" * 100_000 + "]" * 100_000 + "}"  # ~200 kB, far under the body cap


@pytest.mark.parametrize("method,url", [
    ("POST", "/api/games/seth/validate"),
    ("POST", "/api/games/seth/cards"),
    ("POST", "/games/seth/preview.png"),
    ("POST", "/games/seth/playtest"),
])
def test_a_body_nested_too_deeply_to_parse_is_a_400_naming_the_limit(client, method: str, url: str) -> None:
    token = client.get("/api/csrf").get_json()["csrf_token"]
    answer = client.open(url, method=method, data=DEEP, content_type="application/json",
                         headers={"X-CSRF-Token": token})
    assert answer.status_code == 400, answer.get_data(as_text=True)[:300]
    assert "nest at most 12 levels" in answer.get_data(as_text=True)


def test_a_body_within_the_limit_is_still_read(client) -> None:
    token = client.get("/api/csrf").get_json()["csrf_token"]
    answer = client.post("/api/games/seth/validate", json={"card": {"name": "x", "kind": "monster"}},
                         headers={"X-CSRF-Token": token})
    assert answer.status_code == 200


def test_a_lone_surrogate_is_refused_by_name_and_an_escaped_pair_is_text(client) -> None:
    """``"\\ud800"`` parses to a string no file can hold: a card named so was refused as "YAML is
    not valid YAML at line 1"; a pair (an emoji written as two escapes) is ordinary text."""
    token = client.get("/api/csrf").get_json()["csrf_token"]
    lone = client.post("/api/games/seth/cards", data='{"name": "Imp \\ud800", "kind": "monster"}',
                       content_type="application/json", headers={"X-CSRF-Token": token})
    assert lone.status_code == 400 and "lone UTF-16 surrogate" in lone.get_data(as_text=True)
    assert "YAML" not in lone.get_data(as_text=True)
    pair = client.post("/api/games/seth/validate", data='{"card": {"name": "Imp \\ud83d\\ude00", "kind": "monster"}}',
                       content_type="application/json", headers={"X-CSRF-Token": token})
    assert pair.status_code == 200
