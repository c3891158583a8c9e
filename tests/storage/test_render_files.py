"""Render cache files and art files: atomic writes, checked names, nothing outside the folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.domain.errors import DataError, InvalidId, NotFound
from workbench.storage.art import read_art, write_art
from workbench.storage.render_cache import RenderCache

KEY = "ab" + "0" * 62


def test_cache_round_trip_and_clear(tmp_path: Path) -> None:
    cache = RenderCache(tmp_path / "cache")
    assert cache.get(KEY) is None and not cache.has(KEY)
    cache.put(KEY, b"face bytes")
    assert cache.get(KEY) == b"face bytes" and cache.has(KEY)
    cache.put(KEY, b"png bytes", "png")
    assert cache.get(KEY, "png") == b"png bytes"
    assert (tmp_path / "cache" / "ab" / f"{KEY}.face").is_file()
    assert not [p for p in (tmp_path / "cache" / "ab").iterdir() if p.name.startswith(".")]  # no temp files left
    assert cache.clear() == 2 and cache.get(KEY) is None


@pytest.mark.parametrize("bad", ["../../etc/passwd", "AB" * 20, "short", "zz" + "0" * 62])
def test_cache_refuses_keys_that_are_not_digests(tmp_path: Path, bad: str) -> None:
    with pytest.raises(DataError):
        RenderCache(tmp_path).put(bad, b"x")


def test_a_failed_cache_write_leaves_no_partial_file(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    cache = RenderCache(tmp_path)
    cache.put(KEY, b"old")

    def broken(src, dst):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        cache.put(KEY, b"new")
    monkeypatch.undo()
    assert cache.get(KEY) == b"old"
    assert [p.name for p in (tmp_path / "ab").iterdir()] == [f"{KEY}.face"]


def test_art_is_written_under_the_game_art_folder(tmp_path: Path) -> None:
    game = tmp_path / "warzone"
    game.mkdir()
    path = write_art(game, "iron-guard.png", b"\x89PNG fake")
    assert path == game / "art" / "iron-guard.png"
    assert read_art(game, "iron-guard.png") == b"\x89PNG fake"
    assert read_art(game, "missing.png") is None


@pytest.mark.parametrize("name", ["../x.png", "a/b.png", "x.svg", ".hidden.png", "x.PNG.exe"])
def test_art_names_are_checked(tmp_path: Path, name: str) -> None:
    game = tmp_path / "g"
    game.mkdir()
    with pytest.raises(InvalidId):
        write_art(game, name, b"x")
    assert read_art(game, name) is None


def test_art_for_a_missing_game_and_symlinks_are_refused(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        write_art(tmp_path / "nope", "x.png", b"x")
    game = tmp_path / "g"
    (game / "art").mkdir(parents=True)
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"secret")
    (game / "art" / "link.png").symlink_to(secret)
    assert read_art(game, "link.png") is None
