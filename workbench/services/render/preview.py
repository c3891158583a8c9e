"""The print preview: the first sheet of a print job (fronts, then backs) as small PNG images.

The preview is the real PDF, not a second drawing of it: the first sheet's cards are imposed
with the chosen options by the same code as the download, and its pages are rasterised with
PDFium, so paper, bleed, crop marks, back mirroring and offsets look exactly as they will print.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.domain.gamedef import GameDefinition
from workbench.services.render.cache import ArtLoader
from workbench.services.render.pdf import SheetOptions, plan_grid
from workbench.services.render.service import render_pdf
from workbench.storage.render_cache import RenderCache

PREVIEW_WIDTH_PX = 640


@dataclass(frozen=True)
class PreviewPage:
    """One rasterised page of the first sheet: ``side`` is ``"fronts"`` or ``"backs"``."""

    side: str
    png: bytes
    width_px: int
    height_px: int


@dataclass(frozen=True)
class SheetPreview:
    """The first sheet: its pages, how many cards it holds and how many sheets the job makes."""

    pages: list[PreviewPage]
    cards_on_sheet: int
    per_page: int
    sheets: int


def preview_first_sheet(definition: GameDefinition, cards: Sequence[Mapping[str, Any]], options: SheetOptions,
                        cache: RenderCache | None = None, art_loader: ArtLoader | None = None,
                        width_px: int = PREVIEW_WIDTH_PX) -> SheetPreview:
    """Render the first sheet of ``cards`` as it will print. Raises PrintError, SizeError,
    FontMissing like ``render_pdf``, and ValueError when there is no card to print."""
    import pypdfium2

    if not cards:
        raise ValueError("there is no card to print")
    grid = plan_grid(options.paper, options.size, options.bleed_mm, options.crop_marks)
    first = list(cards[:grid.per_page])
    pdf = render_pdf(definition, first, dataclasses.replace(options, calibration=False), cache=cache,
                     art_loader=art_loader)
    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = []
        for index in range(len(document)):
            page = document[index]
            scale = width_px / page.get_width()
            image = page.render(scale=scale).to_pil()
            out = io.BytesIO()
            image.save(out, format="PNG", optimize=True)
            pages.append(PreviewPage("fronts" if index == 0 else "backs", out.getvalue(), image.width, image.height))
            page.close()
    finally:
        document.close()
    sheets = -(-len(cards) // grid.per_page)
    return SheetPreview(pages, len(first), grid.per_page, sheets)
