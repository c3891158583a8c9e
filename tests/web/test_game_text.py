"""The table's words for what the engines write (workbench/web/game_text.py)."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.web.game_text import PHASES, phase_text

ENGINES = Path(__file__).resolve().parents[2] / "workbench" / "domain" / "engines"


def test_every_phase_and_step_the_engines_set_has_words() -> None:
    """The status line shows the snapshot's phase and step: one without an entry stayed the
    engine's own word in every language (fusion's "ask" while an effect asks a player, warzone's
    "wake" and "night")."""
    named = set()
    for path in ENGINES.rglob("*.py"):
        named |= set(re.findall(r'\b(?:self|state|s)\.(?:phase|step) = "([a-z_0-9]+)"', path.read_text("utf-8")))
    assert {"ask", "main1", "wake"} <= named  # the scan finds them
    assert sorted(named - set(PHASES)) == []


def test_a_step_that_restates_its_phase_is_not_shown_twice(app) -> None:  # type: ignore[no-untyped-def]
    with app.test_request_context(headers={"Cookie": "workbench_lang=en"}):
        assert phase_text("main1 · main") == "main phase 1"
        assert phase_text("draw · draw") == "draw phase"
        assert phase_text("battle · block") == "battle phase · blocks"
        assert phase_text("main2 · ask") == "main phase 2 · a choice"
    with app.test_request_context(headers={"Cookie": "workbench_lang=zh"}):
        assert phase_text("main1 · main") == "主要阶段（主一）"
        assert phase_text("main1 · ask") == "主要阶段（主一） · 选择"
