"""workbench render: a deck with its copies, a selection, the set; PDF and PNG; clear errors."""

from __future__ import annotations


import pytest
from PIL import Image
from pypdf import PdfReader

from workbench.cli import main


@pytest.fixture(autouse=True)
def _exports(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("WORKBENCH_EXPORTS", str(tmp_path / "exports"))


def run(capsys, *argv):  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_deck_pdf_prints_every_copy(capsys, data_dir, repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    out_file = tmp_path / "team.pdf"
    code, out, _ = run(capsys, "render", "seth", "--deck", "rot-and-stone", "--format", "pdf", "-o", str(out_file),
                       "--data", str(data_dir), "--no-progress", "--paper", "letter")
    assert code == 0
    copies = sum(len(cards) for cards in repo.deck_cards("seth", "rot-and-stone").values())
    assert f"{copies} cards on 1 sheet(s) of 9 (letter" in out
    reader = PdfReader(out_file)
    assert len(reader.pages) == 2  # fronts and long-edge backs
    assert float(reader.pages[0].mediabox.width) == 612.0
    text = reader.pages[0].extract_text()
    for card in repo.deck_cards("seth", "rot-and-stone")["team"]:
        assert card["name"] in text


def test_selection_as_png_files_at_300_dpi_with_bleed(capsys, data_dir, tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / "faces"
    code, out, _ = run(capsys, "render", "fusion", "--cards", "an-ye-mo-jun,chi-yan-lang", "--format", "png",
                       "-o", str(folder), "--bleed", "3.175", "--data", str(data_dir), "--no-progress")
    assert code == 0 and "2 face(s)" in out
    for name in ("an-ye-mo-jun", "chi-yan-lang"):
        image = Image.open(folder / f"{name}.png")
        assert image.size == (825, 1125)
        assert round(image.info["dpi"][0]) == 300


def test_one_card_to_a_png_file_in_a_custom_size(capsys, data_dir, tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "one.png"
    code, _, _ = run(capsys, "render", "warzone", "--cards", "ashcloud-catapult", "--format", "png", "-o", str(target),
                     "--card-size", "tarot", "--data", str(data_dir), "--no-progress")
    assert code == 0 and Image.open(target).size == (827, 1417)


def test_whole_set_without_backs_or_marks_reuses_the_cache(capsys, data_dir, repo, tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "set.pdf"
    args = ["render", "seth", "--all", "-o", str(target), "--backs", "none", "--no-crop-marks",
            "--data", str(data_dir), "--no-progress"]
    code, out, _ = run(capsys, *args)
    count = len(repo.list_cards("seth"))
    assert code == 0 and f"{count} face(s) drawn, 0 from the cache" in out
    assert len(PdfReader(target).pages) == -(-count // 9)
    code, out, _ = run(capsys, *args)
    assert f"0 face(s) drawn, {count} from the cache" in out


@pytest.mark.parametrize("argv,needle", [
    (["--deck", "no-such-deck"], "does not exist"),
    (["--cards", "../etc"], "not allowed"),
    (["--all", "--card-size", "huge"], "card size"),
])
def test_errors_name_the_problem(capsys, data_dir, tmp_path, argv, needle) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run(capsys, "render", "warzone", *argv, "-o", str(tmp_path / "x.pdf"), "--data", str(data_dir),
                       "--no-progress")
    assert code in (1, 2) and needle in err
    assert not (tmp_path / "x.pdf").exists()


def test_bleed_out_of_range_is_a_usage_error(capsys, data_dir, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exc:
        main(["render", "warzone", "--all", "-o", str(tmp_path / "x.pdf"), "--bleed", "20", "--data", str(data_dir)])
    assert exc.value.code == 2
