"""Inline symbols on card faces: ``{T}`` and ``{2}`` drawn as small badges inside the text.

Before layout, each symbol in a text becomes one private-use character (U+E000 …), so wrapping,
shrink-to-fit and overflow checks treat it as one unbreakable glyph one badge wide
(:func:`badge_em` in :func:`workbench.services.render.fonts.text_width`); drawing a line then
paints the text runs between them and a badge for each one.
"""

from __future__ import annotations

import threading

from PIL import ImageDraw, ImageFont

from workbench.domain.symbols import Symbol, SymbolSet

PUA_FIRST = 0xE000
PUA_LAST = 0xE0FF
BADGE_EM = 1.05  # a badge's advance, in font sizes (a little wider than a capital)

_lock = threading.Lock()
_codes: dict[tuple[str, str, str, str, str, str], str] = {}
_uses: dict[str, tuple[Symbol, str]] = {}


def is_placeholder(char: str) -> bool:
    """True for the private-use characters that stand for a symbol."""
    return PUA_FIRST <= ord(char) <= PUA_LAST


def has_placeholder(text: str) -> bool:
    """True when ``text`` holds at least one symbol placeholder."""
    return any(PUA_FIRST <= ord(c) <= PUA_LAST for c in text)


def encode(text: str, symbols: SymbolSet) -> str:
    """``text`` with every symbol of ``symbols`` replaced by its placeholder character.

    Placeholders are handed out per (symbol look, token) for the life of the process; 256 at most
    (beyond that the token is left as written)."""
    if not symbols:
        return text
    out, at = [], 0
    for use in symbols.find(text):
        s = use.symbol
        key = (s.name, use.token, s.drawn_text(use.token), s.shape, s.fill, s.color)
        with _lock:
            code = _codes.get(key)
            if code is None and PUA_FIRST + len(_codes) <= PUA_LAST:
                code = chr(PUA_FIRST + len(_codes))
                _codes[key] = code
                _uses[code] = (s, use.token)
        out += [text[at:use.start], code if code else use.written]
        at = use.end
    return "".join(out) + text[at:]


def decode(char: str) -> tuple[Symbol, str] | None:
    """The symbol and token a placeholder stands for, or None."""
    return _uses.get(char)


def draw_line(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, font: ImageFont.FreeTypeFont,
              badge_font: ImageFont.FreeTypeFont, fill: tuple[int, int, int], size_px: float) -> None:
    """Draw one laid-out line whose text may hold placeholders, left-aligned at (x, y) (top of
    the line box, as Pillow's "la" anchor): text runs in ``font``, each symbol a badge."""
    run = ""
    for char in text + "\0":
        if char != "\0" and not is_placeholder(char):
            run += char
            continue
        if run:
            draw.text((x, y), run, font=font, fill=fill, anchor="la")
            x += font.getlength(run)
            run = ""
        if char == "\0":
            break
        found = decode(char)
        if found is not None:
            _badge(draw, x, y, size_px, found[0], found[1], badge_font)
        x += BADGE_EM * size_px


def _badge(draw: ImageDraw.ImageDraw, x: float, y: float, size_px: float, symbol: Symbol, token: str,
           font: ImageFont.FreeTypeFont) -> None:
    d = size_px * 0.95  # the badge sits on the line like a capital letter with a little room
    left, top = x + (BADGE_EM * size_px - d) / 2, y + size_px * 0.12
    box = (left, top, left + d, top + d)
    fill = _rgb(symbol.fill)
    if symbol.shape == "circle":
        draw.ellipse(box, fill=fill)
    elif symbol.shape == "square":
        draw.rounded_rectangle(box, radius=d * 0.18, fill=fill)
    else:
        cx, cy = left + d / 2, top + d / 2
        draw.polygon([(cx, top), (left + d, cy), (cx, top + d), (left, cy)], fill=fill)
    label = symbol.drawn_text(token)
    scale = 0.72 if len(label) == 1 else 0.55
    inner = font.font_variant(size=max(6, int(round(d * scale))))
    draw.text((left + d / 2, top + d / 2), label, font=inner, fill=_rgb(symbol.color), anchor="mm")


def _rgb(value: str) -> tuple[int, int, int]:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)
