"""The no-symlink rule of the storage layer, for every path it opens below a checked folder.

The repository refuses links for cards, decks and game folders (``Repository._inside``). The
same rule covers the other folders of a game and of the data folder: ``playtests/``, ``art/``,
``.audit/`` and ``.locks/``. A link planted there could make a write land outside the data
folder, or serve a file from elsewhere as if it were a run or a picture.
"""

from __future__ import annotations

import os
from pathlib import Path

from workbench.domain.errors import InvalidId


def refuse_links(base: Path | str, path: Path | str) -> Path:
    """Return ``path`` when no component of it below ``base`` is a symbolic link.

    ``base`` itself is the caller's to check (a game folder the repository checked, the data
    folder). Components that do not exist yet are fine (they will be created as folders).
    Raises InvalidId when ``path`` is not below ``base``, holds ``..``, or passes through a link.
    """
    base_text = os.path.normpath(os.fspath(base))
    text = os.fspath(path)
    if text == base_text:
        return Path(path)
    prefix = os.path.join(base_text, "")
    if not text.startswith(prefix):
        raise InvalidId("path leaves its folder")
    parts = text[len(prefix):].split(os.sep)
    if ".." in parts:
        raise InvalidId("path leaves its folder")
    current = base_text
    for part in parts:
        if not part:
            continue
        current = current + os.sep + part
        if os.path.islink(current):
            raise InvalidId(f"{part} is a symbolic link; links are not followed")
    return Path(path)


def is_link(path: Path | str) -> bool:
    """True when ``path`` itself is a symbolic link (a broken one too)."""
    return os.path.islink(os.fspath(path))
