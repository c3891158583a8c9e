"""Print PDFs checked the way a printer sees them: pages, boxes, positions in points, marks,
mirrored backs, text, embedded CJK glyphs, identical reruns and the render cache."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from pypdf import PdfReader

from workbench.services.render.cache import FaceRenderer
from workbench.services.render.pdf import PrintError, SheetOptions, plan_grid
from workbench.services.render.service import render_pdf
from workbench.services.render.sizes import SizeError, mm_to_pt, parse_card_size
from workbench.storage.render_cache import RenderCache

from .pdf_fonts import glyph_report

POKER_W, POKER_H = mm_to_pt(63.5), mm_to_pt(88.9)  # 180 x 252 pt
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


def _cards(n: int, game_card: dict) -> list[dict]:
    cards = []
    for i in range(n):
        card = dict(game_card, id=f"card-{i}", name=f"{game_card['name']} {i}", number=f"T-{i:03d}")
        cards.append(card)
    return cards


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory) -> RenderCache:  # type: ignore[no-untyped-def]
    """Faces are keyed by content, so tests printing the same cards share the drawing."""
    return RenderCache(tmp_path_factory.mktemp("faces"))


@pytest.fixture
def _pdf(shared_cache):  # type: ignore[no-untyped-def]
    def make(definition, cards, tmp_path, **options) -> bytes:  # type: ignore[no-untyped-def]
        opts = SheetOptions(size=options.pop("size", parse_card_size("poker")), **options)
        return render_pdf(definition, cards, opts, cache=shared_cache)

    return make


def _images(page) -> list[tuple[float, float, float, float]]:  # type: ignore[no-untyped-def]
    """(x0, bottom y, width, height) in PDF points of each picture on a pdfplumber page."""
    return sorted((round(im["x0"], 2), round(page.height - im["bottom"], 2), round(im["width"], 2),
                   round(im["height"], 2)) for im in page.images)


def test_a4_poker_sheet_geometry(_pdf, definitions, warzone_card, tmp_path) -> None:
    pdf = _pdf(definitions["warzone"], _cards(11, warzone_card), tmp_path)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 4  # 2 sheets: fronts, backs, fronts, backs
    for page in reader.pages:
        assert (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2)) == A4
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        front = _images(doc.pages[0])
        assert len(front) == 9
        assert {(w, h) for _, _, w, h in front} == {(round(POKER_W, 2), round(POKER_H, 2))}
        left = (A4[0] - 3 * POKER_W) / 2
        bottom = (A4[1] - 3 * POKER_H) / 2
        assert sorted({x for x, _, _, _ in front}) == [round(left + i * POKER_W, 2) for i in range(3)]
        assert sorted({y for _, y, _, _ in front}) == [round(bottom + j * POKER_H, 2) for j in range(3)]
        assert len(_images(doc.pages[2])) == 2 and len(_images(doc.pages[3])) == 2


def test_trim_and_bleed_boxes(_pdf, definitions, warzone_card, tmp_path) -> None:
    pdf = _pdf(definitions["warzone"], _cards(9, warzone_card), tmp_path, bleed_mm=3.0)
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    left, bottom = (A4[0] - 3 * POKER_W) / 2, (A4[1] - 3 * POKER_H) / 2
    trim = [float(v) for v in page.trimbox]
    bleed = [float(v) for v in page.bleedbox]
    assert trim == pytest.approx([left, bottom, left + 3 * POKER_W, bottom + 3 * POKER_H], abs=0.01)
    b = mm_to_pt(3.0)
    assert bleed == pytest.approx([trim[0] - b, trim[1] - b, trim[2] + b, trim[3] + b], abs=0.01)


def test_bleed_grows_each_picture_but_not_the_grid(_pdf, definitions, warzone_card, tmp_path) -> None:
    pdf = _pdf(definitions["warzone"], _cards(9, warzone_card), tmp_path, bleed_mm=3.175)
    b = mm_to_pt(3.175)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        front = _images(doc.pages[0])
    assert len(front) == 9  # still 3 x 3 on A4
    assert {(w, h) for _, _, w, h in front} == {(round(POKER_W + 2 * b, 2), round(POKER_H + 2 * b, 2))}
    left = (A4[0] - 3 * POKER_W) / 2
    assert min(x for x, _, _, _ in front) == pytest.approx(left - b, abs=0.02)


def test_letter_paper_also_takes_nine_poker_cards(_pdf, definitions, warzone_card, tmp_path) -> None:
    pdf = _pdf(definitions["warzone"], _cards(9, warzone_card), tmp_path, paper="letter", backs="none")
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    assert (float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)) == LETTER
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        assert len(doc.pages[0].images) == 9


@pytest.mark.parametrize("size,paper,per_page", [("poker", "a4", 9), ("poker", "letter", 9), ("bridge", "a4", 9),
                                                 ("tarot", "a4", 4), ("mini", "a4", 16), ("mini", "letter", 16)])
def test_as_many_cards_per_page_as_fit(size, paper, per_page) -> None:
    assert plan_grid(paper, parse_card_size(size)).per_page == per_page


def _ticks(page) -> list[dict]:  # type: ignore[no-untyped-def]
    """Short straight lines (crop marks are 2.5-5 mm long)."""
    return [line for line in page.lines if line["width"] < 20 and line["height"] < 20
            and abs(line["x1"] - line["x0"]) + abs(line["bottom"] - line["top"]) > 5]


def test_crop_marks_are_ticks_in_the_margin_never_across_a_face(_pdf, definitions, warzone_card, tmp_path) -> None:
    pdf = _pdf(definitions["warzone"], _cards(9, warzone_card), tmp_path, backs="none")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        x0, top = (A4[0] - 3 * POKER_W) / 2, (A4[1] - 3 * POKER_H) / 2
        x1, bottom = x0 + 3 * POKER_W, top + 3 * POKER_H  # pdfplumber's top-down y
        ticks = _ticks(page)
        assert len(ticks) == 16  # 4 cut lines each way, a tick at both ends
        for line in ticks:
            outside = (line["x1"] <= x0 + 0.01 or line["x0"] >= x1 - 0.01
                       or line["bottom"] <= top + 0.01 or line["top"] >= bottom - 0.01)
            assert outside, line
        vertical_xs = sorted({round(line["x0"], 2) for line in ticks if abs(line["x0"] - line["x1"]) < 0.01})
        assert vertical_xs == pytest.approx([x0 + i * POKER_W for i in range(4)], abs=0.02)
        horizontal_ys = sorted({round(line["top"], 2) for line in ticks if abs(line["top"] - line["bottom"]) < 0.01})
        assert horizontal_ys == pytest.approx([top + j * POKER_H for j in range(4)], abs=0.02)
    no_marks = _pdf(definitions["warzone"], _cards(9, warzone_card), tmp_path, backs="none", crop_marks=False)
    with pdfplumber.open(io.BytesIO(no_marks)) as doc:
        assert _ticks(doc.pages[0]) == []


def _tick_gaps(page, x0: float, top: float, x1: float, bottom: float) -> set[float]:  # type: ignore[no-untyped-def]
    """How far (points) each tick's near end lies outside the grid's trim."""
    gaps = set()
    for line in _ticks(page):
        if abs(line["x0"] - line["x1"]) < 0.01:  # vertical: above or below the grid
            gaps.add(round(top - line["bottom"] if line["bottom"] <= top + 0.01 else line["top"] - bottom, 1))
        else:
            gaps.add(round(x0 - line["x1"] if line["x1"] <= x0 + 0.01 else line["x0"] - x1, 1))
    return gaps


@pytest.mark.parametrize("bleed,outside_bleed", [(3.0, True), (6.0, False)])
def test_crop_marks_start_outside_the_bleed_where_the_margin_has_room(_pdf, definitions, warzone_card, tmp_path,
                                                                      bleed: float, outside_bleed: bool) -> None:
    """A print shop starts marks outside the bleed, so a cut a little off the line leaves no tick
    on a card: 3 mm bleed on A4 leaves room for that; 6 mm does not, and the marks start just
    outside the trim, over the bleed."""
    pdf = _pdf(definitions["warzone"], _cards(9, warzone_card), tmp_path, backs="none", bleed_mm=bleed)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        x0, top = (A4[0] - 3 * POKER_W) / 2, (A4[1] - 3 * POKER_H) / 2
        ticks = {(round(t["x0"], 2), round(t["top"], 2), round(t["x1"], 2), round(t["bottom"], 2))
                 for t in _ticks(page)}  # over the bleed each is drawn twice: white halo, black line
        assert len(ticks) == 16
        gaps = _tick_gaps(page, x0, top, x0 + 3 * POKER_W, top + 3 * POKER_H)
    expected = mm_to_pt(bleed + 0.8) if outside_bleed else mm_to_pt(0.8)
    assert gaps == {round(expected, 1)}
    assert all(gap > mm_to_pt(bleed) for gap in gaps) is outside_bleed


def test_long_edge_backs_mirror_the_columns(_pdf, definitions, warzone_card, tmp_path) -> None:
    pdf = _pdf(definitions["warzone"], _cards(2, warzone_card), tmp_path)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        fronts, backs = _images(doc.pages[0]), _images(doc.pages[1])
    assert len(fronts) == len(backs) == 2
    mirrored = sorted((round(A4[0] - x - w, 2), y, w, h) for x, y, w, h in fronts)
    assert backs == mirrored
    left = (A4[0] - 3 * POKER_W) / 2
    # Card 1 (top left) and 2 (top middle) have their backs top right and top middle.
    assert {x for x, _, _, _ in backs} == {round(left + POKER_W, 2), round(left + 2 * POKER_W, 2)}


def test_short_edge_backs_mirror_the_rows_and_offsets_shift_them(_pdf, definitions, warzone_card, tmp_path) -> None:
    pdf = _pdf(definitions["warzone"], _cards(3, warzone_card), tmp_path, backs="short",
               back_offset_x_mm=1.5, back_offset_y_mm=-0.5)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        fronts, backs = _images(doc.pages[0]), _images(doc.pages[1])
    dx, dy = mm_to_pt(1.5), mm_to_pt(-0.5)
    expected = sorted((round(x + dx, 2), round(A4[1] - y - h + dy, 2), w, h) for x, y, w, h in fronts)
    assert len(backs) == len(expected)
    for back, want in zip(backs, expected):  # pytest 9.2's approx takes flat sequences only
        assert back == pytest.approx(want, abs=0.02)


def test_long_edge_offset_is_converted_to_the_back_side(_pdf, definitions, warzone_card, tmp_path) -> None:
    plain = _pdf(definitions["warzone"], _cards(1, warzone_card), tmp_path)
    shifted = _pdf(definitions["warzone"], _cards(1, warzone_card), tmp_path, back_offset_x_mm=2.0,
                   back_offset_y_mm=1.0)
    with pdfplumber.open(io.BytesIO(plain)) as a, pdfplumber.open(io.BytesIO(shifted)) as b:
        (x0, y0, _, _), = _images(a.pages[1])
        (x1, y1, _, _), = _images(b.pages[1])
    # Seen from the front, right is left on the back of a long-edge flip; down stays down.
    assert x1 - x0 == pytest.approx(-mm_to_pt(2.0), abs=0.02)
    assert y1 - y0 == pytest.approx(-mm_to_pt(1.0), abs=0.02)


def test_names_and_the_print_note_are_text(_pdf, definitions, fusion_card, tmp_path) -> None:
    cards = _cards(4, fusion_card)
    pdf = _pdf(definitions["fusion"], cards, tmp_path, backs="none")
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    for card in cards:
        assert card["name"] in text and card["number"] in text
    assert "Print at 100 %" in text and "50 mm" in text


def test_cjk_glyphs_are_embedded_with_real_outlines(_pdf, definitions, fusion_card, tmp_path) -> None:
    pdf = _pdf(definitions["fusion"], _cards(2, fusion_card), tmp_path, backs="none")
    report = glyph_report(io.BytesIO(pdf))
    for char in fusion_card["name"]:
        assert report.get(char) is True, f"{char} is missing or .notdef"
    assert all(report.values()), [ch for ch, ok in report.items() if not ok]


def test_a_missing_text_font_is_named_on_every_print_not_only_the_first(
        _pdf, definitions, fusion_card, tmp_path, monkeypatch) -> None:
    """The text layer's fonts are registered once; when the CJK one is missing, each print says
    so (the web form's 400 names the package), instead of the second print naming a font that
    was never registered and failing inside reportlab."""
    from workbench.services.render import fonts, pdf as pdf_module

    monkeypatch.setattr(pdf_module, "_fonts_ready", {})
    real = pdf_module.font_path

    def cjk_missing(key: str) -> tuple:
        if key == "pdf-cjk":
            raise fonts.FontMissing("font wqy-zenhei.ttc (pdf-cjk) is not installed")
        return real(key)

    monkeypatch.setattr(pdf_module, "font_path", cjk_missing)
    for _ in range(2):
        with pytest.raises(fonts.FontMissing, match="pdf-cjk"):
            _pdf(definitions["fusion"], _cards(2, fusion_card), tmp_path, backs="none")
    monkeypatch.setattr(pdf_module, "font_path", real)
    printed = _pdf(definitions["fusion"], _cards(2, fusion_card), tmp_path, backs="none")
    assert fusion_card["name"] in PdfReader(io.BytesIO(printed)).pages[0].extract_text()


def test_reruns_give_identical_bytes(definitions, seth_card, tmp_path) -> None:
    cards = _cards(10, seth_card)
    first = render_pdf(definitions["seth"], cards, SheetOptions(size=parse_card_size("poker")),
                       cache=RenderCache(tmp_path / "one"))
    second = render_pdf(definitions["seth"], cards, SheetOptions(size=parse_card_size("poker")),
                        cache=RenderCache(tmp_path / "two"))
    third = render_pdf(definitions["seth"], cards, SheetOptions(size=parse_card_size("poker")),
                       cache=RenderCache(tmp_path / "one"))
    assert first == second == third


def test_one_edited_card_is_the_only_face_redrawn(definitions, warzone_card, tmp_path) -> None:
    cache = RenderCache(tmp_path / "cache")
    cards = _cards(30, warzone_card)
    size = parse_card_size("poker")
    cold = FaceRenderer(definitions["warzone"], size, cache=cache, workers=1)
    render_pdf(definitions["warzone"], cards, SheetOptions(size=size), renderer=cold)
    assert cold.rendered == 30
    cards[7] = dict(cards[7], text="Edited: draw two cards.")
    warm = FaceRenderer(definitions["warzone"], size, cache=cache, workers=1)
    pdf = render_pdf(definitions["warzone"], cards, SheetOptions(size=size), renderer=warm)
    assert warm.rendered == 1 and warm.hits == 29
    assert "Edited" not in PdfReader(io.BytesIO(pdf)).pages[0].extract_text()  # faces are pictures
    # A copy of a card is drawn once: identical content shares a face.
    again = FaceRenderer(definitions["warzone"], size, cache=RenderCache(tmp_path / "fresh"), workers=1)
    again.faces([cards[0], dict(cards[0], id="copy")])
    assert again.rendered == 1


def test_calibration_sheet_comes_first(_pdf, definitions, warzone_card, tmp_path) -> None:
    pdf = _pdf(definitions["warzone"], _cards(1, warzone_card), tmp_path, calibration=True)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 4  # calibration front + back, fronts, backs
    assert "Duplex calibration" in reader.pages[0].extract_text()


def test_impossible_options_are_refused(_pdf, definitions, warzone_card, tmp_path) -> None:
    with pytest.raises(PrintError):
        _pdf(definitions["warzone"], _cards(1, warzone_card), tmp_path, backs="sideways")
    with pytest.raises(PrintError):
        _pdf(definitions["warzone"], _cards(1, warzone_card), tmp_path, back_offset_x_mm=25)
    with pytest.raises(SizeError):
        _pdf(definitions["warzone"], _cards(1, warzone_card), tmp_path, size=parse_card_size("250x290mm"))


def test_fast_file_writer_matches_reportlabs_own(_pdf, definitions, warzone_card, tmp_path, monkeypatch) -> None:
    """The PDF writer that adds face images without copying them re-implements reportlab's
    ``PDFDocument.format``; a reportlab upgrade that changes its own output must fail here."""
    import workbench.services.render.pdf as pdf_module

    cards = _cards(11, warzone_card)
    fast = _pdf(definitions["warzone"], cards, tmp_path, bleed_mm=2.0)

    def reportlab_format(doc, *args, **kwargs):  # type: ignore[no-untyped-def]
        for obj in doc.idToObject.values():  # reportlab's writer needs whole bytes, not views
            if isinstance(getattr(obj, "streamContent", None), memoryview):
                obj.streamContent = bytes(obj.streamContent)
        return type(doc).format(doc, *args, **kwargs)

    monkeypatch.setattr(pdf_module, "_format_document", reportlab_format)
    assert _pdf(definitions["warzone"], cards, tmp_path, bleed_mm=2.0) == fast


def test_reportlab_is_the_major_version_the_pdf_writer_is_pinned_to() -> None:
    """pdf.py writes through reportlab's private internals (a re-implemented PDFDocument.format,
    _PDFDocument__accum__, Canvas._code), so pyproject.toml pins the major version it was tested
    with; any other version must fail here, loudly, before a designer's print sheets do."""
    import tomllib
    from pathlib import Path

    import reportlab
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfgen.canvas import Canvas

    import workbench.services.render.pdf as pdf_module

    major = pdf_module.TESTED_REPORTLAB_MAJOR
    pyproject = tomllib.loads((Path(__file__).resolve().parents[3] / "pyproject.toml").read_text(encoding="utf-8"))
    pins = [d.split("#")[0].strip() for d in pyproject["project"]["dependencies"] if d.startswith("reportlab")]
    assert pins == [f"reportlab>={major},<{major + 1}"], pins
    installed = int(reportlab.Version.split(".")[0])
    assert installed == major, (
        f"reportlab {reportlab.Version} is installed, but services/render/pdf.py uses reportlab {major}'s "
        f"internals and is tested only with {major}.x: install reportlab>={major},<{major + 1}, or port pdf.py, "
        f"run tests/services/render and benchmarks/render_pdf.py, then move TESTED_REPORTLAB_MAJOR and the pin")
    document = pdfdoc.PDFDocument(invariant=1)
    for name in ("format", "numberToId", "idToObject", "idToOffset", "idToObjectNumberAndVersion", "_pdfVersion",
                 "encrypt", "Catalog", "info", "Reference", "ID"):
        assert hasattr(document, name), f"reportlab's PDFDocument has no {name} any more"
    for name in ("PDFFile", "PDFIndirectObject", "PDFCrossReferenceTable", "PDFTrailer", "PDFImageXObject", "format"):
        assert hasattr(pdfdoc, name), f"reportlab.pdfbase.pdfdoc has no {name} any more"
    canvas = Canvas(io.BytesIO())
    assert isinstance(canvas._code, list) and canvas._doc is not None
