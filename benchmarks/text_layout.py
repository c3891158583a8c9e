"""Benchmark card-text layout with one long unbroken word (issue 13 item 3).

Before the fix, breaking a word wider than the line scanned from its end one character at a
time, re-measuring the whole rest each time: 4,000 characters without a space took 10 s, 8,000
took 54 s. Now a galloping and binary search finds each break, so the cost is n·log(line).

Lays out an unbroken text of each length in the body box of a real card face (every font size
from the largest down to the smallest, as :func:`fit_paragraphs` does for a card that does not
fit), then renders a whole face whose text field holds the longest one (the face cuts it to the
field's ``max_length`` first). Prints seconds per step and exits 1 when the 10,000-character
layout takes 1 s or more.

Usage: python3 benchmarks/text_layout.py [--game seth] [--lengths 1000,4000,10000,100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if not os.environ.get("PYTHONPATH"):  # PYTHONPATH=<an older checkout> compares its code on the same run
    sys.path.insert(0, str(ROOT))

from workbench.services.render.faces import MIN_TEXT_PT, render_face, template_for  # noqa: E402
from workbench.services.render.service import default_size  # noqa: E402
from workbench.services.render.text import Paragraph, fit_paragraphs  # noqa: E402
from workbench.storage.repository import Repository  # noqa: E402

TARGET_CHARS = 10_000
TARGET_S = 1.0


def layout_seconds(template, card: dict, text: str, repeat: int) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    """Best of ``repeat`` layouts of ``text`` in the face's body box; (seconds, lines)."""
    bx, by, bw, bh = template.geometry(card)["text"]
    u = template.u
    max_px = 3.4 * u
    min_px = min(max_px, MIN_TEXT_PT / 72 * template.dpi)
    best, lines = float("inf"), 0
    for i in range(repeat):
        # A different letter each round, so no measurement is remembered from the round before.
        sample = text.replace("x", "xyzw"[i % 4])
        started = time.perf_counter()
        fit = fit_paragraphs([Paragraph(sample)], (template.W - 2 * template.c) * u, (bh - 2.0) * u,
                             max_px, min_px, step_px=u * 0.1)
        best = min(best, time.perf_counter() - started)
        lines = len(fit.lines)
    return best, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="seth")
    parser.add_argument("--data", default=str(ROOT / "card_data"))
    parser.add_argument("--lengths", default="1000,4000,10000,100000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    repo = Repository(args.data)
    definition = repo.game(args.game)
    stored = repo.list_cards(args.game)[0]
    card = dict(stored.data, id=stored.id)
    template = template_for(definition, default_size(definition))
    lengths = [int(n) for n in args.lengths.split(",") if n]
    failed = False
    print(f"{'characters':>10}  {'layout s':>9}  {'lines':>6}")
    for n in lengths:
        seconds, lines = layout_seconds(template, card, "x" * n, args.repeat)
        print(f"{n:>10,}  {seconds:>9.3f}  {lines:>6}")
        if n == TARGET_CHARS and seconds >= TARGET_S:
            failed = True
    longest = "x" * max(lengths)
    started = time.perf_counter()
    face = render_face(definition, dict(card, text=longest), default_size(definition))
    print(f"whole face with a {len(longest):,}-character text: {time.perf_counter() - started:.3f} s "
          f"(cut to the field's max_length; overflow {face.overflow_lines} lines, timed out: {getattr(face, 'timed_out', False)})")
    if TARGET_CHARS in lengths:
        print(f"target: {TARGET_CHARS:,} characters in under {TARGET_S:g} s: {'FAILED' if failed else 'ok'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
