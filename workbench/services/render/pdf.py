"""Print sheets: card faces imposed on A4 or Letter pages with reportlab.

What a home printer needs, and what this module does:

* **As many cards per page as fit** (3 x 3 poker on A4 and Letter), butted edge to edge so
  one cut separates two cards; the grid is centred on the page.
* **Crop marks** are short ticks in the margin, in line with every cut, never lines across a
  face. With bleed they start outside it where the margin has room (A4 with up to 4 mm), else
  just outside the trim, drawn with a white halo over the bleed (poker cards on Letter).
* **Bleed** extends each face's background by ``bleed_mm``; inside the grid neighbours butt
  at the trim, so the bleed shows only around the outside of the grid.
* **TrimBox and BleedBox** are set on every page (the grid's trim and trim + bleed).
* **Duplex backs** follow each fronts page, mirrored for a long-edge flip (columns reversed)
  or a short-edge flip (rows reversed), shifted by the back offset for printer calibration.
* A **calibration sheet** (front and back) measures that offset, and every fronts page says
  "print at 100 %" with a 50 mm bar to check it, outside the cut area.
* Faces are pictures (300 dpi, from the render cache, embedded without re-encoding); an
  invisible text layer carries each card's name and number so the PDF can be searched and
  checked. Output is byte-identical for the same input (reportlab ``invariant``).
"""

from __future__ import annotations

import functools
import io
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from workbench.domain.errors import WorkbenchError
from workbench.services.render.cache import Face
from workbench.services.render.fonts import font_path
from workbench.services.render.sizes import CardSize, SizeError, mm_to_pt, parse_paper

# The writer below works inside reportlab: it re-implements ``PDFDocument.format`` (to add face
# images without copying them) and writes content streams through ``Canvas._code`` and the
# name-mangled ``_PDFDocument__accum__``. Those are reportlab 5's internals, not its API, so
# pyproject.toml pins reportlab to this major version and tests/services/render/test_pdf.py
# fails loudly on another (docs/printing.md, "reportlab version").
TESTED_REPORTLAB_MAJOR = 5

PRINTER_MARGIN_MM = 2.0  # keep ink this far from the paper edge (most printers need 3-5 mm)
MARK_GAP_MM = 0.8  # gap between the trim (or bleed) and a crop mark
MARK_MIN_MM = 2.5
MARK_MAX_MM = 5.0
BACKS = ("long", "short", "none")
_BUILD_LOCK = threading.Lock()


class PrintError(WorkbenchError):
    """Print options that cannot work (unknown duplex mode, offset too large)."""


@dataclass(frozen=True)
class SheetOptions:
    """Everything a designer chooses for a print run."""

    size: CardSize
    paper: str = "a4"
    bleed_mm: float = 0.0
    backs: str = "long"  # long | short | none
    crop_marks: bool = True
    back_offset_x_mm: float = 0.0  # move the backs right (as seen from the front side)
    back_offset_y_mm: float = 0.0  # move the backs down (as seen from the front side)
    calibration: bool = False
    title: str = "Card Workbench print sheet"

    def check(self) -> None:
        """Raise PrintError or SizeError for options that cannot print."""
        parse_paper(self.paper)
        if self.backs not in BACKS:
            raise PrintError(f"backs {self.backs!r} is not known; use long, short or none")
        for value in (self.back_offset_x_mm, self.back_offset_y_mm):
            if not abs(value) <= 10:  # NaN too: it compares false both ways
                raise PrintError(f"back offset {value:g} mm is larger than 10 mm; check the calibration page")


@dataclass(frozen=True)
class SheetCard:
    """One printed copy: its face's cache key and the text layer (name, number)."""

    key: str
    name: str
    number: str = ""


@dataclass(frozen=True)
class Grid:
    """Where the cards go on a page (points, PDF origin bottom-left)."""

    page_w: float
    page_h: float
    cols: int
    rows: int
    card_w: float
    card_h: float
    left: float  # trim of the grid, lower-left corner
    bottom: float
    bleed: float
    mark_len: float
    mark_gap: float = 0.0  # from the trim to where each crop mark starts

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def width(self) -> float:
        return self.cols * self.card_w

    @property
    def height(self) -> float:
        return self.rows * self.card_h

    def slot(self, index: int) -> tuple[int, int]:
        """(column, row) of a slot; slots fill rows from the top left, like reading."""
        return index % self.cols, index // self.cols

    def front_xy(self, index: int) -> tuple[float, float]:
        """Lower-left corner of the trim of a front slot."""
        col, row = self.slot(index)
        return self.left + col * self.card_w, self.bottom + (self.rows - 1 - row) * self.card_h

    def back_xy(self, index: int, backs: str, offset_x_pt: float = 0.0, offset_y_pt: float = 0.0) -> tuple[float, float]:
        """Lower-left corner of the back of a slot on the following page.

        Long-edge duplex flips the sheet around its vertical axis, so the back of a card sits at
        the mirrored x; short-edge flips around the horizontal axis (mirrored y). The offset is
        given as seen from the front and converted to the back page's coordinates.
        """
        x, y = self.front_xy(index)
        if backs == "short":
            return x + offset_x_pt, self.page_h - y - self.card_h + offset_y_pt
        return self.page_w - x - self.card_w - offset_x_pt, y - offset_y_pt


def plan_grid(paper: str, size: CardSize, bleed_mm: float = 0.0, crop_marks: bool = True) -> Grid:
    """Fit as many cards as possible on the paper, portrait, leaving room for bleed and marks.

    Raises SizeError when not even one card fits.
    """
    _, paper_w, paper_h = parse_paper(paper)
    need_mm = PRINTER_MARGIN_MM + (MARK_GAP_MM + MARK_MIN_MM if crop_marks else 0.0)
    # Marks start just outside the trim, over the bleed, so the bleed only has to fit the page.
    edge_mm = max(need_mm, PRINTER_MARGIN_MM + bleed_mm)
    cols = int((paper_w - 2 * edge_mm + 1e-6) // size.width_mm)
    rows = int((paper_h - 2 * edge_mm + 1e-6) // size.height_mm)
    if cols < 1 or rows < 1:
        raise SizeError(
            f"a {size.width_mm:g}x{size.height_mm:g} mm card does not fit on {paper} paper with "
            f"{bleed_mm:g} mm bleed and crop marks"
        )
    space_x = (paper_w - cols * size.width_mm) / 2
    space_y = (paper_h - rows * size.height_mm) / 2
    room = min(space_x, space_y) - PRINTER_MARGIN_MM
    # Marks start outside the bleed, as a print shop expects, so a cut a little off the line
    # leaves no tick on a card; where the margin is too narrow for that they start just
    # outside the trim, over the bleed (drawn with a white halo there).
    gap = bleed_mm + MARK_GAP_MM if room - bleed_mm - MARK_GAP_MM >= MARK_MIN_MM else MARK_GAP_MM
    mark = min(MARK_MAX_MM, room - gap)
    return Grid(
        page_w=mm_to_pt(paper_w), page_h=mm_to_pt(paper_h), cols=cols, rows=rows,
        card_w=mm_to_pt(size.width_mm), card_h=mm_to_pt(size.height_mm),
        left=mm_to_pt(space_x), bottom=mm_to_pt(space_y), bleed=mm_to_pt(bleed_mm),
        mark_len=mm_to_pt(max(0.0, mark)), mark_gap=mm_to_pt(gap),
    )


class _FaceImage(pdfdoc.PDFImageXObject):
    """An RGB image XObject from a cached face's zlib data, embedded without re-encoding.

    ``parts`` gives the object as a small head, the face's bytes (the cache's own buffer, not a
    copy) and a tail; ``_format_document`` writes them as they are. reportlab's ``format`` would
    copy each 40-70 kB face about five times, which dominated a warm re-render.
    """

    _LENGTH = 9876543210  # stands in for /Length while the dictionary is formatted once per size

    def __init__(self, name: str, face: Face, heads: dict[tuple[int, int], tuple[bytes, bytes]]) -> None:
        super().__init__(name)
        self.width = face.width
        self.height = face.height
        self.bitsPerComponent = 8
        self.colorSpace = "DeviceRGB"
        self.streamContent = face.zdata
        self._filters = ("FlateDecode",)
        self.mask = None
        self._heads = heads

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        head, body, tail = self.parts(document)
        return b"".join((head, body, tail))

    def parts(self, document: pdfdoc.PDFDocument) -> tuple[bytes, bytes | memoryview, bytes]:
        """The stream object as (dictionary and ``stream``, data, ``endstream``), byte for byte
        what reportlab's PDFImageXObject.format gives."""
        size = (self.width, self.height)
        if size not in self._heads:
            # The dictionary as reportlab formats it (sorted keys, its line breaks), split
            # around the length, which is the only entry that differs between faces.
            d = pdfdoc.PDFDictionary()
            d["Type"] = pdfdoc.PDFName("XObject")
            d["Subtype"] = pdfdoc.PDFName("Image")
            d["Width"] = self.width
            d["Height"] = self.height
            d["BitsPerComponent"] = self.bitsPerComponent
            d["ColorSpace"] = pdfdoc.PDFName(self.colorSpace)
            d["Filter"] = pdfdoc.PDFArray(map(pdfdoc.PDFName, self._filters))
            d["Length"] = self._LENGTH
            before, after = pdfdoc.format(d, document).split(b"/Length %d" % self._LENGTH)
            self._heads[size] = (before + b"/Length ", after + b"\nstream\n")
        before, after = self._heads[size]
        data = self.streamContent
        return b"%s%d%s" % (before, len(data), after), data, b"endstream\n"


def _format_document(doc: pdfdoc.PDFDocument) -> bytes:
    """The whole file, as reportlab 5's ``PDFDocument.format`` writes it, except that face
    images are added to the output as their parts instead of being concatenated (and so
    copied) on the way. Installed on one document by ``_Sheet``; documents with encryption
    never reach it (print sheets are not encrypted)."""
    doc.encrypt.prepare(doc)
    cat, info = doc.Catalog, doc.info
    doc.Reference(cat)
    doc.Reference(info)
    encryptref = None
    encryptinfo = doc.encrypt.info()
    if encryptinfo:
        encryptref = doc.Reference(encryptinfo)
    counter = 0
    ids = []
    numbertoid = doc.numberToId
    idToOb = doc.idToObject
    idToOf = doc.idToOffset
    idToNV = doc.idToObjectNumberAndVersion
    out = pdfdoc.PDFFile(doc._pdfVersion)
    doc._PDFDocument__accum__ = out  # objects may ask where they are in the file
    comments = not rl_config.invariant and rl_config.pdfComments
    while True:
        counter += 1
        if counter not in numbertoid:
            break  # new objects may be registered while formatting, so no fixed range
        oid = numbertoid[counter]
        obj = idToOb[oid]
        if comments:
            try:
                classname = obj.__class__.__name__
            except Exception:  # pragma: no cover - reportlab's own guard
                classname = ascii(obj)
            out.add("%% %s: class %s \n" % (ascii(oid), classname[:50]))
        if type(obj) is _FaceImage:
            n, v = idToNV[oid]
            doc.encrypt.register(n, v)
            head, body, tail = obj.parts(doc)
            offset = out.add(b"%d %d obj\n%s" % (n, v, head))
            out.add(body)
            out.add(tail + b"endobj\n")
        else:
            offset = out.add(pdfdoc.PDFIndirectObject(oid, obj).format(doc))
        idToOf[oid] = offset
        ids.append(oid)
    del doc._PDFDocument__accum__
    lno = len(numbertoid)
    if counter - 1 != lno:
        raise ValueError(f"counter {counter} doesn't match number to id dictionary {lno}")
    xref = pdfdoc.PDFCrossReferenceTable()
    xref.addsection(0, ids)
    xrefoffset = out.add(xref.format(doc))
    trailer = pdfdoc.PDFTrailer(startxref=xrefoffset, Size=lno + 1, Root=doc.Reference(cat),
                                Info=doc.Reference(info), Encrypt=encryptref, ID=doc.ID())
    out.add(trailer.format(doc))
    for signature in getattr(doc, "_digiSigs", []):
        signature.sign(out)
    return out.format(doc)


_fonts_ready: dict[str, str] = {}


def _text_fonts() -> tuple[str, str, TTFont]:
    """Register the text-layer fonts once: (latin name, cjk name, latin font).

    Raises the font lookup's error when either font is not installed; nothing is marked ready
    until both are registered, so the next sheet asks again instead of naming an unregistered
    font."""
    if not _fonts_ready:
        ready = {}
        for name, key in (("WB-Sans", "pdf-latin"), ("WB-CJK", "pdf-cjk")):
            path, index = font_path(key)
            pdfmetrics.registerFont(TTFont(name, str(path), subfontIndex=index))
            ready[name] = key
        _fonts_ready.update(ready)
    return "WB-Sans", "WB-CJK", pdfmetrics.getFont("WB-Sans")


def _font_for(text: str) -> str:
    latin, cjk, font = _text_fonts()
    widths = font.face.charWidths
    return latin if all(ord(ch) in widths or ch.isspace() for ch in text) else cjk


class _Sheet:
    """Draws pages on one reportlab canvas."""

    def __init__(self, options: SheetOptions, grid: Grid) -> None:
        self.options = options
        self.grid = grid
        self.buffer = io.BytesIO()
        self.canvas = Canvas(self.buffer, pagesize=(grid.page_w, grid.page_h), invariant=1,
                             pageCompression=1)
        self.canvas.setTitle(options.title)
        self.canvas.setAuthor("Card Workbench")
        self.canvas.setCreator("Card Workbench (reportlab)")
        self.canvas.setSubject(f"{options.size.name} cards on {options.paper}, bleed {options.bleed_mm:g} mm")
        self._registered: set[str] = set()
        self._heads: dict[tuple[int, int], tuple[bytes, bytes]] = {}
        self._placements: dict[tuple[float, float, int, int], tuple[str, ...]] = {}
        self._marks: tuple[str, ...] | None = None
        self._notes: tuple[str, ...] | None = None
        self._notes_y = 0.0
        self._size8 = f"{fp_str(8)} Tf {fp_str(8 * 1.2)} TL"
        doc = self.canvas._doc
        if isinstance(doc.encrypt, pdfdoc.NoEncryption):
            doc.format = functools.partial(_format_document, doc)
        self._set_boxes()

    def _set_boxes(self) -> None:
        g = self.grid
        trim = (g.left, g.bottom, g.left + g.width, g.bottom + g.height)
        bleed = (max(0.0, trim[0] - g.bleed), max(0.0, trim[1] - g.bleed),
                 min(g.page_w, trim[2] + g.bleed), min(g.page_h, trim[3] + g.bleed))
        self.canvas.setTrimBox(trim)
        self.canvas.setBleedBox(bleed)

    def image(self, key: str, face: Face) -> str:
        name = f"face{key[:24]}"
        reg = self.canvas._doc.getXObjectName(name)
        if name not in self._registered:
            obj = _FaceImage(name, face, self._heads)
            self.canvas._doc.Reference(obj, reg)
            self.canvas._doc.addForm(name, obj)
            self._registered.add(name)
        return name

    def place(self, key: str, face: Face, x: float, y: float, col: int, row: int) -> None:
        """Draw a face with its trim at (x, y); bleed only on the grid's outer sides."""
        c = self.canvas
        name = self.image(key, face)
        slot = (x, y, col, row)
        prefix = self._placements.get(slot)
        if prefix is None:
            prefix = self._placements[slot] = self._placement(x, y, col, row)
        # Every page puts its faces in the same slots: the drawing code up to the image is the
        # same each time, so it is made once per slot (by reportlab, below) and reused.
        c._code.extend(prefix)
        c._code.append(f"/{c._doc.getXObjectName(name)} Do")
        c._code.append("Q")
        c._formsinuse.append(name)
        c._currentPageHasImages = 1

    def _placement(self, x: float, y: float, col: int, row: int) -> tuple[str, ...]:
        """The code that sets up a slot for its image: save, clip the bleed, move and scale."""
        c, g = self.canvas, self.grid
        b = g.bleed
        mark = len(c._code)
        c.saveState()
        if b > 0:
            # Clip the bleed on sides that touch a neighbour so it never covers the next card.
            left = b if col == 0 else 0.0
            right = b if col == g.cols - 1 else 0.0
            top = b if row == 0 else 0.0
            bottom = b if row == g.rows - 1 else 0.0
            path = c.beginPath()
            path.rect(x - left, y - bottom, g.card_w + left + right, g.card_h + top + bottom)
            c.clipPath(path, stroke=0, fill=0)
        c.translate(x - b, y - b)
        c.scale(g.card_w + 2 * b, g.card_h + 2 * b)
        prefix = tuple(c._code[mark:])
        c.restoreState()
        del c._code[mark:]
        return prefix

    def text_layer(self, card: SheetCard, x: float, y: float) -> None:
        """Invisible text (render mode 3) so names and numbers can be searched and copied."""
        c, g = self.canvas, self.grid
        inset = mm_to_pt(4)
        lines = [(card.name, g.card_h - inset - 8), (card.number, inset)]
        # The render mode is graphics state and outlives ET: q/Q keeps it from hiding the text
        # drawn after the layer (the "print at 100 %" note).
        c._code.append("q")
        for text, dy in lines:
            if not text:
                continue
            font = pdfmetrics.getFont(_font_for(text))
            if font._dynamicFont:
                c._code.append(self._hidden_text(font, x + inset, y + dy, text))
                continue
            obj = c.beginText(x + inset, y + dy)
            obj.setTextRenderMode(3)
            obj.setFont(font.fontName, 8)
            obj.textOut(text)
            c.drawText(obj)
        c._code.append("Q")

    def _hidden_text(self, font: TTFont, x: float, y: float, text: str) -> str:
        """The code reportlab's text object writes for ``text`` in a TrueType font at 8 pt, render
        mode 3, made directly: a text object per name costs more than the rest of the page."""
        c, doc = self.canvas, self.canvas._doc
        parts = ["BT", f"1 0 0 1 {fp_str(x, y)} Tm", "3 Tr"]
        current = -1
        for subset, chunk in font.splitString(text, doc):  # also adds the glyphs to the subset
            if subset != current:
                parts.append(f"{font.getSubsetInternalName(subset, doc)} {self._size8}")
                current = subset
            parts.append(f"({c._escape(chunk)}) Tj")
        parts.append("ET")
        return " ".join(parts)

    def crop_marks(self) -> None:
        c, g = self.canvas, self.grid
        if g.mark_len <= 0:
            return
        if self._marks is not None:  # the same on every page
            c._code.extend(self._marks)
            return
        mark = len(c._code)
        gap = g.mark_gap
        xs = [g.left + i * g.card_w for i in range(g.cols + 1)]
        ys = [g.bottom + j * g.card_h for j in range(g.rows + 1)]
        top, right = g.bottom + g.height, g.left + g.width
        segments = []
        for x in xs:
            segments.append((x, top + gap, x, top + gap + g.mark_len))
            segments.append((x, g.bottom - gap, x, g.bottom - gap - g.mark_len))
        for y in ys:
            segments.append((g.left - gap, y, g.left - gap - g.mark_len, y))
            segments.append((right + gap, y, right + gap + g.mark_len, y))
        c.saveState()
        if gap < g.bleed:
            # A white halo keeps marks visible where they cross the dark bleed.
            c.setStrokeColorRGB(1, 1, 1)
            c.setLineWidth(1.2)
            c.lines(segments)
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.3)
        c.lines(segments)
        c.restoreState()
        self._marks = tuple(c._code[mark:])

    def notes(self, label: str) -> None:
        """'Print at 100 %' and a 50 mm check bar in the margin, inside the first card's column
        span so they never cross a crop mark."""
        c, g = self.canvas, self.grid
        c.saveState()
        if self._notes is not None:
            # Everything but the label is the same on every page: reuse the code of the first.
            c._code[-1:] = self._notes
            c.setFont("WB-Sans", 5.5)
        else:
            self._notes = self._first_notes()
        if g.cols > 1:
            y = self._notes_y
            c.drawRightString(g.left + g.width - mm_to_pt(2), y - 2, label)
        c.restoreState()

    def _first_notes(self) -> tuple[str, ...]:
        """Draw the note and the check bar (after ``saveState``); return their code, from the ``q``."""
        c, g = self.canvas, self.grid
        mark = len(c._code) - 1
        c.setFillColorRGB(0.15, 0.15, 0.15)
        span = g.card_w - mm_to_pt(4)
        x0 = g.left + mm_to_pt(2)
        below = g.bottom - g.bleed
        note = "Print at 100 % (actual size), not \u201cfit to page\u201d; duplex: flip on the " + (
            "short edge" if self.options.backs == "short" else "long edge")
        if self.options.backs == "none":
            note = "Print at 100 % (actual size), not \u201cfit to page\u201d"
        margin = mm_to_pt(PRINTER_MARGIN_MM)
        if below >= margin + 6.5:
            size = 6.5
            while size > 4 and pdfmetrics.stringWidth(note, "WB-Sans", size) > span:
                size -= 0.25
            c.setFont("WB-Sans", size)
            c.drawString(x0, max(margin, below / 2 - size / 3), note)
        else:
            # Too little paper below the cards (Letter with bleed leaves 3 mm): run the note up the
            # left margin instead, inside the bottom row's span so it never crosses a crop mark.
            side = g.left - g.bleed
            size = 6.5
            while size > 4 and pdfmetrics.stringWidth(note, "WB-Sans", size) > g.card_h - mm_to_pt(4):
                size -= 0.25
            c.saveState()
            c.translate(max(margin + size, side / 2 + size / 3), g.bottom + mm_to_pt(2))
            c.rotate(90)
            c.setFont("WB-Sans", size)
            c.drawString(0, 0, note)
            c.restoreState()
        above = g.bottom + g.height + g.bleed
        y = above + (g.page_h - above) / 2
        bar = mm_to_pt(50) if span >= mm_to_pt(59) else mm_to_pt(30)  # 30 mm for small cards
        c.setLineWidth(0.6)
        c.line(x0, y, x0 + bar, y)
        c.line(x0, y - 2, x0, y + 2)
        c.line(x0 + bar, y - 2, x0 + bar, y + 2)
        c.setFont("WB-Sans", 5.5)
        c.drawString(x0 + bar + 3, y - 2, f"{round(bar / mm_to_pt(1))} mm")
        self._notes_y = y
        return tuple(c._code[mark:])

    def fronts(self, cards: Sequence[SheetCard], faces: dict[str, Face], label: str) -> None:
        for index, card in enumerate(cards):
            x, y = self.grid.front_xy(index)
            col, row = self.grid.slot(index)
            self.place(card.key, faces[card.key], x, y, col, row)
            self.text_layer(card, x, y)
        if self.options.crop_marks:
            self.crop_marks()
        self.notes(label)
        self.canvas.showPage()
        self._set_boxes()

    def backs(self, count: int, back: Face, label: str) -> None:
        o = self.options
        ox, oy = mm_to_pt(o.back_offset_x_mm), mm_to_pt(o.back_offset_y_mm)
        for index in range(count):
            x, y = self.grid.back_xy(index, o.backs, ox, oy)
            col, row = self.grid.slot(index)
            if o.backs == "long":
                col = self.grid.cols - 1 - col
            else:
                row = self.grid.rows - 1 - row
            self.place("back" + "0" * 24, back, x, y, col, row)
        c = self.canvas
        c.saveState()
        c.setFont("WB-Sans", 5.5)
        c.setFillColorRGB(0.4, 0.4, 0.4)
        c.drawString(mm_to_pt(PRINTER_MARGIN_MM + 1), mm_to_pt(PRINTER_MARGIN_MM), label)
        c.restoreState()
        c.showPage()
        self._set_boxes()

    def calibration(self) -> None:
        """Two pages: the front shows a millimetre scale around each slot's centre, the back a
        cross at the same place. Printed duplex and held to the light, the cross shows on the
        scale where the printer puts the back."""
        c, g, o = self.canvas, self.grid, self.options
        mm = mm_to_pt(1)
        c.setFont("WB-Sans", 9)
        text = c.beginText(g.left, g.bottom + g.height + max(mm * 2, (g.page_h - g.bottom - g.height) / 2 - 4))
        text.setFont("WB-Sans", 7)
        text.textLine("Duplex calibration: print this page and the next on both sides of one sheet at 100 %, "
                      f"flipping on the {'short' if o.backs == 'short' else 'long'} edge.")
        text.textLine("Hold it to the light. Where the back's cross meets a scale, read x (right +) and y (down +) "
                      "in mm, then print with --back-offset-x=-x --back-offset-y=-y.")
        c.drawText(text)
        for index in range(g.per_page):
            x, y = g.front_xy(index)
            cx, cy = x + g.card_w / 2, y + g.card_h / 2
            c.setLineWidth(0.3)
            c.setStrokeColorRGB(0.6, 0.6, 0.6)
            c.rect(x, y, g.card_w, g.card_h)
            c.setStrokeColorRGB(0, 0, 0)
            c.line(cx - 10 * mm, cy, cx + 10 * mm, cy)
            c.line(cx, cy - 10 * mm, cx, cy + 10 * mm)
            for step in range(-10, 11):
                tick = 2.5 * mm if step % 5 == 0 else 1.2 * mm
                c.line(cx + step * mm, cy - tick / 2, cx + step * mm, cy + tick / 2)
                c.line(cx - tick / 2, cy - step * mm, cx + tick / 2, cy - step * mm)
            c.setFont("WB-Sans", 5)
            for step in (-10, -5, 5, 10):
                c.drawCentredString(cx + step * mm, cy - 4.2 * mm, f"{step:+d}")
                c.drawString(cx + 2 * mm, cy - step * mm - 1.5, f"{step:+d}")
        c.showPage()
        self._set_boxes()
        if o.backs == "none":
            return
        ox, oy = mm_to_pt(o.back_offset_x_mm), mm_to_pt(o.back_offset_y_mm)
        for index in range(g.per_page):
            x, y = g.back_xy(index, o.backs, ox, oy)
            cx, cy = x + g.card_w / 2, y + g.card_h / 2
            c.setLineWidth(0.8)
            c.setStrokeColorRGB(0.8, 0, 0)
            c.line(cx - 6 * mm, cy, cx + 6 * mm, cy)
            c.line(cx, cy - 6 * mm, cx, cy + 6 * mm)
            c.circle(cx, cy, 3 * mm)
        c.showPage()
        self._set_boxes()

    def finish(self) -> bytes:
        # The bytes as they are: saving to the buffer would copy the 36 MB file twice more.
        return self.canvas.getpdfdata()


def build_pdf(cards: Sequence[SheetCard], faces: dict[str, Face], back: Face | None, options: SheetOptions,
              game_name: str = "", progress: Callable[[int, int], None] | None = None) -> bytes:
    """Impose faces (one entry per printed copy, in order) on pages; return the PDF bytes.

    Raises PrintError/SizeError for impossible options, KeyError when a face is missing.
    """
    options.check()
    grid = plan_grid(options.paper, options.size, options.bleed_mm, options.crop_marks)
    _text_fonts()
    # ASCII85 makes font streams 25 % larger and costs time; PDF readers need no 7-bit safety.
    # The switch is global in reportlab, so sheets are assembled one at a time (the lock keeps
    # concurrent web jobs from seeing each other's setting, which would change the bytes).
    with _BUILD_LOCK:
        saved_a85, rl_config.useA85 = rl_config.useA85, 0
        try:
            return _build(cards, faces, back, options, grid, game_name, progress)
        finally:
            rl_config.useA85 = saved_a85


def _build(cards: Sequence[SheetCard], faces: dict[str, Face], back: Face | None, options: SheetOptions,
           grid: Grid, game_name: str, progress: Callable[[int, int], None] | None) -> bytes:
    sheet = _Sheet(options, grid)
    if options.calibration:
        sheet.calibration()
    pages = [cards[i:i + grid.per_page] for i in range(0, len(cards), grid.per_page)]
    for number, page in enumerate(pages, start=1):
        label = f"{game_name} · sheet {number}/{len(pages)}".strip(" ·")
        sheet.fronts(page, faces, f"{label} · fronts")
        if options.backs != "none" and back is not None:
            sheet.backs(len(page), back, f"{label} · backs")
        if progress:
            progress(number, len(pages))
    return sheet.finish()
