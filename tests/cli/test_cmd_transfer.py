"""``workbench export`` and ``workbench import`` as a designer runs them."""

from __future__ import annotations

from tests.services.exports import checkers
from workbench.cli import main


def test_export_writes_under_exports_game_format(data_dir, tmp_path, capsys):
    exports = tmp_path / "exports"
    code = main(["export", "seth", "lackey", "--data", str(data_dir), "--exports", str(exports),
                 "--base-url", "https://example.org/seth"])
    assert code == 0
    out = capsys.readouterr().out
    assert "seth.zip" in out
    folder = exports / "seth" / "lackey" / "seth"
    files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert checkers.check_lackey(files, "seth") == []


def test_export_deck_to_an_output_folder(data_dir, tmp_path, capsys):
    out_dir = tmp_path / "mud"
    assert main(["export", "seth", "mush", "--deck", "rot-and-stone", "-o", str(out_dir),
                 "--data", str(data_dir), "--server", "tinymux"]) == 0
    text = (out_dir / "seth-rot-and-stone-tinymux.txt").read_bytes()
    errors, attrs = checkers.check_mush(text)
    assert errors == [] and attrs["CARD_COUNT"] == "5"


def test_export_errors_exit_nonzero(data_dir, tmp_path, capsys):
    assert main(["export", "nope", "csv", "--data", str(data_dir), "--exports", str(tmp_path)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["export", "seth", "tts", "--deck", "missing", "--data", str(data_dir),
                 "--exports", str(tmp_path)]) == 2


def test_import_dry_run_then_yes(data_dir, tmp_path, repo, capsys):
    sheet = tmp_path / "new.csv"
    sheet.write_text("name,power,damage,health,speed,race,element\nCli Imp,1,2,3,fast,Imp,fire\n", encoding="utf-8")
    assert main(["import", "seth", str(sheet), "--dry-run", "--data", str(data_dir)]) == 0
    out = capsys.readouterr().out
    assert "+ row 2: create cli-imp 'Cli Imp'" in out and "nothing was written" in out
    assert "cli-imp" not in {c.id for c in repo.list_cards("seth")}
    assert main(["import", "seth", str(sheet), "--data", str(data_dir)]) == 1  # no terminal, no --yes
    assert main(["import", "seth", str(sheet), "--yes", "--data", str(data_dir)]) == 0
    assert repo.get_card("seth", "cli-imp").data["race"] == "Imp"


def test_import_bad_file_is_a_message(data_dir, tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"name,kind\n\xff\xfe,monster\n")
    assert main(["import", "seth", str(bad), "--data", str(data_dir)]) == 1
    err = capsys.readouterr().err
    assert "line 2: byte 0xff is not UTF-8" in err and "Traceback" not in err
