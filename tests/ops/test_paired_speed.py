"""benchmarks/paired_speed.py (issue 16 item 1's measurement) runs both checkouts' own
workloads (or, with --old-decks, the old one's deck lists on both sides) and refuses a directory
that is not a checkout. No timing is asserted."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "paired_speed.py"


def _decisions(out: str, game: str) -> tuple[float, float]:
    """The decisions a game of old and new in ``game``'s first round of the script's output."""
    line = next(l for l in out.split(f"{game}: ")[1].splitlines() if "round 1" in l)
    old_d, new_d = re.search(r"decisions a game old ([\d.]+), new ([\d.]+)", line).groups()
    return float(old_d), float(new_d)


def test_it_plays_each_game_in_both_checkouts_and_prints_the_ratio() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--old", str(ROOT), "--games", "4", "--rounds", "1",
                          "--cpu", "-1"], capture_output=True, text=True, timeout=300, check=True).stdout
    for game in ("fusion", "seth", "warzone"):
        line = next(l for l in out.splitlines() if l.strip().startswith(f"{game}: median"))
        assert float(re.search(r"median new ÷ old ([\d.]+)", line).group(1)) > 0
        # the same checkout on both sides plays the same games: the same decisions a game
        old_d, new_d = _decisions(out, game)
        assert old_d == new_d > 1
        assert float(re.search(r"per decision: median new ÷ old ([\d.]+)", line).group(1)) > 0


def test_it_refuses_an_old_directory_without_benchmarks(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--old", str(tmp_path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert "--old must name a checkout" in done.stderr




def _older_checkout(tmp_path: Path) -> Path:
    """A copy of this checkout whose seth deck Rot and Stone lists another monster."""
    old = tmp_path / "old"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in ("workbench", "benchmarks", "tests", "card_data"):
        shutil.copytree(ROOT / part, old / part, ignore=skip)
    deck = old / "card_data" / "seth" / "decks" / "rot-and-stone.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("quillback-urchin: 1", "rustclaw-ratling: 1"),
                    encoding="utf-8")
    return old


def test_old_decks_has_the_new_checkout_play_the_old_deck_lists(tmp_path: Path) -> None:
    old = _older_checkout(tmp_path)
    command = [sys.executable, str(SCRIPT), "--old", str(old), "--game", "seth", "--games", "40",
               "--rounds", "1", "--cpu", "-1"]
    own = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True).stdout
    same = subprocess.run(command + ["--old-decks"], capture_output=True, text=True, timeout=300,
                          check=True).stdout
    old_d, new_d = _decisions(own, "seth")
    assert old_d != new_d  # each plays its own decks: other games
    assert "both with the old deck lists" in same
    old_d, new_d = _decisions(same, "seth")
    assert old_d == new_d  # one engine, one deck list on both sides: the same games


def test_old_decks_names_a_card_the_new_checkout_lacks(tmp_path: Path) -> None:
    old = _older_checkout(tmp_path)
    deck = old / "card_data" / "seth" / "decks" / "rot-and-stone.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("rustclaw-ratling: 1", "long-gone-wyrm: 1"),
                    encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), "--old", str(old), "--game", "seth", "--games", "4",
                           "--rounds", "1", "--cpu", "-1", "--old-decks"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode != 0
    assert "rot-and-stone.yaml lists long-gone-wyrm" in done.stderr
