"""Help inside the app: every doc page is served, every link between them lands on a real page and
heading, every page of the app links to a help section that exists, and nothing outside docs/ is served."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from workbench.web.help_views import HELP_FOR


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "a" and values.get("href"):
            self.hrefs.append(values["href"])
        if tag == "img" and values.get("src"):
            self.hrefs.append(values["src"])


def _parse(body: str) -> _Links:
    parser = _Links()
    parser.feed(body)
    return parser


def _help_pages(client) -> list[str]:  # type: ignore[no-untyped-def]
    index = _parse(client.get("/docs/").get_data(as_text=True))
    return sorted({h.split("#")[0] for h in index.hrefs
                   if h.startswith("/docs/") and not h.startswith("/docs/images/")})


def test_every_doc_page_is_served_with_its_contents(client) -> None:  # type: ignore[no-untyped-def]
    pages = _help_pages(client)
    for expected in ("/docs/printing", "/docs/exports", "/docs/playtests", "/docs/engines/seth", "/docs/effects"):
        assert expected in pages
    body = client.get("/docs/printing").get_data(as_text=True)
    assert "On this page" in body and 'href="#quick-start"' in body and 'id="quick-start"' in body
    assert 'style="' not in body  # the CSP refuses inline styles (Markdown tables write them)


def test_every_link_between_help_pages_lands_on_a_page_and_a_heading(client) -> None:  # type: ignore[no-untyped-def]
    broken = []
    ids_of: dict[str, set[str]] = {}
    for page in _help_pages(client):
        answer = client.get(page)
        assert answer.status_code == 200, page
        body = answer.get_data(as_text=True)
        ids_of[page] = _parse(body).ids
        parsed = _parse(body[body.index('<div class="help-body"'):body.index("</article>")])  # the doc, not the app's header
        for href in parsed.hrefs:
            if href.startswith("/docs/images/"):
                assert client.get(href).mimetype == "image/png", href
                continue
            if href.startswith(("http://", "https://", "mailto:", "/static/")):
                continue
            target, _, anchor = href.partition("#")
            target = target or page
            if not target.startswith("/docs/"):
                broken.append((page, href))  # a relative link the app cannot serve
                continue
            if target not in ids_of:
                reply = client.get(target)
                if reply.status_code != 200:
                    broken.append((page, href))
                    continue
                ids_of[target] = _parse(reply.get_data(as_text=True)).ids if reply.mimetype == "text/html" else set()
                reply.close()
            if anchor and anchor not in ids_of[target]:
                broken.append((page, href))
    assert broken == []


@pytest.mark.parametrize("path", ["/", "/games/warzone/cards", "/games/seth/decks", "/games/fusion/print",
                                  "/games/warzone/export", "/games/seth/playtest",
                                  "/games/warzone/cards/ashcloud-catapult/edit"])
def test_each_page_links_to_a_help_section_that_exists(client, path) -> None:  # type: ignore[no-untyped-def]
    body = client.get(path).get_data(as_text=True)
    match = re.search(r'<a class="help-link" href="([^"]+)">', body)
    assert match, path
    target, _, anchor = match.group(1).partition("#")
    page = client.get(target)
    assert page.status_code == 200
    assert not anchor or f'id="{anchor}"' in page.get_data(as_text=True)


def test_the_help_table_names_only_routes_and_sections_that_exist(app, client) -> None:  # type: ignore[no-untyped-def]
    for endpoint, (page, section) in HELP_FOR.items():
        assert endpoint in app.view_functions, endpoint
        body = client.get(f"/docs/{page}").get_data(as_text=True)
        assert not section or f'id="{section}"' in body, (endpoint, section)


def test_the_playtest_and_play_pages_link_to_their_own_section(client) -> None:  # type: ignore[no-untyped-def]
    """The balance page had no Help link, nor did a refused form shown again (a POST endpoint),
    and every run's page pointed at the matchup report's section, a balance report's too."""
    from tests.web.pages_helpers import page_token
    from tests.web.test_playtest_views import wait_done

    def help_of(body: str) -> str:
        match = re.search(r'<a class="help-link" href="([^"]+)">', body)
        assert match
        return match.group(1)

    assert help_of(client.get("/games/seth/playtest/balance").get_data(as_text=True)) == \
        "/docs/playtests#balance-report-swap-the-card"
    token = page_token(client, "/games/seth/playtest")
    for path, form, section in (
            ("/games/seth/playtest", {"games": "x"}, "/docs/playtests"),
            ("/games/seth/playtest/gauntlet", {"games": "x"}, "/docs/playtests#gauntlet-goldfish-variants"),
            ("/games/seth/playtest/balance", {"games": "x"}, "/docs/playtests#balance-report-swap-the-card"),
            ("/games/seth/play", {"seed": "x"}, "/docs/play#starting-a-game")):
        refused = client.post(path, data={"csrf_token": token, "deck": "rot-and-stone", "deck_a": "rot-and-stone",
                                          "deck_b": "skyburn-blitz", "vs": "skyburn-blitz", **form})
        assert refused.status_code == 400 and help_of(refused.get_data(as_text=True)) == section, path
    answer = client.post("/games/seth/playtest/balance", data={"csrf_token": token, "deck": "rot-and-stone",
                                                               "vs": "skyburn-blitz", "games": "2", "workers": "1"})
    run_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert wait_done(client, "seth", run_id)["status"] == "done"
    assert help_of(client.get(f"/games/seth/playtests/{run_id}").get_data(as_text=True)) == \
        "/docs/playtests#balance-report-swap-the-card"


def test_nothing_outside_the_docs_is_served(client) -> None:  # type: ignore[no-untyped-def]
    for path in ("/docs/../pyproject", "/docs/%2e%2e/README", "/docs/images/../../README.md", "/docs/Printing",
                 "/docs/printing.md", "/docs/images/x.exe", "/docs/a/b/c"):
        assert client.get(path).status_code == 404, path
    assert client.get("/docs/images/ui-gallery.png").mimetype == "image/png"


def test_every_export_format_links_to_its_load_steps(client) -> None:  # type: ignore[no-untyped-def]
    from workbench.services.exports.run import FORMATS
    from workbench.web.transfer_views import LOAD_STEPS

    assert set(LOAD_STEPS) == set(FORMATS)
    exports = client.get("/docs/exports").get_data(as_text=True)
    body = client.get("/games/warzone/export").get_data(as_text=True)
    for fmt, anchor in LOAD_STEPS.items():
        assert f'id="{anchor}"' in exports, fmt
        label = html.escape(FORMATS[fmt])  # the format's label a designer reads, not its id
        assert f'href="/docs/exports#{anchor}" aria-label="how to load it ({label})"' in body, fmt


def test_the_export_result_and_import_dry_run_pages_link_to_their_help(client) -> None:  # type: ignore[no-untyped-def]
    """The page an export ends on and the import's dry run (POST endpoints) had no Help link in the
    header, unlike the forms before them (found exporting and importing a fourth game's cards)."""
    from tests.web.pages_helpers import page_token

    token = page_token(client, "/games/seth/export")
    body = client.post("/games/seth/export", data={"csrf_token": token, "format": "csv"}).get_data(as_text=True)
    assert 'class="help-link" href="/docs/exports"' in body
    upload = {"csrf_token": page_token(client, "/games/seth/import"),
              "file": (__import__("io").BytesIO("name,kind\nX,monster\n".encode()), "new.csv")}
    body = client.post("/games/seth/import", data=upload, content_type="multipart/form-data").get_data(as_text=True)
    assert 'class="help-link" href="/docs/exports#imports"' in body
