"""Issue 13 items 2 and 13: card counts are capped wherever a list or deck is parsed, saved or
expanded, and work that costs more than a page view is not reachable with a GET.

Before the caps, ``GET /games/seth/playtest/goldfish?text=200000%20x%20…`` took 14 s and
838 MiB, 10^9 copies ran the server out of memory, and the same expansion ran in print,
playtest start and the MUSH and TTS exports. The counts used here are just over the caps
(1,000 copies, 10,001 cards), so each test fails on the old code without hurting the machine.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.web.pages_helpers import page_token
from workbench.domain.limits import LIMIT_TEXT, MAX_COPIES, MAX_DECK_CARDS, MAX_PRINT_CARDS

GAME = "seth"
CARD = "glass-wasp"
CARD_NAME = "Glass Wasp"


@pytest.fixture
def data(data_dir: Path) -> Path:
    """The private data copy the ``repo`` and ``app`` fixtures of tests/conftest.py use."""
    return data_dir


def plant_deck(data: Path, deck_id: str, zones: dict[str, dict[str, int]]) -> None:
    """A deck file written by hand (an editor, a script), bypassing every save check."""
    lines = [f"name: {deck_id}", "zones:"]
    for zone, content in zones.items():
        lines.append(f"  {zone}:")
        lines += [f"    {card}: {count}" for card, count in content.items()]
    (data / GAME / "decks" / f"{deck_id}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def other_cards(data: Path, n: int) -> list[str]:
    return sorted(p.stem for p in (data / GAME / "cards").glob("*.yaml"))[:n]


# ------------------------------------------------------------------ parsing pasted lists


@pytest.mark.parametrize("text", [f"{MAX_COPIES + 1} x {CARD_NAME}", f"{10**9} {CARD_NAME}", "9" * 5000 + " " + CARD_NAME,
                                  f"600 {CARD_NAME}\n600 {CARD_NAME}"])
def test_a_pasted_list_over_the_copy_cap_is_refused_naming_the_limit(repo, text: str) -> None:
    from workbench.services.playtest.decklist import DeckListError, parse_deck_list

    started = time.thread_time()  # CPU seconds of this thread: the bound holds on a busy machine
    with pytest.raises(DeckListError, match="at most 999 copies of a card"):
        parse_deck_list(text, repo.game(GAME), repo.card_index(GAME))
    assert time.thread_time() - started < 1.0


def test_a_pasted_list_over_the_deck_cap_is_refused(repo) -> None:
    from workbench.services.playtest.decklist import DeckListError, parse_deck_list

    cards = sorted(repo.card_index(GAME))
    per = MAX_COPIES
    lines = [f"{per} {card}" for card in cards[: MAX_DECK_CARDS // per + 1]]
    with pytest.raises(DeckListError, match="10,000 cards in a deck"):
        parse_deck_list("\n".join(lines), repo.game(GAME), repo.card_index(GAME))


# ------------------------------------------------------------------ saving


def test_saving_a_deck_over_the_caps_answers_400_and_writes_nothing(app, data: Path) -> None:
    client = app.test_client(use_cookies=False)
    for zones in ({"team": {CARD: 10**9}}, {"team": {CARD: MAX_COPIES + 1}},
                  {"team": {c: MAX_COPIES for c in other_cards(data, 11)}}):
        answer = client.post(f"/api/games/{GAME}/decks", json={"name": "Huge", "zones": zones})
        assert answer.status_code == 400, answer.get_json()
        assert LIMIT_TEXT in answer.get_json()["error"]
    assert not (data / GAME / "decks" / "huge.yaml").exists()


def test_the_repository_refuses_the_cap_for_every_caller(repo) -> None:
    from workbench.domain.limits import TooMany

    with pytest.raises(TooMany, match="at most 999 copies"):
        repo.create_deck(GAME, {"name": "Huge", "zones": {"team": {CARD: 1000}}})


def test_validation_names_the_cap_for_a_hand_edited_deck(repo, data: Path) -> None:
    from workbench.services.checks import deck_problems

    problems = deck_problems(repo, GAME, {"name": "x", "zones": {"team": {CARD: 5000}}}, None)
    assert any(p.code == "deck.count" and LIMIT_TEXT in p.message for p in problems)


# ------------------------------------------------------------------ expanding (hand-edited files)


def test_print_playtest_and_goldfish_refuse_a_hand_edited_deck_over_the_cap(app, data: Path) -> None:
    plant_deck(data, "huge", {"team": {CARD: MAX_COPIES + 1}})
    client = app.test_client()
    token = page_token(client, f"/games/{GAME}/print")
    started = time.perf_counter()
    pdf = client.post(f"/games/{GAME}/print.pdf", data={"what": "deck", "deck": "huge", "csrf_token": token})
    assert pdf.status_code == 400 and "at most 999 copies" in pdf.get_data(as_text=True)
    job = client.post(f"/games/{GAME}/print/jobs", data={"what": "deck", "deck": "huge"},
                      headers={"X-CSRF-Token": token, "Accept": "application/json"})
    assert job.status_code == 400 and "at most 999 copies" in job.get_json()["error"]
    run = client.post(f"/games/{GAME}/playtest", data={"csrf_token": token, "deck_a": "huge",
                                                       "deck_b": "rot-and-stone", "games": "2", "workers": "1"})
    assert run.status_code == 400 and "at most 999 copies" in run.get_data(as_text=True)
    fish = client.post(f"/games/{GAME}/playtest/goldfish", data={"csrf_token": token, "deck": "huge", "games": "1"})
    assert fish.status_code == 400 and "at most 999 copies" in fish.get_data(as_text=True)
    pasted = client.post(f"/games/{GAME}/playtest/goldfish",
                         data={"csrf_token": token, "text": f"200000 x {CARD_NAME}", "games": "1"})
    assert pasted.status_code == 400 and "at most 999 copies" in pasted.get_data(as_text=True)
    assert time.perf_counter() - started < 10


@pytest.mark.parametrize("fmt", ["mush", "tts"])
def test_exports_refuse_a_hand_edited_deck_over_the_cap(data: Path, tmp_path: Path, fmt: str) -> None:
    plant_deck(data, "huge", {"team": {CARD: MAX_COPIES + 1}})
    extra = ["--base-url", "https://example.org/cards/"] if fmt == "tts" else []
    done = subprocess.run([sys.executable, "-m", "workbench", "export", GAME, fmt, "--deck", "huge",
                           "--data", str(data), "-o", str(tmp_path / "out"), *extra],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "at most 999 copies" in done.stderr and "Traceback" not in done.stderr


def test_a_deck_total_over_the_cap_is_refused_before_expanding(repo, data: Path) -> None:
    from workbench.domain.limits import TooMany

    plant_deck(data, "wide", {"team": {c: MAX_COPIES for c in other_cards(data, 11)}})
    with pytest.raises(TooMany, match="10,000 cards in a deck"):
        repo.deck_cards(GAME, "wide")


def test_a_kept_matchup_with_a_huge_count_is_refused(repo) -> None:
    from workbench.services.playtest.runner import PlaytestError, matchup_from_data

    data = {"game": GAME, "engine": "seth", "cards": {CARD: {"name": CARD_NAME}},
            "deck_a": {"team": [[CARD, 10**9]]}, "deck_b": {"team": [[CARD, 1]]}, "options": {},
            "agents": ["random", "random"], "seed": 1, "label_a": "a", "label_b": "b",
            "card_ids": {"a": [CARD], "b": [CARD]}, "names": {}, "max_steps": 10}
    started = time.thread_time()  # CPU seconds of this thread: the bound holds on a busy machine
    with pytest.raises(PlaytestError, match="at most 999 copies"):
        matchup_from_data(data)
    assert time.thread_time() - started < 1.0


# ------------------------------------------------------------------ print copies (item 13)


def test_a_print_selection_over_the_copies_cap_is_refused(app) -> None:
    client = app.test_client()
    token = page_token(client, f"/games/{GAME}/print")
    started = time.perf_counter()
    answer = client.post(f"/games/{GAME}/print.pdf", data={"what": "cards", "cards": ",".join([CARD] * 150_000),
                                                           "csrf_token": token})
    assert answer.status_code == 400
    assert f"at most {MAX_PRINT_CARDS:,}" in answer.get_data(as_text=True)
    assert time.perf_counter() - started < 5


# ------------------------------------------------------------------ no costly GETs in local mode


def test_costly_work_is_not_reachable_with_a_get(app) -> None:
    """An <img src="http://127.0.0.1:5000/…"> on any page the designer visits sends a GET with
    no CSRF token: it must not render a PDF or play games."""
    client = app.test_client()
    assert client.get(f"/games/{GAME}/print.pdf?what=all").status_code == 405
    page = client.get(f"/games/{GAME}/playtest/goldfish?deck=rot-and-stone&games=300")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert 'id="goldfish-form"' in body and 'id="goldfish-speed"' not in body
    # And the POSTs need the token when they come from a browser.
    assert client.post(f"/games/{GAME}/print.pdf", data={"what": "all"},
                       headers={"Origin": "http://localhost"}).status_code == 403
    assert client.post(f"/games/{GAME}/playtest/goldfish", data={"deck": "rot-and-stone"},
                       headers={"Sec-Fetch-Site": "same-origin"}).status_code == 403


@pytest.mark.parametrize("text", [f"{MAX_COPIES + 1} {CARD_NAME}", f"{10**20} {CARD_NAME}", "9" * 5000 + " " + CARD_NAME])
def test_the_deck_builder_import_refuses_a_count_over_the_cap(app, text: str) -> None:
    client = app.test_client(use_cookies=False)
    answer = client.post(f"/games/{GAME}/deck-import", json={"text": text})
    assert answer.status_code == 400 and LIMIT_TEXT in answer.get_json()["error"]


def test_a_replay_of_a_run_file_with_a_huge_count_is_refused_quickly(app, data: Path) -> None:
    """The replay page is a GET: a run file with a planted count must not expand it."""
    import json as _json

    folder = data / GAME / "playtests"
    folder.mkdir(exist_ok=True)
    run_id = "20260101-000000-000beef"
    run = {"id": run_id, "game": GAME, "engine": "seth", "kind": "matchup", "report": {"games": 2},
           "card_data": {CARD: {"name": CARD_NAME, "kind": "monster"}},
           "deck_lists": {"a": {"team": {CARD: 10**9}}, "b": {"team": {CARD: 1}}},
           "options": {}, "agents": ["random", "random"], "seed": 1,
           "decks": {"a": {"id": "a", "name": "a"}, "b": {"id": "b", "name": "b"}}}
    (folder / f"{run_id}.json").write_text(_json.dumps(run))
    started = time.perf_counter()
    answer = app.test_client().get(f"/games/{GAME}/playtests/{run_id}/games/0")
    assert answer.status_code in (400, 409) and "at most 999 copies" in answer.get_data(as_text=True)
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize("fmt", ["lackey", "cockatrice"])
def test_an_export_of_every_deck_leaves_out_only_the_deck_over_the_cap(repo, data: Path, fmt: str) -> None:
    from workbench.services.exports.run import build

    plant_deck(data, "huge", {"team": {CARD: 10**9}})
    bundle = build(repo, GAME, fmt, renderer=None)
    notes = " ".join(bundle.notes)
    assert "deck huge was left out" in notes and "at most 999 copies" in notes
    names = " ".join(bundle.files)
    assert "rot-and-stone" in names and "skyburn-blitz" in names, names  # the other decks are exported
    assert "huge" not in names


# ------------------------------------------------------------------ card and deck sizes

def _api_token(client) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {"X-CSRF-Token": client.get("/api/csrf").get_json()["csrf_token"]}


def test_a_card_over_the_size_cap_is_one_quick_problem_and_is_not_saved(client, data: Path) -> None:
    """An ``effects`` list of 200,000 entries (3 MB, under the body cap) took ~54 s and a 462 MB
    answer to validate, and saved; now validation answers one problem naming the cap, and a
    save is refused with 400 before anything is written (shown just over the cap: 3,000
    entries of two values each)."""
    from workbench.domain.limits import MAX_CARD_VALUES

    card = {"name": "Swarm", "kind": "monster", "power": 1, "damage": 1, "health": 1,
            "effects": [{"when": "x"}] * 3_000}
    answer = client.post(f"/api/games/{GAME}/validate", json={"card": card}, headers=_api_token(client))
    assert answer.status_code == 200
    problems = answer.get_json()["problems"]
    assert [p["code"] for p in problems] == ["card.too_large"]
    assert f"{MAX_CARD_VALUES:,} values" in problems[0]["message"]
    saved = client.post(f"/api/games/{GAME}/cards", json=card, headers=_api_token(client))
    assert saved.status_code == 400 and "too large" in saved.get_json()["error"]
    assert not (data / GAME / "cards" / "swarm.yaml").exists()


def test_a_card_just_under_the_size_cap_is_still_checked_entry_by_entry(client) -> None:
    card = {"name": "Busy", "kind": "monster", "power": 1, "damage": 1, "health": 1,
            "effects": [{"when": "x"}] * 100}
    answer = client.post(f"/api/games/{GAME}/validate", json={"card": card}, headers=_api_token(client))
    codes = {p["code"] for p in answer.get_json()["problems"]}
    assert "card.too_large" not in codes and len(answer.get_json()["problems"]) >= 100


@pytest.mark.parametrize("zones,message", [
    ({f"z{i}": {CARD: 1} for i in range(51)}, "51 zones"),  # 300,000 took 11 s and a 73 MB answer
    ({"team": {f"no-card-{i}": 1 for i in range(10_001)}}, "10,001 card entries"),
])
def test_a_deck_of_too_many_zones_or_entries_is_one_problem_and_is_not_saved(client, data: Path, zones,
                                                                           message: str) -> None:
    deck = {"name": "Sprawl", "zones": zones}
    answer = client.post(f"/api/games/{GAME}/validate", json={"deck": deck}, headers=_api_token(client))
    assert answer.status_code == 200
    problems = answer.get_json()["problems"]
    assert [p["code"] for p in problems] == ["deck.too_large"] and message in problems[0]["message"]
    saved = client.post(f"/api/games/{GAME}/decks", json=deck, headers=_api_token(client))
    assert saved.status_code == 400 and message in saved.get_json()["error"]
    assert not (data / GAME / "decks" / "sprawl.yaml").exists()
