"""Hostile requests: bad Host headers (DNS rebinding), cross-site POSTs, oversized and malformed
bodies. Each gets a clear 4xx, nothing is written and the server keeps serving."""

from __future__ import annotations

import pytest

from tests.security.helpers import copy_data, http, running_server

BAD_HOSTS = ["evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "attacker.test:5000",
             "LOCALHOST.evil", "127.0.0.2", "0.0.0.0", "[::2]", "localhost@evil.example", "evil.example#.localhost"]
CARD_PUT = "/api/games/seth/cards/glass-wasp"


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_dns_rebinding_hosts_are_refused(anon, host, guard):
    for method, url in (("GET", "/"), ("GET", "/api/games"), ("POST", "/api/games/seth/cards"),
                        ("PUT", CARD_PUT), ("DELETE", CARD_PUT)):
        answer = anon.open(url, method=method, headers={"Host": host, "If-Match": '"x"'},
                           json={"name": "Rebound", "kind": "monster"})
        assert answer.status_code == 400, (host, method, url, answer.status_code)
    assert anon.get("/healthz").status_code == 200


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "localhost:5000", "[::1]:8080"])
def test_local_names_are_served(anon, host):
    assert anon.get("/api/games", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://localhost.evil.example"},
    {"Origin": "https://localhost"},  # other scheme: another origin
    {"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"},  # same origin but no CSRF token
], ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()))
def test_cross_site_posts_are_refused(env, headers, guard):
    client = env.app.test_client()
    client.get("/")  # a browser with a session cookie, as a victim would have
    for method, url, body in (("POST", "/api/games/seth/cards", {"name": "Forged", "kind": "monster"}),
                              ("PUT", CARD_PUT, {"name": "Forged", "kind": "monster"}),
                              ("DELETE", CARD_PUT, None),
                              ("POST", "/games/seth/cards/glass-wasp/delete", None)):
        answer = client.open(url, method=method, headers={**headers, "If-Match": '"x"'}, json=body)
        assert answer.status_code == 403, (method, url, answer.status_code)


def test_a_form_post_from_another_site_without_token_is_refused(env, guard):
    client = env.app.test_client()
    client.get("/")
    answer = client.post("/games/seth/cards/glass-wasp/delete", data={"version": "x"},
                         headers={"Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 403


@pytest.mark.parametrize("referer", ["http://evil.example/page", "http://localhost.evil.example/",
                                     "https://localhost/"])
def test_a_post_naming_another_site_as_referer_is_refused_without_a_cookie_too(anon, referer, guard):
    """A browser too old to send Origin or Fetch Metadata: the session cookie is SameSite=Lax, so
    a cross-site form post arrives without it and would pass as a script; its Referer says
    where it came from."""
    answer = anon.post("/games/seth/cards/glass-wasp/delete", data={"version": "x"},
                       headers={"Referer": referer, "Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 403 and b"Referer" in answer.data


def test_a_post_from_this_apps_own_page_by_referer_still_needs_the_token(anon):
    answer = anon.post("/api/games/seth/validate", json={"card": {"name": "x", "kind": "monster"}},
                       headers={"Referer": "http://localhost/games/seth"})
    assert answer.status_code == 403 and b"CSRF token" in answer.data
    assert anon.post("/api/games/seth/validate", json={"card": {"name": "x", "kind": "monster"}}
                     ).status_code == 200  # a script (no cookie, Origin or Referer) needs none


def test_oversized_and_malformed_bodies(anon, guard):
    big = anon.post("/api/games/seth/cards", data=b"{" + b" " * (17 * 1024 * 1024) + b"}",
                    content_type="application/json")
    assert big.status_code == 413
    for body in (b"{not json", b"[1, 2]", b"\xff\xfe\x00", b'"text"', b"null", b"{" * 100_000):
        answer = anon.post("/api/games/seth/cards", data=body, content_type="application/json")
        assert answer.status_code == 400 and answer.is_json, body[:10]
    deep: dict = {"name": "Deep", "kind": "monster"}
    cursor = deep
    for _ in range(50):
        cursor["effects"] = {}
        cursor = cursor["effects"]
    assert anon.post("/api/games/seth/cards", json=deep).status_code == 400
    weird_keys = anon.post("/api/games/seth/cards", json={"name": "X", "kind": "monster", "../x": 1, "__class__": 2})
    assert weird_keys.status_code == 400
    assert anon.get("/healthz").status_code == 200


@pytest.mark.slow
def test_real_server_refuses_bad_hosts_and_keeps_serving(tmp_path):
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance") as server:
        for host in BAD_HOSTS[:4]:
            status, _, body = http(server.url, path="/api/games", headers={"Host": host})
            assert status == 400, host
            status, _, _ = http(server.url, "PUT", CARD_PUT, {"name": "Rebound"},
                                headers={"Host": host, "If-Match": '"x"'})
            assert status == 400
        status, _, _ = http(server.url, "POST", "/api/games/seth/cards", {"name": "Forged", "kind": "monster"},
                            headers={"Origin": "http://evil.example"})
        assert status == 403
        assert http(server.url, path="/healthz")[0] == 200
    assert not (data / "seth/cards/forged.yaml").exists()
