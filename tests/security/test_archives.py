"""Hostile zip archives: ``../`` entries, absolute names, backslashes, links, 10,000 entries,
zip bombs, lying sizes. Through ``workbench restore`` and the XLSX import (an XLSX is a zip),
each is a clear error, and nothing is written anywhere."""

from __future__ import annotations

import hashlib
import io
import json
import stat
import struct
import warnings
import zipfile
from functools import cache
from pathlib import Path

import pytest

from tests.security.helpers import snapshot
from workbench.cli import main
from workbench.domain.errors import DataError
from workbench.storage.backup import MANIFEST, BackupError, restore_backup

GOOD = b"name: Fine\nkind: monster\n"


def _manifest(files: dict[str, bytes]) -> bytes:
    listed = {name.split("/", 1)[1]: {"size": len(body), "sha256": hashlib.sha256(body).hexdigest()}
              for name, body in files.items() if name.startswith("data/")}
    return json.dumps({"format": 1, "created": "2026-01-01T00:00:00+00:00", "files": listed}).encode()


def _zip(entries: list[tuple[zipfile.ZipInfo | str, bytes]], manifest: bool = True) -> bytes:
    out = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        warnings.simplefilter("ignore")  # the duplicate-name archive is duplicate on purpose
        plain: dict[str, bytes] = {}
        for info, body in entries:
            archive.writestr(info, body)
            plain[info.filename if isinstance(info, zipfile.ZipInfo) else info] = body
        if manifest:
            archive.writestr(MANIFEST, _manifest(plain))
    return out.getvalue()


def _link(name: str, target: str) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target.encode()


def _lying_sizes() -> bytes:
    """A zip whose directory says a member unpacks to 10 bytes while it unpacks to 1 MiB."""
    raw = bytearray(_zip([("data/seth/cards/liar.yaml", b"A" * (1024 * 1024))]))
    at = raw.rfind(b"PK\x01\x02")
    while at != -1:  # every central directory entry: patch the uncompressed size (offset 24)
        name_len = struct.unpack_from("<H", raw, at + 28)[0]
        if raw[at + 46: at + 46 + name_len] == b"data/seth/cards/liar.yaml":
            struct.pack_into("<I", raw, at + 24, 10)
        at = raw.rfind(b"PK\x01\x02", 0, at)
    return bytes(raw)


HOSTILE_ARCHIVES = {
    "dotdot": lambda: _zip([("data/../../evil.yaml", GOOD)]),
    "dotdot-top": lambda: _zip([("../evil.yaml", GOOD)]),
    "absolute": lambda: _zip([("/tmp/evil.yaml", GOOD)]),
    "backslash": lambda: _zip([("data\\..\\..\\evil.yaml", GOOD)]),
    "drive": lambda: _zip([("C:/evil.yaml", GOOD)]),
    "nul": lambda: _zip([("data/seth/cards/a\x00b.yaml", GOOD)]),
    "symlink": lambda: _zip([_link("data/seth/cards/link.yaml", "/etc/passwd")]),
    "symlink-dir": lambda: _zip([_link("data/seth", "/tmp"), ("data/seth/evil.yaml", GOOD)]),
    "ten-thousand": lambda: _zip([(f"data/seth/cards/c{i}.yaml", GOOD) for i in range(10_000)]),
    "zip-bomb": lambda: _zip([("data/seth/cards/bomb.yaml", b"\0" * (64 * 1024 * 1024))]),
    "lying-sizes": _lying_sizes,
    "no-manifest": lambda: _zip([("data/seth/game.yaml", GOOD)], manifest=False),
    "outside-data": lambda: _zip([("elsewhere/evil.yaml", GOOD)]),
    "duplicate": lambda: _zip([("data/a.yaml", GOOD), ("data/a.yaml", GOOD + b"#")]),
    "not-a-zip": lambda: b"PK\x03\x04" + b"\0" * 200,
}


@pytest.fixture(scope="module")
def archives(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("archives")
    out = {}
    for name, build in HOSTILE_ARCHIVES.items():
        path = folder / f"{name}.zip"
        path.write_bytes(build())
        out[name] = path
    return out


@pytest.mark.parametrize("name", sorted(HOSTILE_ARCHIVES))
def test_restore_refuses_hostile_archives_and_writes_nothing(archives, name, tmp_path):
    target = tmp_path / "sandbox" / "card_data"
    target.parent.mkdir()
    before = snapshot(tmp_path)
    with pytest.raises(BackupError) as caught:
        restore_backup(archives[name], target)
    assert str(caught.value)
    assert snapshot(tmp_path) == before
    assert not target.exists() and list(target.parent.iterdir()) == []
    assert not Path("/tmp/evil.yaml").exists()


@pytest.mark.parametrize("name", ["dotdot", "absolute", "symlink", "ten-thousand", "zip-bomb", "lying-sizes"])
def test_restore_cli_gives_a_clear_error(archives, name, tmp_path, capsys):
    code = main(["restore", str(archives[name]), "--data", str(tmp_path / "card_data"), "--force"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("error:") and "Traceback" not in err
    assert not (tmp_path / "card_data").exists()


def test_restore_refuses_to_overwrite_even_a_valid_archive_without_force(data_dir, tmp_path):
    archive = tmp_path / "ok.zip"
    archive.write_bytes(_zip([("data/seth/cards/fine.yaml", GOOD)]))
    before = snapshot(data_dir)
    with pytest.raises(BackupError, match="--force"):
        restore_backup(archive, data_dir)
    assert snapshot(data_dir) == before


# ------------------------------------------------------------------ XLSX imports are zips too


def _xlsx_like(entries: list[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    return _zip(entries, manifest=False)


HOSTILE_XLSX = {
    "ten-thousand": lambda: _xlsx_like([(f"xl/c{i}.xml", b"<x/>") for i in range(10_000)]),
    "zip-bomb": lambda: _xlsx_like([("xl/worksheets/sheet1.xml", b" " * (120 * 1024 * 1024))]),
    "dotdot": lambda: _xlsx_like([("../../evil.xml", b"<x/>"), ("[Content_Types].xml", b"<x/>")]),
    "absolute": lambda: _xlsx_like([("/tmp/evil.xml", b"<x/>")]),
    "symlink": lambda: _xlsx_like([_link("xl/workbook.xml", "/etc/passwd")]),
    "not-a-zip": lambda: b"this is not a workbook at all",
    "lying-sizes": _lying_sizes,
}


@cache
def _xlsx(name: str) -> bytes:
    return HOSTILE_XLSX[name]()


@pytest.mark.parametrize("name", sorted(HOSTILE_XLSX))
def test_xlsx_import_refuses_hostile_zips(repo, data_dir, tmp_path, name):
    from workbench.services.imports.plan import dry_run

    before = snapshot(tmp_path)
    with pytest.raises(DataError) as caught:
        dry_run(repo, "seth", "cards.xlsx", _xlsx(name))
    assert "XLSX" in str(caught.value) or "limit" in str(caught.value)
    assert snapshot(tmp_path) == before
    assert not Path("/tmp/evil.xml").exists()


@pytest.mark.parametrize("name", ["ten-thousand", "dotdot", "symlink"])
def test_xlsx_import_cli_gives_a_clear_error(data_dir, tmp_path, name, capsys):
    path = tmp_path / f"{name}.xlsx"
    path.write_bytes(_xlsx(name))
    before = snapshot(data_dir)
    code = main(["import", "seth", str(path), "--data", str(data_dir), "--yes"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("error:") and "Traceback" not in err
    assert snapshot(data_dir) == before


@pytest.mark.parametrize("name", ["ten-thousand", "zip-bomb", "dotdot", "symlink", "lying-sizes"])
def test_import_page_refuses_hostile_xlsx_with_400(env, name):
    client = env.app.test_client(use_cookies=False)
    before = snapshot(env.data)
    answer = client.post("/games/seth/import", data={"file": (io.BytesIO(_xlsx(name)), "cards.xlsx")},
                         content_type="multipart/form-data")
    assert answer.status_code in (400, 413), answer.status_code
    assert b"Traceback" not in answer.data
    assert snapshot(env.data) == before
    staged = env.exports / "seth" / ".imports"
    assert not staged.exists() or not list(staged.iterdir())  # a refused upload is not kept
    assert client.get("/healthz").status_code == 200
