"""The MUSH export as a designer gets it: made on the Export page, downloaded from its link, and
pasted byte for byte into real PennMUSH 1.8.8 and TinyMUX 2.14 (``../shared/tools/mush``).

``tests/services/exports/test_mush_servers.py`` pastes what the service writes; this pastes what
the web app hands out (the form's server choice, the deck, the download route), for a fusion deck
of Chinese cards and of cards whose text holds every MUSH-special character, a leading space and
a text near the 4000-byte line limit.
"""

from __future__ import annotations

import re

import pytest
import yaml

from tests.services.exports.mush_servers import SERVERS, missing_reason, reply_problems, running
from tests.services.exports.test_mush_servers import _check_deck_object
from workbench.storage.repository import Repository

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing_reason() is not None, reason=missing_reason() or ""),
]

SPECIAL = {
    "mush-special": ("百分号 % ; [add(1,2)] {brace} \\back\\slash, commas, (paren) ^ $ | # ## #@ #$"),
    "mush-spaces": "  leading spaces, two  inside and trailing  ",
    "mush-codes": "%r %b %t %% \\%r literal codes, [set(me,PWNED:1)]",
    "mush-long": ("融合决斗：对所有对方生物各造成2点伤害 100% [x] {y} \\ ; , | " * 90)[:2600],
}


@pytest.fixture(scope="module", params=SERVERS)
def server(request):
    with running(request.param) as srv:
        yield srv


def _add_cards(data_dir) -> list[str]:
    """Write the special cards (copies of 融合 with other names and texts) and a deck holding them
    and a few of fusion's Chinese cards; the deck's card ids."""
    game = data_dir / "fusion"
    template = yaml.safe_load((game / "cards" / "rong-he.yaml").read_text(encoding="utf-8"))
    for n, (card_id, text) in enumerate(SPECIAL.items()):
        card = dict(template, name=f"特殊{n} [{card_id}], 100%", text=text, number=f"FD09-{n:03d}")
        (game / "cards" / f"{card_id}.yaml").write_text(yaml.safe_dump(card, allow_unicode=True), encoding="utf-8")
    ids = [*SPECIAL, "an-ye-mo-jun", "yan-feng-he-ti-long", "rong-he"]
    deck = {"name": "特殊 % [deck] ; 测试", "zones": {"main": {cid: 1 + i % 2 for i, cid in enumerate(ids)}}}
    (game / "decks" / "mush-web.yaml").write_text(yaml.safe_dump(deck, allow_unicode=True), encoding="utf-8")
    return ids


def test_the_downloaded_mush_export_loads_into_the_real_server(server, client, data_dir):
    """Every card of the downloaded file comes back from the server exactly (PennMUSH: folded to
    ASCII, the exact text in the _UTF8 attributes), and nothing in it ran."""
    ids = _add_cards(data_dir)
    page = client.get("/games/fusion/export").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    response = client.post("/games/fusion/export", data={"csrf_token": token, "format": "mush",
                                                         "server": server.kind, "deck": "mush-web"})
    assert response.status_code == 200, response.get_data(as_text=True)
    link = re.search(r'href="(/games/fusion/exports/[^"]+-mush-web-' + server.kind + r'\.txt)"',
                     response.get_data(as_text=True)).group(1)
    download = client.get(link)
    assert download.status_code == 200 and "attachment" in download.headers["Content-Disposition"]
    data = download.data
    lines = data.split(b"\n")
    assert lines[-1] == b"" and b"\r" not in data
    assert max(len(line) for line in lines) <= 4000
    if server.kind == "pennmush":
        data.decode("ascii")

    repo = Repository(data_dir)
    definition = repo.game("fusion")
    cards = {c.id: dict(c.data, id=c.id) for c in repo.list_cards("fusion")}
    deck = repo.get_deck("fusion", "mush-web").data
    chosen = [cards[cid] for cid, count in deck["zones"]["main"].items() for _ in range(count)]
    assert {c["id"] for c in chosen} == set(ids)
    with server.session() as s:
        assert reply_problems(s.paste(lines[:-1])) == []  # bytes as the file has them, as a paste sends
        _check_deck_object(s, server, definition, chosen, data, deck["name"])
        assert s.eval("get(me/PWNED)") == ""
