"""``workbench play``: one engine game, a readable log, the same log for the same seed."""

from __future__ import annotations

from pathlib import Path

from workbench.cli import main


def test_same_seed_same_log(data_dir: Path, tmp_path: Path, capsys) -> None:
    logs = []
    for name in ("one.log", "two.log"):
        path = tmp_path / name
        code = main(["play", "seth", "rot-and-stone", "skyburn-blitz", "--seed", "4",
                     "--agents", "heuristic,random", "--log", str(path), "--data", str(data_dir)])
        assert code == 0
        logs.append(path.read_text(encoding="utf-8"))
    assert logs[0] == logs[1]
    lines = logs[0].splitlines()
    assert lines[0].startswith("Seth Monster Game — P1 rot-and-stone (heuristic) vs P2 skyburn-blitz (random)")
    assert any(line.startswith("Round 1, ") and "assigns" in line for line in lines)
    assert any(line.startswith("Result: ") and "§2.6" in line for line in lines)
    assert "log written to" in capsys.readouterr().out


def test_log_to_stdout_and_options(data_dir: Path, capsys) -> None:
    assert main(["play", "seth", "rot-and-stone", "skyburn-blitz", "--seed", "1", "--agents", "random",
                 "--option", "max_rounds=1", "--data", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert "Round 2" not in out
    assert "after 1 turns" in out


def test_errors(data_dir: Path, capsys) -> None:
    assert main(["play", "seth", "no-such-deck", "skyburn-blitz", "--data", str(data_dir)]) == 2
    assert main(["play", "seth", "rot-and-stone", "skyburn-blitz", "--agents", "genius,random",
                 "--data", str(data_dir)]) == 1  # as workbench playtest refuses it
    assert main(["play", "seth", "rot-and-stone", "skyburn-blitz", "--agents", "a,b,c",
                 "--data", str(data_dir)]) == 2
    err = capsys.readouterr().err
    assert "no-such-deck" in err and "unknown agent 'genius'" in err


def test_fusion_plays_three_and_four_decks(data_dir: Path, capsys) -> None:
    decks = ["lie-yan-ji-feng", "pan-shi-chao-xi", "lie-yan-ji-feng"]
    assert main(["play", "fusion", *decks, "--seed", "2", "--agents", "random", "--data", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("P3 lie-yan-ji-feng (random), seed 2")
    assert "places: P1 lie-yan-ji-feng #" in out and "P3 lie-yan-ji-feng #" in out
    assert main(["play", "fusion", *decks, "pan-shi-chao-xi", "--agents", "heuristic,random,random,heuristic",
                 "--data", str(data_dir)]) == 0
    assert "P4 pan-shi-chao-xi #" in capsys.readouterr().out
    # one name per deck, and option players agrees with the decks
    assert main(["play", "fusion", *decks, "--agents", "random,random", "--data", str(data_dir)]) == 2
    assert main(["play", "fusion", *decks[:2], "--option", "players=3", "--data", str(data_dir)]) == 2
    assert "wants 3 decks" in capsys.readouterr().err
    assert main(["play", "seth", "rot-and-stone", "skyburn-blitz", "rot-and-stone", "--data", str(data_dir)]) == 2
    assert "at most 2 players" in capsys.readouterr().err
