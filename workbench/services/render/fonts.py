"""Locate the fonts card faces and print sheets use, and pick one that covers a text.

The fonts come from Debian packages that ``scripts/system-packages.sh`` installs:
DejaVu (Latin, Greek, Cyrillic, symbols), Noto Sans CJK (Chinese/Japanese/Korean for the PNG
faces) and WenQuanYi Zen Hei (a CJK font with TrueType outlines: reportlab cannot embed the
CFF outlines of Noto CJK, so the PDF text layer uses it). A missing font is a clear
:class:`FontMissing` error naming the package, never a silent fallback to tofu boxes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from workbench.domain.errors import WorkbenchError

# Searched in order; WORKBENCH_FONT_DIRS (os.pathsep-separated) lets a packager add folders.
FONT_DIRS = [
    Path("/usr/share/fonts"),
    Path("/usr/local/share/fonts"),
    Path.home() / ".local/share/fonts",
]


class FontMissing(WorkbenchError):
    """A font the renderer needs is not installed."""


@dataclass(frozen=True)
class FontSpec:
    """A font file (and face index inside a .ttc collection) with the package that provides it."""

    key: str
    candidates: tuple[str, ...]  # file names, first found wins
    index: int
    package: str


# Roles used by the card templates. Each has a Latin face and a CJK face; text that the
# Latin face cannot show is drawn with the CJK one (which also covers Latin).
FONTS: dict[str, FontSpec] = {
    "sans": FontSpec("sans", ("DejaVuSans.ttf",), 0, "fonts-dejavu-core"),
    "bold": FontSpec("bold", ("DejaVuSans-Bold.ttf",), 0, "fonts-dejavu-core"),
    "condensed": FontSpec("condensed", ("DejaVuSansCondensed-Bold.ttf", "DejaVuSans-Bold.ttf"), 0,
                          "fonts-dejavu-extra"),
    "italic": FontSpec("italic", ("DejaVuSerif-Italic.ttf", "DejaVuSerif.ttf"), 0, "fonts-dejavu-extra"),
    "serif": FontSpec("serif", ("DejaVuSerif-Bold.ttf", "DejaVuSerif.ttf"), 0, "fonts-dejavu-core"),
    # Noto CJK collections: face 2 is Simplified Chinese (SC), the games' CJK language.
    "cjk": FontSpec("cjk", ("NotoSansCJK-Regular.ttc",), 2, "fonts-noto-cjk"),
    "cjk-bold": FontSpec("cjk-bold", ("NotoSansCJK-Bold.ttc", "NotoSansCJK-Regular.ttc"), 2, "fonts-noto-cjk"),
    # For reportlab (TrueType outlines only): the invisible text layer of print PDFs.
    "pdf-latin": FontSpec("pdf-latin", ("DejaVuSans.ttf",), 0, "fonts-dejavu-core"),
    "pdf-cjk": FontSpec("pdf-cjk", ("wqy-zenhei.ttc",), 0, "fonts-wqy-zenhei"),
}

CJK_FOR = {"sans": "cjk", "bold": "cjk-bold", "condensed": "cjk-bold", "italic": "cjk", "serif": "cjk-bold"}


def _search_dirs() -> list[Path]:
    extra = [Path(p) for p in os.environ.get("WORKBENCH_FONT_DIRS", "").split(os.pathsep) if p]
    return extra + FONT_DIRS


@lru_cache(maxsize=None)
def _index_fonts() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for base in _search_dirs():
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix.lower() in {".ttf", ".ttc", ".otf"}:
                found.setdefault(path.name, path)
    return found


def font_path(key: str) -> tuple[Path, int]:
    """Return (file, face index) of a font role.

    Raises FontMissing naming the Debian package to install (scripts/system-packages.sh).
    """
    spec = FONTS[key]
    index = _index_fonts()
    for name in spec.candidates:
        if name in index:
            return index[name], spec.index
    raise FontMissing(
        f"font {spec.candidates[0]} ({key}) is not installed; run scripts/system-packages.sh "
        f"or install the Debian package {spec.package}"
    )


def check_fonts() -> list[str]:
    """Return a message for each missing font (empty when rendering can work)."""
    missing = []
    for key in FONTS:
        try:
            font_path(key)
        except FontMissing as exc:
            missing.append(str(exc))
    return missing


@lru_cache(maxsize=512)
def pil_font(key: str, size_px: int) -> ImageFont.FreeTypeFont:
    """A Pillow font of a role at a pixel size (cached). Raises FontMissing."""
    path, index = font_path(key)
    # BASIC layout: deterministic and fast; card text needs no complex shaping.
    return ImageFont.truetype(str(path), max(1, size_px), index=index,
                              layout_engine=ImageFont.Layout.BASIC)


_REF_PX = 200  # measurements are made at this size and scaled linearly


@lru_cache(maxsize=None)
def _notdef_mask(key: str) -> bytes:
    return _glyph_bitmap(key, "\U0010fffd")


def _glyph_bitmap(key: str, char: str) -> bytes:
    image = Image.new("L", (64, 64))
    ImageDraw.Draw(image).text((8, 8), char, font=pil_font(key, 40), fill=255)
    return image.tobytes()


_coverage: dict[tuple[str, str], bool] = {}


def covers(key: str, char: str) -> bool:
    """True when the font of a role has a real glyph for ``char`` (not its .notdef box)."""
    if char.isspace() or ord(char) < 0x21:
        return True
    hit = _coverage.get((key, char))
    if hit is None:
        hit = _glyph_bitmap(key, char) != _notdef_mask(key)
        _coverage[(key, char)] = hit
    return hit


def face_for(role: str, text: str) -> str:
    """The font key to draw ``text`` in a role: the Latin face when it covers every character,
    else the CJK face (which covers Latin too)."""
    if text.isascii() or role not in CJK_FOR:
        return role  # DejaVu covers all of ASCII
    hit = _face_memo.get((role, text))
    if hit is None:
        hit = role if all(covers(role, ch) for ch in set(text)) else CJK_FOR[role]
        if len(_face_memo) > 50_000:
            _face_memo.clear()
        _face_memo[(role, text)] = hit
    return hit


_face_memo: dict[tuple[str, str], str] = {}


def missing_glyphs(text: str, role: str = "sans") -> list[str]:
    """Characters of ``text`` that no installed face of a role can show (they would be tofu)."""
    if text.isascii():
        return []
    key = face_for(role, text)
    return sorted({ch for ch in set(text) if not covers(key, ch)})


_width_cache: dict[tuple[str, str], float] = {}


def text_width(key: str, text: str, size_px: float) -> float:
    """Advance width in pixels of ``text`` in a font at ``size_px`` (measured once, scaled)."""
    w = _width_cache.get((key, text))
    if w is None:
        w = pil_font(key, _REF_PX).getlength(text) / _REF_PX
        _width_cache[(key, text)] = w
    return w * size_px
