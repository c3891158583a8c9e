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
