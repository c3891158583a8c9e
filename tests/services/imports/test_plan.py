"""The dry run writes nothing, names every problem; apply honours the versions it saw."""

from __future__ import annotations

import pytest

from workbench.services.imports import plan as import_plan
from workbench.services.imports.tabular import ImportFileError


CSV_TAIL = ("New Imp,monster,1,2,3,fast,Imp,fire\n"
            "Broken,monster,lots,2,3,fast,Imp,fire\n"
            "Bad Kind,dragon,1,2,3,fast,Imp,fire\n"
            "Too Strong,monster,1,20,30,fast,Imp,fire\n")


def csv_for(repo) -> bytes:
    """A sheet that changes one stored card's damage by one and adds four rows of its own."""
    drake = repo.get_card("seth", "ashen-drake").data
    first = (f"{drake['name']},monster,{drake['power']},{drake['damage'] + 1},{drake['health']},"
             f"\"{', '.join(drake['speed'])}\",{drake['race']},{drake['element']}\n")
    return ("name,kind,power,damage,health,speed,race,element\n" + first + CSV_TAIL).encode()


def test_dry_run_reports_create_change_skip_and_writes_nothing(repo, data_dir):
    before = sorted(p.name for p in (data_dir / "seth" / "cards").iterdir())
    damage = repo.get_card("seth", "ashen-drake").data["damage"]
    plan = import_plan.dry_run(repo, "seth", "cards.csv", csv_for(repo))
    by_name = {r.name: r for r in plan.rows}
    assert by_name["Ashen Drake"].action == "change"
    assert by_name["Ashen Drake"].card_id == "ashen-drake"
    assert by_name["Ashen Drake"].changes == [("damage", damage, damage + 1)]
    assert by_name["New Imp"].action == "create" and by_name["New Imp"].card_id == "new-imp"
    assert by_name["Broken"].action == "skip"
    assert by_name["Broken"].problems == ["row 4, column C (power): 'lots' is not a whole number"]
    assert "row 5, column B (kind): kind 'dragon' is not one of: monster" in by_name["Bad Kind"].problems
    assert any("budget" in p for p in by_name["Too Strong"].problems)
    assert sorted(p.name for p in (data_dir / "seth" / "cards").iterdir()) == before


def test_apply_writes_and_refuses_stale_versions(repo):
    plan = import_plan.dry_run(repo, "seth", "cards.csv", csv_for(repo))
    drake = repo.get_card("seth", "ashen-drake")
    repo.update_card("seth", "ashen-drake", dict(drake.data, race="Wyrm"), drake.version)  # edited meanwhile
    result = import_plan.apply(repo, "seth", plan)
    assert "new-imp" in result.created and "too-strong" in result.created
    assert any("ashen-drake" in f and "changed since" in f for f in result.failed)
    assert repo.get_card("seth", "ashen-drake").data["race"] == "Wyrm"  # not overwritten


def test_mapping_and_ignored_columns(repo):
    data = "Title,Strength,Notes\nNew Thing,3,ignore me\n".encode()
    plan = import_plan.dry_run(repo, "seth", "x.csv", data, mapping="Title=name, Strength=damage, Notes=")
    row = plan.rows[0]
    assert row.data["name"] == "New Thing" and row.data["damage"] == 3 and row.data["kind"] == "monster"
    with pytest.raises(Exception, match="not a field"):
        import_plan.dry_run(repo, "seth", "x.csv", data, mapping="Title=nonsense")
    with pytest.raises(Exception, match="does not have"):
        import_plan.dry_run(repo, "seth", "x.csv", data, mapping="Missing=name")


def test_new_card_without_kind_in_a_many_kind_game(repo):
    plan = import_plan.dry_run(repo, "warzone", "x.csv", b"name,text\nNo Kind,hello\n")
    assert plan.rows[0].action == "skip" and "needs a kind" in plan.rows[0].problems[0]


@pytest.mark.parametrize("data,message", [
    (b"name,kind\n\"unclosed,monster\n", "line"),
    (b"name,kind\nCaf\xe9,monster\n", "line 2: byte 0xe9 is not UTF-8"),
    (b"", "empty"),
    (b"Name\tSet\n", None),
])
def test_bad_files_get_clear_messages(repo, data, message):
    if message is None:
        plan = import_plan.dry_run(repo, "seth", "carddata.txt", data)
        assert plan.rows == []
        return
    with pytest.raises(ImportFileError, match=message):
        import_plan.dry_run(repo, "seth", "x.csv", data)


def test_size_cap(repo, monkeypatch):
    from workbench.services.imports import tabular

    monkeypatch.setattr(tabular, "MAX_FILE_BYTES", 100)
    with pytest.raises(ImportFileError, match="limited"):
        import_plan.dry_run(repo, "seth", "x.csv", b"name\n" + b"x\n" * 100)
    monkeypatch.setattr(tabular, "MAX_ROWS", 2)
    monkeypatch.setattr(tabular, "MAX_FILE_BYTES", 10_000)
    with pytest.raises(ImportFileError, match="rows"):
        import_plan.dry_run(repo, "seth", "x.csv", b"name\na\nb\nc\n")


def test_duplicate_rows_are_skipped(repo):
    plan = import_plan.dry_run(repo, "seth", "x.csv", b"name,power,damage,health,speed,race,element\n"
                               b"Twin,1,1,1,fast,A,fire\nTwin,1,1,1,fast,A,fire\n")
    assert [r.action for r in plan.rows] == ["create", "create"]
    assert plan.rows[0].card_id != plan.rows[1].card_id
    plan = import_plan.dry_run(repo, "seth", "x.csv", b"id,name\nashen-drake,A\nashen-drake,B\n")
    assert plan.rows[1].action == "skip" and "already imported from row 2" in plan.rows[1].problems[0]


def test_xlsx_formulas_are_refused_never_evaluated(repo):
    import io

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["name", "power", "damage", "health", "speed", "race", "element"])
    sheet.append(["Calc Imp", 1, "=1+1", 3, "fast", "Imp", "fire"])
    sheet.append(["Plain Imp", 1, 2, 3, "fast", "Imp", "fire"])
    out = io.BytesIO()
    book.save(out)
    plan = import_plan.dry_run(repo, "seth", "f.xlsx", out.getvalue())
    calc, plain = plan.rows
    assert calc.action == "skip"
    assert calc.problems == ["row 2, column C (damage): the cell holds a formula; imports never evaluate "
                             "formulas, so paste its value"]
    assert plain.action == "create" and plain.data["damage"] == 2


def test_an_ambiguous_name_makes_a_new_card_and_says_why(repo):
    drake = repo.get_card("seth", "ashen-drake").data
    repo.create_card("seth", drake, "ashen-drake-copy")
    plan = import_plan.dry_run(repo, "seth", "x.csv", b"name,damage\nAshen Drake,1\n")
    row = plan.rows[0]
    assert row.action == "create" and row.card_id == "ashen-drake-2"
    assert any("2 cards are named 'Ashen Drake'" in p for p in row.problems)
    by_id = import_plan.dry_run(repo, "seth", "x.csv", b"id,name,damage\nashen-drake-copy,Ashen Drake,1\n")
    assert by_id.rows[0].action == "change" and by_id.rows[0].card_id == "ashen-drake-copy"
