"""``workbench backup`` and ``restore`` as an operator uses them: one archive, exact round trip,
no overwrite without --force, the old folder kept."""

from __future__ import annotations

import os
import zipfile

import pytest

from tests.security.helpers import snapshot
from workbench.cli import main


def test_backup_then_restore_gives_back_every_file(data_dir, tmp_path, capsys):
    (data_dir / ".locks").mkdir()
    (data_dir / ".locks" / "x.lock").write_text("")
    (data_dir / "seth/cards/.tmp-abc.part").write_text("half")
    archive = tmp_path / "b.zip"
    assert main(["backup", "--data", str(data_dir), "-o", str(archive)]) == 0
    assert "backup written" in capsys.readouterr().out
    names = zipfile.ZipFile(archive).namelist()
    assert "workbench-backup.json" in names and "data/seth/game.yaml" in names
    assert not [n for n in names if ".locks" in n or ".tmp-" in n]

    target = tmp_path / "restored"
    assert main(["restore", str(archive), "--data", str(target)]) == 0
    expected = {k: v for k, v in snapshot(data_dir).items() if ".tmp-" not in k}
    assert snapshot(target) == expected
    assert "restored" in capsys.readouterr().out


def test_restore_never_overwrites_without_force_and_keeps_the_old_folder(data_dir, tmp_path, capsys):
    archive = tmp_path / "b.zip"
    main(["backup", "--data", str(data_dir), "-o", str(archive)])
    before = snapshot(data_dir)
    (data_dir / "seth/cards/glass-wasp.yaml").write_text("name: Changed After Backup\nkind: monster\n")
    changed = snapshot(data_dir)

    assert main(["restore", str(archive), "--data", str(data_dir)]) == 1
    assert "--force" in capsys.readouterr().err
    assert snapshot(data_dir) == changed

    assert main(["restore", str(archive), "--data", str(data_dir), "--dry-run"]) == 0
    assert snapshot(data_dir) == changed

    assert main(["restore", str(archive), "--data", str(data_dir), "--force"]) == 0
    assert snapshot(data_dir) == before
    kept = [p for p in data_dir.parent.iterdir() if p.name.startswith("card_data.before-restore-")]
    assert len(kept) == 1 and snapshot(kept[0]) == changed
    assert "kept at" in capsys.readouterr().out


def test_backup_refuses_to_write_inside_the_data_folder(data_dir, capsys):
    assert main(["backup", "--data", str(data_dir), "-o", str(data_dir / "b.zip")]) == 1
    assert "inside the data folder" in capsys.readouterr().err
    assert not (data_dir / "b.zip").exists()


def test_backup_leaves_links_out(data_dir, tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the archive")
    os.symlink(secret, data_dir / "seth/cards/linked.yaml")
    archive = tmp_path / "b.zip"
    assert main(["backup", "--data", str(data_dir), "-o", str(archive)]) == 0
    assert "skipped" in capsys.readouterr().out
    with zipfile.ZipFile(archive) as zf:
        assert "data/seth/cards/linked.yaml" not in zf.namelist()
        assert all(b"not for the archive" not in zf.read(n) for n in zf.namelist())


def test_a_damaged_archive_is_refused_and_nothing_is_written(data_dir, tmp_path, capsys):
    archive = tmp_path / "b.zip"
    main(["backup", "--data", str(data_dir), "-o", str(archive)])
    with zipfile.ZipFile(archive) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    members["data/seth/cards/glass-wasp.yaml"] = b"name: Tampered\n"
    tampered = tmp_path / "tampered.zip"
    with zipfile.ZipFile(tampered, "w") as zf:
        for name, body in members.items():
            zf.writestr(name, body)
    target = tmp_path / "restored"
    assert main(["restore", str(tampered), "--data", str(target)]) == 1
    assert "checksum" in capsys.readouterr().err
    assert not target.exists() and not [p for p in tmp_path.iterdir() if ".restore-" in p.name]


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 not really a zip", b"plain text"])
def test_not_a_backup_is_a_clear_cli_error(tmp_path, content, capsys):
    archive = tmp_path / "x.zip"
    archive.write_bytes(content)
    assert main(["restore", str(archive), "--data", str(tmp_path / "t")]) == 1
    assert "error:" in capsys.readouterr().err
