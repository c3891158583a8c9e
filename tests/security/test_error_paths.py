"""Error answers show paths relative to the data folder, never where the server keeps its data
(issue 13, item 18)."""

from __future__ import annotations

import pytest

from tests.security.helpers import copy_data, login, route_calls, session_token, team_app


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("paths")
    app = team_app(copy_data(root / "card_data"), root)
    client = app.test_client()
    assert login(client, "alice").status_code == 302
    return app, client, root


@pytest.mark.slow
def test_no_error_answer_of_any_route_names_the_server_folders(team):
    """Every route, with an unknown game, card and deck, as a logged-in designer."""
    app, client, root = team
    token = session_token(client)
    leaks = []
    for endpoint, method, url in route_calls(app):
        if endpoint.startswith("auth."):
            continue  # logging out would end the session the walk uses
        for target in (url.replace("/seth", "/nope"),
                       url.replace("glass-wasp", "no-such-card").replace("skyburn-blitz", "no-such-deck")):
            answer = client.open(target, method=method, json={"x": 1}, headers={"X-CSRF-Token": token})
            if answer.status_code >= 400 and str(root).encode() in answer.get_data():
                leaks.append((method, target, answer.status_code))
    assert not leaks, leaks[:10]


def test_messages_name_files_relative_to_the_data_folder(team):
    _, client, root = team
    answer = client.get("/api/games/nope/cards")
    assert answer.status_code == 404
    assert answer.json["error"] == "game 'nope' does not exist (the data folder has no nope/game.yaml)"
    page = client.get("/games/nope/cards").get_data(as_text=True)
    assert "the data folder has no nope/game.yaml" in page and str(root) not in page
    # A message built from an absolute path (here: the plugin folder is a file) shows it relative.
    (root / "exports" / "seth" / "lackey").mkdir(parents=True, exist_ok=True)
    (root / "exports" / "seth" / "lackey" / "seth").write_text("in the way")
    answer = client.post("/games/seth/export", data={"format": "lackey"}, headers={"X-CSRF-Token": session_token(client)})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 400, text[:300]
    assert str(root) not in text and "exports/seth/lackey/seth exists and is not a folder" in text
