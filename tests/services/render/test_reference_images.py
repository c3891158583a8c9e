"""Print sheets rasterised with pdftoppm and compared with committed reference images.

The tolerance lets font hinting and anti-aliasing noise pass but fails when anything moves:
a shifted card, a changed colour, a missing mark. To accept an intended change, run
``WORKBENCH_UPDATE_REFERENCE=1 python -m pytest tests/services/render/test_reference_images.py``,
look at the new PNGs in ``reference/`` and commit them.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from workbench.services.render.pdf import SheetOptions
from workbench.services.render.service import render_pdf
from workbench.services.render.sizes import parse_card_size
from workbench.storage.render_cache import RenderCache

from .conftest import FUSION_CARD, SETH_CARD, WARZONE_CARD

REFERENCE = Path(__file__).parent / "reference"
DPI = 40
MEAN_LIMIT = 1.5  # mean absolute difference per channel, 0-255
PIXEL_LIMIT = 0.004  # share of pixels differing by more than 64 in any channel

SHEETS = {
    "warzone-a4": ("warzone", WARZONE_CARD, {"paper": "a4"}),
    "seth-letter-bleed": ("seth", SETH_CARD, {"paper": "letter", "bleed_mm": 3.175, "backs": "short"}),
    "fusion-a4-tarot": ("fusion", FUSION_CARD, {"paper": "a4", "size": parse_card_size("tarot")}),
}


def _rasterise(pdf: bytes, tmp_path: Path, name: str) -> list[Image.Image]:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(path), str(tmp_path / name)], check=True,
                   capture_output=True, timeout=60)
    return [Image.open(p).convert("RGB") for p in sorted(tmp_path.glob(f"{name}-*.png"))]


def _compare(actual: Image.Image, expected: Image.Image) -> tuple[float, float]:
    assert actual.size == expected.size, "page size changed"
    diff = ImageChops.difference(actual, expected)
    histogram = diff.histogram()
    pixels = actual.width * actual.height
    mean = sum(i * n for channel in range(3) for i, n in enumerate(histogram[channel * 256:(channel + 1) * 256]))
    mean /= pixels * 3
    big = diff.convert("L").point(lambda v: 255 if v > 64 else 0).histogram()[255] / pixels
    return mean, big


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_sheet_matches_the_reference(name: str, definitions, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    game, card, options = SHEETS[name]
    cards = [dict(card, id=f"{card['id']}-{i}", number=f"R-{i:02d}") for i in range(3)]
    cards[1]["name"] = cards[1]["name"] + " II"
    options = dict(options)
    size = options.pop("size", parse_card_size("poker"))
    pdf = render_pdf(definitions[game], cards, SheetOptions(size=size, **options),
                     cache=RenderCache(tmp_path / "cache"))
    pages = _rasterise(pdf, tmp_path, name)
    assert len(pages) == 2  # fronts and backs
    for number, page in enumerate(pages, start=1):
        reference = REFERENCE / f"{name}-{number}.png"
        if os.environ.get("WORKBENCH_UPDATE_REFERENCE") == "1":
            page.save(reference, optimize=True)
        mean, big = _compare(page, Image.open(reference).convert("RGB"))
        assert mean <= MEAN_LIMIT and big <= PIXEL_LIMIT, (
            f"{reference.name}: mean difference {mean:.2f} (limit {MEAN_LIMIT}), "
            f"{big:.2%} pixels far off (limit {PIXEL_LIMIT:.1%})")


def test_the_comparison_catches_a_moved_card(definitions, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The tolerance is tight enough: a 1 mm back offset fails the comparison."""
    cards = [dict(WARZONE_CARD, id=f"w-{i}", number=f"R-{i:02d}") for i in range(3)]
    cards[1]["name"] = cards[1]["name"] + " II"
    pdf = render_pdf(definitions["warzone"], cards, SheetOptions(size=parse_card_size("poker"), back_offset_x_mm=1.0),
                     cache=RenderCache(tmp_path / "cache"))
    backs = _rasterise(pdf, tmp_path, "moved")[1]
    mean, big = _compare(backs, Image.open(REFERENCE / "warzone-a4-2.png").convert("RGB"))
    assert mean > MEAN_LIMIT or big > PIXEL_LIMIT
