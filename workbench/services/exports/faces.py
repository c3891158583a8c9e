"""Card face and back images for the exports that need pictures (Lackey, Cockatrice, TTS).

Faces come from the render service (``workbench.services.render``) when it offers a
``render_face``-like function. Without it, or when it fails for a card, a plain placeholder face
(kind colour, name, kind, stats) is drawn so that every plugin still loads, and the export's notes
say so.
"""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from workbench.domain.gamedef import GameDefinition
from workbench.services.exports.common import Card, cell_text, kind_label, stat_fields

# 5:7 is the poker card ratio (63 x 88 mm) rounded; TTS cells are 400 x 560 (10 x 7 fit 4096 px).
FACE_SIZE = (500, 700)
_FONT_PATHS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)
EXPORT_DPI = 160  # poker cards come out 400 x 562 px: the TTS cell size, more than Lackey needs
RENDER_NAMES = ("render_face", "render_card_face", "render_front", "face_png", "render_card")

Renderer = Callable[..., Image.Image]  # (definition, card, art=None) -> RGB image
ArtLoader = Callable[[Card], "Image.Image | None"]


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in _FONT_PATHS:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default()


def _colour(value: str, fallback: str = "#555555") -> str:
    value = str(value or fallback)
    return value if value.startswith("#") and len(value) in (4, 7) else fallback


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: Any, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for char in paragraph:
            try:
                too_wide = draw.textlength(line + char, font=font) > width
            except Exception:  # a character the shaper rejects counts as wide
                too_wide = len(line) > width // 12
            if too_wide:
                # Break at the last space when there is one; CJK text breaks anywhere.
                cut = line.rfind(" ")
                if cut > 0:
                    lines.append(line[:cut])
                    line = line[cut + 1:] + char
                else:
                    lines.append(line)
                    line = char
            else:
                line += char
        lines.append(line)
    return lines


def _text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: str, font: Any) -> None:
    """Draw text; text the font's shaper cannot lay out (rare emoji sequences) loses the odd
    characters rather than the whole face."""
    try:
        draw.text(xy, text, fill=fill, font=font)
    except Exception:
        plain = "".join(c if ord(c) < 0x2000 or 0x3000 <= ord(c) < 0xFFFF else "?" for c in text)
        try:
            draw.text(xy, plain, fill=fill, font=font)
        except Exception:
            draw.text(xy, plain.encode("ascii", "replace").decode("ascii"), fill=fill)


def placeholder_face(definition: GameDefinition, card: Card) -> Image.Image:
    """A plain RGB face: frame in the kind's colour, name, kind, stats and text. Never raises."""
    kind = definition.kinds.get(str(card.get("kind")))
    image = Image.new("RGB", FACE_SIZE, _colour(kind.color if kind else ""))
    draw = ImageDraw.Draw(image)
    draw.rectangle((24, 24, FACE_SIZE[0] - 25, FACE_SIZE[1] - 25), fill="#f4efe4")
    _text(draw, (40, 40), str(card.get("name", ""))[:40], "#111111", _font(30))
    _text(draw, (40, 90), kind_label(definition, card), "#333333", _font(22))
    stats = " / ".join(cell_text(card.get(f.name)) for f in stat_fields(definition, card))
    if stats:
        _text(draw, (40, FACE_SIZE[1] - 80), stats, "#111111", _font(30))
    body = str(card.get("text") or "")[:600]  # 18 lines show at most; wrapping more is wasted time
    y = 140
    for line in _wrap(draw, body, _font(20), FACE_SIZE[0] - 80)[:18]:
        _text(draw, (40, y), line, "#222222", _font(20))
        y += 28
    return image


def card_back(definition: GameDefinition) -> Image.Image:
    """The game's card back: its style's back colour with the game name. Never raises."""
    style = definition.raw.get("style") or {}
    image = Image.new("RGB", FACE_SIZE, _colour(style.get("back", "#222222"), "#222222"))
    draw = ImageDraw.Draw(image)
    accent = _colour(style.get("accent", "#c9a227"), "#c9a227")
    draw.rectangle((30, 30, FACE_SIZE[0] - 31, FACE_SIZE[1] - 31), outline=accent, width=6)
    y = FACE_SIZE[1] // 2 - 40
    for line in _wrap(draw, definition.name, _font(34), FACE_SIZE[0] - 100)[:4]:
        _text(draw, (50, y), line, accent, _font(34))
        y += 44
    return image


def find_renderer() -> Renderer | None:
    """The render service's face function adapted to ``(definition, card) -> RGB image``, or None.

    Looks through ``workbench.services.render`` for a function named like ``render_face``.
    """
    try:
        package = importlib.import_module("workbench.services.render")
    except ImportError:
        return None
    modules = [package]
    for info in pkgutil.iter_modules(getattr(package, "__path__", [])):
        try:
            modules.append(importlib.import_module(f"{package.__name__}.{info.name}"))
        except Exception:  # a half-written module of the render engineer must not break exports
            continue
    for module in modules:
        for name in RENDER_NAMES:
            func = getattr(module, name, None)
            if callable(func):
                return _adapt(func)
    return None


def _adapt(func: Callable[..., Any]) -> Renderer:
    """Fit the render service's signature: ``(definition, card, size, …, art=, dpi=)``."""
    params = inspect.signature(func).parameters

    def render(definition: GameDefinition, card: Card, art: Image.Image | None = None) -> Image.Image:
        kwargs: dict[str, Any] = {}
        if "size" in params:
            from workbench.services.render.sizes import parse_card_size

            kwargs["size"] = parse_card_size(str(definition.raw.get("card_size") or "poker"))
        if "dpi" in params:
            kwargs["dpi"] = EXPORT_DPI
        if "art" in params:
            kwargs["art"] = art
        return to_image(func(definition, dict(card), **kwargs))

    return render


def find_back_renderer() -> Callable[[GameDefinition], Image.Image] | None:
    """The render service's card back function adapted to ``definition -> RGB image``, or None."""
    try:
        module = importlib.import_module("workbench.services.render.faces")
    except Exception:
        return None
    func = getattr(module, "render_back", None)
    if not callable(func):
        return None
    params = inspect.signature(func).parameters

    def back(definition: GameDefinition) -> Image.Image:
        kwargs: dict[str, Any] = {}
        if "size" in params:
            from workbench.services.render.sizes import parse_card_size

            kwargs["size"] = parse_card_size(str(definition.raw.get("card_size") or "poker"))
        if "dpi" in params:
            kwargs["dpi"] = EXPORT_DPI
        return to_image(func(definition, **kwargs))

    return back


def to_image(result: Any) -> Image.Image:
    """An RGB image from a renderer's answer: an image, PNG/JPEG bytes, or a file path."""
    if hasattr(result, "image") and not isinstance(result, Image.Image):
        result = result.image  # the render service's FaceResult
    if isinstance(result, Image.Image):
        image = result
    elif isinstance(result, (bytes, bytearray)):
        image = Image.open(io.BytesIO(result))
        image.load()
    else:
        image = Image.open(str(result))
        image.load()
    if image.mode != "RGB":
        background = Image.new("RGB", image.size, "white")
        rgba = image.convert("RGBA")
        background.paste(rgba, mask=rgba.split()[-1])
        image = background
    return image


class Faces:
    """Face images per card, from the renderer or placeholders, remembering which were which."""

    def __init__(self, definition: GameDefinition, renderer: Renderer | None | bool = True,
                 art: ArtLoader | None = None) -> None:
        """``renderer``: a function, ``True`` to look for the render service, ``False``/None for
        placeholders only. ``art`` loads a card's picture (or None) for the renderer."""
        self.definition = definition
        self.renderer: Renderer | None = find_renderer() if renderer is True else (renderer or None)
        self._back_renderer = find_back_renderer() if renderer is True else None
        self._art = art
        self.placeholders: list[str] = []
        self.failures: list[str] = []
        self._cache: dict[str, Image.Image] = {}

    def face(self, card: Card) -> Image.Image:
        """The card's face (RGB). Never raises: a failing render falls back to a placeholder."""
        key = str(card.get("id"))
        if key in self._cache:
            return self._cache[key]
        image: Image.Image | None = None
        if self.renderer is not None:
            try:
                picture = self._art(card) if self._art else None
                image = to_image(self.renderer(self.definition, card, picture) if picture is not None
                                 else self.renderer(self.definition, card))
            except Exception as exc:  # one broken card must not stop an export of hundreds
                self.failures.append(f"{key}: {exc}")
        if image is None:
            image = placeholder_face(self.definition, card)
            self.placeholders.append(key)
        self._cache[key] = image
        return image

    def back(self) -> Image.Image:
        """The card back image (the render service's, else a plain one). Never raises."""
        if self._back_renderer is not None:
            try:
                return self._back_renderer(self.definition)
            except Exception as exc:  # the plain back keeps the export usable
                self.failures.append(f"card back: {exc}")
        return card_back(self.definition)

    def notes(self) -> list[str]:
        """Sentences for the export report on placeholder faces."""
        notes = []
        if self.placeholders and self.renderer is None:
            notes.append(f"card faces are placeholders ({len(self.placeholders)} cards): the render "
                         "service is not available, so each face shows name, kind, stats and text only")
        elif self.placeholders:
            notes.append(f"{len(self.placeholders)} card faces could not be rendered and are placeholders: "
                         + "; ".join(self.failures[:5]))
        return notes


def jpeg(image: Image.Image, size: tuple[int, int] | None = None, quality: int = 85) -> bytes:
    """JPEG bytes of an image (RGB), resized to ``size`` when given."""
    if size and image.size != size:
        image = image.resize(size, Image.LANCZOS)
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=quality, optimize=True)
    return out.getvalue()
