"""Sessions end on the server (issue 13, item 5), on a real team server.

A cookie saved before ``POST /logout`` used to keep working for its whole 12 h lifetime. Logout,
a new password (``workbench user passwd``) and ``workbench user remove`` must each make every
earlier cookie of that account useless.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.security.helpers import PASSWORDS, PROJECT_ROOT, add_users, copy_data, http, running_server


def _login(url: str, name: str, password: str | None = None) -> str:
    body = f"name={name}&password={password or PASSWORDS[name]}".encode()
    status, headers, _ = http(url, "POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 302, status
    return headers["set-cookie"].split(";")[0]


def _works(url: str, cookie: str) -> bool:
    status, _, _ = http(url, path="/api/games", headers={"Cookie": cookie})
    assert status in (200, 401), status
    return status == 200


def _logout(url: str, cookie: str) -> None:
    _, _, body = http(url, path="/api/csrf", headers={"Cookie": cookie})
    token = json.loads(body)["csrf_token"]
    status, headers, _ = http(url, "POST", "/logout", b"", {"Cookie": cookie, "X-CSRF-Token": token,
                                                             "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 302 and "/login" in headers["location"]


def _user_cli(instance, *args: str, stdin: str = "") -> None:
    subprocess.run([sys.executable, "-m", "workbench", "user", *args, "--instance", str(instance)],
                   input=stdin, text=True, check=True, cwd=PROJECT_ROOT, capture_output=True)


@pytest.mark.slow
def test_logout_password_change_and_removal_end_saved_cookies(tmp_path):
    data = copy_data(tmp_path / "card_data")
    instance = tmp_path / "instance"
    add_users(instance)
    with running_server(data, instance, "--team") as server:
        url = server.url
        # Logout: the saved cookie of that login, and of a second browser, stop working.
        saved, other_browser = _login(url, "alice"), _login(url, "alice")
        assert _works(url, saved) and _works(url, other_browser)
        _logout(url, saved)
        assert not _works(url, saved), "a cookie saved before logout still works"
        assert not _works(url, other_browser)
        vera = _login(url, "vera")
        assert _works(url, vera), "another account's session must survive alice's logout"
        # Logging in again works, with a new cookie.
        fresh = _login(url, "alice")
        assert _works(url, fresh)
        # A new password ends the sessions made with the old one.
        _user_cli(instance, "passwd", "alice", "--password-stdin", stdin="a-brand-new-password\n")
        assert not _works(url, fresh)
        after = _login(url, "alice", "a-brand-new-password")
        assert _works(url, after)
        # Removing the account ends its sessions; adding it back with the same password does not revive them.
        _user_cli(instance, "remove", "vera")
        assert not _works(url, vera)
        _user_cli(instance, "add", "vera", "--role", "viewer", "--password-stdin", stdin=PASSWORDS["vera"] + "\n")
        assert not _works(url, vera)
        assert _works(url, _login(url, "vera"))
