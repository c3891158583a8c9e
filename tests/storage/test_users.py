"""The account file: hashes not passwords, atomic owner-only writes, rules for names and roles."""

from __future__ import annotations

import json
import stat

import pytest

from workbench.domain.accounts import AccountError
from workbench.storage.users import UserStore

FAST = "scrypt:1024:8:1"


@pytest.fixture
def store(tmp_path):
    return UserStore(tmp_path / "instance", hash_method=FAST)


def test_default_hash_is_werkzeug_scrypt_and_the_password_is_not_stored(tmp_path):
    store = UserStore(tmp_path)
    store.add("alice", "designer", "correct horse battery")
    text = (tmp_path / "users.json").read_text()
    record = json.loads(text)["users"]["alice"]
    assert record["password"].startswith("scrypt:32768:8:1$")
    assert "correct horse battery" not in text
    assert store.verify("alice", "correct horse battery").role == "designer"


def test_file_is_owner_only_and_leaves_no_temp_files(store):
    store.add("alice", "designer", "correct horse battery")
    store.add("vera", "viewer", "another long password")
    mode = stat.S_IMODE(store.path.stat().st_mode)
    assert mode & 0o077 == 0
    assert sorted(p.name for p in store.folder.iterdir() if p.is_file()) == ["users.json"]


def test_verify_refuses_wrong_password_unknown_user_and_odd_input(store):
    store.add("alice", "designer", "correct horse battery")
    assert store.verify("alice", "correct horse batterY") is None
    assert store.verify("mallory", "correct horse battery") is None
    assert store.verify("alice", "x" * 5000) is None
    assert store.verify(None, "correct horse battery") is None  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["", "Alice", "../etc", "a/b", "a\x00b", "-lead", "x" * 33, "名前"])
def test_names_off_the_allowlist_are_refused(store, name):
    with pytest.raises(AccountError, match="not allowed"):
        store.add(name, "designer", "correct horse battery")
    assert not store.path.exists()


def test_roles_passwords_and_duplicates_are_checked(store):
    with pytest.raises(AccountError, match="role"):
        store.add("alice", "admin", "correct horse battery")
    with pytest.raises(AccountError, match="at least"):
        store.add("alice", "designer", "short")
    store.add("alice", "designer", "correct horse battery")
    with pytest.raises(AccountError, match="exists already"):
        store.add("alice", "viewer", "correct horse battery")
    assert [(u.name, u.role) for u in store.list()] == [("alice", "designer")]


def test_password_change_role_change_and_removal(store):
    store.add("alice", "designer", "correct horse battery")
    stamp = store.get("alice").stamp
    store.set_password("alice", "a different password")
    assert store.verify("alice", "correct horse battery") is None
    assert store.verify("alice", "a different password") is not None
    assert store.get("alice").stamp != stamp  # sessions made with the old password end
    store.set_role("alice", "viewer")
    assert store.get("alice").role == "viewer"
    store.remove("alice")
    assert store.get("alice") is None and not store.has_users()
    with pytest.raises(AccountError, match="does not exist"):
        store.remove("alice")


def test_changes_by_another_process_are_seen(store, tmp_path):
    other = UserStore(tmp_path / "instance", hash_method=FAST)
    assert not store.has_users()
    other.add("alice", "designer", "correct horse battery")
    assert store.get("alice") is not None


def test_a_damaged_file_is_a_clear_error(store):
    store.folder.mkdir(parents=True)
    store.path.write_text("{not json")
    with pytest.raises(AccountError, match="cannot be read"):
        store.get("alice")
