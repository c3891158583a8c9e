"""Locate the fonts card faces and print sheets use, and pick one that covers a text.

The fonts come from Debian packages that ``scripts/system-packages.sh`` installs:
DejaVu (Latin, Greek, Cyrillic, symbols), Noto Sans CJK (Chinese/Japanese/Korean for the PNG
faces) and WenQuanYi Zen Hei (a CJK font with TrueType outlines: reportlab cannot embed the
CFF outlines of Noto CJK, so the PDF text layer uses it). A missing font is a clear
:class:`FontMissing` error naming the package, never a silent fallback to tofu boxes.
"""

from __future__ import annotations

import bisect
import os
import struct
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

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


RESCAN_AFTER_S = 10.0  # a missing font looks at the folders again at most this often
_last_rescan = [float("-inf")]
_rescan_lock = threading.Lock()


def _may_rescan() -> bool:
    """Whether a missing font may look at the font folders again now (at most every
    ``RESCAN_AFTER_S`` seconds: a walk of the folders costs milliseconds, not each request)."""
    with _rescan_lock:
        now = time.monotonic()
        if now - _last_rescan[0] < RESCAN_AFTER_S:
            return False
        _last_rescan[0] = now
        return True


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
    for attempt in range(2):
        index = _index_fonts()
        for name in spec.candidates:
            if name in index:
                return index[name], spec.index
        if attempt or not _may_rescan():
            break
        _index_fonts.cache_clear()  # installed since the last look? (the server need not restart)
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


def pil_font(key: str, size_px: int) -> ImageFont.FreeTypeFont:
    """A Pillow font of a role at a pixel size (cached per thread). Raises FontMissing."""
    # FreeType faces are not safe to share between threads (the web server renders in several).
    return _pil_font(key, size_px, threading.get_ident())


@lru_cache(maxsize=1024)
def _pil_font(key: str, size_px: int, thread: int) -> ImageFont.FreeTypeFont:
    path, index = font_path(key)
    # BASIC layout: deterministic and fast; card text needs no complex shaping.
    return ImageFont.truetype(str(path), max(1, size_px), index=index,
                              layout_engine=ImageFont.Layout.BASIC)


_REF_PX = 200  # measurements are made at this size and scaled linearly


@lru_cache(maxsize=None)
def _codepoints(key: str) -> tuple[tuple[int, int], ...]:
    """Sorted (first, last) code point ranges a font maps to a glyph, from its cmap table."""
    path, index = font_path(key)
    data = path.read_bytes()
    base = 0
    if data[:4] == b"ttcf":
        base = struct.unpack_from(">I", data, 12 + 4 * index)[0]
    count = struct.unpack_from(">H", data, base + 4)[0]
    cmap = None
    for i in range(count):
        tag, _check, offset, _length = struct.unpack_from(">4sIII", data, base + 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        return ()
    ranges: list[tuple[int, int]] = []
    subtables = struct.unpack_from(">H", data, cmap + 2)[0]
    for i in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        at = cmap + offset
        fmt = struct.unpack_from(">H", data, at)[0]
        if platform == 3 and encoding == 10 and fmt == 12:
            groups = struct.unpack_from(">I", data, at + 12)[0]
            for g in range(groups):
                first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
                ranges.append((first, last))
        elif platform in (0, 3) and fmt == 4:
            segs = struct.unpack_from(">H", data, at + 6)[0] // 2
            ends = struct.unpack_from(f">{segs}H", data, at + 14)
            starts = struct.unpack_from(f">{segs}H", data, at + 16 + 2 * segs)
            ranges.extend((a, b) for a, b in zip(starts, ends) if a != 0xFFFF)
    merged: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return tuple(merged)


_coverage: dict[tuple[str, str], bool] = {}


def covers(key: str, char: str) -> bool:
    """True when the font of a role maps ``char`` to a glyph (so it will not print as a box)."""
    if char.isspace() or ord(char) < 0x21:
        return True
    hit = _coverage.get((key, char))
    if hit is None:
        ranges = _codepoints(key)
        code = ord(char)
        at = bisect.bisect_right(ranges, (code, 0x10FFFF)) - 1
        hit = at >= 0 and ranges[at][0] <= code <= ranges[at][1]
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
_WIDTH_CACHE_ENTRIES = 200_000  # about 40 MB of short strings at most, then it starts again
_WIDTH_CACHE_CHARS = 400  # longer texts (a line is shorter) are measured, not kept


def text_width(key: str, text: str, size_px: float) -> float:
    """Advance width in pixels of ``text`` in a font at ``size_px`` (measured once, scaled)."""
    w = _width_cache.get((key, text))
    if w is None:
        badges = sum(1 for c in text if 0xE000 <= ord(c) <= 0xE0FF)  # inline symbols (inline_symbols.py)
        plain = "".join(c for c in text if not 0xE000 <= ord(c) <= 0xE0FF) if badges else text
        w = pil_font(key, _REF_PX).getlength(plain) / _REF_PX + badges * 1.05
        if len(text) <= _WIDTH_CACHE_CHARS:
            if len(_width_cache) >= _WIDTH_CACHE_ENTRIES:
                _width_cache.clear()
            _width_cache[(key, text)] = w
    return w * size_px
