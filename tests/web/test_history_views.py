"""History pages: versions with field-by-field changes, restore and undo as new saves, recently deleted."""

from __future__ import annotations

from .pages_helpers import page_token


def test_history_shows_what_changed_and_undo_goes_back_one_save(client, repo) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/seth/cards/bog-lurker/edit")
    original = repo.get_card("seth", "bog-lurker")
    saved = repo.update_card("seth", "bog-lurker", dict(original.data, text="Sharper text.", power=9), original.version)
    body = client.get("/games/seth/cards/bog-lurker/history").get_data(as_text=True)
    assert "Sharper text." in body and "<code class=\"muted\">power</code></th>" in body and "Restore this version" in body
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


def test_history_names_fields_by_their_labels_and_shows_yes_or_no(client, repo) -> None:  # type: ignore[no-untyped-def]
    """The changes read as the editor does: the game.yaml label with the key beside it, and a
    check box's value as yes / no (是 / 否), never Python's True / False."""
    original = repo.get_card("warzone", "ember-adept")
    repo.update_card("warzone", "ember-adept", dict(original.data, class_master=True, strength=900), original.version)
    body = client.get("/games/warzone/cards/ember-adept/history").get_data(as_text=True)
    assert '<th scope="row">Class Master <code class="muted">class_master</code></th>' in body
    assert '<td class="diff-old">no</td><td class="diff-new">yes</td>' in body
    assert ">False<" not in body and ">True<" not in body
    chinese = client.get("/games/warzone/cards/ember-adept/history", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert '<td class="diff-old">否</td><td class="diff-new">是</td>' in chinese


def test_a_long_history_is_paged_and_only_the_page_is_read(client, repo, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The history page is a GET (any site can ask for it in local mode) and read and compared
    every kept version: 2,000 saves of one card made each view take 1.05 s and 2.2 MB on a real
    server. Now 100 versions a page, and only those are parsed."""
    import re

    from workbench.storage import repository
    from workbench.web import history_views

    monkeypatch.setattr(history_views, "HISTORY_PAGE", 10, raising=False)
    stored = repo.get_card("seth", "bog-lurker")
    for i in range(25):
        stored = repo.update_card("seth", "bog-lurker", dict(stored.data, flavor=f"take {i}"), stored.version)
    parsed = []
    real_parse = repository.parse_yaml
    monkeypatch.setattr(repository, "parse_yaml", lambda *a, **k: parsed.append(1) or real_parse(*a, **k))
    first = client.get("/games/seth/cards/bog-lurker/history").get_data(as_text=True)
    assert len(parsed) <= 14, len(parsed)  # the page's 10, the one before, the current file (27 before)
    # take 24 … take 15, the last compared with take 14
    assert "take 24" in first and "take 14" in first and "take 13" not in first and "Older saves" in first and "of 26" in first
    last = client.get("/games/seth/cards/bog-lurker/history?page=3").get_data(as_text=True)
    assert "Newer saves" in last and "Older saves" not in last and "take 0" in last
    beyond = client.get("/games/seth/cards/bog-lurker/history?page=999999999999")
    assert beyond.status_code == 200 and re.search(r"Saves 21–26 of 26", beyond.get_data(as_text=True))


def test_recently_deleted_lists_only_the_most_recent(client, repo, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The Recently deleted page (a GET) parsed the last version of every deleted card: 1,500
    deleted by one script (11 s) made each view take 0.5 s and 960 KB on a real server."""
    from workbench.storage import repository
    from workbench.web import history_views

    monkeypatch.setattr(history_views, "DELETED_SHOWN", 3, raising=False)
    for i in range(6):
        stored = repo.create_card("seth", {"name": f"Gone {i}", "kind": "monster"})
        repo.delete_card("seth", stored.id, stored.version)
    parsed = []
    real_parse = repository.parse_yaml
    monkeypatch.setattr(repository, "parse_yaml", lambda *a, **k: parsed.append(1) or real_parse(*a, **k))
    page = client.get("/games/seth/deleted").get_data(as_text=True)
    assert len(parsed) <= 5, len(parsed)  # the 3 shown, the one that tells there are more, the deck list (7 before)
    assert "Gone 5" in page and "Gone 3" in page and "Gone 2" not in page
    assert "Only the 3 most recently deleted are listed" in page
