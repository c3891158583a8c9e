"""A viewer's export never replaces the designers' files, and a base URL is checked and shown
(issue 13, item 7).

A viewer re-ran the Lackey export with a foreign ``base_url``, so the plugin's ``version.txt`` and
``updatelist.txt`` pointed Lackey's auto-updater at another host.
"""

from __future__ import annotations

import pytest

from tests.security.helpers import copy_data, login, session_token, team_app

DESIGNERS = "https://cards.example.org/seth/"
FOREIGN = "https://elsewhere.example/"


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("exports")
    return team_app(copy_data(root / "card_data"), root), root


def _export(app, name: str, **form: str):
    client = app.test_client()
    assert login(client, name).status_code == 302
    return client.post("/games/seth/export", data={"format": "lackey", **form},
                       headers={"X-CSRF-Token": session_token(client)})


def test_a_viewers_export_goes_to_their_own_folder(team):
    app, root = team
    designer = _export(app, "alice", base_url=DESIGNERS)
    assert designer.status_code == 200, designer.get_data(as_text=True)[:500]
    version = root / "exports/seth/lackey/seth/version.txt"
    before = version.read_bytes()
    assert DESIGNERS.encode() in before

    answer = _export(app, "vera", base_url=FOREIGN)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    page = answer.get_data(as_text=True)
    assert version.read_bytes() == before, "a viewer's export replaced the designers' version.txt"
    assert DESIGNERS.encode() in (root / "exports/seth/lackey/seth/updatelist.txt").read_bytes()
    own = root / "exports/seth/viewers/vera/lackey/seth/version.txt"
    assert FOREIGN.encode() in own.read_bytes()
    assert "exports/seth/viewers/vera/lackey" in page and 'id="export-own-folder"' in page
    assert FOREIGN in page  # the base URL written into the files is shown
    assert str(root) not in page  # no server path on the page
    # The viewer's files download like any export.
    client = app.test_client()
    assert login(client, "vera").status_code == 302
    assert client.get("/games/seth/exports/viewers/vera/lackey/seth/version.txt").status_code == 200


@pytest.mark.parametrize("url, why", [
    ("https://user:secret@cards.example.org/", "user name or password"),
    ("https://@cards.example.org/", "user name or password"),
    ("ftp://cards.example.org/", "http:// or https://"),
    ("javascript:alert(1)//", "http:// or https://"),
    ("https:///no-host/", "name a host"),
    ("https://cards.example.org/?next=elsewhere", "query"),
    ("https://cards.example.org/#x", "fragment"),
    ("https://cards.example.org:99999/", "not a valid address"),
    ("https://cards.example.org/a b", "without spaces"),
])
def test_a_bad_base_url_is_refused_with_the_reason(team, url, why):
    app, _ = team
    answer = _export(app, "alice", base_url=url)
    assert answer.status_code == 400
    assert why in answer.get_data(as_text=True)
