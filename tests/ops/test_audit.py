"""Every saved change is recorded (who, when, what, old and new version) and logged as JSON."""

from __future__ import annotations

import json
import logging

from workbench.cli.logs import JsonFormatter
from workbench.storage.audit import acting_as

CARD = {"name": "Audit Imp", "kind": "monster", "power": 1, "damage": 1, "health": 1,
        "speed": ["fast"], "race": "Imp", "element": "fire"}


def test_create_update_delete_are_recorded_in_order(repo):
    created = repo.create_card("seth", CARD, actor="alice")
    updated = repo.update_card("seth", created.id, dict(CARD, health=2), created.version, actor="bob")
    repo.delete_card("seth", created.id, updated.version, actor="alice")
    deck = repo.get_deck("seth", "skyburn-blitz")
    repo.update_deck("seth", deck.id, dict(deck.data, notes="audited"), deck.version)
    entries = repo.audit.entries()
    assert [(e["action"], e["type"], e["id"], e["actor"]) for e in entries] == [
        ("create", "card", "audit-imp", "alice"),
        ("update", "card", "audit-imp", "bob"),
        ("delete", "card", "audit-imp", "alice"),
        ("update", "deck", "skyburn-blitz", "local"),
    ]
    assert entries[0]["old_version"] is None and entries[0]["new_version"] == created.version
    assert entries[1]["old_version"] == created.version and entries[1]["new_version"] == updated.version
    assert entries[2]["new_version"] is None
    assert all(e["game"] == "seth" and e["time"].endswith("+00:00") for e in entries)


def test_refused_changes_are_not_recorded(repo):
    card = repo.get_card("seth", "glass-wasp")
    try:
        repo.update_card("seth", "glass-wasp", card.data, "stale-version")
    except ValueError:
        pass
    assert repo.audit.entries() == []


def test_the_acting_user_of_a_request_is_used_when_no_actor_is_passed(repo):
    card = repo.get_card("seth", "glass-wasp")
    with acting_as("carol"):
        repo.update_card("seth", "glass-wasp", dict(card.data, health=9), card.version)
    assert repo.audit.entries()[-1]["actor"] == "carol"


def test_a_line_cut_by_a_crash_is_skipped(repo):
    repo.create_card("seth", CARD)
    with open(repo.audit.path, "ab") as handle:
        handle.write(b'{"time": "2026-01-01T00:00:00+00:00", "act')
    assert [e["id"] for e in repo.audit.entries()] == ["audit-imp"]


def test_changes_are_logged_as_json_lines_with_their_fields(repo, caplog):
    with caplog.at_level(logging.INFO, logger="workbench.changes"):
        repo.create_card("seth", CARD, actor="alice")
    record = next(r for r in caplog.records if r.name == "workbench.changes")
    line = json.loads(JsonFormatter().format(record))
    assert line["level"] == "info" and line["logger"] == "workbench.changes"
    assert line["change"]["actor"] == "alice" and line["change"]["id"] == "audit-imp"
    assert "create card seth/audit-imp by alice" == line["message"]


def test_audit_lines_survive_in_the_data_folder_backup(repo, tmp_path):
    from workbench.cli import main

    repo.create_card("seth", CARD, actor="alice")
    archive = tmp_path / "b.zip"
    assert main(["backup", "--data", str(repo.root), "-o", str(archive)]) == 0
    import zipfile

    assert "data/.audit/changes.jsonl" in zipfile.ZipFile(archive).namelist()


def test_changes_command_filters_by_user_game_and_id(repo, capsys):
    from workbench.cli import main

    created = repo.create_card("seth", CARD, actor="alice")
    repo.update_card("seth", created.id, dict(CARD, health=2), created.version, actor="bob")
    deck = repo.get_deck("warzone", "iron-bastion")
    repo.update_deck("warzone", deck.id, dict(deck.data, notes="x"), deck.version, actor="alice")
    capsys.readouterr()
    assert main(["changes", "--data", str(repo.root), "--user", "alice", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [(e["game"], e["id"], e["action"]) for e in shown] == [("seth", "audit-imp", "create"),
                                                                ("warzone", "iron-bastion", "update")]
    assert main(["changes", "--data", str(repo.root), "--game", "seth", "--id", "audit-imp"]) == 0
    out = capsys.readouterr().out
    assert "alice" in out and "bob" in out and "2 changes" in out and "iron-bastion" not in out
