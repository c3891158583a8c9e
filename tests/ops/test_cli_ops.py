"""Operating the server from the command line: accounts, clear refusals, team mode end to end."""

from __future__ import annotations

import io
import json
import socket
import sys

import pytest

from tests.security.helpers import PASSWORDS, TEST_HASH, add_users, copy_data, http, running_server
from workbench.cli import main


def _stdin(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def test_user_add_list_passwd_role_remove(tmp_path, monkeypatch, capsys):
    instance = str(tmp_path / "inst")
    _stdin(monkeypatch, "a long enough password\n")
    assert main(["user", "add", "alice", "--role", "designer", "--password-stdin", "--instance", instance]) == 0
    _stdin(monkeypatch, "another long password\n")
    assert main(["user", "add", "vera", "--role", "viewer", "--password-stdin", "--instance", instance]) == 0
    capsys.readouterr()
    assert main(["user", "list", "--json", "--instance", instance]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(u["name"], u["role"]) for u in listed] == [("alice", "designer"), ("vera", "viewer")]

    _stdin(monkeypatch, "yet another password\n")
    assert main(["user", "passwd", "vera", "--password-stdin", "--instance", instance]) == 0
    assert main(["user", "role", "vera", "designer", "--instance", instance]) == 0
    assert main(["user", "remove", "alice", "--instance", instance]) == 0
    from workbench.storage.users import UserStore

    store = UserStore(instance)
    assert store.get("alice") is None and store.get("vera").role == "designer"
    assert store.verify("vera", "yet another password") is not None


def test_user_errors_are_clear(tmp_path, monkeypatch, capsys):
    instance = str(tmp_path / "inst")
    _stdin(monkeypatch, "short\n")
    assert main(["user", "add", "alice", "--role", "designer", "--password-stdin", "--instance", instance]) == 1
    assert "at least 10 characters" in capsys.readouterr().err
    _stdin(monkeypatch, "")  # not a terminal and no --password-stdin
    assert main(["user", "add", "alice", "--role", "designer", "--instance", instance]) == 1
    assert "--password-stdin" in capsys.readouterr().err
    assert main(["user", "remove", "nobody", "--instance", instance]) == 1
    with pytest.raises(SystemExit):
        main(["user", "add", "alice", "--role", "admin", "--instance", instance])


def test_serve_refuses_a_missing_or_wrong_data_folder(tmp_path, capsys):
    assert main(["serve", "--data", str(tmp_path / "nope"), "--port", "1"]) == 1
    assert "does not exist" in capsys.readouterr().err
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    assert main(["serve", "--data", str(a_file), "--port", "1"]) == 1
    assert "is not a folder" in capsys.readouterr().err


def test_serve_refuses_a_taken_port(data_dir, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--data", str(data_dir), "--port", str(port)]) == 1
    assert "already in use" in capsys.readouterr().err


def test_local_mode_will_not_bind_other_addresses(data_dir, capsys):
    assert main(["serve", "--data", str(data_dir), "--host", "0.0.0.0", "--port", "1"]) == 2
    assert "--team" in capsys.readouterr().err


def test_team_mode_refuses_to_start_without_accounts(data_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("WORKBENCH_INSTANCE", raising=False)  # serve --instance sets it: undone after the test
    monkeypatch.delenv("WORKBENCH_TEAM", raising=False)
    code = main(["serve", "--team", "--data", str(data_dir), "--instance", str(tmp_path / "empty"), "--port", "1"])
    assert code == 1
    err = capsys.readouterr().err
    assert "workbench user add NAME --role designer" in err


@pytest.mark.slow
def test_team_server_end_to_end(tmp_path):
    data = copy_data(tmp_path / "card_data")
    instance = tmp_path / "instance"
    add_users(instance)
    assert TEST_HASH  # the accounts use cheap hashes; the server checks whatever the file holds
    with running_server(data, instance, "--team") as server:
        assert http(server.url, path="/healthz")[0] == 200
        assert http(server.url, path="/api/games")[0] == 401
        status, headers, _ = http(server.url, path="/games/seth/cards")
        assert status == 302 and "/login" in headers["location"]
        # A script logs in without a browser: no cookie yet, so no CSRF token is needed.
        body = f"name=alice&password={PASSWORDS['alice']}".encode()
        status, headers, _ = http(server.url, "POST", "/login", body,
                                  {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 302
        cookie = headers["set-cookie"].split(";")[0]
        assert "HttpOnly" in headers["set-cookie"]
        status, _, token = http(server.url, path="/api/csrf", headers={"Cookie": cookie})
        token = json.loads(token)["csrf_token"]
        status, headers, body = http(server.url, path="/api/games/seth/cards/glass-wasp", headers={"Cookie": cookie})
        card = json.loads(body)["card"]
        status, _, _ = http(server.url, "PUT", "/api/games/seth/cards/glass-wasp", dict(card, health=6),
                            {"Cookie": cookie, "X-CSRF-Token": token, "If-Match": headers["etag"]})
        assert status == 200
    log = server.log_text()
    change = next(json.loads(line) for line in log.splitlines()
                  if line.startswith("{") and '"change"' in line)
    assert change["change"]["actor"] == "alice" and change["change"]["id"] == "glass-wasp"
    assert change["logger"] == "workbench.changes"


def test_serve_refuses_an_unreadable_data_folder(data_dir, monkeypatch, capsys):
    import os

    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: False if str(path) == str(data_dir) else real_access(path, mode))
    assert main(["serve", "--data", str(data_dir), "--port", "1"]) == 1
    assert "not readable" in capsys.readouterr().err
