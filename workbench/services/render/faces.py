"""Card faces drawn with Pillow: one look per game, driven by game.yaml ``style`` and kind colours.

A face is planned first (:meth:`Template.plan`: boxes, fitted text, overflow) and drawn second
(:meth:`Template.draw`), so validation can ask for the overflow without drawing pixels.

Coordinates are in *design units*: millimetres of a poker card, scaled by ``u`` pixels per unit so
the same template fills bridge, tarot, mini and custom sizes. The one exception is the safe zone,
which is real millimetres (3 mm inside the trim) because the cutter does not scale with the card.
Bleed only extends the background; everything else is placed relative to the trim.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from workbench.domain.gamedef import FieldDef, GameDefinition
from workbench.services.render.fonts import face_for, missing_glyphs, pil_font, text_width
from workbench.services.render.sizes import DPI, CardSize, mm_to_px
from workbench.services.render.inline_symbols import draw_line, encode, has_placeholder
from workbench.services.render.text import Fit, LayoutTimeout, Paragraph, fit_paragraphs, time_limit

# Bump when a template's drawing changes: it is part of every render-cache key.
TEMPLATE_VERSION = "faces-6"

# Text is cut to its field's max_length (and never more than this) before layout: a face shows a
# few hundred characters at most, and a 100,000-character draft must not cost minutes to lay out.
LAYOUT_MAX_CHARS = 2000
LAYOUT_MAX_ITEMS = 50  # items of a list field (keywords) laid out
# Laying out one face stops after this many seconds: the text box then shows TIMEOUT_TEXT and
# validation reports card.render_timeout. With the cuts above it is a last line of defence.
RENDER_TIME_LIMIT_S = 3.0
TIMEOUT_TEXT = "This text could not be laid out in time. Shorten it (see the card's problems)."

SAFE_MM = 3.0  # text and symbols stay this far inside the trim
MIN_TEXT_PT = 6.0  # effect text never shrinks below this
POKER_MM = (63.5, 88.9)

DEFAULT_STYLE = {"frame": "#3a3a48", "accent": "#c8a040", "back": "#22222c"}

STAT_ABBREVIATIONS = {
    "strength": "STR", "resilience": "RES", "damage": "DMG", "health": "HP",
    "atk": "ATK", "def": "DEF", "power": "PWR", "attack": "ATK", "defense": "DEF",
}
ELEMENT_COLORS = {"physical": "#8a8a8a", "fire": "#d0482a", "poison": "#4f9a3a", "magical": "#7a4fc0"}
ATTRIBUTE_GLYPHS = {"earth": "地", "water": "水", "fire": "炎", "wind": "风", "light": "光", "dark": "暗"}
ATTRIBUTE_COLORS = {"earth": "#8a6a3a", "water": "#2a6ab0", "fire": "#c83a22", "wind": "#3a9a5a",
                    "light": "#c8a82a", "dark": "#4a2a6a"}


def hex_rgb(value: str, fallback: str = "#555555") -> tuple[int, int, int]:
    """Parse ``#rrggbb`` (or ``#rgb``); a malformed colour gives ``fallback``."""
    text = str(value or "").strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    try:
        if len(text) != 6:
            raise ValueError(text)
        return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
    except ValueError:
        return hex_rgb(fallback)


def mix(color: tuple[int, int, int], other: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    """Blend ``amount`` (0-1) of ``other`` into ``color``."""
    return tuple(int(round(a + (b - a) * amount)) for a, b in zip(color, other))  # type: ignore[return-value]


WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
INK = (28, 24, 20)


def _luma(color: tuple[int, int, int]) -> float:
    return 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2]


def on(color: tuple[int, int, int]) -> tuple[int, int, int]:
    """Readable text colour on a background."""
    return INK if _luma(color) > 150 else WHITE


def format_value(fdef: FieldDef | None, value: Any) -> str:
    """A field value as printed: enum labels from game.yaml, lists joined, booleans as Yes/No."""
    if value is None:
        return ""
    labels = (fdef.spec.get("labels") or {}) if fdef else {}
    if isinstance(value, list):
        return ", ".join(format_value(fdef, item) for item in value)
    if isinstance(value, bool):
        return "Yes" if value else "No"
    for key in (value, str(value)):
        if key in labels:
            return str(labels[key])
    try:
        if int(value) in labels:
            return str(labels[int(value)])
    except (TypeError, ValueError):
        pass
    if fdef and fdef.enum and isinstance(value, str):
        return value.replace("_", " ").capitalize()
    return str(value)


@dataclass
class TextItem:
    """One line of text to draw at a position (design units), already fitted."""

    x: float
    y: float  # top of the line box
    text: str
    key: str
    size: float  # pixels
    color: tuple[int, int, int]
    anchor: str = "la"  # Pillow anchor; "ra" right-aligned, "ma" centred


@dataclass
class Plan:
    """Everything needed to draw a face, and what did not fit."""

    overflow_lines: int = 0
    name_overflow: bool = False
    missing: list[str] = field(default_factory=list)
    body: Fit | None = None
    body_box: tuple[float, float, float, float] = (0, 0, 0, 0)
    items: list[TextItem] = field(default_factory=list)
    values: dict[str, Any] = field(default_factory=dict)
    timed_out: bool = False  # the body's layout passed RENDER_TIME_LIMIT_S; TIMEOUT_TEXT is shown
    cut_fields: list[str] = field(default_factory=list)  # texts cut to their max_length for layout


class Template:
    """The shared card layout; games change the look through class attributes and hooks."""

    radius = 2.6  # corner radius of panels, design units
    name_role = "bold"
    title_bar = (246, 240, 226)  # name and type bars
    text_panel = (250, 247, 240)
    art_ratio = 1.55  # art width / height
    badge_label = ""
    badge_fields: tuple[str, ...] = ("cost", "degree", "power", "level", "mana")
    symbol_fields: frozenset[str] = frozenset()  # fields drawn as symbols, not as text lines

    def __init__(self, definition: GameDefinition, size: CardSize, bleed_mm: float = 0.0, dpi: int = DPI):
        self.definition = definition
        self.size = size
        self.bleed_mm = bleed_mm
        self.dpi = dpi
        style = dict(DEFAULT_STYLE)
        style.update({k: str(v) for k, v in (definition.raw.get("style") or {}).items()})
        self.frame = hex_rgb(style["frame"])
        self.accent = hex_rgb(style["accent"])
        self.back = hex_rgb(style["back"])
        self.px_per_mm = dpi / 25.4
        self.u = min(size.width_mm / POKER_MM[0], size.height_mm / POKER_MM[1]) * self.px_per_mm
        self.W = size.width_mm * self.px_per_mm / self.u  # trim in design units
        self.H = size.height_mm * self.px_per_mm / self.u
        self.bleed_px = mm_to_px(bleed_mm, dpi)
        self.safe = SAFE_MM * self.px_per_mm / self.u
        self.c = max(self.safe + 0.5, 3.4)  # content inset: text starts here
        self.f = 1.9  # the kind-coloured panel starts here

    # ----- helpers -------------------------------------------------------------------------
    def fields(self, kind: str) -> dict[str, FieldDef]:
        try:
            return {f.name: f for f in self.definition.fields_for(kind)}
        except KeyError:
            return {f.name: f for f in self.definition.common_fields}

    def kind_color(self, kind: str) -> tuple[int, int, int]:
        kdef = self.definition.kinds.get(kind)
        return hex_rgb(kdef.color if kdef else "#666666")

    def kind_label(self, kind: str) -> str:
        kdef = self.definition.kinds.get(kind)
        return kdef.label if kdef else str(kind).capitalize()

    def kind_index(self, kind: str) -> int:
        kinds = list(self.definition.kinds)
        return kinds.index(kind) if kind in kinds else len(kinds)

    def P(self, units: float) -> int:
        return int(round(units * self.u))

    def fit_line(self, text: str, role: str, width: float, max_u: float, min_u: float) -> tuple[str, float, bool]:
        """Shrink one line of text to a width (design units); return (font key, px size, overflows)."""
        key = face_for(role, text)
        size = max_u * self.u
        floor = min_u * self.u
        while size > floor and text_width(key, text, size) > width * self.u:
            size -= max(1.0, self.u * 0.1)
        size = max(size, floor)
        return key, size, text_width(key, text, size) > width * self.u + 1

    # ----- hooks a game overrides ----------------------------------------------------------
    def badge(self, card: Mapping[str, Any], fields: dict[str, FieldDef]) -> tuple[str, str] | None:
        """(value, label) shown in the top-right badge: cost, Degree or Power."""
        marked = tuple(n for n, f in fields.items() if f.spec.get("badge"))  # game.yaml's badge: true
        for name in marked or self.badge_fields:
            if name in fields and card.get(name) is not None:
                short = fields[name].spec.get("short")
                return str(card[name]), short or self.badge_label or name.upper()[:3]
        return None

    def type_line(self, card: Mapping[str, Any], fields: dict[str, FieldDef]) -> str:
        kind = str(card.get("kind", ""))
        parts = [self.kind_label(kind)]
        for name in ("subtype", "type", "race", "class"):
            if name in fields and card.get(name) not in (None, ""):
                parts.append(format_value(fields[name], card[name]))
        return " — ".join(parts[:1] + [" · ".join(parts[1:])]) if len(parts) > 1 else parts[0]

    def extra_paragraphs(self, card: Mapping[str, Any], fields: dict[str, FieldDef]) -> list[Paragraph]:
        """Lines printed above the effect text (other fields a player needs)."""
        shown = {"name", "kind", "text", "flavor", "number", "art", "effects", "keywords", "text_en",
                 "name_en", "creator", "subtype", "type", "race", "class", "materials", "extra"}
        shown |= set(self.badge_fields) | set(self.symbol_fields) | {n for n, f in fields.items() if f.spec.get("badge")}
        shown |= {n for n, f in fields.items() if f.spec.get("stat")}
        lines = []
        for name, fdef in fields.items():
            if name in shown or card.get(name) in (None, "", [], False):
                continue
            lines.append(f"{fdef.label}: {format_value(fdef, card[name])}")
        return [Paragraph(" · ".join(lines), role="bold", scale=0.85)] if lines else []

    def stats(self, card: Mapping[str, Any], fields: dict[str, FieldDef]) -> list[tuple[str, str]]:
        out = []
        for name, fdef in fields.items():
            if fdef.spec.get("stat") and card.get(name) is not None:
                short = fdef.spec.get("short") or STAT_ABBREVIATIONS.get(name, fdef.label[:3].upper())
                out.append((short, str(card[name])))
        return out

    def footer_text(self, card: Mapping[str, Any]) -> str:
        return str(card.get("number") or "")

    def top_extra_height(self, card: Mapping[str, Any]) -> float:
        """Extra design units under the name bar (fusion's star row)."""
        return 0.0

    # ----- planning -------------------------------------------------------------------------
    def body_paragraphs(self, card: Mapping[str, Any], fields: dict[str, FieldDef]) -> list[Paragraph]:
        paras = self.extra_paragraphs(card, fields)
        keywords = card.get("keywords") or []
        if isinstance(keywords, list) and keywords:
            paras.append(Paragraph(", ".join(self.keyword_label(k) for k in keywords), role="bold"))
        symbols = self.definition.symbols
        if card.get("text"):
            paras.append(Paragraph(encode(str(card["text"]), symbols)))
        if card.get("text_en"):
            paras.append(Paragraph(encode(str(card["text_en"]), symbols), role="italic", scale=0.85, color="#5a5048"))
        if card.get("flavor"):
            paras.append(Paragraph(str(card["flavor"]), role="italic", scale=0.9, space_before=0.6,
                                   color="#4a4038"))
        return paras

    def keyword_label(self, keyword: Any) -> str:
        return str(keyword).replace("_", " ").capitalize()

    def geometry(self, card: Mapping[str, Any]) -> dict[str, tuple[float, float, float, float]]:
        """Boxes (x, y, w, h) in design units for name bar, art, type bar, text box, footer."""
        W, H, c, f = self.W, self.H, self.c, self.f
        name = (f + 0.9, c - 0.9, W - 2 * (f + 0.9), 7.0)
        top = name[1] + name[3] + self.top_extra_height(card) + 0.7
        art_w = W - 2 * (f + 1.3)
        art = (f + 1.3, top, art_w, art_w / self.art_ratio)
        type_bar = (f + 0.9, art[1] + art[3] + 0.6, W - 2 * (f + 0.9), 5.6)
        footer_h = 3.6
        text_top = type_bar[1] + type_bar[3] + 0.7
        text = (f + 0.9, text_top, W - 2 * (f + 0.9), H - c - footer_h - text_top)
        footer = (c, H - c - footer_h + 0.6, W - 2 * c, footer_h)
        return {"name": name, "art": art, "type": type_bar, "text": text, "footer": footer}

    def for_layout(self, card: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The card with every text cut to its field's ``max_length`` (at most LAYOUT_MAX_CHARS;
        an ellipsis marks the cut) and list fields to LAYOUT_MAX_ITEMS; and the names of the
        fields that were cut. Validation reports the over-long field itself (card.max_length)."""
        fields = self.fields(str(card.get("kind", "")))
        out: dict[str, Any] = {}
        cut: list[str] = []
        for name, value in card.items():
            fdef = fields.get(name)
            limit = LAYOUT_MAX_CHARS
            if fdef is not None and isinstance(fdef.spec.get("max_length"), int):
                limit = max(1, min(limit, fdef.spec["max_length"]))
            if isinstance(value, str) and len(value) > limit:
                value = value[:limit] + "…"
                cut.append(name)
            elif isinstance(value, list) and (len(value) > LAYOUT_MAX_ITEMS or any(
                    isinstance(v, str) and len(v) > LAYOUT_MAX_CHARS for v in value)):
                value = [v[:LAYOUT_MAX_CHARS] if isinstance(v, str) else v for v in value[:LAYOUT_MAX_ITEMS]]
                cut.append(name)
            out[name] = value
        return out, cut

    def plan(self, card: Mapping[str, Any]) -> Plan:
        """Lay out a card without drawing: fitted text, overflow, characters no font has.

        Texts are cut first (:meth:`for_layout`); the body's layout stops after
        RENDER_TIME_LIMIT_S and the face then shows TIMEOUT_TEXT (``plan.timed_out``).
        """
        card, cut = self.for_layout(card)
        kind = str(card.get("kind", ""))
        fields = self.fields(kind)
        plan = Plan()
        plan.cut_fields = cut
        plan.values["card"] = card
        geo = self.geometry(card)
        plan.values["geo"] = geo
        plan.values["badge"] = self.badge(card, fields)
        plan.values["stats"] = self.stats(card, fields)
        plan.values["type"] = self.type_line(card, fields)
        # Name: one line, shrinking; a badge on the right takes room from it.
        name = str(card.get("name") or "")
        nx, ny, nw, nh = geo["name"]
        right = self.c + (9.5 if plan.values["badge"] else 0)
        width = self.W - self.c - right
        key, size, over = self.fit_line(name, self.name_role, width, 4.2, 2.6)
        plan.name_overflow = over
        plan.items.append(TextItem(self.c, ny + nh / 2, name, key, size, INK, "lm"))
        # Type line
        tx, ty, tw, th = geo["type"]
        type_left = self.c + 4.2
        type_width = self.W - self.c - type_left - self.type_right_reserve(card)
        key, size, _ = self.fit_line(plan.values["type"], "bold", type_width, 2.9, 1.9)
        plan.items.append(TextItem(type_left, ty + th / 2, plan.values["type"], key, size, INK, "lm"))
        # Body text: fit inside the text box, within the safe zone on both sides.
        bx, by, bw, bh = geo["text"]
        paras = self.body_paragraphs(card, fields)
        max_px = 3.4 * self.u
        min_px = min(max_px, MIN_TEXT_PT / 72 * self.dpi)
        # First try the whole box; the stat plate sits in its bottom-right corner, so the text
        # only has to stop above the plate when its last lines would run into it.
        inner = (self.c, by + 1.0, self.W - 2 * self.c, bh - 2.0)
        try:
            with time_limit(RENDER_TIME_LIMIT_S):
                fit = fit_paragraphs(paras, inner[2] * self.u, inner[3] * self.u, max_px, min_px,
                                     step_px=self.u * 0.1)
                reserve = self.stats_reserve(plan)
                if reserve and self._hits_plate(fit, inner, reserve, self.stats_width(plan.values["stats"])):
                    inner = (self.c, by + 1.0, self.W - 2 * self.c, bh - 2.0 - reserve)
                    fit = fit_paragraphs(paras, inner[2] * self.u, inner[3] * self.u, max_px, min_px,
                                         step_px=self.u * 0.1)
        except LayoutTimeout:
            plan.timed_out = True
            paras = [Paragraph(TIMEOUT_TEXT, role="bold", color="#b01e1e")]
            inner = (self.c, by + 1.0, self.W - 2 * self.c, bh - 2.0 - self.stats_reserve(plan))
            fit = fit_paragraphs(paras, inner[2] * self.u, inner[3] * self.u, max_px, min_px, step_px=self.u * 0.1)
        plan.body = fit
        plan.body_box = inner
        plan.overflow_lines = fit.overflow_lines
        every = name + plan.values["type"] + "".join(p.text for p in paras) + self.footer_text(card)
        plan.missing = missing_glyphs(every)
        return plan

    def type_right_reserve(self, card: Mapping[str, Any]) -> float:
        return 0.0

    def _hits_plate(self, fit: Fit, box: tuple[float, float, float, float], reserve: float, plate_w: float) -> bool:
        if not fit.fits:
            return True
        x, y, w, h = box
        band_top = (h - reserve + 0.6) * self.u  # the plate's top, in pixels from the box top
        limit = (w - plate_w - 0.8) * self.u
        return any(line.top + line.size_px > band_top and text_width(line.font_key, line.text, line.size_px) > limit
                   for line in fit.lines)

    def stats_text(self, stats: list[tuple[str, str]]) -> str:
        return "   ".join(f"{label} {value}" for label, value in stats)

    def stats_width(self, stats: list[tuple[str, str]]) -> float:
        """Width of the stat plate in design units."""
        text = self.stats_text(stats)
        return text_width(face_for("bold", text), text, 2.8 * self.u) / self.u + 3.0

    def stats_reserve(self, plan: Plan) -> float:
        """Design units at the bottom of the text box kept free for the stat plates."""
        return 4.4 if plan.values.get("stats") else 0.0

    # ----- drawing --------------------------------------------------------------------------
    def new_image(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        w, h = self.size.pixels(self.bleed_mm, self.dpi)
        # Bleed extends the background colour; nothing else goes there.
        image = Image.new("RGB", (w, h), self.frame)
        return image, ImageDraw.Draw(image)

    def box(self, draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, fill: Any,
            outline: Any = None, width: float = 0.0, radius: float | None = None) -> None:
        o = self.bleed_px
        r = self.radius if radius is None else radius
        xy = (o + self.P(x), o + self.P(y), o + self.P(x + w), o + self.P(y + h))
        if xy[2] < xy[0] or xy[3] < xy[1]:
            return  # a box the card's size leaves no room for (20 mm cards): nothing to draw
        draw.rounded_rectangle(xy, radius=self.P(r), fill=fill, outline=outline,
                               width=max(1, self.P(width)) if outline else 0)

    def text(self, draw: ImageDraw.ImageDraw, item: TextItem) -> None:
        o = self.bleed_px
        font = pil_font(item.key, int(round(item.size)))
        if item.anchor == "la" and has_placeholder(item.text):
            draw_line(draw, o + self.P(item.x), o + self.P(item.y), item.text, font,
                      pil_font(face_for("bold", "横"), int(round(item.size))), item.color, item.size)
            return
        draw.text((o + self.P(item.x), o + self.P(item.y)), item.text, font=font, fill=item.color,
                  anchor=item.anchor)

    def label(self, draw: ImageDraw.ImageDraw, x: float, y: float, text: str, role: str, size_u: float,
              color: Any, anchor: str = "mm") -> None:
        key = face_for(role, text)
        self.text(draw, TextItem(x, y, text, key, size_u * self.u, color, anchor))

    def icon(self, draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float, fill: Any,
             outline: Any = None) -> None:
        """A shape per kind (circle, diamond, triangle, square, hexagon, star), so kinds differ
        even in greyscale prints."""
        o = self.bleed_px
        X, Y, R = o + self.P(cx), o + self.P(cy), self.P(r)
        shape = self.kind_index(kind) % 6
        if shape == 0:
            draw.ellipse((X - R, Y - R, X + R, Y + R), fill=fill, outline=outline, width=max(1, R // 6))
            return
        if shape == 1:
            points = [(X, Y - R), (X + R, Y), (X, Y + R), (X - R, Y)]
        elif shape == 2:
            points = [(X, Y - R), (X + R, Y + R * 0.8), (X - R, Y + R * 0.8)]
        elif shape == 3:
            k = R * 0.85
            points = [(X - k, Y - k), (X + k, Y - k), (X + k, Y + k), (X - k, Y + k)]
        elif shape == 4:
            points = [(X + R * math.cos(a), Y + R * math.sin(a)) for a in
                      (math.pi / 3 * i + math.pi / 6 for i in range(6))]
        else:
            points = star_points(X, Y, R, R * 0.45, 5)
        draw.polygon(points, fill=fill, outline=outline, width=max(1, R // 6) if outline else 0)

    def draw_art(self, image: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                 kind: str, art: Image.Image | None) -> None:
        x, y, w, h = box
        o = self.bleed_px
        left, top, width, height = o + self.P(x), o + self.P(y), self.P(w), self.P(h)
        color = self.kind_color(kind)
        if art is not None:
            picture = cover(art, width, height)
            image.paste(picture, (left, top))
        else:
            # No art yet: a soft gradient in the kind colour with the kind's shape, so a
            # playtest print still reads at a glance.
            image.paste(placeholder(color, width, height), (left, top))
            self.icon(draw, kind, x + w / 2, y + h / 2, min(w, h) * 0.28, mix(color, WHITE, 0.7))
        draw.rectangle((left, top, left + width - 1, top + height - 1), outline=mix(color, BLACK, 0.45),
                       width=max(1, self.P(0.35)))

    def draw_badge(self, draw: ImageDraw.ImageDraw, badge: tuple[str, str], kind: str) -> None:
        cx, cy, r = self.W - self.c - 3.6, self.geometry({})["name"][1] + 3.5, 4.3
        o = self.bleed_px
        X, Y, R = o + self.P(cx), o + self.P(cy), self.P(r)
        draw.ellipse((X - R, Y - R, X + R, Y + R), fill=self.accent, outline=mix(self.accent, BLACK, 0.5),
                     width=max(1, self.P(0.4)))
        self.label(draw, cx, cy - 0.5, badge[0], "bold", 4.0 if len(badge[0]) < 3 else 3.0, INK)
        # The label sits low in the coin, where the circle is narrow: shrink it until the corners
        # of its real ink box (CJK glyphs reach lower than Latin capitals) keep clear of the rim.
        label_y, clear = cy + 2.3, r - 0.9
        key = face_for("bold", badge[1])
        size = 1.4 * self.u
        while size > 0.8 * self.u:
            left, top, right, bottom = pil_font(key, int(round(size))).getbbox(badge[1], anchor="mm")
            corners = [(x / self.u, label_y - cy + y / self.u) for x in (left, right) for y in (top, bottom)]
            if all(math.hypot(dx, dy) <= clear for dx, dy in corners):
                break
            size -= max(1.0, self.u * 0.05)
        self.text(draw, TextItem(cx, label_y, badge[1], key, size, INK, "mm"))

    def draw_stats(self, draw: ImageDraw.ImageDraw, stats: list[tuple[str, str]], kind: str) -> None:
        if not stats:
            return
        text = self.stats_text(stats)
        width = self.stats_width(stats)
        x = self.W - self.c - width + 1.0
        y = self.geometry({})["footer"][1] - 4.9
        self.box(draw, x, y, width, 4.4, fill=self.accent, outline=mix(self.accent, BLACK, 0.5), width=0.3,
                 radius=1.2)
        self.label(draw, x + width / 2, y + 2.2, text, "bold", 2.8, INK)

    def draw_type_extra(self, draw: ImageDraw.ImageDraw, card: Mapping[str, Any], box: tuple) -> None:
        """Symbols at the right end of the type bar (seth speeds)."""

    def draw_art_extra(self, draw: ImageDraw.ImageDraw, card: Mapping[str, Any], box: tuple) -> None:
        """Symbols over the art (element, attribute, Class Master banner)."""

    def draw_top_extra(self, draw: ImageDraw.ImageDraw, card: Mapping[str, Any], geo: dict) -> None:
        """Anything under the name bar (fusion stars)."""

    def draw(self, card: Mapping[str, Any], plan: Plan, art: Image.Image | None = None) -> Image.Image:
        """Draw a planned card face; returns an RGB image of the trim plus bleed."""
        card = plan.values.get("card", card)  # the texts as cut for layout
        kind = str(card.get("kind", ""))
        kcolor = self.kind_color(kind)
        geo = plan.values["geo"]
        image, draw = self.new_image()
        # Kind-coloured panel inside the game's frame colour: the kind reads at a glance.
        self.box(draw, self.f, self.f, self.W - 2 * self.f, self.H - 2 * self.f, fill=kcolor,
                 outline=mix(kcolor, BLACK, 0.4), width=0.35)
        self.box(draw, *geo["name"], fill=self.title_bar, outline=mix(kcolor, BLACK, 0.5), width=0.3)
        self.draw_top_extra(draw, card, geo)
        self.draw_art(image, draw, geo["art"], kind, art)
        self.draw_art_extra(draw, card, geo["art"])
        self.box(draw, *geo["type"], fill=self.title_bar, outline=mix(kcolor, BLACK, 0.5), width=0.3)
        tx, ty, tw, th = geo["type"]
        self.icon(draw, kind, self.c + 1.7, ty + th / 2, 1.7, kcolor, outline=mix(kcolor, BLACK, 0.5))
        self.draw_type_extra(draw, card, geo["type"])
        self.box(draw, *geo["text"], fill=self.text_panel, outline=mix(kcolor, BLACK, 0.5), width=0.3)
        for item in plan.items:
            self.text(draw, item)
        if plan.values["badge"]:
            self.draw_badge(draw, plan.values["badge"], kind)
        self.draw_body(draw, plan)
        self.draw_stats(draw, plan.values["stats"], kind)
        footer = self.footer_text(card)
        if footer:
            fx, fy, fw, fh = geo["footer"]
            self.label(draw, self.c, fy + fh / 2, footer, "sans", 2.0, on(kcolor), "lm")
        return image

    def draw_body(self, draw: ImageDraw.ImageDraw, plan: Plan) -> None:
        if not plan.body:
            return
        x, y, w, h = plan.body_box
        for line in plan.body.lines:
            if (line.top + line.size_px) / self.u > h + 0.2:
                # Overflowing text is reported by validation (card.text_overflow); on the card a
                # red ellipsis shows that something is missing instead of text over the frame.
                self.label(draw, x + w, y + h - 1.0, "…", "bold", 3.0, (200, 30, 30), "rm")
                break
            color = hex_rgb(line.color, "#1c1814") if line.color else INK
            item = TextItem(x, y + line.top / self.u, line.text, line.font_key, line.size_px, color)
            self.text(draw, item)

    def draw_back(self) -> Image.Image:
        """The card back shared by every card of the game."""
        image, draw = self.new_image()
        image.paste(self.back, (0, 0, image.width, image.height))
        o = self.bleed_px
        self.box(draw, self.f, self.f, self.W - 2 * self.f, self.H - 2 * self.f, fill=self.back,
                 outline=self.accent, width=0.6)
        # A lattice of diamonds in the accent colour: it hides small duplex misregistration.
        step = 6.0
        dim = mix(self.back, self.accent, 0.25)
        rows = int(self.H / step)
        cols = int(self.W / step)
        for j in range(1, rows):
            for i in range(1, cols):
                cx = self.W / 2 + (i - cols / 2) * step
                cy = self.H / 2 + (j - rows / 2) * step
                if abs(cx - self.W / 2) > self.W / 2 - self.c or abs(cy - self.H / 2) > self.H / 2 - self.c:
                    continue
                X, Y, R = o + self.P(cx), o + self.P(cy), self.P(1.2)
                draw.polygon([(X, Y - R), (X + R, Y), (X, Y + R), (X - R, Y)], fill=dim)
        cx, cy = self.W / 2, self.H / 2
        self.box(draw, self.c + 2, cy - 9, self.W - 2 * (self.c + 2), 18, fill=self.back, outline=self.accent,
                 width=0.5, radius=3)
        name = self.definition.name
        key, size, _ = self.fit_line(name, "serif", self.W - 2 * (self.c + 4), 4.6, 2.0)
        self.text(draw, TextItem(cx, cy, name, key, size, self.accent, "mm"))
        return image


@lru_cache(maxsize=64)
def placeholder(color: tuple[int, int, int], width: int, height: int) -> Image.Image:
    """Art placeholder: a few flat bands from light to the kind colour (flat bands keep the
    face fast to compress, unlike a smooth gradient)."""
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    bands = 6
    for i in range(bands):
        shade = mix(color, WHITE, 0.6 - 0.45 * i / (bands - 1))
        draw.rectangle((0, height * i // bands, width, height * (i + 1) // bands), fill=shade)
    return image


def star_points(x: float, y: float, outer: float, inner: float, n: int) -> list[tuple[float, float]]:
    """Corner points of an n-pointed star centred on (x, y), pixels."""
    points = []
    for i in range(2 * n):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / n
        points.append((x + r * math.cos(a), y + r * math.sin(a)))
    return points


def cover(picture: Image.Image, width: int, height: int) -> Image.Image:
    """Scale and centre-crop a picture to exactly fill width x height."""
    picture = picture.convert("RGB")
    scale = max(width / picture.width, height / picture.height)
    w, h = max(width, round(picture.width * scale)), max(height, round(picture.height * scale))
    resized = picture.resize((w, h), Image.Resampling.LANCZOS)
    left, top = (w - width) // 2, (h - height) // 2
    return resized.crop((left, top, left + width, top + height))


# ---------------------------------------------------------------------------------------------
# The three games' looks.


class WarzoneTemplate(Template):
    """Warzone: square military plates, a Degree shield, Class chevrons, a Class Master banner."""

    radius = 0.4
    name_role = "condensed"
    title_bar = (232, 230, 220)
    text_panel = (240, 238, 230)
    badge_fields = ("degree",)
    badge_label = "DEGREE"
    symbol_fields = frozenset({"class", "class_master"})

    def type_line(self, card: Mapping[str, Any], fields: dict[str, FieldDef]) -> str:
        kind = str(card.get("kind", ""))
        label = self.kind_label(kind)
        if card.get("class") is not None and "class" in fields:
            return f"{label} — {format_value(fields['class'], card['class'])}"
        return label

    def draw_badge(self, draw: ImageDraw.ImageDraw, badge: tuple[str, str], kind: str) -> None:
        # A shield, not a coin: Degree is recruitment weight, not a price.
        cx, top = self.W - self.c - 3.6, self.geometry({})["name"][1] - 0.6
        o = self.bleed_px
        pts = [(cx - 4.2, top), (cx + 4.2, top), (cx + 4.2, top + 6.0), (cx, top + 9.4), (cx - 4.2, top + 6.0)]
        draw.polygon([(o + self.P(x), o + self.P(y)) for x, y in pts], fill=self.accent,
                     outline=mix(self.accent, BLACK, 0.55), width=max(1, self.P(0.4)))
        self.label(draw, cx, top + 3.6, badge[0], "bold", 4.2, INK)
        self.label(draw, cx, top + 7.2, "DEG", "bold", 1.5, INK)

    def draw_type_extra(self, draw: ImageDraw.ImageDraw, card: Mapping[str, Any], box: tuple) -> None:
        level = card.get("class")
        if not isinstance(level, int) or isinstance(level, bool):
            return
        x, y, w, h = box
        o = self.bleed_px
        # One chevron per Class (row): 1 front, 3 back.
        for i in range(max(0, min(level, 3))):
            cx = self.W - self.c - 1.6 - i * 2.6
            pts = [(cx - 1.2, y + 1.3), (cx, y + 2.4), (cx + 1.2, y + 1.3), (cx + 1.2, y + 2.6),
                   (cx, y + 3.7), (cx - 1.2, y + 2.6)]
            draw.polygon([(o + self.P(a), o + self.P(b + 0.5)) for a, b in pts], fill=self.frame)

    def type_right_reserve(self, card: Mapping[str, Any]) -> float:
        return 8.5 if card.get("class") is not None else 0.0

    def draw_art_extra(self, draw: ImageDraw.ImageDraw, card: Mapping[str, Any], box: tuple) -> None:
        if card.get("class_master"):
            x, y, w, h = box
            self.box(draw, x + w * 0.2, y + h - 4.6, w * 0.6, 3.6, fill=self.accent,
                     outline=mix(self.accent, BLACK, 0.5), width=0.3, radius=0.3)
            self.label(draw, x + w / 2, y + h - 2.8, "★ CLASS MASTER", "bold", 2.2, INK)


class SethTemplate(Template):
    """Seth: rounded parchment cards; Power coin, Fast/Medium/Slow pips, element seal, resistances."""

    radius = 3.2
    name_role = "serif"
    title_bar = (241, 228, 196)
    text_panel = (248, 240, 220)
    badge_fields = ("power",)
    badge_label = "POWER"
    symbol_fields = frozenset({"speed", "element", "race", "resist", "vulnerable"})
    SPEEDS = ("fast", "medium", "slow")

    def type_line(self, card: Mapping[str, Any], fields: dict[str, FieldDef]) -> str:
        label = self.kind_label(str(card.get("kind", "")))
        parts = [str(card[n]) for n in ("race",) if card.get(n)]
        if card.get("element"):
            parts.append(format_value(fields.get("element"), card["element"]))
        return f"{label} — {' · '.join(parts)}" if parts else label

    def type_right_reserve(self, card: Mapping[str, Any]) -> float:
        return 12.0 if card.get("speed") is not None else 0.0

    def draw_type_extra(self, draw: ImageDraw.ImageDraw, card: Mapping[str, Any], box: tuple) -> None:
        speeds = card.get("speed")
        if speeds is None:
            return
        speeds = speeds if isinstance(speeds, list) else [speeds]
        x, y, w, h = box
        for i, speed in enumerate(self.SPEEDS):
            cx = self.W - self.c - 9.6 + i * 3.9
            active = speed in speeds
            fill = self.frame if active else self.title_bar
            self.box(draw, cx - 1.7, y + h / 2 - 1.7, 3.4, 3.4, fill=fill, outline=self.frame, width=0.25,
                     radius=0.8)
            self.label(draw, cx, y + h / 2, speed[0].upper(), "bold", 2.2, WHITE if active else self.frame)

    def draw_art_extra(self, draw: ImageDraw.ImageDraw, card: Mapping[str, Any], box: tuple) -> None:
        element = card.get("element")
        if not element:
            return
        x, y, w, h = box
        color = hex_rgb(ELEMENT_COLORS.get(str(element), "#777777"))
        o = self.bleed_px
        X, Y, R = o + self.P(x + 3.4), o + self.P(y + 3.4), self.P(2.6)
        draw.ellipse((X - R, Y - R, X + R, Y + R), fill=color, outline=WHITE, width=max(1, self.P(0.35)))
        self.label(draw, x + 3.4, y + 3.4, str(element)[0].upper(), "bold", 2.6, WHITE)

    def extra_paragraphs(self, card: Mapping[str, Any], fields: dict[str, FieldDef]) -> list[Paragraph]:
        parts = []
        if card.get("resist"):
            parts.append("Resists " + format_value(fields.get("resist"), card["resist"]))
        if card.get("vulnerable"):
            parts.append("Vulnerable to " + format_value(fields.get("vulnerable"), card["vulnerable"]))
        return [Paragraph(" · ".join(parts), role="bold", scale=0.85)] if parts else []

    def footer_text(self, card: Mapping[str, Any]) -> str:
        parts = [str(card[n]) for n in ("number",) if card.get(n)]
        if card.get("creator"):
            parts.append(f"by {card['creator']}")
        return "  ·  ".join(parts)


class FusionTemplate(Template):
    """Fusion Duel: navy and gold, mana coin, attribute seal, a row of level stars, bilingual lines."""

    radius = 1.4
    name_role = "bold"
    title_bar = (236, 232, 244)
    text_panel = (246, 242, 232)
    badge_fields = ("cost",)
    badge_label = "费 MANA"
    art_ratio = 1.8  # bilingual text needs the room
    symbol_fields = frozenset({"attribute", "stars", "subtype"})

    def top_extra_height(self, card: Mapping[str, Any]) -> float:
        return 4.2 if (card.get("stars") or card.get("name_en")) else 0.0

    def type_line(self, card: Mapping[str, Any], fields: dict[str, FieldDef]) -> str:
        label = self.kind_label(str(card.get("kind", "")))
        if card.get("subtype"):
            return f"【{format_value(fields.get('subtype'), card['subtype'])}／{label}】"
        return f"【{label}】"

    def type_right_reserve(self, card: Mapping[str, Any]) -> float:
        return 7.0 if card.get("attribute") else 0.0

    def draw_type_extra(self, draw: ImageDraw.ImageDraw, card: Mapping[str, Any], box: tuple) -> None:
        attribute = card.get("attribute")
        if not attribute:
            return
        x, y, w, h = box
        color = hex_rgb(ATTRIBUTE_COLORS.get(str(attribute), "#777777"))
        cx, cy = self.W - self.c - 2.6, y + h / 2
        o = self.bleed_px
        X, Y, R = o + self.P(cx), o + self.P(cy), self.P(2.5)
        draw.ellipse((X - R, Y - R, X + R, Y + R), fill=color, outline=self.accent, width=max(1, self.P(0.35)))
        self.label(draw, cx, cy, ATTRIBUTE_GLYPHS.get(str(attribute), str(attribute)[:1]), "bold", 3.0, WHITE)

    def draw_top_extra(self, draw: ImageDraw.ImageDraw, card: Mapping[str, Any], geo: dict) -> None:
        nx, ny, nw, nh = geo["name"]
        y = ny + nh + 2.2
        if card.get("name_en"):
            key, size, _ = self.fit_line(str(card["name_en"]), "italic", self.W / 2 - self.c, 2.4, 1.6)
            self.text(draw, TextItem(self.c, y, str(card["name_en"]), key, size, mix(self.accent, WHITE, 0.4), "lm"))
        stars = card.get("stars")
        if isinstance(stars, int) and not isinstance(stars, bool) and stars > 0:
            o = self.bleed_px
            step = min(3.1, (self.W / 2 - self.c) / max(1, stars))
            for i in range(min(stars, 12)):
                cx = self.W - self.c - 1.4 - i * step
                draw.polygon(star_points(o + self.P(cx), o + self.P(y), self.P(1.45), self.P(0.62), 5),
                             fill=self.accent, outline=mix(self.accent, BLACK, 0.5))

    def keyword_label(self, keyword: Any) -> str:
        return {"taunt": "嘲讽 Taunt"}.get(str(keyword), super().keyword_label(keyword))


TEMPLATES: dict[str, type[Template]] = {
    "warzone": WarzoneTemplate,
    "seth": SethTemplate,
    "fusion": FusionTemplate,
}


def template_for(definition: GameDefinition, size: CardSize, bleed_mm: float = 0.0, dpi: int = DPI) -> Template:
    """The template of a game (a neutral one for games without their own look)."""
    return TEMPLATES.get(definition.id, Template)(definition, size, bleed_mm, dpi)


@dataclass(frozen=True)
class FaceResult:
    """A drawn face and what the designer should be told about it."""

    image: Image.Image
    overflow_lines: int
    name_overflow: bool
    missing: tuple[str, ...]
    timed_out: bool = False


def render_face(definition: GameDefinition, card: Mapping[str, Any], size: CardSize, bleed_mm: float = 0.0,
                art: Image.Image | None = None, dpi: int = DPI) -> FaceResult:
    """Draw one card's face. ``art`` is an already loaded, checked picture (or None).

    Raises FontMissing when a needed font is not installed.
    """
    template = template_for(definition, size, bleed_mm, dpi)
    plan = template.plan(card)
    image = template.draw(card, plan, art)
    return FaceResult(image, plan.overflow_lines, plan.name_overflow, tuple(plan.missing), plan.timed_out)


def render_back(definition: GameDefinition, size: CardSize, bleed_mm: float = 0.0, dpi: int = DPI) -> Image.Image:
    """Draw the game's card back. Raises FontMissing."""
    return template_for(definition, size, bleed_mm, dpi).draw_back()


def plan_face(definition: GameDefinition, card: Mapping[str, Any], size: CardSize) -> Plan:
    """Lay out a face without drawing it (for validation)."""
    return template_for(definition, size).plan(card)
