"""Playtest pages through the Flask test client: start, progress, report, replay, compare."""

from __future__ import annotations

import re
import time

from tests.web.pages_helpers import page_token


def wait_done(client, game: str, run_id: str, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        progress = client.get(f"/api/games/{game}/playtests/{run_id}/progress").get_json()
        if progress["status"] != "running":
            return progress
        time.sleep(0.05)
    raise AssertionError("the playtest did not finish in time")


def start(client, token: str, **fields) -> str:
    form = {"csrf_token": token, "deck_a": "rot-and-stone", "deck_b": "skyburn-blitz", "agent_a": "heuristic",
            "agent_b": "heuristic", "games": "40", "seed": "5", "workers": "1", **fields}
    answer = client.post("/games/seth/playtest", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    match = re.search(r"/games/seth/playtests/([0-9a-f-]+)$", answer.headers["Location"])
    assert match
    return match.group(1)


def test_form_lists_decks_agents_and_rule_options(client):
    body = client.get("/games/seth/playtest").get_data(as_text=True)
    assert 'value="rot-and-stone"' in body and 'value="skyburn-blitz"' in body
    assert 'value="heuristic"' in body and 'value="random"' in body
    assert 'name="opt_power_limit"' in body and 'name="csrf_token"' in body
    assert "<script>" not in body  # CSP: no inline scripts


def test_start_progress_report_and_replay(client):
    token = page_token(client, "/games/seth/playtest")
    run_id = start(client, token, workers="2")  # a spawned process pool inside the server thread
    progress = wait_done(client, "seth", run_id)
    assert progress["status"] == "done" and progress["done"] == progress["total"] == 40

    report = client.get(f"/games/seth/playtests/{run_id}")
    body = report.get_data(as_text=True)
    assert report.status_code == 200
    assert 'id="chart-win-rate"' in body and 'id="chart-length"' in body and 'id="card-table"' in body
    run = client.get(f"/api/games/seth/playtests/{run_id}").get_json()
    assert run["decks"]["a"]["id"] == "rot-and-stone" and run["decks"]["a"]["version"]
    assert run["report"]["games"] == 40 and run["seed"] == 5
    # no plurals to get wrong ("19 wins · 1 losses"): won, lost, drawn
    assert f'Deck A: <span id="wins-a">{run["report"]["wins_a"]}</span> won · ' in body and " losses · " not in body

    replay = client.get(f"/games/seth/playtests/{run_id}/games/3")
    text = replay.get_data(as_text=True)
    assert replay.status_code == 200
    record = run["report"]["records"][3]
    assert str(record["seed"]) in text and "<li>" in text
    expected = {"a": "deck A won", "b": "deck B won", None: "a draw"}[record["winner"]]
    assert expected in text
    assert client.get(f"/games/seth/playtests/{run_id}/games/40").status_code == 404


def test_json_start_with_options_and_a_second_run_is_compared_with_the_first(client):
    token = page_token(client, "/games/seth/playtest")
    first = start(client, token)
    wait_done(client, "seth", first)
    answer = client.post("/games/seth/playtest", headers={"X-CSRF-Token": token}, json={
        "deck_a": "rot-and-stone", "deck_b": "skyburn-blitz", "games": 20, "seed": 5, "workers": 1,
        "options": {"max_rounds": 3}, "early_stop": "none",
    })
    assert answer.status_code == 202
    second = answer.get_json()["id"]
    assert wait_done(client, "seth", second)["status"] == "done"
    run = client.get(f"/api/games/seth/playtests/{second}").get_json()
    assert run["options"]["max_rounds"] == 3 and run["overrides"] == {"max_rounds": 3}
    body = client.get(f"/games/seth/playtests/{second}").get_data(as_text=True)
    assert 'id="compare"' in body and first in body


def test_bad_requests_are_refused_with_a_message_and_start_nothing(client):
    token = page_token(client, "/games/seth/playtest")
    bad_option = client.post("/games/seth/playtest", data={"csrf_token": token, "deck_a": "rot-and-stone",
                                                           "deck_b": "skyburn-blitz", "opt_power_limit": "lots"})
    assert bad_option.status_code == 400 and "power_limit" in bad_option.get_data(as_text=True)
    bad_list = client.post("/games/seth/playtest", data={"csrf_token": token, "deck_a": "rot-and-stone",
                                                         "deck_b_text": "2 Nobody"})
    assert bad_list.status_code == 400 and "no card named" in bad_list.get_data(as_text=True)
    too_many = client.post("/games/seth/playtest", headers={"X-CSRF-Token": token},
                           json={"deck_a": "rot-and-stone", "deck_b": "skyburn-blitz", "games": 10**9})
    assert too_many.status_code == 400
    no_token = client.post("/games/seth/playtest", data={"deck_a": "rot-and-stone", "deck_b": "skyburn-blitz"})
    assert no_token.status_code == 403
    assert client.get("/games/seth/playtests/20990101-000000-000abcd").status_code == 404
    assert client.get("/games/seth/playtests/..%2Fetc").status_code == 404


def test_a_running_job_shows_the_progress_page(app, client):
    from tests.services.playtest import race_engine
    from workbench.services.playtest.runner import Matchup
    from workbench.web.playtest_views import jobs

    release = __import__("threading").Event()

    def slow_runner(matchup, games, workers, **kwargs):
        kwargs["progress"](10, games)
        release.wait(10)
        from workbench.services.playtest.runner import run_matchup
        return run_matchup(matchup, games, 1, stop_rule=kwargs.get("stop_rule"))

    m = Matchup(game="seth", engine=race_engine.ENGINE_NAME, deck_a=race_engine.deck(1), deck_b=race_engine.deck(0),
                options={}, seed=1)
    with app.app_context():
        job = jobs().start(m, {"decks": {"a": {"id": None, "name": "x", "version": None},
                                         "b": {"id": None, "name": "y", "version": None}}}, 40, runner=slow_runner)
    time.sleep(0.1)
    page = client.get(f"/games/seth/playtests/{job.id}").get_data(as_text=True)
    assert 'id="playtest-progress"' in page and 'id="pt-bar"' in page
    progress = client.get(f"/api/games/seth/playtests/{job.id}/progress").get_json()
    assert progress["status"] == "running" and progress["done"] == 10 and progress["total"] == 40
    release.set()
    assert wait_done(client, "seth", job.id)["status"] == "done"


def test_goldfish_page_shows_opening_hand_odds_and_speed(client):
    client.set_cookie("workbench_lang", "en")  # fusion's pages are Chinese; test_i18n_pages reads them so
    token = page_token(client, "/games/fusion/playtest/goldfish")
    url = "/games/fusion/playtest/goldfish"
    body = client.post(url, data={"csrf_token": token, "deck": "lie-yan-ji-feng", "games": "5", "seed": "2"}
                       ).get_data(as_text=True)
    assert 'id="goldfish-hands"' in body and 'id="goldfish-speed"' in body
    assert "5 cards from" in body and "up to 3 mulligans" in body  # RULES §3.1.5 via game.yaml play:
    seth = client.post("/games/seth/playtest/goldfish", data={"csrf_token": token, "deck": "rot-and-stone",
                                                              "games": "3"}).get_data(as_text=True)
    assert "deals no opening hand" in seth
    bad = client.post(url, data={"csrf_token": token, "text": "2 Nobody"})
    assert bad.status_code == 400 and "no card named" in bad.get_data(as_text=True)
    # A GET only shows the form (a link or <img> from another site must not start games).
    form = client.get(url + "?deck=lie-yan-ji-feng&games=5").get_data(as_text=True)
    assert 'id="goldfish-form"' in form and 'id="goldfish-hands"' not in form


def test_goldfish_of_a_game_without_mulligans_says_so_instead_of_up_to_0(client):
    token = page_token(client, "/games/warzone/playtest/goldfish")
    body = client.post("/games/warzone/playtest/goldfish", data={"csrf_token": token, "deck": "iron-bastion",
                                                                 "games": "2", "seed": "2"},
                       headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'id="goldfish-hands"' in body
    assert "up to 0 mulligan" not in body and "Mulligans taken" not in body
    assert "has no mulligans, so the first hand is always kept" in body


def test_goldfish_refuses_numbers_out_of_range_or_not_whole_keeping_what_was_typed(client):
    """0 or 500 games were cut to 1 or 300 in silence, and text reset both fields to 100 and 0."""
    client.set_cookie("workbench_lang", "en")
    url = "/games/fusion/playtest/goldfish"
    token = page_token(client, url)
    sent = {"csrf_token": token, "deck": "lie-yan-ji-feng", "text": "", "seed": "7"}
    for games, message in (("0", "games must be between 1 and 300, not 0"),
                           ("500", "games must be between 1 and 300, not 500"),
                           ("abc", "games must be a whole number, not &#39;abc&#39;")):
        answer = client.post(url, data=dict(sent, games=games))
        body = answer.get_data(as_text=True)
        assert answer.status_code == 400 and message in body, games
        assert f'name="games" type="number" min="1" max="300" value="{games}"' in body
        assert 'name="seed" type="number" min="0" value="7"' in body and 'id="goldfish-speed"' not in body
    seed = client.post(url, data=dict(sent, games="5", seed="-1")).get_data(as_text=True)
    assert "seed must be between 0 and" in seed and 'value="-1"' in seed and 'value="5"' in seed
    client.set_cookie("workbench_lang", "zh")
    chinese = client.post(url, data=dict(sent, games="0")).get_data(as_text=True)
    assert "必须在 1 到 300 之间" in chinese
    client.set_cookie("workbench_lang", "en")
    one = client.post(url, data=dict(sent, games="1")).get_data(as_text=True)
    assert re.search(r"\b1 game: the deck wins", one) and "1 games" not in one


def test_goldfish_refuses_a_line_up_the_engine_cannot_set_up_naming_the_deck(client):
    """The goldfish's deck sits in both seats; the engine's reason said "P1 brings 4 monsters",
    a seat the designer never chose (the playtest form and the table name the deck)."""
    four = "1 Kilnstone Golem\n1 Sunscale Basilisk\n1 Plague Herald\n1 Quillback Urchin"
    client.set_cookie("workbench_lang", "en")
    token = page_token(client, "/games/seth/playtest/goldfish")
    answer = client.post("/games/seth/playtest/goldfish", data={"csrf_token": token, "text": four, "games": "5"})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 400
    assert ("this deck cannot be played: deck &#39;Pasted list&#39; brings 4 monsters; a line-up has exactly 5 "
            "(§2.2.1)") in body and "P1" not in body
    assert "1 Quillback Urchin</textarea>" in body  # the list stays as typed
    client.set_cookie("workbench_lang", "zh")
    body = client.post("/games/seth/playtest/goldfish", data={"csrf_token": token, "text": four}).get_data(as_text=True)
    assert "这个卡组无法对战：" in body and "P1" not in body
    assert "粘贴的列表" in body and "Pasted list" not in body  # the pasted deck's name in Chinese too
    client.set_cookie("workbench_lang", "en")


def test_gauntlet_runs_in_the_background_and_shows_one_row_per_opponent(client):
    token = page_token(client, "/games/seth/playtest/gauntlet")
    answer = client.post("/games/seth/playtest/gauntlet", data={"csrf_token": token, "deck": "rot-and-stone",
                                                                "games": "10", "seed": "1", "workers": "1"})
    assert answer.status_code == 303
    run_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert wait_done(client, "seth", run_id)["status"] == "done"
    body = client.get(f"/games/seth/playtests/{run_id}").get_data(as_text=True)
    assert 'id="gauntlet-table"' in body and "Skyburn Blitz" in body
    run = client.get(f"/api/games/seth/playtests/{run_id}").get_json()
    assert run["kind"] == "gauntlet" and [r["opponent"] for r in run["report"]["rows"]] == ["skyburn-blitz"]
    assert run["report"]["games"] == 10


def test_report_shows_pairs_first_player_seth_facts_and_a_report_of_the_previous_version_still_opens(client, repo):
    from workbench.storage.playtest_runs import RunStore

    token = page_token(client, "/games/seth/playtest")
    run_id = start(client, token)
    assert wait_done(client, "seth", run_id)["status"] == "done"
    body = client.get(f"/games/seth/playtests/{run_id}").get_data(as_text=True)
    assert 'id="pairs"' in body and "seed pairs" in body and 'id="going-first"' in body
    assert "Survived" in body and "Removed first" in body and "Opening hand" in body  # seth's table is filled
    assert 'id="legacy-note"' not in body

    # The same run as the previous version stored it: no schema, plain numbers in the card table.
    run = client.get(f"/api/games/seth/playtests/{run_id}").get_json()
    old = dict(run["report"])
    for key in ("schema", "pairs", "first_player", "win_rate_a_going_first", "win_rate_a_going_second",
                "win_rate_a_by_game", "card_columns", "unsimulated"):
        old.pop(key)
    old["cards"] = [{k: (v["value"] if isinstance(v, dict) and "value" in v else v) for k, v in c.items()
                     if k in ("deck", "card", "name", "drawn", "played", "drawn_rate", "win_rate_drawn",
                              "win_rate_not_drawn", "impact", "never_played")} for c in old["cards"]]
    stored = {k: v for k, v in run.items() if k != "id"}
    old_id = RunStore(repo).save("seth", {**stored, "report": old})
    page = client.get(f"/games/seth/playtests/{old_id}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'id="legacy-note"' in text and "earlier version" in text and 'id="card-table"' in text


def test_balance_page_runs_in_the_background_with_progress_and_shows_one_row_per_card(client):
    assert 'id="balance-link"' in client.get("/games/seth/playtest").get_data(as_text=True)
    token = page_token(client, "/games/seth/playtest/balance")
    answer = client.post("/games/seth/playtest/balance", data={
        "csrf_token": token, "deck": "rot-and-stone", "vs": "skyburn-blitz", "games": "20", "seed": "2", "workers": "1"})
    assert answer.status_code == 303
    run_id = answer.headers["Location"].rsplit("/", 1)[1]
    progress = wait_done(client, "seth", run_id)
    assert progress["status"] == "done" and progress["done"] == progress["total"] == 20 * 6
    body = client.get(f"/games/seth/playtests/{run_id}").get_data(as_text=True)
    assert 'id="balance-table"' in body and body.count("<tr class=") == 5 and "blank monster" in body
    bad = client.post("/games/seth/playtest/balance", data={"csrf_token": token, "deck": "rot-and-stone",
                                                            "vs": "skyburn-blitz", "games": "1"})
    assert bad.status_code == 400 and 'id="balance-error"' in bad.get_data(as_text=True)


def test_balance_and_gauntlet_reports_say_which_cards_the_engine_did_not_play_as_written(client):
    """A card whose effects the engine skips is swapped for a blank card like any other, so its
    'change' measures its stats alone; the report said nothing of it (a matchup report opens with
    that list) and would call such a card 'changes nothing'."""
    client.set_cookie("workbench_lang", "en")
    token = page_token(client, "/games/warzone/playtest/balance")
    answer = client.post("/games/warzone/playtest/balance", data={
        "csrf_token": token, "deck": "iron-bastion", "vs": "vanguard-rush", "games": "2", "seed": "1", "workers": "1"})
    assert answer.status_code == 303
    run_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert wait_done(client, "warzone", run_id, timeout=120)["status"] == "done"
    run = client.get(f"/api/games/warzone/playtests/{run_id}").get_json()
    assert "colossus-of-the-tidewall" in run["unsimulated_reasons"]
    body = client.get(f"/games/warzone/playtests/{run_id}").get_data(as_text=True)
    assert 'id="not-played"' in body and "<strong>Colossus of the Tidewall</strong> (<code>colossus-of-the-tidewall</code>)" in body
    row = re.search(r'<td data-value="Colossus of the Tidewall">(.*?)</td>', body).group(1)
    assert "not simulated" in row
    # The gauntlet, which played the same cards, said nothing either.
    answer = client.post("/games/warzone/playtest/gauntlet", data={
        "csrf_token": token, "deck": "iron-bastion", "games": "2", "seed": "1", "workers": "1"})
    run_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert wait_done(client, "warzone", run_id, timeout=120)["status"] == "done"
    body = client.get(f"/games/warzone/playtests/{run_id}").get_data(as_text=True)
    assert 'id="not-played"' in body
    assert "<strong>Colossus of the Tidewall</strong> (<code>colossus-of-the-tidewall</code>)" in body


def test_a_run_can_be_checked_with_a_second_kind_of_player(client):
    token = page_token(client, "/games/seth/playtest")
    assert 'name="agent_check"' in client.get("/games/seth/playtest").get_data(as_text=True)
    run_id = start(client, token, agent_check="random")
    assert wait_done(client, "seth", run_id)["status"] == "done"
    run = client.get(f"/api/games/seth/playtests/{run_id}").get_json()
    check = run["report"]["agent_check"]
    assert check["agents"] == ["random", "random"] and check["games"] == 40
    assert 'id="agent-check"' in client.get(f"/games/seth/playtests/{run_id}").get_data(as_text=True)


def test_the_report_opens_with_what_the_engine_did_not_play(client):
    client.set_cookie("workbench_lang", "en")  # fusion's pages are Chinese; the same section in Chinese below
    token = page_token(client, "/games/fusion/playtest")
    form = {"csrf_token": token, "deck_a": "lie-yan-ji-feng", "deck_b": "pan-shi-chao-xi", "agent_a": "heuristic",
            "agent_b": "heuristic", "games": "10", "seed": "1", "workers": "1"}
    answer = client.post("/games/fusion/playtest", data=form)
    run_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert wait_done(client, "fusion", run_id)["status"] == "done"
    body = client.get(f"/games/fusion/playtests/{run_id}").get_data(as_text=True)
    top = body.index('id="not-played"')
    assert top < body.index('id="summary"') < body.index('id="card-table"')
    section = body[top:body.index('id="summary"')]
    assert "of 10 games" in section and "rules text but no effects" in section
    assert "extra</code> zone" not in section  # the engine plays fusion's extra deck (RULES.md §3.10.2)
    client.delete_cookie("workbench_lang")
    chinese = client.get(f"/games/fusion/playtests/{run_id}").get_data(as_text=True)
    section = chinese[chinese.index('id="not-played"'):chinese.index('id="summary"')]
    assert "<h2>引擎没有执行的内容</h2>" in section and "extra</code> 区域" not in section and "10 局中的" in section
    assert "它有规则文字，但没有引擎能执行的效果或关键词" in section


def test_a_filled_variant_is_never_silently_ignored(client) -> None:  # type: ignore[no-untyped-def]
    from .pages_helpers import page_token

    token = page_token(client, "/games/seth/playtest")
    page = client.get("/games/seth/playtest").get_data(as_text=True)
    assert 'placeholder="unchanged"' not in page and "Now: " in page  # variant fields show the current value
    answer = client.post("/games/seth/playtest", data={"deck_a": "rot-and-stone", "deck_b": "skyburn-blitz",
                                                      "games": "20", "seed": "1", "var_opt_max_rounds": "10"},
                         headers={"X-CSRF-Token": token})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "max_rounds is filled but" in body and "tick it to compare" in body


def test_early_stop_margin_is_read_in_percentage_points_as_the_form_says(client):
    """The field says "percentage points" (min 0.5, step 0.5): 0.5 is half a point, never 50 points,
    and a margin outside (0, 50) points is refused naming the field and its unit."""
    token = page_token(client, "/games/seth/playtest")
    for typed, fraction in (("0.5", 0.005), ("3", 0.03), ("0.3", 0.003), ("25", 0.25)):
        run_id = start(client, token, games="4", early_stop="sprt", margin=typed)
        wait_done(client, "seth", run_id)
        run = client.get(f"/api/games/seth/playtests/{run_id}").get_json()
        assert abs(run["early_stop"]["margin"] - fraction) < 1e-12, (typed, run["early_stop"])
    form = {"csrf_token": token, "deck_a": "rot-and-stone", "deck_b": "skyburn-blitz", "games": "4",
            "seed": "5", "workers": "1", "early_stop": "interval"}
    for typed in ("50", "0", "-3"):
        answer = client.post("/games/seth/playtest", data={**form, "margin": typed})
        body = answer.get_data(as_text=True)
        assert answer.status_code == 400
        assert "percentage points" in body and "0 and 0.5" not in body, body[:300]
    answer = client.post("/games/seth/playtest", data={**form, "margin": "50"}, headers={"Accept-Language": "zh-CN"})
    assert "百分点" in answer.get_data(as_text=True) and "early-stop margin" not in answer.get_data(as_text=True)


def test_gauntlet_and_balance_forms_keep_what_was_typed_and_name_the_bad_field(client):
    """A refused gauntlet or balance form comes back with the designer's deck, numbers and players,
    and the message names the field (not Python's "invalid literal for int()")."""
    for page, extra in (("gauntlet", {}), ("balance", {"vs": "rot-and-stone"})):
        token = page_token(client, f"/games/seth/playtest/{page}")
        form = {"csrf_token": token, "deck": "skyburn-blitz", "games": "12", "seed": "77", "workers": "1",
                "agent_a": "random", "agent_b": "random", "budget_a": "", **extra}
        answer = client.post(f"/games/seth/playtest/{page}", data={**form, "games": "lots"})
        body = answer.get_data(as_text=True)
        assert answer.status_code == 400
        assert "invalid literal" not in body and "must be a whole number, not &#39;lots&#39;" in body, page
        answer = client.post(f"/games/seth/playtest/{page}", data={**form, "seed": "-3"})
        body = answer.get_data(as_text=True)
        assert answer.status_code == 400 and "seed must be between 0 and" in body and "not -3" in body, page
        assert 'value="skyburn-blitz" selected' in body, page
        assert 'name="games" type="number" min="1" max="100000" value="12"' in body or 'value="12"' in body, page
        assert re.search(r'name="seed"[^>]*value="-3"', body), page
        assert re.search(r'id="\w-agent-a" name="agent_a">.*?<option value="random" selected', body, re.S), page
        if page == "balance":
            assert 'value="rot-and-stone" selected' in body


def test_a_refused_search_budget_names_whose_budget_it_is(client):
    """Each form has two budget fields; the refusal once said only "search budget must be …",
    so a designer with the strong player on both sides could not tell which one to fix."""
    client.set_cookie("workbench_lang", "en")
    token = page_token(client, "/games/seth/playtest")
    matchup = {"csrf_token": token, "deck_a": "rot-and-stone", "deck_b": "skyburn-blitz", "games": "10",
               "seed": "4", "workers": "1", "agent_a": "search", "agent_b": "search", "budget_a": "50"}
    body = client.post("/games/seth/playtest", data={**matchup, "budget_b": "20000"}).get_data(as_text=True)
    assert "deck B&#39;s search budget must be 1–10,000 iterations, not &#39;20000&#39;" in body
    assert re.search(r'name="budget_a"[^>]*value="50"', body) and re.search(r'name="budget_b"[^>]*value="20000"', body)
    for page, extra, side, owner in (("gauntlet", {}, "a", "the deck&#39;s"),
                                     ("gauntlet", {}, "b", "the opponents&#39;"),
                                     ("balance", {"vs": "skyburn-blitz"}, "b", "the opponent&#39;s")):
        form = {"csrf_token": token, "deck": "rot-and-stone", "games": "4", "seed": "1", "workers": "1",
                "agent_a": "search", "agent_b": "search", f"budget_{side}": "0", **extra}
        answer = client.post(f"/games/seth/playtest/{page}", data=form)
        assert answer.status_code == 400
        assert f"{owner} search budget must be 1–10,000 iterations, not &#39;0&#39;" in answer.get_data(as_text=True)
    client.set_cookie("workbench_lang", "zh")
    body = client.post("/games/seth/playtest", data={**matchup, "budget_b": "20000"}).get_data(as_text=True)
    assert "卡组 B 的搜索预算必须是 1–10,000 次迭代" in body
    client.set_cookie("workbench_lang", "en")


def test_decks_the_engine_cannot_set_up_are_refused_before_a_run_starts(client, repo):
    """A seth line-up of four monsters (§2.2.1): the playtest, gauntlet and balance forms refuse it
    at once with the engine's reason, as the game table does, instead of starting a run that fails
    with "IllegalLineup: …"."""
    repo.create_deck("seth", {"name": "Four", "format": "standard", "zones": {"team": {
        "glass-wasp": 1, "ashen-drake": 1, "cinder-imp": 1, "plague-moth": 1}}}, deck_id="four")
    token = page_token(client, "/games/seth/playtest")
    common = {"csrf_token": token, "games": "4", "seed": "1", "workers": "1", "agent_a": "heuristic", "agent_b": "heuristic"}
    for url, fields in (("/games/seth/playtest", {"deck_a": "four", "deck_b": "rot-and-stone", "early_stop": "none"}),
                        ("/games/seth/playtest/gauntlet", {"deck": "four"}),
                        ("/games/seth/playtest/balance", {"deck": "four", "vs": "rot-and-stone"})):
        answer = client.post(url, data={**common, **fields})
        body = answer.get_data(as_text=True)
        assert answer.status_code == 400, (url, answer.status_code, answer.headers.get("Location"))
        assert "these decks cannot be played" in body and "4 monsters" in body and "IllegalLineup" not in body, url


def test_a_gauntlet_deck_naming_a_missing_card_is_refused_naming_the_deck(client, repo):
    repo.create_deck("seth", {"name": "Ghost Crew", "format": "standard", "zones": {"team": {
        "glass-wasp": 1, "no-such-card": 1}}}, deck_id="ghost-crew")
    token = page_token(client, "/games/seth/playtest/gauntlet")
    answer = client.post("/games/seth/playtest/gauntlet", data={"csrf_token": token, "deck": "ghost-crew",
                                                                "games": "4", "seed": "1", "workers": "1"})
    body = answer.get_data(as_text=True).replace("&#39;", "'")
    assert answer.status_code == 400 and "deck 'Ghost Crew' names card 'no-such-card', which does not exist" in body
    chinese = client.post("/games/seth/playtest/gauntlet", headers={"Accept-Language": "zh"},
                          data={"csrf_token": token, "deck": "ghost-crew", "games": "4", "seed": "1", "workers": "1"})
    assert "卡组 'Ghost Crew' 列出了卡牌 'no-such-card'" in chinese.get_data(as_text=True).replace("&#39;", "'")


def test_a_pasted_deck_is_named_in_the_readers_language(client, repo):
    """The run keeps the pasted deck's name ("Pasted list B"): it was English on Chinese pages."""
    deck = repo.get_deck("seth", "rot-and-stone").data
    names = {c.id: c.data["name"] for c in repo.list_cards("seth")}
    text = "\n".join(f"{n} {names[cid]}" for cards in deck["zones"].values() for cid, n in cards.items())
    client.set_cookie("workbench_lang", "zh")
    token = page_token(client, "/games/seth/playtest")
    answer = client.post("/games/seth/playtest", data={"csrf_token": token, "deck_a": "rot-and-stone",
                                                       "deck_b_text": text, "games": "2", "seed": "1", "workers": "1"})
    client.set_cookie("workbench_lang", "en")
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    run_id = answer.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    assert wait_done(client, "seth", run_id)["status"] == "done"
    assert client.get(f"/api/games/seth/playtests/{run_id}").get_json()["decks"]["b"]["name"] == "粘贴的列表 B"


def test_cards_of_a_zone_the_engine_never_uses_name_the_zone_by_its_label(client):
    """Warzone's Side areas are not played (§1.2.3): the report named the zone by its id
    (``side_area``); it uses the game's label, as the deck builder does."""
    token = page_token(client, "/games/warzone/playtest")
    answer = client.post("/games/warzone/playtest", data={"csrf_token": token, "deck_a": "iron-bastion",
                                                          "deck_b": "vanguard-rush", "games": "2", "seed": "1",
                                                          "workers": "1"})
    assert answer.status_code == 303
    run_id = answer.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    assert wait_done(client, "warzone", run_id)["status"] == "done"
    run = client.get(f"/api/games/warzone/playtests/{run_id}").get_json()
    assert any(z["zone"] == "side_area" for z in run["unplayed_zones"])
    body = client.get(f"/games/warzone/playtests/{run_id}").get_data(as_text=True)
    assert "Side areas zone: the engine never uses this zone" in body and "side_area" not in body
