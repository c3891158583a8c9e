"""The game table through the Flask test client: start, move, AI move, hidden information, undo,
restart, replay of a playtest game, take over, ownership."""

from __future__ import annotations

import random
import re

import pytest

from tests.web.pages_helpers import json_block, page_token
from workbench.domain.engines import load_engine
from workbench.services import table as tables

@pytest.fixture(autouse=True)
def english(client):  # type: ignore[no-untyped-def]
    """These tests compare the table's words with the engines' English; fusion's pages open in
    Chinese, so the language switch's choice is English here (test_i18n_pages reads the Chinese)."""
    client.set_cookie("workbench_lang", "en")


DECKS = {"warzone": ("iron-bastion", "vanguard-rush"), "seth": ("rot-and-stone", "skyburn-blitz"),
         "fusion": ("lie-yan-ji-feng", "pan-shi-chao-xi")}


def start(client, game: str, **fields) -> str:
    token = page_token(client, f"/games/{game}/play")
    you, them = DECKS[game]
    form = {"csrf_token": token, "deck_you": you, "deck_opponent": them, "opponent": "random", "seat": "first",
            "seed": "7", **fields}
    answer = client.post(f"/games/{game}/play", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:800]
    match = re.search(rf"/games/{game}/play/([0-9a-f-]+)$", answer.headers["Location"])
    assert match
    return match.group(1)


def state(client, game: str, table_id: str, **query) -> dict:
    answer = client.get(f"/games/{game}/play/{table_id}/state", query_string=query)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    return answer.get_json()


def token_of(client) -> str:
    if not hasattr(client, "_play_token"):
        client._play_token = page_token(client, "/")
    return client._play_token


def post(client, game: str, table_id: str, what: str, body: dict, status: int = 200) -> dict:
    answer = client.post(f"/games/{game}/play/{table_id}/{what}", json=body, headers={"X-CSRF-Token": token_of(client)})
    assert answer.status_code == status, answer.get_data(as_text=True)[:800]
    return answer.get_json()


def play_out(client, game: str, table_id: str, rng: random.Random, limit: int = 5000) -> dict:
    """Play the person's seat with random legal moves and let the AI answer, to the end."""
    view = state(client, game, table_id)
    for _ in range(limit):
        if view["over"]:
            return view
        if view["moves"]:
            move = rng.choice(view["moves"])
            view = post(client, game, table_id, "move",
                        {"seat": view["seat"], "index": move["index"], "kind": move["kind"], "expect": view["decisions"]})
        else:
            view = post(client, game, table_id, "advance", {"expect": view["decisions"]})
    raise AssertionError("the game did not end")


def engine_result(table: dict) -> tuple:
    """Replay the table file's decisions straight through the engine (no table code)."""
    engine = load_engine(table["engine"])
    deck0, deck1 = tables.decks_of(table)
    state_ = engine.new_game(deck0, deck1, dict(table["options"]), int(table["seed"]))
    for decision in table["actions"]:
        chosen = {}
        for p, (kind, args) in decision["by"].items():
            args = tables.from_data(args)
            legal = [a for a in state_.legal_actions(int(p)) if a.kind == kind and a.args == args]
            chosen[int(p)] = legal[0] if legal else tables.Action(kind, args)
        if len(chosen) == 1 and len(state_.to_act()) == 1:
            state_.apply(next(iter(chosen.values())))
        else:
            state_.apply_joint(chosen)
    result = state_.result()
    return result.winner, result.reason, result.turns


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_a_whole_game_against_the_random_ai_matches_the_engine(client, game):
    table_id = start(client, game)
    page = client.get(f"/games/{game}/play/{table_id}").get_data(as_text=True)
    assert "<script>" not in page and 'id="pt-board"' in page
    view = play_out(client, game, table_id, random.Random(3))
    table = client.get(f"/games/{game}/play/{table_id}.json").get_json()
    winner, reason, turns = engine_result(table)
    kept = table["result"]
    assert (kept["winner"], kept["reason"], kept["turns"]) == (winner, reason, turns)
    assert view["result"]["winner"] == winner and view["result"]["turns"] == turns
    labels = tables.seat_labels(table)
    assert view["result"]["reason"] == re.sub(r"\bP([12])\b", lambda m: labels[int(m.group(1)) - 1], reason)
    assert view["status"].startswith("Game over")
    # AI decisions are the seeded agent's choices: a fresh agent in the same position agrees.
    ai_seat = 1
    position = tables.replay(table, 0)
    for i, decision in enumerate(table["actions"]):
        if list(decision["by"]) == [str(ai_seat)]:
            position = tables.replay(table, i)
            chosen = tables.agent_choice(table, position, ai_seat)
            assert [chosen.kind, tables.to_data(chosen.args)] == decision["by"][str(ai_seat)]
            break


def test_the_opponents_hand_and_deck_order_are_not_sent(client):
    table_id = start(client, "warzone")
    view = state(client, "warzone", table_id)
    you, them = view["board"]["players"][0], view["board"]["players"][1]
    assert you["you"] and not them["you"]
    assert all(not c.get("hidden") and c["name"] for c in you["zone"]["hand"]["cards"])
    assert them["zone"]["hand"]["count"] == 8 and all(c == {"hidden": True, "face_down": False} for c in them["zone"]["hand"]["cards"])
    assert you["zone"]["deck"]["cards"] == [] and you["zone"]["deck"]["count"] > 40
    # No instance id of the opponent's hand anywhere in the answer (warzone ids name the card).
    table = client.get(f"/games/warzone/play/{table_id}.json").get_json()
    position = tables.replay(table)
    hidden = position.engine.snapshot(position.state)["players"][1]["hand"]
    text = client.get(f"/games/warzone/play/{table_id}/state").get_data(as_text=True)
    assert hidden and not any(inst in text for inst in hidden)
    # Another seat cannot be asked for: with one person at the table, the view is theirs.
    assert state(client, "warzone", table_id, seat=1)["seat"] == 0


def test_log_and_moves_use_deck_names_card_names_and_effect_numbers_from_one(client):
    table_id = start(client, "fusion")
    view = play_out(client, "fusion", table_id, random.Random(5))
    log = "\n".join(view["log"])
    assert "P1" not in log and "P2" not in log
    assert "烈焰疾风 Blaze and Gale" in log
    assert not re.search(r"\([ab]\d+[,)]", log), "instance ids like (a4) are replaced by names"
    assert not re.search(r"effect 0", log)
    table = client.get(f"/games/fusion/play/{table_id}.json").get_json()
    texts = [t for d in table["actions"] for t in d["text"].values()]
    cards = tables._Cards({}, {})
    labels = tables.seat_labels(table)
    effect_moves = [t for t in texts if "effect 0" in t]
    if effect_moves:
        assert "Effect 1" in tables.plain(effect_moves[0], cards, labels)


def test_seth_simultaneous_choice_is_made_before_the_ai_chooses(client):
    table_id = start(client, "seth")
    view = state(client, "seth", table_id)
    while view["to_act"] != [0, 1]:
        if view["moves"]:
            view = post(client, "seth", table_id, "move", {"seat": 0, "index": 0, "expect": view["decisions"]})
        else:
            view = post(client, "seth", table_id, "advance", {"expect": view["decisions"]})
    assert view["moves"]
    assert view["status"].startswith("Your move") and "without seeing" in view["status"]
    nothing = next(m for m in view["moves"] if m["text"] == "Assign nothing")
    step = view["decisions"]
    after = post(client, "seth", table_id, "move", {"seat": 0, "index": nothing["index"], "kind": "assign", "expect": step})
    table = client.get(f"/games/seth/play/{table_id}.json").get_json()
    assert set(table["actions"][step]["by"]) == {"0", "1"}, "both choices are one joint decision"
    assert after["decisions"] == step + 1
    assert any("Rot and Stone assigns nothing" in line for line in after["log"])


def test_hot_seat_keeps_the_first_choice_hidden_until_both_have_chosen(client):
    table_id = start(client, "seth", opponent="human")
    view = state(client, "seth", table_id)
    while view["to_act"] != [0, 1]:
        view = post(client, "seth", table_id, "move", {"seat": view["next_human"], "index": 0, "expect": view["decisions"]})
    step = view["decisions"]
    assert view["next_human"] == 0
    view = post(client, "seth", table_id, "move", {"seat": 0, "index": 1, "kind": "assign", "expect": step})
    assert view["decisions"] == step and view["chosen"] == [0] and view["next_human"] == 1
    assert "waiting" in view["status"]
    second = state(client, "seth", table_id, seat=1)
    assert second["seat"] == 1 and second["moves"]
    table = client.get(f"/games/seth/play/{table_id}.json").get_json()
    assert "0" in table["pending"]
    # The first choice is nowhere in what the second player sees.
    assert table["pending"]["0"][1] and not any(table["pending"]["0"][1][0] in line for line in second["log"][-3:])
    view = post(client, "seth", table_id, "move", {"seat": 1, "index": 0, "kind": "assign", "expect": step})
    assert view["decisions"] == step + 1 and view["chosen"] == []


def test_undo_restart_and_stale_pages(client):
    table_id = start(client, "warzone")
    rng = random.Random(1)
    view = state(client, "warzone", table_id)
    for _ in range(12):
        if view["moves"]:
            move = rng.choice(view["moves"])
            view = post(client, "warzone", table_id, "move", {"seat": 0, "index": move["index"], "kind": move["kind"], "expect": view["decisions"]})
        else:
            view = post(client, "warzone", table_id, "advance", {"expect": view["decisions"]})
    assert view["undo"], "your earlier decisions are listed"
    before = client.get(f"/games/warzone/play/{table_id}.json").get_json()
    target = view["undo"][-1]["step"]  # the oldest of your decisions
    # A page that shows an older position is refused, with the current view.
    stale = post(client, "warzone", table_id, "move", {"seat": 0, "index": 0, "expect": 0}, status=409)
    assert stale["decisions"] == view["decisions"] and "error" in stale
    undone = post(client, "warzone", table_id, "undo", {"step": target})
    assert undone["decisions"] == target
    rebuilt = tables.view(before, tables.replay(before, target), 0)
    assert undone["log"] == rebuilt["log"] and [m["text"] for m in undone["moves"]] == [m["text"] for m in rebuilt["moves"]]
    again = post(client, "warzone", table_id, "restart", {})
    assert again["decisions"] == 0
    assert again["log"] == state(client, "warzone", table_id)["log"]


def test_a_playtest_game_opens_as_a_replay_and_can_be_taken_over(client):
    from tests.web.test_playtest_views import start as start_run, wait_done

    token = page_token(client, "/games/seth/playtest")
    run_id = start_run(client, token, games="4")
    wait_done(client, "seth", run_id)
    answer = client.post(f"/games/seth/playtests/{run_id}/games/1/table", data={"csrf_token": token})
    assert answer.status_code == 303
    table_id = answer.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/games/seth/play/{table_id}").get_data(as_text=True)
    initial = json_block(page, "pt-initial")
    assert initial["kind"] == "replay" and initial["seat"] is None and initial["step"] == 0
    assert initial["moves"] == []
    total = initial["decisions"]
    assert total > 3
    end = state(client, "seth", table_id, step=total)
    assert end["over"] and end["step"] == total
    # The replay's result is the playtest's result for that game.
    run = client.get(f"/api/games/seth/playtests/{run_id}").get_json()
    record = next(g for g in run["report"]["records"] if g["index"] == 1) if run["report"].get("records") else None
    if record:
        seat_a = record["a_seat"]
        expected = None if record["winner"] is None else (seat_a if record["winner"] == "a" else 1 - seat_a)
        assert end["result"]["winner"] == expected
    middle = state(client, "seth", table_id, step=3)
    assert middle["step"] == 3 and not middle["over"]
    # Nobody can move in a replay.
    post(client, "seth", table_id, "move", {"seat": 0, "index": 0, "expect": total}, status=400)
    took = client.post(f"/games/seth/play/{table_id}/takeover",
                       data={"csrf_token": token, "step": "3", "seat": "0", "opponent": "random"})
    assert took.status_code == 303
    new_id = took.headers["Location"].rsplit("/", 1)[1]
    view = state(client, "seth", new_id)
    assert view["kind"] == "game" and view["decisions"] == 3 and view["seat"] == 0
    assert view["log"] == middle["log"]


def test_get_never_plays_and_every_change_needs_the_csrf_token(client, app):
    table_id = start(client, "warzone", seat="second")
    first = state(client, "warzone", table_id)
    assert first["seat"] == 1 and first["decisions"] == 0 and first["waiting_for"] == [0]
    client.get(f"/games/warzone/play/{table_id}")
    assert state(client, "warzone", table_id)["decisions"] == 0, "a GET does not let the AI move"
    answer = client.post(f"/games/warzone/play/{table_id}/advance", json={"expect": 0},
                         headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"})
    assert answer.status_code == 403
    assert post(client, "warzone", table_id, "advance", {"expect": 0})["decisions"] == 1


def test_saved_games_are_listed_and_survive_a_new_app(client, app, data_dir, tmp_path):
    table_id = start(client, "fusion")
    view = state(client, "fusion", table_id)
    while not view["moves"]:
        view = post(client, "fusion", table_id, "advance", {"expect": view["decisions"]})
    move = view["moves"][0]
    view = post(client, "fusion", table_id, "move", {"seat": 0, "index": move["index"], "kind": move["kind"], "expect": view["decisions"]})
    listing = client.get("/games/fusion/play").get_data(as_text=True)
    assert f"/games/fusion/play/{table_id}" in listing
    # when it was last played, as the history pages write a time (not the file's raw ISO text)
    stamp = re.search(r'<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)">([^<]+)</time>', listing)
    assert stamp and stamp.group(2) == stamp.group(1)[:16].replace("T", " ") + " UTC"
    from workbench.web import create_app

    fresh = create_app({"TESTING": True, "DATA_DIR": str(data_dir), "EXPORT_DIR": str(tmp_path / "x"), "SECRET_KEY": "k2"})
    with fresh.test_client() as other:
        other.set_cookie("workbench_lang", "en")
        again = other.get(f"/games/fusion/play/{table_id}/state").get_json()
    assert again["decisions"] >= 1 and again["log"][: len(view["log"])] == view["log"]


def test_unknown_tables_and_bad_input(client):
    assert client.get("/games/warzone/play/nope").status_code == 404
    assert client.get("/games/warzone/play/20260101-000000-000abcd").status_code == 404
    token = page_token(client, "/games/warzone/play")
    bad = client.post("/games/warzone/play", data={"csrf_token": token, "deck_you": "iron-bastion",
                                                   "deck_opponent": "vanguard-rush", "seed": "x"})
    assert bad.status_code == 400 and "seed" in bad.get_data(as_text=True)
    table_id = start(client, "warzone")
    post(client, "warzone", table_id, "move", {"seat": 0, "index": 999, "expect": 0}, status=400)
    post(client, "warzone", table_id, "move", {"seat": 1, "index": 0, "expect": 0}, status=400)


def test_a_rule_option_typed_wrong_is_named_by_its_label_in_english_and_chinese(client):
    """It read 'rule option start_life must be a integer': the key, and 'a integer'."""
    token = page_token(client, "/games/warzone/play")
    sent = {"csrf_token": token, "deck_you": "iron-bastion", "deck_opponent": "vanguard-rush", "opt_start_life": "abc"}
    english = client.post("/games/warzone/play", data=sent)
    error = re.search(r'id="play-error">(.*?)</p>', english.get_data(as_text=True)).group(1)
    assert english.status_code == 400
    assert error == "rule option Starting Life Points (start_life) must be an integer, not &#39;abc&#39;", error
    client.set_cookie("workbench_lang", "zh")  # this module's pages are English (the fixture above)
    chinese = client.post("/games/warzone/play", data=sent)
    error = re.search(r'id="play-error">(.*?)</p>', chinese.get_data(as_text=True)).group(1)
    assert error == "规则选项 Starting Life Points（start_life）必须是整数，而不是 &#39;abc&#39;", error


def test_a_seth_line_up_the_table_refuses_names_the_deck_and_reads_chinese(client, repo):
    """It read 'P1 brings 0 monsters; a line-up has exactly 5 (§2.2.1)', in Chinese too but for
    the prefix: the seat instead of the deck, and the engine's reason in English."""
    repo.create_deck("seth", {"name": "Four Wings", "format": "standard", "zones": {"team": {
        "glass-wasp": 1, "ashen-drake": 1, "cinder-imp": 1, "plague-moth": 1}}}, deck_id="four")
    token = page_token(client, "/games/seth/play")
    sent = {"csrf_token": token, "deck_you": "rot-and-stone", "deck_opponent": "four", "seat": "second"}
    english = client.post("/games/seth/play", data=sent)
    error = re.search(r'id="play-error">(.*?)</p>', english.get_data(as_text=True)).group(1)
    assert english.status_code == 400
    assert error == ("these decks cannot be played: deck &#39;Four Wings&#39; brings 4 monsters; a line-up has "
                     "exactly 5 (§2.2.1)"), error
    client.set_cookie("workbench_lang", "zh")
    chinese = client.post("/games/seth/play", data=dict(sent, seat="first"))
    error = re.search(r'id="play-error">(.*?)</p>', chinese.get_data(as_text=True)).group(1)
    assert error == "这些卡组无法对战：卡组 &#39;Four Wings&#39; 带了 4 只怪兽；阵容必须正好 5 只（§2.2.1）", error


def test_team_mode_viewers_play_and_a_game_belongs_to_its_user(data_dir, tmp_path):
    from tests.security.helpers import login, team_app

    app = team_app(data_dir, tmp_path)
    vera, alice = app.test_client(), app.test_client()
    assert login(vera, "vera").status_code == 302 and login(alice, "alice").status_code == 302
    table_id = start(vera, "warzone")  # a viewer may start a game …
    view = state(vera, "warzone", table_id)
    move = view["moves"][0]
    after = post(vera, "warzone", table_id, "move", {"seat": 0, "index": move["index"], "kind": move["kind"], "expect": 0})
    assert after["decisions"] == 1  # … and play it
    table = vera.get(f"/games/warzone/play/{table_id}.json").get_json()
    assert table["owner"] == "vera"
    assert f"/play/{table_id}" in vera.get("/games/warzone/play").get_data(as_text=True)
    # Another user does not see it, cannot open it, cannot move in it.
    assert f"/play/{table_id}" not in alice.get("/games/warzone/play").get_data(as_text=True)
    for path in ("", "/state", ".json"):
        assert alice.get(f"/games/warzone/play/{table_id}{path}").status_code == 404
    answer = alice.post(f"/games/warzone/play/{table_id}/move", json={"seat": 0, "index": 0, "expect": 1},
                        headers={"X-CSRF-Token": token_of(alice)})
    assert answer.status_code == 404
    assert len(vera.get(f"/games/warzone/play/{table_id}.json").get_json()["actions"]) == 1


def test_fusion_face_down_cards_of_the_opponent_stay_hidden(client):
    table_id = start(client, "fusion", seed="3")
    rng = random.Random(9)
    view = state(client, "fusion", table_id)
    for _ in range(400):
        them = view["board"]["players"][1]
        down = [c for z in ("creatures", "magic") for c in them["zone"][z]["cards"] if c.get("hidden")]
        if down or view["over"]:
            break
        if view["moves"]:
            move = rng.choice(view["moves"])
            view = post(client, "fusion", table_id, "move", {"seat": 0, "index": move["index"], "kind": move["kind"], "expect": view["decisions"]})
        else:
            view = post(client, "fusion", table_id, "advance", {"expect": view["decisions"]})
    assert down, "the random AI set a card face down"
    assert all(set(c) <= {"hidden", "face_down", "attrs"} for c in down)
    assert all(set(c.get("attrs", {})) <= set(tables.FACE_DOWN_PUBLIC) for c in down)
    # Which cards those are is nowhere in the answer: not on the board, not in the log, not in the moves.
    table = client.get(f"/games/fusion/play/{table_id}.json").get_json()
    position = tables.replay(table)
    s = position.state
    secret = [s.names[i] for i in s.crea[1] + s.magic[1] if i in s.down]
    names = {s.cards[s.names.index(n)].name for n in secret}
    visible_copies = {c["name"] for p in view["board"]["players"] for z in p["zones"] for c in z["cards"] if c.get("name")}
    text = client.get(f"/games/fusion/play/{table_id}/state").get_data(as_text=True)
    for inst in secret:
        assert f'"inst":"{inst}"' not in text.replace(" ", "")
    for name in names - visible_copies:
        assert name not in "\n".join(view["log"]) and name not in str(view["moves"])
    assert any("face-down card" in line for line in view["log"])


def test_seth_damage_can_be_split_freely_and_the_engine_checks_the_sums(client):
    for seed in range(1, 12):
        table_id = start(client, "seth", seed=str(seed))
        rng = random.Random(seed)
        view = state(client, "seth", table_id)
        while not view["over"] and not (view["split"] and len(view["split"]["targets"]) >= 2):
            if view["moves"]:
                move = rng.choice(view["moves"])
                view = post(client, "seth", table_id, "move", {"seat": 0, "index": move["index"], "kind": move["kind"], "expect": view["decisions"]})
            else:
                view = post(client, "seth", table_id, "advance", {"expect": view["decisions"]})
        if not view["over"]:
            break
    split = view["split"]
    assert split and len(split["targets"]) >= 2, "a split with two targets came up"
    page = client.get(f"/games/seth/play/{table_id}").get_data(as_text=True)
    assert 'id="pt-split"' in page
    element, amount = next(iter(split["total"].items()))
    first, second = split["targets"][0]["inst"], split["targets"][1]["inst"]
    wrong = [[first, element, amount + 1]]
    refused = post(client, "seth", table_id, "move", {"seat": 0, "kind": "split", "args": wrong, "expect": view["decisions"]}, status=400)
    assert "error" in refused
    parts = [[first, element, amount - 1], [second, element, 1]] if amount > 1 else [[second, element, amount]]
    for other, value in list(split["total"].items())[1:]:
        parts.append([first, other, value])
    step = view["decisions"]
    after = post(client, "seth", table_id, "move", {"seat": 0, "kind": "split", "args": parts, "expect": step})
    assert after["decisions"] >= step + 1
    table = client.get(f"/games/seth/play/{table_id}.json").get_json()
    assert table["actions"][step]["by"]["0"][0] == "split"


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_every_ai_player_of_the_engine_is_offered_and_plays(client, game):
    engine = load_engine(game)
    page = client.get(f"/games/{game}/play").get_data(as_text=True)
    for name in engine.agents:
        assert f'<option value="{name}"' in page
    assert '<option value="human"' in page
    for name in engine.agents:
        table_id = start(client, game, opponent=name, seat="second")
        view = state(client, game, table_id)
        for _ in range(4):
            if view["over"]:
                break
            if view["moves"]:
                move = view["moves"][-1]
                view = post(client, game, table_id, "move", {"seat": 1, "index": move["index"], "kind": move["kind"], "expect": view["decisions"]})
            else:
                view = post(client, game, table_id, "advance", {"expect": view["decisions"]})
        table = client.get(f"/games/{game}/play/{table_id}.json").get_json()
        assert table["seats"][0]["player"] == name and any("0" in d["by"] for d in table["actions"]), name


def test_warzone_set_traps_show_to_their_owner_only(client):
    table_id = start(client, "warzone", opponent="human")
    view = state(client, "warzone", table_id)
    for _ in range(60):
        seat = view["next_human"]
        view = state(client, "warzone", table_id, seat=seat)
        sets = [m for m in view["moves"] if m["kind"] == "set"]
        move = sets[0] if sets and seat == 0 else view["moves"][-1]
        view = post(client, "warzone", table_id, "move", {"seat": seat, "index": move["index"], "kind": move["kind"], "expect": view["decisions"]})
        if sets and seat == 0:
            break
    else:
        raise AssertionError("seat 1 never had a trap to set")
    own = state(client, "warzone", table_id, seat=0)["board"]["players"][0]["zone"]["traps"]["cards"]
    assert own and not own[0].get("hidden") and own[0]["name"] in sets[0]["text"]
    other = state(client, "warzone", table_id, seat=1)
    theirs = other["board"]["players"][0]["zone"]["traps"]
    assert theirs["count"] == len(own) and all(c.get("hidden") for c in theirs["cards"])
    assert own[0]["inst"] not in client.get(f"/games/warzone/play/{table_id}/state?seat=1").get_data(as_text=True)
    assert any("sets a trap face down" in line for line in other["log"])


def test_a_replay_step_past_the_game_is_a_json_error_the_table_can_show(client):
    from tests.web.test_playtest_views import start as start_run, wait_done

    token = page_token(client, "/games/seth/playtest")
    run_id = start_run(client, token, games="2")
    wait_done(client, "seth", run_id)
    table_id = client.post(f"/games/seth/playtests/{run_id}/games/0/table",
                           data={"csrf_token": token}).headers["Location"].rsplit("/", 1)[1]
    from workbench.web.i18n import COOKIE

    client.set_cookie(COOKIE, "zh")  # seth's game.yaml declares English: the reader's own choice
    answer = client.get(f"/games/seth/play/{table_id}/state", query_string={"step": 5000})
    assert answer.status_code == 400 and answer.is_json
    assert answer.get_json()["error"].startswith("step must be between 0 and ")
    assert answer.get_json()["error_text"] != answer.get_json()["error"]  # in the reader's language


def test_play_with_this_deck_preselects_that_deck(client):
    """The deck builder's *Play with this deck* (``/play?deck=ID``) opens the form with that deck as
    yours and another deck as the opponent's."""
    builder = client.get("/games/warzone/decks/vanguard-rush/edit").get_data(as_text=True)
    link = re.search(r'href="([^"]*/play\?deck=vanguard-rush)"', builder)
    assert link, "the deck builder links to the table with its deck"
    body = client.get(link.group(1)).get_data(as_text=True)
    you = re.search(r'<select id="deck_you".*?</select>', body, re.S).group(0)
    opponent = re.search(r'<select id="deck_opponent".*?</select>', body, re.S).group(0)
    assert re.findall(r'<option value="([^"]+)" selected', you) == ["vanguard-rush"]
    assert re.findall(r'<option value="([^"]+)" selected', opponent) == ["iron-bastion"]
    plain = client.get("/games/warzone/play").get_data(as_text=True)  # without ?deck= the defaults stay
    you = re.search(r'<select id="deck_you".*?</select>', plain, re.S).group(0)
    assert re.findall(r'<option value="([^"]+)" selected', you) == ["iron-bastion"]


@pytest.mark.parametrize("game", ["warzone", "fusion", "seth"])
def test_each_move_answers_the_view_a_fresh_replay_draws(client, game, monkeypatch):
    """A move or an AI step replays the table once and answers with the view of the position it
    played on: the same view, board, moves, log and undo list as the table replayed afresh."""
    table_id = start(client, game)
    rng = random.Random(5)
    view = state(client, game, table_id)
    replays: list[int] = []
    real_replay = tables.replay
    monkeypatch.setattr(tables, "replay", lambda *a, **k: replays.append(1) or real_replay(*a, **k))
    for _ in range(80):
        if view["over"]:
            break
        replays.clear()
        if view["moves"]:
            move = rng.choice(view["moves"])
            view = post(client, game, table_id, "move", {"seat": view["seat"], "index": move["index"],
                                                         "kind": move["kind"], "expect": view["decisions"]})
        else:
            view = post(client, game, table_id, "advance", {"expect": view["decisions"]})
        assert len(replays) == 1, "a move replays the table once"
        assert view == state(client, game, table_id, seat=view["seat"])


def test_a_card_file_holding_a_date_plays_on_the_table(client, data_dir):
    """YAML reads ``printed: 2026-01-01`` as a date, which the table's JSON file cannot hold:
    starting a game was a 500. The card keeps the date as the text written."""
    import yaml

    deck = yaml.safe_load((data_dir / "warzone" / "decks" / "iron-bastion.yaml").read_text(encoding="utf-8"))
    card_id = next(iter(next(iter(deck["zones"].values()))))
    card_file = data_dir / "warzone" / "cards" / f"{card_id}.yaml"
    card_file.write_text(card_file.read_text(encoding="utf-8") + "\nprinted: 2026-01-01\n", encoding="utf-8")
    table_id = start(client, "warzone")
    assert state(client, "warzone", table_id)["decisions"] == 0
    saved = client.get(f"/games/warzone/play/{table_id}.json").get_json()
    assert saved["card_data"][card_id]["printed"] == "2026-01-01"


def test_warzone_waits_for_areas_and_heal_triggers_in_words(client):
    """The table's note of what the game waits for said "Iron Bastion: areas" (the engine's word,
    in Chinese too) at the start of every warzone game, and "…: heal" for a heal trigger."""
    table_id = start(client, "warzone")
    board = state(client, "warzone", table_id)["board_html"]
    assert '<p class="pt-pending" role="note">Iron Bastion places its Areas, one in each row (§1.3.2)</p>' in board
    client.set_cookie("workbench_lang", "zh")
    board = state(client, "warzone", table_id)["board_html"]
    assert "Iron Bastion 放置地域，每排一张（§1.3.2）" in board and ": areas" not in board
    client.set_cookie("workbench_lang", "en")
    heal = tables._pending_text({"kind": "heal", "player": 1}, None, ["Iron Bastion", "Vanguard Rush"])
    assert heal == ("Vanguard Rush's heal trigger: choose a card of its Damage Pile to move to its Discard Pile "
                    "(§1.12.5)")
