"""Wrapping and shrink-to-fit: Latin at spaces, CJK between characters, overflow counted."""

from __future__ import annotations

from workbench.services.render.fonts import text_width
from workbench.services.render.text import NO_LINE_START, Paragraph, fit_paragraphs, segments, wrap


def test_latin_breaks_only_at_spaces() -> None:
    lines = wrap("When recruited, draw a card and gain 200 Life Points.", "sans", 40, 420)
    assert len(lines) > 1
    words = "When recruited, draw a card and gain 200 Life Points.".split()
    assert " ".join(lines).split() == words  # no word was split
    assert all(text_width("sans", line, 40) <= 420 for line in lines)


def test_cjk_breaks_between_characters_within_the_width() -> None:
    text = "当此卡被召唤时，抽一张卡。然后对方受到五百点伤害，并且不能发动魔法卡。"
    lines = wrap(text, "cjk", 40, 400)
    assert "".join(lines) == text  # nothing lost, nothing added
    assert len(lines) >= 3
    assert all(text_width("cjk", line, 40) <= 400 for line in lines)


def test_cjk_closing_punctuation_never_starts_a_line() -> None:
    text = "一二三四五六七八，九十一二三四五六。七八九十一二三四」五六"
    for width in range(150, 600, 23):
        for line in wrap(text, "cjk", 40, width)[1:]:
            assert line[0] not in NO_LINE_START, (width, line)


def test_mixed_text_keeps_latin_words_whole() -> None:
    pieces = segments("召唤时draw 2张卡")
    assert "draw " in pieces and "召" in pieces


def test_an_overlong_word_is_broken_rather_than_overflowing() -> None:
    lines = wrap("Supercalifragilisticexpialidocious", "sans", 40, 200)
    assert len(lines) > 1 and "".join(lines) == "Supercalifragilisticexpialidocious"
    assert all(text_width("sans", line, 40) <= 200 for line in lines)


def test_fit_shrinks_text_until_it_fits() -> None:
    paras = [Paragraph("Draw a card. " * 12)]
    roomy = fit_paragraphs(paras, 600, 2000, 40, 20)
    tight = fit_paragraphs(paras, 600, 300, 40, 20)
    assert roomy.size_px == 40 and roomy.fits
    assert tight.fits and 20 <= tight.size_px < 40
    assert tight.height <= 300.5


def test_fit_reports_overflowing_lines_at_the_smallest_size() -> None:
    paras = [Paragraph("Draw a card. " * 60)]
    fit = fit_paragraphs(paras, 600, 200, 40, 30)
    assert not fit.fits and fit.size_px == 30
    needed = len(fit.lines)
    fitting = int(200 // (30 * 1.28))
    assert fit.overflow_lines == needed - fitting or abs(fit.overflow_lines - (needed - fitting)) <= 1
