"""Wrapping and shrink-to-fit for card text, with line breaks between CJK characters.

Latin text breaks at spaces (a word longer than the line breaks between letters). Chinese,
Japanese and Korean text may break between any two characters, except that closing
punctuation (，。」…) never starts a line and opening punctuation (「（…) never ends one.
:func:`fit_paragraphs` tries sizes from the largest down to the smallest and reports how many
lines still overflow at the smallest size, so a card that cannot fit becomes a validation
warning instead of silently clipped text.
"""

from __future__ import annotations

import contextlib
import math
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from workbench.domain.errors import WorkbenchError
from workbench.services.render.fonts import face_for, text_width

# Closing marks that may not begin a line, opening marks that may not end one (kinsoku).
NO_LINE_START = set("，。、；：？！）」』】〉》〕｝…‥・ー!),.:;?]}%’”、")
NO_LINE_END = set("（「『【〈《〔｛([{‘“")
LINE_HEIGHT = 1.28
_ASCII_PIECES = re.compile(r"[^ ]* *")  # line pitch as a multiple of the font size


def is_cjk(char: str) -> bool:
    """True for characters that may break a line on either side (Han, kana, Hangul, fullwidth)."""
    code = ord(char)
    return (
        0x2E80 <= code <= 0x9FFF  # radicals, kana, CJK symbols, Han
        or 0xAC00 <= code <= 0xD7AF  # Hangul syllables
        or 0xF900 <= code <= 0xFAFF
        or 0xFF00 <= code <= 0xFFEF  # fullwidth forms
        or 0x20000 <= code <= 0x3FFFF
    )


def segments(text: str) -> list[str]:
    """Split one paragraph into unbreakable pieces; a line may break after any piece.

    Spaces stay attached to the end of the piece before them.
    """
    if text.isascii():
        # Latin fast path: break only after spaces.
        return [m for m in _ASCII_PIECES.findall(text) if m]
    pieces: list[str] = []
    current = ""
    for char in text:
        if char == " ":
            current += char
            continue
        breakable = bool(current) and (
            current.endswith(" ")
            or (is_cjk(char) and char not in NO_LINE_START and current[-1] not in NO_LINE_END)
            or (is_cjk(current[-1]) and char not in NO_LINE_START and current[-1] not in NO_LINE_END)
        )
        if breakable:
            pieces.append(current)
            current = char
        else:
            current += char
    if current:
        pieces.append(current)
    return pieces


def wrap(text: str, font_key: str, size_px: float, max_width: float) -> list[str]:
    """Greedy-wrap one paragraph (no newlines) to lines no wider than ``max_width`` pixels.

    Costs O(n log L) measurements of lines of at most L characters: a word wider than the line
    is cut where a galloping then binary search finds the longest prefix that fits, and the rest
    of it is never measured whole again (the old scan from the end was cubic in a long word).
    """
    lines: list[str] = []
    line = ""
    for number, piece in enumerate(segments(text)):
        if number % 64 == 0:
            check_deadline()
        candidate = line + piece
        if not line.strip() or text_width(font_key, candidate.rstrip(" "), size_px) <= max_width:
            line = candidate
        else:
            lines.append(line.rstrip(" "))
            line = piece
        # A single piece wider than the line (a very long word): break between its characters.
        while len(line.rstrip(" ")) > 1:
            cut = _longest_fit(line, font_key, size_px, max_width)
            if cut >= len(line.rstrip(" ")):
                break  # the rest fits on this line
            lines.append(line[:cut])
            line = line[cut:]
    if line.strip() or not lines:
        lines.append(line.rstrip(" "))
    return lines


def _longest_fit(line: str, font_key: str, size_px: float, max_width: float) -> int:
    """The length of the longest prefix of ``line`` no wider than ``max_width`` (at least 1).

    Returns ``len(line)`` when the whole line (without trailing spaces) fits. Widths grow with
    the prefix, so a galloping search (1, 2, 4 … characters) brackets the answer and a binary
    search finds it: about 2·log2(L) measurements of prefixes at most twice the answer's length.
    """
    stripped = len(line.rstrip(" "))

    def fits(n: int) -> bool:
        return text_width(font_key, line[:n].rstrip(" ") if n >= stripped else line[:n], size_px) <= max_width

    low, step = 1, 1  # the prefix of ``low`` characters is kept even when it does not fit
    while True:
        probe = low + step
        if probe >= stripped:
            if fits(stripped):
                return len(line)
            high = stripped
            break
        if not fits(probe):
            high = probe
            break
        low, step = probe, step * 2
    while high - low > 1:  # fits(low) (or low == 1), not fits(high)
        mid = (low + high) // 2
        if fits(mid):
            low = mid
        else:
            high = mid
    return low


class LayoutTimeout(WorkbenchError):
    """Laying out a text took longer than the time limit of :func:`time_limit`."""


_deadline = threading.local()


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Within this block, layout raises LayoutTimeout once ``seconds`` have passed (None: no
    limit). Blocks nest; the earliest deadline wins. Per thread (the server renders in several)."""
    previous = getattr(_deadline, "at", None)
    at = None if seconds is None else time.monotonic() + seconds
    if previous is not None and (at is None or previous < at):
        at = previous
    _deadline.at = at
    try:
        yield
    finally:
        _deadline.at = previous


def check_deadline() -> None:
    """Raise LayoutTimeout when the current thread's time limit has passed."""
    at = getattr(_deadline, "at", None)
    if at is not None and time.monotonic() > at:
        raise LayoutTimeout("laying out the card's text took too long")


@dataclass(frozen=True)
class Paragraph:
    """A block of text in a role (``sans``, ``italic`` …) at ``scale`` times the fitted size."""

    text: str
    role: str = "sans"
    scale: float = 1.0
    space_before: float = 0.35  # in lines, added when it is not the first paragraph
    color: str = ""


@dataclass(frozen=True)
class Line:
    """One laid-out line: its text, font and size, and its top in pixels from the box top."""

    text: str
    font_key: str
    size_px: float
    top: float
    color: str


@dataclass(frozen=True)
class Fit:
    """The result of fitting text in a box."""

    size_px: float
    lines: tuple[Line, ...]
    height: float
    overflow_lines: int  # lines that do not fit at the smallest size (0 when it fits)

    @property
    def fits(self) -> bool:
        return self.overflow_lines == 0


def layout(paragraphs: list[Paragraph], size_px: float, width: float) -> tuple[list[Line], float, float]:
    """Lay out paragraphs at a size; return (lines, total height, pitch of a base line)."""
    lines: list[Line] = []
    top = 0.0
    pitch = size_px * LINE_HEIGHT
    first = True
    for para in paragraphs:
        px = size_px * para.scale
        for number, block in enumerate(para.text.splitlines() or [""]):
            if not first:
                top += pitch * (para.space_before if number == 0 else 0.15)
            first = False
            key = face_for(para.role, block)
            for text in wrap(block, key, px, width):
                lines.append(Line(text, key, px, top, para.color))
                top += px * LINE_HEIGHT
    return lines, top, pitch


def fit_paragraphs(
    paragraphs: list[Paragraph], width: float, height: float, max_px: float, min_px: float, step_px: float = 1.0
) -> Fit:
    """Find the largest size (from ``max_px`` down to ``min_px``) at which the text fits the box.

    At the smallest size, ``overflow_lines`` counts the base lines of text below the box.
    """
    paragraphs = [p for p in paragraphs if p.text.strip()]
    if not paragraphs:
        return Fit(max_px, (), 0.0, 0)
    size = max_px
    while True:
        check_deadline()
        lines, total, pitch = layout(paragraphs, size, width)
        if total <= height + 0.5:
            return Fit(size, tuple(lines), total, 0)
        if size - step_px < min_px - 1e-9:
            overflow = max(1, math.ceil((total - height) / pitch - 0.05))
            return Fit(size, tuple(lines), total, overflow)
        size -= step_px
