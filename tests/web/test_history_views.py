"""History pages: versions with field-by-field changes, restore and undo as new saves, recently deleted."""

from __future__ import annotations

from .pages_helpers import page_token


def test_history_shows_what_changed_and_undo_goes_back_one_save(client, repo) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/seth/cards/bog-lurker/edit")
    original = repo.get_card("seth", "bog-lurker")
    saved = repo.update_card("seth", "bog-lurker", dict(original.data, text="Sharper text.", power=9), original.version)
    body = client.get("/games/seth/cards/bog-lurker/history").get_data(as_text=True)
    assert "Sharper text." in body and "<th scope=\"row\">power</th>" in body and "Restore this version" in body
    assert body.count('class="history-entry"') == 2
    edit = client.get("/games/seth/cards/bog-lurker/edit").get_data(as_text=True)
    assert "Undo last change" in edit and f'value="{saved.version}" id="undo-current"' in edit
    undo = client.post("/games/seth/cards/bog-lurker/restore", data={"version": "previous", "current": saved.version},
                       headers={"X-CSRF-Token": token})
    assert undo.status_code == 302 and repo.get_card("seth", "bog-lurker").data == original.data
    stale = client.post("/games/seth/cards/bog-lurker/restore", data={"version": saved.version, "current": saved.version},
                        headers={"X-CSRF-Token": token})
    assert stale.status_code == 302 and "history" in stale.headers["Location"]  # refused: it changed meanwhile
    assert repo.get_card("seth", "bog-lurker").data == original.data
    assert client.post("/games/seth/cards/bog-lurker/restore", data={"version": saved.version},
                       headers={"Origin": "http://localhost"}).status_code == 403


def test_recently_deleted_cards_come_back(client, repo) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/seth/cards")
    card = repo.get_card("seth", "bog-lurker")
    repo.delete_card("seth", "bog-lurker", card.version)
    page = client.get("/games/seth/deleted").get_data(as_text=True)
    assert card.data["name"] in page and f'aria-label="Restore {card.data["name"]}"' in page
    assert 'href="/games/seth/deleted"' in client.get("/games/seth/cards").get_data(as_text=True)
    client.post("/games/seth/cards/bog-lurker/restore", data={"version": card.version}, headers={"X-CSRF-Token": token})
    assert repo.get_card("seth", "bog-lurker").data == card.data
    assert card.data["name"] not in client.get("/games/seth/deleted").get_data(as_text=True)
    assert client.get("/games/seth/widgets/x/history").status_code == 404
