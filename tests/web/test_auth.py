"""Team mode as its users meet it: login, roles on every route, rate limit, logout, cookies,
and local mode staying login-free and loopback-only."""

from __future__ import annotations

import re

import pytest

from tests.security.helpers import (
    PASSWORDS,
    login,
    route_calls,
    session_token,
    snapshot,
    team_app,
)
from workbench.web.auth import PUBLIC_ENDPOINTS, viewer_may

SAFE = {"GET", "HEAD", "OPTIONS"}
CARD = {"name": "Glass Wasp", "kind": "monster", "power": 2, "damage": 1, "health": 3,
        "speed": ["fast"], "race": "Insect", "element": "air"}


@pytest.fixture
def team(data_dir, tmp_path):
    return team_app(data_dir, tmp_path)


def _client(app, name=None):
    client = app.test_client()
    if name:
        answer = login(client, name)
        assert answer.status_code == 302, answer.get_data(as_text=True)[:300]
    return client


# ------------------------------------------------------------------ local mode


def test_local_mode_needs_no_login(client, data_dir):
    assert client.get("/").status_code == 200
    card = client.get("/api/games/seth/cards/glass-wasp")
    changed = client.put("/api/games/seth/cards/glass-wasp", json=dict(card.json["card"], health=4),
                         headers={"If-Match": card.json["version"], "X-CSRF-Token": session_token(client)})
    assert changed.status_code == 200
    assert client.get("/login").status_code == 302  # nothing to log in to


def test_local_mode_answers_loopback_clients_only(client):
    remote = client.get("/", environ_base={"REMOTE_ADDR": "192.168.1.20"})
    assert remote.status_code == 403 and b"local mode" in remote.data
    assert client.get("/", environ_base={"REMOTE_ADDR": "::1"}).status_code == 200


# ------------------------------------------------------------------ anonymous


def test_every_route_but_login_static_and_health_needs_a_login(team, data_dir):
    before = snapshot(data_dir)
    client = team.test_client()
    checked = 0
    for endpoint, method, url in route_calls(team):
        if endpoint in PUBLIC_ENDPOINTS:
            continue
        answer = client.open(url, method=method)
        checked += 1
        if method in SAFE and not url.startswith("/api/"):
            assert answer.status_code == 302 and "/login" in answer.headers["Location"], (endpoint, method)
        else:
            assert answer.status_code == 401, (endpoint, method, answer.status_code)
    assert checked >= 25
    assert snapshot(data_dir) == before
    assert client.get("/healthz").status_code == 200
    assert client.get("/static/css/app.css").status_code == 200


def test_login_page_redirects_back_to_where_the_user_was(team):
    client = team.test_client()
    first = client.get("/games/seth/cards")
    assert first.status_code == 302 and "next=/games/seth/cards" in first.headers["Location"]
    token_page = client.get(first.headers["Location"])
    assert token_page.status_code == 200 and b'name="next" value="/games/seth/cards"' in token_page.data
    answer = login(client, "alice", query_string={"next": "/games/seth/cards"})
    assert answer.status_code == 302 and answer.headers["Location"] == "/games/seth/cards"
    assert client.get("/games/seth/cards").status_code == 200


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"])
def test_login_never_redirects_off_site(team, target):
    client = team.test_client()
    answer = login(client, "alice", query_string={"next": target})
    assert answer.status_code == 302 and answer.headers["Location"] == "/"


# ------------------------------------------------------------------ roles


def test_viewer_is_refused_every_state_changing_route_not_on_the_allowlist(team, data_dir):
    before = snapshot(data_dir)
    client = _client(team, "vera")
    headers = {"X-CSRF-Token": session_token(client)}
    refused, allowed = [], []
    for endpoint, method, url in route_calls(team):
        if method in SAFE or endpoint in PUBLIC_ENDPOINTS or endpoint == "auth.logout":
            continue  # logging out is allowed and tested on its own
        answer = client.open(url, method=method, headers=headers, json={})
        if viewer_may(endpoint):
            assert answer.status_code not in (401, 403), (endpoint, method, answer.status_code)
            allowed.append(endpoint)
        else:
            assert answer.status_code == 403, (endpoint, method, answer.status_code)
            assert "viewer" in answer.get_data(as_text=True)
            refused.append(endpoint)
    assert {"api.put_card", "api.create_card", "api.delete_card", "api.put_deck", "editor.delete_card"} <= set(refused)
    assert "api.validate" in allowed
    assert snapshot(data_dir) == before
    assert client.get("/games/seth/cards").status_code == 200  # still logged in and browsing


def test_designer_passes_the_gate_on_every_route(team):
    client = _client(team, "alice")
    headers = {"X-CSRF-Token": session_token(client)}
    for endpoint, method, url in route_calls(team):
        if method in SAFE or endpoint in PUBLIC_ENDPOINTS or endpoint == "auth.logout":
            continue
        answer = client.open(url, method=method, headers=headers, json={})
        assert answer.status_code not in (401, 403), (endpoint, method, answer.status_code)


def test_viewer_browses_validates_but_cannot_save(team):
    client = _client(team, "vera")
    token = {"X-CSRF-Token": session_token(client)}
    assert client.get("/").status_code == 200
    card = client.get("/api/games/seth/cards/glass-wasp")
    assert card.status_code == 200
    checked = client.post("/api/games/seth/validate", json={"card": card.json["card"]}, headers=token)
    assert checked.status_code == 200 and checked.json["legal"] is True
    refused = client.put("/api/games/seth/cards/glass-wasp", json=card.json["card"],
                         headers={**token, "If-Match": card.json["version"]})
    assert refused.status_code == 403 and "viewer" in refused.json["error"]


@pytest.mark.parametrize("path, edit_controls", [
    ("/games/seth/cards", ["New card"]),
    ("/games/seth/cards/glass-wasp/edit", ["id=\"save-button\"", "Delete…", "Rename id", "Upload art"]),
    ("/games/seth/decks", ["Build a new deck", "Delete…"]),
])
def test_viewers_are_not_offered_buttons_the_gate_would_refuse(team, path, edit_controls):
    designer_page = _client(team, "alice").get(path).get_data(as_text=True)
    viewer_page = _client(team, "vera").get(path).get_data(as_text=True)
    for control in edit_controls:
        if control == "Upload art" and control not in designer_page:
            continue  # art upload needs the render feature
        assert control in designer_page, control
        assert control not in viewer_page, control
    if "/edit" in path:
        assert 'data-read-only="true"' in viewer_page and "cannot be saved" in viewer_page
        assert 'data-read-only' not in designer_page


def test_a_viewer_opening_a_deck_gets_a_read_only_builder(team):
    page = _client(team, "vera").get("/games/seth/decks").get_data(as_text=True)
    deck_url = re.search(r'href="(/games/seth/decks/[a-z0-9_-]+/edit)"', page).group(1)
    builder = _client(team, "vera").get(deck_url).get_data(as_text=True)
    assert 'data-read-only="true"' in builder and 'id="save-deck"' not in builder
    assert 'id="save-deck"' in _client(team, "alice").get(deck_url).get_data(as_text=True)


def test_unlisted_future_routes_default_to_denied_for_viewers():
    assert not viewer_may("transfer.import_confirm")
    assert not viewer_may("render.upload_art")
    assert not viewer_may("editor.save")
    assert not viewer_may(None)
    assert viewer_may("api.validate") and viewer_may("render.preview") and viewer_may("playtest.start")


def test_designer_changes_are_recorded_with_the_user(team, repo):
    client = _client(team, "alice")
    token = session_token(client)
    card = client.get("/api/games/seth/cards/glass-wasp").json
    saved = client.put("/api/games/seth/cards/glass-wasp", json=dict(card["card"], health=5),
                       headers={"X-CSRF-Token": token, "If-Match": card["version"]})
    assert saved.status_code == 200
    entry = repo.audit.entries()[-1]
    assert entry["actor"] == "alice" and entry["action"] == "update" and entry["id"] == "glass-wasp"
    assert entry["old_version"] == card["version"] and entry["new_version"] == saved.json["version"]
    assert entry["time"].startswith("20")


def test_changes_through_html_forms_are_recorded_with_the_user_too(team, repo):
    client = _client(team, "alice")
    token = session_token(client)
    version = client.get("/api/games/seth/cards/glass-wasp").json["version"]
    answer = client.post("/games/seth/cards/glass-wasp/delete", data={"version": version, "csrf_token": token})
    assert answer.status_code in (200, 302, 303)
    entry = repo.audit.entries()[-1]
    assert (entry["actor"], entry["action"], entry["id"]) == ("alice", "delete", "glass-wasp")


# ------------------------------------------------------------------ login, rate limit, logout


def test_wrong_password_is_refused_and_reveals_nothing(team):
    client = team.test_client()
    wrong = login(client, "alice", "not-her-password")
    unknown = login(client, "mallory", "whatever-password")
    assert wrong.status_code == unknown.status_code == 401
    assert b"Wrong user name or password" in wrong.data and b"Wrong user name or password" in unknown.data
    assert client.get("/api/games").status_code == 401


def test_login_is_rate_limited_per_user_and_address(team):
    client = team.test_client()
    for _ in range(5):
        assert login(client, "alice", "guess-guess-guess").status_code == 401
    limited = login(client, "alice")  # even the right password waits now
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0
    other_address = team.test_client()
    assert login(other_address, "alice", environ_base={"REMOTE_ADDR": "127.0.0.2"}).status_code == 302
    assert login(team.test_client(), "vera").status_code == 302  # another user from the same address


def test_logout_ends_the_session(team):
    client = _client(team, "alice")
    assert client.get("/api/games").status_code == 200
    token = session_token(client)
    answer = client.post("/logout", data={"csrf_token": token})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/login")
    assert client.get("/api/games").status_code == 401
    assert client.get("/").status_code == 302


def test_logout_button_is_on_every_page_for_a_logged_in_user(team):
    client = _client(team, "vera")
    page = client.get("/").get_data(as_text=True)
    assert 'action="/logout"' in page and "Log out vera" in page


def test_login_form_needs_its_csrf_token(team):
    client = team.test_client()
    client.get("/login")  # the session cookie now exists
    answer = client.post("/login", data={"name": "alice", "password": PASSWORDS["alice"]})
    assert answer.status_code == 403


def test_login_replaces_the_session(team):
    client = team.test_client()
    before = csrf_for_anonymous = client.get("/api/csrf")
    assert before.status_code == 401  # the API needs a login; the login page hands out the token
    login(client, "alice")
    token_after = session_token(client)
    assert token_after and token_after != csrf_for_anonymous.get_data(as_text=True)


def test_removed_user_and_new_password_end_sessions(team, tmp_path):
    from workbench.storage.users import UserStore

    store = UserStore(tmp_path / "instance", hash_method="scrypt:1024:8:1")
    alice, vera = _client(team, "alice"), _client(team, "vera")
    store.set_password("alice", "a-brand-new-password")
    assert alice.get("/api/games").status_code == 401
    store.remove("vera")
    assert vera.get("/api/games").status_code == 401


def test_session_cookie_flags(team, data_dir, tmp_path):
    answer = login(team.test_client(), "alice")
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    secure = login(team.test_client(), "alice", base_url="https://localhost")
    assert "Secure" in secure.headers["Set-Cookie"]
    https_app = team_app(data_dir, tmp_path, PREFERRED_URL_SCHEME="https")
    assert "Secure" in login(https_app.test_client(), "alice").headers["Set-Cookie"]


def test_behind_a_trusted_proxy_the_cookie_is_secure(data_dir, tmp_path):
    proxied_app = team_app(data_dir, tmp_path, TRUSTED_PROXIES=1)
    client = proxied_app.test_client()
    proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    token = client.get("/login", headers=proxied)
    assert token.status_code == 200
    answer = login(client, "alice", headers=proxied)
    assert answer.status_code == 302 and "Secure" in answer.headers["Set-Cookie"]


def test_limiter_window_expires_and_success_clears_the_count():
    from workbench.web.auth import LoginLimiter

    limiter = LoginLimiter(per_user=3, per_address=5, window_s=60)
    for t in (0, 1, 2):
        limiter.failed("alice", "10.0.0.1", now=t)
    assert limiter.retry_after("alice", "10.0.0.1", now=3) == 58
    assert limiter.retry_after("alice", "10.0.0.2", now=3) == 0  # another address
    assert limiter.retry_after("alice", "10.0.0.1", now=61) == 0  # the first failure left the window
    spray = LoginLimiter(per_user=3, per_address=5, window_s=60)
    for name in ("bob", "carol", "erin", "frank", "gina"):  # one try per name: still five from one address
        spray.failed(name, "10.0.0.7", now=10)
    assert spray.retry_after("dave", "10.0.0.7", now=11) > 0
    limiter.succeeded("alice", "10.0.0.1")
    assert limiter.retry_after("alice", "10.0.0.1", now=30) == 0  # a success clears the name's count


def test_logins_and_failures_are_logged(team, caplog):
    import logging

    with caplog.at_level(logging.INFO, logger="workbench.auth"):
        login(team.test_client(), "alice", "wrong-password-here")
        login(team.test_client(), "alice")
    events = [r.auth["event"] for r in caplog.records if r.name == "workbench.auth"]
    assert events == ["login_failed", "login"]
    assert PASSWORDS["alice"] not in caplog.text and "wrong-password-here" not in caplog.text
