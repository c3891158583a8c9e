"""The documentation as in-app help pages: Markdown rendered to HTML with a table of contents.

Links between the docs (``printing.md#options``) become links between help pages
(``/docs/printing#options``) and anchors follow GitHub's rule, so a link that works on the
repository works in the app. The README is the help index. Rendered pages are cached by the
file's modification time.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import markdown

from workbench.storage.docs_files import DocsFolder

_ALIGN = re.compile(r' style="text-align: (left|right|center);?"')
_HREF = re.compile(r'(href|src)="([^"#:]*?)(\.md)?(#[^"]*)?"')


@dataclass(frozen=True)
class HelpHeading:
    """One entry of a page's table of contents."""

    level: int
    title: str
    anchor: str


@dataclass(frozen=True)
class HelpPage:
    """A rendered help page: its name, title, HTML body and contents."""

    name: str
    title: str
    html: str
    toc: tuple[HelpHeading, ...]


def github_slug(text: str, separator: str = "-") -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, each space a dash."""
    text = unicodedata.normalize("NFKC", text).strip().lower()
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return text.replace(" ", separator)


class HelpBook:
    """Renders the pages of one docs folder, with links pointing at ``page_url(name)``."""

    def __init__(self, folder: DocsFolder, page_url: Callable[[str], str], image_url: Callable[[str], str]) -> None:
        self.folder = folder
        self.page_url = page_url
        self.image_url = image_url
        self._cache: dict[str, tuple[float, HelpPage]] = {}
        self._lock = threading.Lock()

    def pages(self) -> list[tuple[str, str]]:
        """(name, title) of every page, README first. Titles are each page's first heading."""
        names = ["README"] + self.folder.pages()
        return [(name, self.page(name).title) for name in names]

    def page(self, name: str) -> HelpPage:
        """The page ``name`` rendered. Raises NotFound (workbench.domain.errors) for an unknown page."""
        if name in self.folder.folders():
            return self._folder_page(name)
        stamp = self.folder.modified(name)
        with self._lock:
            cached = self._cache.get(name)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        rendered = self._render(name, self.folder.read(name))
        with self._lock:
            self._cache[name] = (stamp, rendered)
        return rendered

    def _folder_page(self, folder: str) -> HelpPage:
        """A folder of pages (``engines``) as a list of links to them."""
        inside = [name for name in self.folder.pages() if name.startswith(folder + "/")]
        lines = [f"# {folder.capitalize()}", ""]
        lines += [f"- [{self.page(name).title}]({name.rsplit('/', 1)[-1]}.md)" for name in inside]
        return self._render(folder + "/index", "\n".join(lines) + "\n")

    def _render(self, name: str, text: str) -> HelpPage:
        converter = markdown.Markdown(
            extensions=["tables", "fenced_code", "toc", "sane_lists"],
            extension_configs={"toc": {"slugify": lambda value, separator: github_slug(value, separator)}},
            output_format="html",
        )
        html = converter.convert(text)
        html = _ALIGN.sub(r' class="align-\1"', html)  # the CSP allows no inline styles
        html = html.replace("<pre>", '<pre tabindex="0">')  # a code block that scrolls must take keyboard focus
        html = _HREF.sub(lambda m: self._link(name, m), html)
        toc = tuple(_flatten(converter.toc_tokens))  # type: ignore[attr-defined]
        title = toc[0].title if toc else name
        return HelpPage(name.removesuffix("/index"), title, html, toc)

    def _link(self, here: str, match: re.Match[str]) -> str:
        attr, target, suffix, anchor = match.group(1), match.group(2), match.group(3), match.group(4) or ""
        if attr == "src" and target.startswith("images/") or "/images/" in target and not suffix:
            return f'{attr}="{self.image_url(target.rsplit("/", 1)[-1])}"'
        if not suffix and not target.endswith("/"):
            return match.group(0)
        page = _join(here, target.rstrip("/"))
        if page is None:
            return match.group(0)
        return f'{attr}="{self.page_url(page)}{anchor}"'


def _join(here: str, target: str) -> str | None:
    """The page a relative ``target`` (without ``.md``) names from page ``here``; None when outside docs."""
    base = [] if here == "README" else here.split("/")[:-1]
    if here == "README":
        if not target.startswith("docs/"):
            return "README" if target in {"README", "../README"} else None
        target = target[len("docs/"):]
    parts = list(base)
    for piece in target.split("/"):
        if piece == "..":
            if not parts:
                return "README" if target.endswith("README") else None
            parts.pop()
        elif piece and piece != ".":
            parts.append(piece)
    return "/".join(parts) or None


def _flatten(tokens: list[dict[str, object]]) -> list[HelpHeading]:
    out: list[HelpHeading] = []
    for token in tokens:
        out.append(HelpHeading(int(str(token["level"])), _plain(str(token["name"])), str(token["id"])))
        out.extend(_flatten(token.get("children", [])))  # type: ignore[arg-type]
    return out


def _plain(title: str) -> str:
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", title))
