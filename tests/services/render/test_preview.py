"""The print preview is the first sheet of the real PDF: as many cards as fit one page, fronts
then backs, and the options (crop marks, backs, paper) visible in the pixels."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from workbench.services.render.pdf import SheetOptions
from workbench.services.render.preview import preview_first_sheet
from workbench.services.render.sizes import parse_card_size


def _cards(repo, n):  # type: ignore[no-untyped-def]
    cards = [dict(c.data, id=c.id) for c in repo.list_cards("seth")]
    return (cards * (n // len(cards) + 1))[:n]


def test_first_sheet_fronts_and_backs_with_the_chosen_options(repo, definitions, tmp_path) -> None:  # type: ignore[no-untyped-def]
    seth = repo.game("seth")
    options = SheetOptions(size=parse_card_size("poker"), paper="a4", backs="long", crop_marks=True)
    marked = preview_first_sheet(seth, _cards(repo, 12), options)
    assert [p.side for p in marked.pages] == ["fronts", "backs"]
    assert (marked.cards_on_sheet, marked.per_page, marked.sheets) == (9, 9, 2)
    front = Image.open(io.BytesIO(marked.pages[0].png)).convert("L")
    assert front.width == 640 and abs(front.height / front.width - 297 / 210) < 0.01  # A4 portrait

    plain = preview_first_sheet(seth, _cards(repo, 12), SheetOptions(size=options.size, paper="a4", backs="none",
                                                                      crop_marks=False))
    assert [p.side for p in plain.pages] == ["fronts"]
    without = Image.open(io.BytesIO(plain.pages[0].png)).convert("L")
    # Crop marks are the only difference on the fronts page: dark ticks in the margin, outside the faces.
    diff = ImageChops.difference(front, without).point(lambda v: 255 if v > 60 else 0)
    box = diff.getbbox()
    assert box is not None
    assert box[1] < front.height * 0.12  # the ticks above the top row of faces

    letter = preview_first_sheet(seth, _cards(repo, 3), SheetOptions(size=options.size, paper="letter", backs="short"))
    page = Image.open(io.BytesIO(letter.pages[0].png))
    assert abs(page.height / page.width - 11 / 8.5) < 0.01 and letter.sheets == 1 and letter.cards_on_sheet == 3
