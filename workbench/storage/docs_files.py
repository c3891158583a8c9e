"""The project's Markdown documentation on disk, read for the in-app help pages.

Only ``*.md`` pages and ``images/*.png|svg`` under the docs folder are served, by a checked
relative name: no absolute paths, no ``..``, no hidden parts, and no symbolic links anywhere on
the way (a planted link must not serve files from outside the folder).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from workbench.domain.errors import NotFound

_PAGE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}(/[a-z0-9][a-z0-9_-]{0,63})?$")
_IMAGE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,100}\.(png|svg)$")
MAX_PAGE_BYTES = 1 << 20


@dataclass(frozen=True)
class DocsFolder:
    """The docs folder (``docs/``) and the project's README beside it."""

    root: Path
    readme: Path | None = None

    def pages(self) -> list[str]:
        """Every page name (``"printing"``, ``"engines/seth"``), sorted; empty when the folder is missing."""
        if not self.root.is_dir() or self.root.is_symlink():
            return []
        names = []
        for path in sorted(self.root.rglob("*.md")):
            name = path.relative_to(self.root).with_suffix("").as_posix()
            if _PAGE.match(name) and not self._linked(path):
                names.append(name)
        return names

    def folders(self) -> set[str]:
        """The names of folders that hold pages (``"engines"``)."""
        return {name.rsplit("/", 1)[0] for name in self.pages() if "/" in name}

    def read(self, page: str) -> str:
        """The Markdown text of ``page`` (``"README"`` is the project's README).

        Raises NotFound for an unknown, malformed or linked name, or a page over 1 MiB.
        """
        return self._path(page).read_text(encoding="utf-8")

    def modified(self, page: str) -> float:
        """The page's modification time (for caches). Raises NotFound like ``read``."""
        return self._path(page).stat().st_mtime

    def _path(self, page: str) -> Path:
        if page == "README" and self.readme is not None:
            path = self.readme
        elif _PAGE.match(page):
            path = self.root / f"{page}.md"
        else:
            raise NotFound(f"no help page {page[:80]!r}")
        if not path.is_file() or self._linked(path) or path.stat().st_size > MAX_PAGE_BYTES:
            raise NotFound(f"no help page {page[:80]!r}")
        return path

    def image(self, name: str) -> Path:
        """The path of ``images/<name>``. Raises NotFound for an unknown, malformed or linked name."""
        path = self.root / "images" / name
        if not _IMAGE.match(name) or not path.is_file() or self._linked(path):
            raise NotFound(f"no help image {name[:80]!r}")
        return path

    def _linked(self, path: Path) -> bool:
        """True when ``path`` or a folder between it and the docs root is a symbolic link."""
        here = path
        while True:
            if here.is_symlink():
                return True
            if here == self.root or here == here.parent:
                return False
            if self.readme is not None and here == self.readme:
                return here.is_symlink()
            here = here.parent
