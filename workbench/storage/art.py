"""Art files: cleaned pictures stored in ``card_data/<game>/art/``.

The web layer hands the bytes to ``workbench.services.render.art.clean_art`` first; this module
only writes and reads files, under names it checks itself (never a path from a request).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from workbench.domain.errors import InvalidId, NotFound

ART_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}\.png$")


def check_art_name(name: str) -> str:
    """Return ``name`` when it is a safe art file name (``<id>.png``); raise InvalidId otherwise."""
    if not isinstance(name, str) or not ART_NAME.fullmatch(name):
        raise InvalidId(f"art file name {str(name)[:80]!r} is not allowed: use <card-id>.png")
    return name


def art_dir(game_dir: Path) -> Path:
    """The art folder of a game folder."""
    return Path(game_dir) / "art"


def write_art(game_dir: Path, name: str, png: bytes) -> Path:
    """Write cleaned PNG bytes as ``art/<name>`` atomically (fsynced); return the path.

    Raises InvalidId for a bad name, NotFound when the game folder does not exist.
    """
    check_art_name(name)
    game_dir = Path(game_dir)
    if not game_dir.is_dir():
        raise NotFound(f"game folder {game_dir.name!r} does not exist")
    folder = art_dir(game_dir)
    folder.mkdir(exist_ok=True)
    target = folder / name
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".tmp-{name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(png)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return target


def read_art(game_dir: Path, name: str) -> bytes | None:
    """Bytes of an art file of a game, or None when the name is not safe or the file is missing.

    Symlinks are refused so art cannot point outside the game folder.
    """
    try:
        check_art_name(name)
    except InvalidId:
        return None
    path = art_dir(Path(game_dir)) / name
    if path.is_symlink() or not path.is_file():
        return None
    return path.read_bytes()
