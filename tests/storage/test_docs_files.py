"""The docs folder reader: pages by checked name, no symbolic links on the way."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.domain.errors import NotFound
from workbench.storage.docs_files import DocsFolder


def test_pages_and_reads_refuse_links_and_odd_names(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "engines").mkdir(parents=True)
    (docs / "guide.md").write_text("# Guide\n")
    (docs / "engines" / "seth.md").write_text("# Seth\n")
    secret = tmp_path / "secret.md"
    secret.write_text("# secret\n")
    (docs / "leak.md").symlink_to(secret)
    (docs / "linked").symlink_to(tmp_path)
    readme = tmp_path / "README.md"
    readme.write_text("# Read me\n")
    folder = DocsFolder(docs, readme)
    assert folder.pages() == ["engines/seth", "guide"]
    assert folder.folders() == {"engines"}
    assert folder.read("README") == "# Read me\n"
    assert folder.read("engines/seth") == "# Seth\n"
    for name in ("leak", "linked/secret", "../secret", "GUIDE", "guide.md", "", "a/b/c"):
        with pytest.raises(NotFound):
            folder.read(name)
    with pytest.raises(NotFound):
        folder.image("../README.md")
