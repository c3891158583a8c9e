"""Art files: cleaned pictures stored in ``card_data/<game>/art/``.

The web layer hands the bytes to ``workbench.services.render.art.clean_art`` first; this module
only writes and reads files, under names it checks itself (never a path from a request).
"""

from __future__ import annotations

import re
from pathlib import Path

from workbench.domain.errors import InvalidId, NotFound
from workbench.storage.atomic import atomic_write
from workbench.storage.paths import refuse_links

ART_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}\.png$")
# Names designers may have typed into a card's ``art`` field: one plain file in art/.
READABLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,118}\.(?:png|jpe?g|webp)$", re.IGNORECASE)


def check_art_name(name: str) -> str:
    """Return ``name`` when it is a safe art file name (``<id>.png``); raise InvalidId otherwise."""
    if not isinstance(name, str) or not ART_NAME.fullmatch(name):
        raise InvalidId(f"art file name {str(name)[:80]!r} is not allowed: use <card-id>.png")
    return name


def art_dir(game_dir: Path) -> Path:
    """The art folder of a game folder."""
    return Path(game_dir) / "art"


def write_art(game_dir: Path, name: str, png: bytes) -> Path:
    """Write cleaned PNG bytes as ``art/<name>`` atomically (fsynced, via storage.atomic); return the path.

    Raises InvalidId for a bad name, NotFound when the game folder does not exist.
    """
    check_art_name(name)
    game_dir = Path(game_dir)
    if not game_dir.is_dir():
        raise NotFound(f"game folder {game_dir.name!r} does not exist")
    target = refuse_links(game_dir, art_dir(game_dir) / name)  # art/ or the file may not be a link
    atomic_write(target, png)
    return target


def read_art(game_dir: Path, name: str) -> bytes | None:
    """Bytes of an art file of a game, or None when the name is not safe or the file is missing.

    Symlinks (the file or the art folder) are refused so art cannot point outside the game folder.
    """
    if not isinstance(name, str) or not READABLE_NAME.fullmatch(name) or ".." in name:
        return None
    path = art_dir(Path(game_dir)) / name
    try:
        refuse_links(game_dir, path)
    except InvalidId:
        return None
    if not path.is_file():
        return None
    return path.read_bytes()
