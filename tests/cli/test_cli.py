"""The workbench command: games, cards, validate (exit codes and JSON), serve's refusals."""

from __future__ import annotations

import json
import socket

import pytest

from workbench.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_games_lists_the_three_games(capsys, data_dir):
    code, out, _ = run(capsys, "games", "--data", str(data_dir))
    assert code == 0
    assert "warzone" in out and "Warzone: Kings of Valor" in out and "seth" in out and "fusion" in out
    code, out, _ = run(capsys, "games", "--data", str(data_dir), "--json")
    assert [g["id"] for g in json.loads(out)] == ["fusion", "seth", "warzone"]


def test_cards_lists_stats_and_keeps_cjk(capsys, data_dir):
    code, out, _ = run(capsys, "cards", "fusion", "--data", str(data_dir))
    assert code == 0 and "atk=" in out
    assert any("\u4e00" <= ch <= "\u9fff" for ch in out)
    code, out, _ = run(capsys, "cards", "seth", "--data", str(data_dir), "--json", "--kind", "monster")
    assert len(json.loads(out)) >= 16


def test_validate_bundled_games_exit_0(capsys, data_dir):
    code, out, _ = run(capsys, "validate", "--data", str(data_dir))
    assert code == 0 and "OK: 0 errors" in out


def test_validate_exit_1_and_json_when_a_deck_breaks_a_rule(capsys, data_dir):
    deck = data_dir / "seth/decks/skyburn-blitz.yaml"
    deck.write_text(deck.read_text().replace("ashen-drake: 1", "ashen-drake: 2"))
    code, out, _ = run(capsys, "validate", "seth", "--deck", "skyburn-blitz", "--data", str(data_dir))
    assert code == 1 and "NOT LEGAL" in out and "it must have exactly 5" in out
    code, out, _ = run(capsys, "validate", "seth", "--deck", "skyburn-blitz", "--data", str(data_dir), "--json")
    report = json.loads(out)
    assert report["ok"] is False
    problems = report["games"]["seth"]["decks"]["skyburn-blitz"]["problems"]
    assert {p["code"] for p in problems} >= {"deck.zone_exact"}


def test_validate_usage_errors_exit_2(capsys, data_dir):
    assert run(capsys, "validate", "--deck", "x", "--data", str(data_dir))[0] == 2
    assert run(capsys, "validate", "chess", "--data", str(data_dir))[0] == 2
    assert run(capsys, "validate", "seth", "--deck", "../x", "--data", str(data_dir))[0] == 2
    with pytest.raises(SystemExit) as caught:
        main(["validate", "--bogus"])
    assert caught.value.code == 2


def test_serve_refuses_a_taken_port_with_a_clear_message(capsys, data_dir):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = run(capsys, "serve", "--port", str(port), "--data", str(data_dir))
    assert code == 1 and f"port {port}" in err and "already in use" in err


def test_serve_refuses_a_missing_data_folder(capsys, tmp_path):
    code, _, err = run(capsys, "serve", "--data", str(tmp_path / "missing"))
    assert code == 1 and "does not exist" in err


def test_goldfish_report_of_a_game_without_mulligans_says_so(capsys) -> None:  # type: ignore[no-untyped-def]
    from workbench.cli.cmd_playtest import _print_goldfish

    hands = {"hand_size": 7, "deck_size": 50, "mulligans_allowed": 0, "keep_rule": "keep with at least 1 creature card(s)",
             "p_keep_first_hand": 0.9, "mulligans_taken": {"0": 1.0}, "cards": []}
    _print_goldfish({"deck": {"name": "Iron Bastion"}, "game": "warzone", "opening_hands": hands})
    out = capsys.readouterr().out
    assert "no mulligans" in out and "up to 0" not in out and "mulligans taken" not in out
    _print_goldfish({"deck": {"name": "x"}, "game": "fusion", "opening_hands": {**hands, "mulligans_allowed": 1}})
    assert "up to 1 mulligan;" in capsys.readouterr().out
