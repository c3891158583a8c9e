"""Issue 13 item 3: one long word must not make rendering cubic.

4,000 characters without a space took 10 s to lay out, 8,000 took 54 s and a 100,000-character
draft hung a face render past 5 minutes. Line breaking is now n·log n, a text is cut to its
field's ``max_length`` before layout, and a layout that still runs too long stops: the face shows
a placeholder and validation a ``card.render_timeout`` problem.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from workbench.services.render.text import Paragraph, fit_paragraphs, wrap

PROJECT_ROOT = Path(__file__).resolve().parents[2]
GAME = "seth"
CARD = "glass-wasp"


def reference_wrap(text: str, key: str, size: float, width: float) -> list[str]:
    """The old character-by-character breaking of one unbroken word (exact, slow)."""
    from workbench.services.render.fonts import text_width

    lines, line = [], text
    while text_width(key, line, size) > width and len(line) > 1:
        cut = len(line)
        while cut > 1 and text_width(key, line[:cut], size) > width:
            cut -= 1
        lines.append(line[:cut])
        line = line[cut:]
    return lines + [line]


@pytest.mark.parametrize("text", ["x" * 700, "Wi" * 300, "火焰之龙" * 120, "a" * 3 + " " + "m" * 500 + " end"])
def test_breaking_a_long_word_gives_the_same_lines_as_the_exact_scan(text: str) -> None:
    key = "cjk" if not text.isascii() else "sans"
    got = wrap(text, key, 33.0, 600.0)
    if " " not in text:
        assert got == reference_wrap(text, key, 33.0, 600.0)
    assert "".join(got).replace(" ", "") == text.replace(" ", "")


def test_ten_thousand_characters_without_a_space_lay_out_in_under_a_second() -> None:
    """The benchmark itself, in a fresh process (no measurement remembered from other tests)."""
    done = subprocess.run([sys.executable, str(PROJECT_ROOT / "benchmarks" / "text_layout.py"),
                           "--lengths", "10000", "--repeat", "1"],
                          capture_output=True, text=True, timeout=120, cwd=PROJECT_ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok" in done.stdout


def test_the_work_of_breaking_a_long_word_grows_as_n_log_n(monkeypatch) -> None:
    """Counted, not timed: the characters handed to the font measurer. Breaking a word of n
    characters into lines of L used to measure about n³/L² characters (every shorter prefix of
    the rest, for every line); the search measures about 4·n·log2(L)."""
    from workbench.services.render import text as text_module

    measured = [0]
    real = text_module.text_width

    def counting(key: str, value: str, size: float) -> float:
        measured[0] += len(value)
        return real(key, value, size)

    monkeypatch.setattr(text_module, "text_width", counting)

    def work(n: int, letter: str) -> int:
        measured[0] = 0
        wrap(letter * n, "sans", 30.0, 500.0)
        return measured[0]

    small = work(1_000, "u")
    assert small < 20 * 1_000, small  # about 6,400 now; the old scan measured 6,680,595
    large = work(8_000, "v")
    assert large < 10 * small, (small, large)  # 8 times the text: 8 times the work, not 64 or 512


def test_a_huge_draft_is_cut_to_max_length_before_layout(repo) -> None:
    from workbench.services.checks import card_problems
    from workbench.services.render.faces import render_face, template_for
    from workbench.services.render.service import default_size

    definition = repo.game(GAME)
    card = dict(repo.get_card(GAME, CARD).data, id=CARD, text="z" * 100_000, name="N" * 1_000_000)
    started = time.perf_counter()
    face = render_face(definition, card, default_size(definition))
    plan = template_for(definition, default_size(definition)).plan(card)
    problems = {p.code for p in card_problems(definition, card, CARD)}
    assert time.perf_counter() - started < 5
    assert not face.timed_out and {"text", "name"} <= set(plan.cut_fields)
    assert "card.max_length" in problems


def test_the_face_page_of_a_huge_draft_answers_quickly(app, repo) -> None:
    stored = repo.get_card(GAME, CARD)
    repo.update_card(GAME, CARD, dict(stored.data, text="y" * 100_000), stored.version)  # a draft is saved
    client = app.test_client()
    started = time.perf_counter()
    answer = client.get(f"/games/{GAME}/cards/{CARD}/face.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    assert time.perf_counter() - started < 5


def test_a_layout_past_the_time_limit_shows_a_placeholder_and_a_problem(repo, monkeypatch) -> None:
    from workbench.services.render import faces, service

    monkeypatch.setattr(faces, "RENDER_TIME_LIMIT_S", -1.0)  # every layout is already late
    definition = repo.game(GAME)
    card = dict(repo.get_card(GAME, CARD).data, id=CARD, text="A text laid out too late, test " + str(time.time()))
    face = faces.render_face(definition, card, service.default_size(definition))
    assert face.timed_out and face.image.size[0] > 0
    plan = faces.template_for(definition, service.default_size(definition)).plan(card)
    assert any(faces.TIMEOUT_TEXT.split()[0] in line.text for line in plan.body.lines)
    problems = service.render_problems(definition, card)
    assert [p.code for p in problems if p.code == "card.render_timeout"] == ["card.render_timeout"]


def test_the_width_cache_keeps_no_long_texts() -> None:
    from workbench.services.render import fonts

    wrap("k" * 20_000, "sans", 30.0, 500.0)
    assert max((len(text) for _, text in fonts._width_cache), default=0) <= fonts._WIDTH_CACHE_CHARS
