"""Playtest runs kept under the data folder, with their decks' versions, and what changed between runs."""

from __future__ import annotations

import pytest

from workbench.domain.errors import InvalidId, NotFound
from workbench.storage.playtest_runs import RunStore, changes_between, new_run_id


def run(deck_version: str, card_version: str, rate: float, b: str = "skyburn-blitz") -> dict:
    return {
        "kind": "matchup",
        "decks": {"a": {"id": "rot-and-stone", "name": "Rot", "version": deck_version},
                  "b": {"id": b, "name": "B", "version": "v"}},
        "card_versions": {"bog-lurker": card_version, "glass-wasp": "w1"},
        "report": {"games": 10, "win_rate_a": {"value": rate, "ci95": [0, 1]}},
    }


def test_runs_are_saved_listed_newest_first_and_read_back(repo):
    store = RunStore(repo)
    first = store.save("seth", run("d1", "c1", 0.4), "20261130-100000-000aaaa")
    second = store.save("seth", run("d1", "c2", 0.6), "20261130-110000-000bbbb")
    assert (repo.game_dir("seth") / "playtests" / f"{first}.json").is_file()
    assert [s["id"] for s in store.list("seth")] == [second, first]
    assert store.list("seth")[0]["win_rate_a"] == 0.6
    assert store.get("seth", first)["report"]["games"] == 10
    assert store.list("warzone") == []


def test_previous_run_is_the_last_earlier_run_of_the_same_decks(repo):
    store = RunStore(repo)
    store.save("seth", run("d1", "c1", 0.4), "20261130-100000-000aaaa")
    store.save("seth", run("d1", "c1", 0.9, b="other"), "20261130-103000-000cccc")
    latest = store.save("seth", run("d2", "c2", 0.6), "20261130-110000-000bbbb")
    previous = store.previous("seth", latest)
    assert previous is not None and previous["id"] == "20261130-100000-000aaaa"
    assert store.previous("seth", "20261130-100000-000aaaa") is None


def test_changes_between_runs_name_the_edited_cards_and_decks(repo):
    change = changes_between(run("d1", "c1", 0.4), run("d2", "c2", 0.55))
    assert change["decks"] == ["a"]
    assert change["cards"]["changed"] == ["bog-lurker"]
    assert change["win_rate_a"]["delta"] == pytest.approx(0.15)


def test_run_ids_are_checked_and_missing_runs_are_not_found(repo):
    store = RunStore(repo)
    with pytest.raises(InvalidId):
        store.get("seth", "../../etc/passwd")
    with pytest.raises(NotFound):
        store.get("seth", new_run_id())
    with pytest.raises(NotFound):
        store.save("nope", run("d", "c", 0.5))


def test_live_run_files_are_kept_apart_from_finished_runs_and_removed_together(repo):
    from workbench.storage.playtest_runs import LiveRuns

    live = LiveRuns(repo)
    older, newer = "20261130-100000-000aaaa", "20261130-110000-000bbbb"
    live.write_state("seth", older, {"status": "running", "done": 4})
    live.write_state("seth", newer, {"status": "cancelled", "done": 8})
    live.write_spec("seth", newer, {"kind": "matchup", "games": 10})
    live.write_partial("seth", newer, {"done": 8})
    assert [s["id"] for s in live.states("seth")] == [newer, older]  # newest first, specs not listed
    assert live.state("seth", newer)["game"] == "seth" and live.spec("seth", newer)["games"] == 10
    assert RunStore(repo).list("seth") == []  # live files are not finished runs
    assert not live.cancel_requested("seth", older)
    live.request_cancel("seth", older)
    assert live.cancel_requested("seth", older)
    live.clear_cancel("seth", older)
    assert not live.cancel_requested("seth", older)
    live.remove("seth", newer)
    assert live.state("seth", newer) is None and live.spec("seth", newer) is None and live.partial("seth", newer) is None
    assert live.state("seth", "20261130-120000-000cccc") is None
    with pytest.raises(InvalidId):
        live.state("seth", "../../etc/passwd")
