"""Card and paper sizes, and the millimetre / point / pixel conversions printing needs."""

from __future__ import annotations

import re
from dataclasses import dataclass

from workbench.domain.errors import WorkbenchError

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH
DPI = 300
DEFAULT_BLEED_MM = 3.175  # 1/8 in, the usual print-shop bleed

# Trim sizes in mm. Poker and bridge are the inch sizes (2.5 x 3.5 in, 2.25 x 3.5 in) so 300 dpi
# gives whole pixels (poker 750 x 1050); poker is the "63 x 88 mm" card sleeves are made for.
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 67.0),
}

PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}

_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$", re.IGNORECASE)


class SizeError(WorkbenchError):
    """A card size, paper or bleed that cannot be printed."""


@dataclass(frozen=True)
class CardSize:
    """A card's trim size in mm, with a name (``poker`` or ``60x90mm``)."""

    name: str
    width_mm: float
    height_mm: float

    def pixels(self, bleed_mm: float = 0.0, dpi: int = DPI) -> tuple[int, int]:
        """Pixel size of a face with ``bleed_mm`` on every side."""
        return (mm_to_px(self.width_mm + 2 * bleed_mm, dpi), mm_to_px(self.height_mm + 2 * bleed_mm, dpi))


def mm_to_px(mm: float, dpi: int = DPI) -> int:
    """Millimetres to whole pixels at ``dpi``."""
    return int(round(mm / MM_PER_INCH * dpi))


def mm_to_pt(mm: float) -> float:
    """Millimetres to PDF points (1/72 in)."""
    return mm * PT_PER_MM


def parse_card_size(value: str | None) -> CardSize:
    """Turn ``poker``, ``bridge``, ``tarot``, ``mini`` or ``WxHmm`` (e.g. ``60x90mm``) into a CardSize.

    Raises SizeError for an unknown name or a size outside 20-300 mm.
    """
    text = (value or "poker").strip().lower()
    if text in CARD_SIZES:
        w, h = CARD_SIZES[text]
        return CardSize(text, w, h)
    match = _CUSTOM.match(text)
    if not match:
        raise SizeError(
            f"card size {value!r} is not known; use {', '.join(CARD_SIZES)} or WxHmm such as 60x90mm"
        )
    w, h = float(match.group(1)), float(match.group(2))
    if not (20 <= w <= 300 and 20 <= h <= 300):
        raise SizeError(f"card size {w:g}x{h:g} mm is outside 20-300 mm")
    return CardSize(f"{w:g}x{h:g}mm", w, h)


def parse_paper(value: str | None) -> tuple[str, float, float]:
    """Return (name, width mm, height mm) for ``a4`` or ``letter``. Raises SizeError."""
    name = (value or "a4").strip().lower()
    if name not in PAPER_SIZES:
        raise SizeError(f"paper {value!r} is not known; use {' or '.join(PAPER_SIZES)}")
    return (name, *PAPER_SIZES[name])


def check_bleed(bleed_mm: float) -> float:
    """Return a bleed in mm when it is 0-10 mm; raise SizeError otherwise."""
    if not 0 <= bleed_mm <= 10:
        raise SizeError(f"bleed {bleed_mm:g} mm is outside 0-10 mm")
    return float(bleed_mm)
