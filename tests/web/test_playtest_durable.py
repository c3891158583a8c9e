"""Durable web runs and rule variants: an interrupted run's page offers Resume (CSRF, viewers may),
resuming gives the uninterrupted report, a real server killed mid-run is resumed by the next one,
and "compare with a variant" shows both variants side by side."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from tests.live_server import copy_data, running_server
from tests.security.helpers import login, session_token, team_app
from tests.services.playtest.test_jobs import crashed_run
from tests.web.pages_helpers import page_token
from tests.web.test_playtest_views import start, wait_done
from workbench.services.playtest import service
from workbench.services.playtest.runner import run_matchup
from workbench.storage.repository import Repository

TIMING = {"elapsed_s", "games_per_s", "workers"}


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in TIMING}


def seth_matchup(repo, seed: int = 5):
    return service.prepare(repo, "seth", "rot-and-stone", "skyburn-blitz", seed=seed)


def test_an_interrupted_run_offers_resume_which_needs_the_token_and_ends_in_the_uninterrupted_report(client, repo):
    m, facts = seth_matchup(repo)
    run_id = crashed_run(repo, m, 120, kept=40, facts=facts)
    page = client.get(f"/games/seth/playtests/{run_id}").get_data(as_text=True)
    assert "Playtest interrupted" in page and 'id="pt-resume"' in page and "40 of 120 games" in page
    listed = client.get("/games/seth/playtest").get_data(as_text=True)
    assert run_id in listed and "interrupted" in listed
    progress = client.get(f"/api/games/seth/playtests/{run_id}/progress").get_json()
    assert (progress["status"], progress["done"], progress["resumable"]) == ("interrupted", 40, True)

    assert client.post(f"/games/seth/playtests/{run_id}/resume").status_code == 403  # no CSRF token
    token = page_token(client, f"/games/seth/playtests/{run_id}")
    answer = client.post(f"/games/seth/playtests/{run_id}/resume", data={"csrf_token": token})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(run_id)
    assert wait_done(client, "seth", run_id)["status"] == "done"
    run = client.get(f"/api/games/seth/playtests/{run_id}").get_json()
    assert without_timing(run["report"]) == without_timing(run_matchup(m, 120, 1))
    assert run["decks"]["a"]["id"] == "rot-and-stone"
    again = client.post(f"/games/seth/playtests/{run_id}/resume", data={"csrf_token": token})
    assert again.status_code == 409  # finished runs are not resumed


def test_a_viewer_may_resume_their_own_run_a_designer_any_and_an_anonymous_visitor_none(data_dir, tmp_path):
    app = team_app(data_dir, tmp_path)
    repo = Repository(data_dir)
    m, facts = seth_matchup(repo)
    own = crashed_run(repo, m, 40, kept=20, facts=facts, by="vera")
    anonymous = app.test_client()
    assert anonymous.post(f"/games/seth/playtests/{own}/resume").status_code in (401, 302, 303, 403)
    viewer = app.test_client()
    assert login(viewer, "vera").status_code == 302
    answer = viewer.post(f"/games/seth/playtests/{own}/resume", headers={"X-CSRF-Token": session_token(viewer)},
                         json={})
    assert answer.status_code == 202, answer.get_data(as_text=True)
    assert wait_done(viewer, "seth", own)["status"] == "done"
    # A designer's run (or one without a named owner) is the designer's to resume.
    for by in ("alice", None):
        theirs = crashed_run(repo, m, 40, kept=20, facts=facts, by=by)
        refused = viewer.post(f"/games/seth/playtests/{theirs}/resume",
                              headers={"X-CSRF-Token": session_token(viewer)}, json={})
        assert refused.status_code == 403 and "only the playtests they started" in refused.get_data(as_text=True)
        designer = app.test_client()
        assert login(designer, "alice").status_code == 302
        answer = designer.post(f"/games/seth/playtests/{theirs}/resume",
                               headers={"X-CSRF-Token": session_token(designer)}, json={})
        assert answer.status_code == 202, answer.get_data(as_text=True)
        assert wait_done(designer, "seth", theirs)["status"] == "done"


def test_compare_with_a_variant_plays_the_same_seeds_and_shows_both_side_by_side(client, repo):
    token = page_token(client, "/games/seth/playtest")
    assert 'name="var_opt_max_rounds"' in client.get("/games/seth/playtest").get_data(as_text=True)
    run_id = start(client, token, compare="1", var_opt_max_rounds="2")
    assert wait_done(client, "seth", run_id)["status"] == "done"
    run = client.get(f"/api/games/seth/playtests/{run_id}").get_json()
    assert run["kind"] == "variants" and run["variant"] == {"max_rounds": "2"}
    first, second = run["report"]["variants"]
    m, _ = seth_matchup(repo)
    plain = run_matchup(m, 40, 1)
    assert first["win_rate_a"] == plain["win_rate_a"] and first["overrides"] == {}
    assert second["overrides"] == {"max_rounds": "2"} and second["turns"]["max"] <= 2
    assert run["report"]["difference"]["win_rate_a"] == second["win_rate_a"]["value"] - first["win_rate_a"]["value"]
    low, high = run["report"]["difference"]["win_rate_a_ci95"]
    assert low <= run["report"]["difference"]["win_rate_a"] <= high

    body = client.get(f"/games/seth/playtests/{run_id}").get_data(as_text=True)
    assert 'id="variant-table"' in body and 'id="chart-variants"' in body and "max_rounds=2" in body
    assert f"{100 * first['win_rate_a']['value']:.1f}%" in body and f"{100 * second['win_rate_a']['value']:.1f}%" in body

    empty = client.post("/games/seth/playtest", data={"csrf_token": token, "deck_a": "rot-and-stone",
                                                      "deck_b": "skyburn-blitz", "compare": "1"})
    assert empty.status_code == 400 and "at least one rule option" in empty.get_data(as_text=True)


def _json(url: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"},
                                     method="POST" if body is not None else "GET")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


@pytest.mark.slow
def test_a_server_killed_mid_run_leaves_it_interrupted_and_the_next_server_resumes_it_exactly(tmp_path):
    data = copy_data(tmp_path / "card_data")
    games = 5_000  # long enough (seth: ~0.5 ms a game) that it cannot finish before the kill
    with running_server(data, tmp_path / "instance-1") as first:
        started = _json(first.url + "/games/seth/playtest", {
            "deck_a": "rot-and-stone", "deck_b": "skyburn-blitz", "games": games, "seed": 9, "workers": 1})
        run_id = started["id"]
        progress_url = f"/api/games/seth/playtests/{run_id}/progress"
        live = data / "seth" / "playtests" / "live" / f"{run_id}.partial.json"
        deadline = time.monotonic() + 60
        while not live.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert live.exists(), "the run kept no games within a minute"
        assert _json(first.url + progress_url)["status"] == "running"
        first.proc.kill()  # no clean shutdown: the run dies with its process
        first.proc.wait(timeout=10)
    with running_server(data, tmp_path / "instance-2") as second:
        progress = _json(second.url + progress_url)
        assert progress["status"] == "interrupted" and 0 < progress["done"] < games
        _json(second.url + f"/games/seth/playtests/{run_id}/resume", {})
        deadline = time.monotonic() + 120
        while _json(second.url + progress_url)["status"] == "running" and time.monotonic() < deadline:
            time.sleep(0.2)
        run = _json(second.url + f"/api/games/seth/playtests/{run_id}")
    m, _ = seth_matchup(Repository(data), seed=9)
    assert without_timing(run["report"]) == without_timing(run_matchup(m, games, 1))


@pytest.mark.slow
def test_every_server_process_answers_the_progress_poll_and_the_report(tmp_path):
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance", "--processes", "2", threads=2) as server:
        started = _json(server.url + "/games/seth/playtest", {
            "deck_a": "rot-and-stone", "deck_b": "skyburn-blitz", "games": 600, "seed": 2, "workers": 1})
        progress_url = server.url + f"/api/games/seth/playtests/{started['id']}/progress"
        seen = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            # a new connection each time, so the polls spread over the server processes
            seen.append(_json(progress_url))
            if seen[-1]["status"] != "running":
                break
            time.sleep(0.05)
        assert seen[-1]["status"] == "done" and seen[-1]["done"] == 600
        done = [p["done"] for p in seen]
        assert len(seen) > 3 and all(p["status"] in ("running", "done") for p in seen)
        assert all(0 <= d <= 600 for d in done)
        page = urllib.request.urlopen(server.url + f"/games/seth/playtests/{started['id']}").read().decode()
        assert 'id="chart-win-rate"' in page
