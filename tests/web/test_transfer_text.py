"""Import and export notes and a dry run's problems read Chinese (workbench/web/transfer_text.py):
the notes and problems the services write for broken uploads and awkward exports each read as a
form, and the Import page in Chinese holds no English beyond the designer's words."""

from __future__ import annotations

import io
import re

import pytest

from tests.web.pages_helpers import page_token, untranslated
from workbench.web.transfer_text import reads, transfer_text

ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}

CSV = ("Title,Power,Damage,Health,Speed,Race,Element,Id\n"
       "Ash Adder,4,1,6,fast,Serpent,poison,\n"        # two cards of this name? no: one, changed
       "Bog Beast,x,1,6,fast,Beast,water,\n"           # not a whole number
       ",4,1,6,fast,Beast,water,\n"                    # no name
       "Tall One,4,1,6,fast,Beast,water,,extra\n"      # a cell beyond the header
       "Weak One,4,1,,fast,Beast,water,\n"             # a required field missing (the validator)
       "Ash Adder,4,1,6,fast,Serpent,poison,\n")       # imported twice
DECKLIST = "Team:\n2 Ash Adder\n0 Bog Lurker\n1 Nobody Here\nwhat is this line\nSideboard:\n1 Ash Adder\n"


def _sentences(plan) -> list[str]:
    found = list(plan.notes) + [p for row in plan.rows for p in row.problems]
    return found + (list(plan.deck.problems) if plan.deck else [])


def test_a_dry_runs_notes_and_problems_each_read_as_a_form(repo) -> None:  # type: ignore[no-untyped-def]
    from workbench.services.imports import plan as import_plan

    cards = import_plan.dry_run(repo, "seth", "cards.csv", CSV.encode(), kind="csv")
    deck = import_plan.dry_run(repo, "seth", "team.txt", DECKLIST.encode(), kind="decklist")
    sentences = _sentences(cards) + _sentences(deck)
    assert len(sentences) >= 8, sentences
    assert [s for s in sentences if not reads(s)] == []


EXPORT_NOTES = [  # as the export services write them (workbench/services/exports/*.py)
    "card a1 has the same name as another card in set FD1; it is exported in set FD1-2",
    "card faces are placeholders (12 cards): the render service is not available, so each face shows name, kind, "
    "stats and text only",
    "PennMUSH stores only Latin-1, so text was folded to ASCII (accents dropped, other characters as ?): 3 cards "
    "(a1, a2, a3); the exact text is kept as base64 in the *_UTF8 attributes",
    "TinyMUX drops characters it cannot print (zero-width joiners, soft hyphens …), so they were left out: the deck "
    "title; the exact text is kept as base64 in the *_UTF8 attributes",
    "text was folded to ASCII (--ascii): 22 cards (a1, a2 and 2 more); the mush export keeps the exact text",
    "images are linked as local file:// paths: this save works on this computer only; upload the sheets and export "
    "again with a base URL to share it",
    "2 cards share a name (or a picture file name) with another card and are exported as 'Name (card-id)': a1, a2",
    "1 card names start with a double quote; Lackey gets ' instead: q1",
    "2 token cards for the cards' create_token effects (Cockatrice offers them in the maker's menu): 衍生物, 融合 (token)",
    "deck d1 names cards that do not exist, left out: x9",
]


@pytest.mark.parametrize("note", EXPORT_NOTES)
def test_export_notes_read_chinese(app, note) -> None:  # type: ignore[no-untyped-def]
    with app.test_request_context("/", headers=ZH):
        text = transfer_text(note)
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert transfer_text(note) == note
    assert reads(note) and re.search(r"[\u4e00-\u9fff]", text)
    assert not re.search(r"\b(the|cards?|is|are|and)\b", text), text


def test_the_import_pages_in_chinese(client, repo) -> None:  # type: ignore[no-untyped-def]
    from tests.web.test_i18n_pages import designer_words

    token = page_token(client, "/games/seth/import")
    bad = client.post("/games/seth/import", headers=ZH, content_type="multipart/form-data",
                      data={"csrf_token": token, "file": (io.BytesIO(b"MZ"), "x.exe")})
    assert bad.status_code == 400 and "文件无法导入" in bad.get_data(as_text=True)
    answer = client.post("/games/seth/import", headers=ZH, content_type="multipart/form-data",
                         data={"csrf_token": token, "kind": "csv", "file": (io.BytesIO(CSV.encode()), "cards.csv")})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "不是整数" in body and "第 3 行" in body
    words = designer_words(repo, "seth") + ("Ash Adder", "Bog Beast", "Tall One", "Weak One", "ash-adder", "bog-beast", "tall-one", "weak-one",
             "Serpent", "Beast", "poison", "water", "fast", "cards.csv", "Seth", "seth", "Health", "Power", "Damage",
             "Speed", "Race", "Element", "Title", "Id", "extra", "csv")
    assert untranslated(body, words) == []


def test_error_pages_and_the_export_form_show_the_services_messages_in_chinese(client) -> None:  # type: ignore[no-untyped-def]
    missing = client.get("/games/seth/cards/no-such-card/edit", headers=ZH)
    body = missing.get_data(as_text=True)
    assert missing.status_code == 404 and "卡牌 &#39;no-such-card&#39; 不存在" in body and "does not exist" not in body
    history = client.get("/games/seth/cards/no-such-card/history", headers=ZH).get_data(as_text=True)
    assert "没有卡牌 &#39;no-such-card&#39;，也没有它的历史" in history
    token = page_token(client, "/games/seth/export")
    bad = client.post("/games/seth/export", headers=ZH, data={"csrf_token": token, "format": "lackey",
                                                              "base_url": "javascript:alert(1)"})
    text = bad.get_data(as_text=True)
    assert bad.status_code == 400 and "基础网址 &#39;javascript:alert(1)&#39; 必须是 http(s) 地址" in text, text[:300]
    english = client.get("/games/seth/cards/no-such-card/edit", headers={"Accept-Language": "en"})
    assert "does not exist" in english.get_data(as_text=True)


def test_the_deck_builders_list_report_reads_chinese(client) -> None:  # type: ignore[no-untyped-def]
    """The builder's dry run of a pasted list: each skipped line in the reader's words (it was
    English on the Chinese page, found walking the UI); ``problems`` stays the English."""
    token = page_token(client, "/games/warzone/new-deck")
    text = "4 Nobody Here\nMoon:\n1 x\nwhat is this\n"
    answer = client.post("/games/warzone/deck-import", json={"text": text}, headers={"X-CSRF-Token": token, **ZH}).json
    assert len(answer["problem_texts"]) == len(answer["problems"]) == 3
    assert all(re.match(r"^第 \d 行：", t) and not re.search(r"\b(no|card|named|skipped|zone)\b", t)
               for t in answer["problem_texts"]), answer["problem_texts"]
    assert answer["problems"][0].startswith("line 1: no card named")
