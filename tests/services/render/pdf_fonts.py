"""Read the embedded TrueType subsets of a PDF: which characters have real outlines.

A tiny TrueType reader (table directory, head, cmap format 0/4/6, loca, glyf) so the tests can tell a
real glyph from .notdef (glyph 0, or a glyph with no outline data) without extra packages.
"""

from __future__ import annotations

import re
import struct

from pypdf import PdfReader


def _tables(data: bytes) -> dict[str, bytes]:
    count = struct.unpack_from(">H", data, 4)[0]
    tables = {}
    for i in range(count):
        tag, _check, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag.decode("latin-1")] = data[offset:offset + length]
    return tables


def _cmap(table: bytes) -> dict[int, int]:
    count = struct.unpack_from(">H", table, 2)[0]
    mapping: dict[int, int] = {}
    for i in range(count):
        _platform, _encoding, offset = struct.unpack_from(">HHI", table, 4 + 8 * i)
        fmt = struct.unpack_from(">H", table, offset)[0]
        if fmt == 0:
            glyphs = table[offset + 6: offset + 6 + 256]
            mapping.update({code: gid for code, gid in enumerate(glyphs)})
        elif fmt == 6:
            first, count6 = struct.unpack_from(">HH", table, offset + 6)
            glyphs6 = struct.unpack_from(f">{count6}H", table, offset + 10)
            mapping.update({first + i: gid for i, gid in enumerate(glyphs6)})
        elif fmt == 4:
            segs = struct.unpack_from(">H", table, offset + 6)[0] // 2
            ends = struct.unpack_from(f">{segs}H", table, offset + 14)
            starts = struct.unpack_from(f">{segs}H", table, offset + 16 + 2 * segs)
            deltas = struct.unpack_from(f">{segs}h", table, offset + 16 + 4 * segs)
            range_at = offset + 16 + 6 * segs
            ranges = struct.unpack_from(f">{segs}H", table, range_at)
            for s in range(segs):
                for code in range(starts[s], ends[s] + 1):
                    if code == 0xFFFF:
                        continue
                    if ranges[s] == 0:
                        gid = (code + deltas[s]) & 0xFFFF
                    else:
                        at = range_at + 2 * s + ranges[s] + 2 * (code - starts[s])
                        gid = struct.unpack_from(">H", table, at)[0]
                        gid = (gid + deltas[s]) & 0xFFFF if gid else 0
                    mapping.setdefault(code, gid)
    return mapping


def outline_lengths(font_file: bytes) -> tuple[dict[int, int], list[int]]:
    """(code -> glyph id, glyph id -> outline byte length) of a TrueType font program."""
    tables = _tables(font_file)
    long_loca = struct.unpack_from(">h", tables["head"], 50)[0] == 1
    loca = tables["loca"]
    if long_loca:
        offsets = list(struct.unpack_from(f">{len(loca) // 4}I", loca))
    else:
        offsets = [2 * v for v in struct.unpack_from(f">{len(loca) // 2}H", loca)]
    lengths = [b - a for a, b in zip(offsets, offsets[1:])]
    return _cmap(tables["cmap"]), lengths


def _to_unicode(stream: bytes) -> dict[int, str]:
    mapping = {}
    for code, uni in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", stream.split(b"beginbfchar", 1)[-1]):
        text = bytes.fromhex(uni.decode()).decode("utf-16-be", "replace")
        mapping[int(code, 16)] = text
    return mapping


def glyph_report(pdf_path_or_stream) -> dict[str, bool]:  # type: ignore[no-untyped-def]
    """Every character of every embedded TrueType subset -> True when it has a real outline."""
    reader = PdfReader(pdf_path_or_stream)
    report: dict[str, bool] = {}
    for page in reader.pages:
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for ref in fonts.values():
            font = ref.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None or "/ToUnicode" not in font:
                continue
            program = descriptor.get_object().get("/FontFile2")
            if program is None:
                continue
            cmap, lengths = outline_lengths(program.get_object().get_data())
            for code, text in _to_unicode(font["/ToUnicode"].get_object().get_data()).items():
                if not text.strip() or not text.isprintable():
                    continue
                gid = cmap.get(code, 0)
                report[text] = report.get(text, False) or (gid != 0 and gid < len(lengths) and lengths[gid] > 0)
    return report
