"""Export files on disk: safe names, whole-folder swaps, zips, staged uploads, downloads."""

from __future__ import annotations

import io
import zipfile

import pytest

from workbench.domain.errors import InvalidId, NotFound
from workbench.storage import export_files


@pytest.mark.parametrize("bad", ["../x", "/etc/passwd", "a/../b", ".hidden", "a//b", "a\\b", "", "a/b\x00"])
def test_unsafe_names_are_refused(bad):
    with pytest.raises(InvalidId):
        export_files.check_relpath(bad)


def test_replace_tree_swaps_the_whole_folder(tmp_path):
    target = tmp_path / "plugin"
    export_files.replace_tree(target, {"a.txt": b"1", "sets/old.jpg": b"x"})
    export_files.replace_tree(target, {"a.txt": b"2", "sets/new.jpg": b"y"})
    assert (target / "a.txt").read_bytes() == b"2"
    assert not (target / "sets" / "old.jpg").exists()  # no stale image survives
    assert [p.name for p in tmp_path.iterdir()] == ["plugin"]  # no temp folders left


def test_replace_tree_keeps_the_old_export_when_a_name_is_bad(tmp_path):
    target = tmp_path / "plugin"
    export_files.replace_tree(target, {"a.txt": b"1"})
    with pytest.raises(InvalidId):
        export_files.replace_tree(target, {"../evil": b"x"})
    assert (target / "a.txt").read_bytes() == b"1"


def test_zip_holds_the_files_under_the_folder(tmp_path):
    path = export_files.write_zip(tmp_path / "p.zip", {"b.txt": b"B", "a/c.txt": b"C"}, folder="p")
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
        assert archive.namelist() == ["p/a/c.txt", "p/b.txt"]
        assert archive.read("p/b.txt") == b"B"


def test_staged_upload_round_trip(tmp_path):
    token = export_files.stage_upload(tmp_path, "seth", b"data", ".csv")
    assert export_files.read_staged(tmp_path, "seth", token) == (b"data", ".csv")
    export_files.discard_staged(tmp_path, "seth", token)
    with pytest.raises(NotFound):
        export_files.read_staged(tmp_path, "seth", token)
    with pytest.raises(InvalidId):
        export_files.read_staged(tmp_path, "seth", "../../etc")
    with pytest.raises(InvalidId):
        export_files.stage_upload(tmp_path, "seth", b"x", ".csv/../x")


def test_download_path_stays_inside(tmp_path):
    export_files.write_files(tmp_path / "seth" / "csv", {"s.csv": b"x"})
    assert export_files.download_path(tmp_path, "seth", "csv/s.csv").read_bytes() == b"x"
    with pytest.raises(NotFound):
        export_files.download_path(tmp_path, "seth", "csv/none.csv")
    with pytest.raises(InvalidId):
        export_files.download_path(tmp_path, "seth", "../seth/csv/s.csv")
    (tmp_path / "seth" / "link").symlink_to(tmp_path / "seth" / "csv")
    with pytest.raises(InvalidId):
        export_files.download_path(tmp_path, "seth", "link/s.csv")
