"""The interface in English and Simplified Chinese: complete catalogues, no untranslated text in
the translated templates, the language order (choice, game default, browser), the switch."""

from __future__ import annotations

import gettext
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import translations  # noqa: E402  (scripts/translations.py builds the catalogues)

# Templates whose every visible string goes through gettext. Grow this list as pages are
# translated (docs/web-ui.md#language says which pages are); the test keeps them complete.
TRANSLATED_TEMPLATES = ["base.html", "index.html", "gallery.html", "gallery_content.html", "decks.html", "deleted.html",
                        "history.html", "help/page.html", "editor.html", "card_delete.html", "card_rename.html",
                        "deck_builder.html", "decks/_stats.html", "render/print.html",
                        "transfer/export.html", "transfer/export_done.html", "transfer/import.html",
                        "transfer/import_done.html", "transfer/import_report.html", "overview.html",
                        "error.html", "auth/login.html", "deck_delete.html", "render/art.html",
                        "gallery_thumb.html", "_card_filters.html",
                        *[f"playtest/{name}.html" for name in ("index", "report", "progress", "replay", "variants",
                                                               "gauntlet", "gauntlet_form", "balance", "balance_form",
                                                               "goldfish", "_charts", "pod", "pod_replay", "_replay_steps")],
                        *[f"play/{name}.html" for name in ("index", "table", "_board", "_cards", "boards/fusion",
                                                           "boards/warzone", "boards/seth", "boards/generic")]]
_JINJA = re.compile(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", re.S)
_WORDS = re.compile(r"[A-Za-z]{2,}")
_TEXT_ATTRS = {"aria-label", "placeholder", "title", "alt"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        self.found += [f"{tag}[{k}]={v!r}" for k, v in attrs if k in _TEXT_ATTRS and v and _WORDS.search(v)]

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        if _WORDS.search(data):
            self.found.append(data.strip())


def test_every_message_has_a_chinese_translation_and_the_catalogue_is_compiled() -> None:
    template = translations.extract()
    catalog, missing = translations.build("zh", template)
    assert missing == []
    compiled = gettext.translation("messages", str(ROOT / "workbench" / "translations"), languages=["zh"])
    table = json.loads((ROOT / "workbench" / "translations" / "zh.json").read_text(encoding="utf-8"))
    for message in template:
        if not message.id:
            continue
        key = translations.json_key(message)
        if isinstance(message.id, tuple):
            assert compiled.ngettext(message.id[0], message.id[1], 1) == table[key][0], message.id
        elif message.context:
            assert compiled.pgettext(message.context, message.id) == table[key], f"run scripts/translations.py: {key!r}"
        else:
            assert compiled.gettext(message.id) == table[key], f"run scripts/translations.py: {message.id!r}"


@pytest.mark.parametrize("name", TRANSLATED_TEMPLATES)
def test_translated_templates_hold_no_untranslated_text(name) -> None:  # type: ignore[no-untyped-def]
    parser = _Text()
    parser.feed(_JINJA.sub(" ", (ROOT / "templates" / name).read_text(encoding="utf-8")))
    assert parser.found == []


def test_the_language_is_the_choice_then_the_game_then_the_browser(client) -> None:  # type: ignore[no-untyped-def]
    assert "<h1>Games</h1>" in client.get("/", headers={"Accept-Language": "en-GB"}).get_data(as_text=True)
    assert "<h1>游戏</h1>" in client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9"}).get_data(as_text=True)
    fusion = client.get("/games/fusion/cards", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "<h1>卡牌</h1>" in fusion and '<html lang="zh-Hans">' in fusion  # fusion's game.yaml: language: zh
    assert "<h1>Cards</h1>" in client.get("/games/warzone/cards", headers={"Accept-Language": "en"}).get_data(as_text=True)
    client.set_cookie("workbench_lang", "en")
    assert "<h1>Cards</h1>" in client.get("/games/fusion/cards").get_data(as_text=True)  # the choice wins


def test_the_switch_remembers_the_choice_and_only_goes_back_inside_the_app(client) -> None:  # type: ignore[no-untyped-def]
    from .pages_helpers import page_token

    token = page_token(client, "/")
    answer = client.post("/language", data={"lang": "zh", "next": "/games/warzone/cards?q=x"},
                         headers={"X-CSRF-Token": token})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/games/warzone/cards?q=x")
    assert "workbench_lang=zh" in answer.headers["Set-Cookie"]
    assert "<h1>卡牌</h1>" in client.get("/games/warzone/cards").get_data(as_text=True)
    away = client.post("/language", data={"lang": "en", "next": "//evil.example/x"}, headers={"X-CSRF-Token": token})
    assert away.headers["Location"].endswith("/") and "evil" not in away.headers["Location"]
    assert client.post("/language", data={"lang": "zh"}, headers={"Origin": "http://localhost"}).status_code == 403


def test_error_pages_speak_the_readers_language(client) -> None:  # type: ignore[no-untyped-def]
    missing = client.get("/games/fusion/cards/no-such-card/edit")  # fusion's pages are in Chinese
    assert missing.status_code == 404
    assert '<h1 id="error-title">未找到</h1>' in missing.get_data(as_text=True)
    english = client.get("/games/warzone/cards/no-such-card/edit", headers={"Accept-Language": "en"})
    assert english.status_code == 404 and '<h1 id="error-title">Not found</h1>' in english.get_data(as_text=True)


_SCRIPTS = ["common.js", "editor.js", "deck.js", "render.js", "playtest.js", "play.js"]  # every script but the effects editor's (its own change)
_JS_STRING = r'"((?:[^"\\]|\\.)*)"'
_JS_T = re.compile(r"(?<![\w.])(?:Workbench|W)\.t\(\s*" + _JS_STRING)  # W: the scripts' alias
_JS_TN = re.compile(r"(?<![\w.])(?:Workbench|W)\.tn\(\s*" + _JS_STRING + r"\s*,\s*" + _JS_STRING)


def test_every_script_message_is_listed_and_the_page_carries_its_translation(client) -> None:  # type: ignore[no-untyped-def]
    from workbench.web.js_messages import JS_MESSAGES

    used = set()
    for name in _SCRIPTS:
        source = (ROOT / "static" / "js" / name).read_text(encoding="utf-8")
        used |= {json.loads(f'"{m}"') for m in _JS_T.findall(source)}
        used |= {json.loads(f'"{m}"') for pair in _JS_TN.findall(source) for m in pair}
    assert "Rendering the first sheet…" in used  # the pattern finds the calls
    assert sorted(used - set(JS_MESSAGES)) == []  # listed in js_messages.py, so extracted and translated
    chinese = client.get("/games/fusion/print").get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', chinese, re.S)
    table = json.loads((ROOT / "workbench" / "translations" / "zh.json").read_text(encoding="utf-8"))
    assert block and json.loads(block.group(1)) == {m: table[m] for m in JS_MESSAGES}
    english = client.get("/games/warzone/print", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'id="i18n"' not in english  # English pages need no catalogue: the scripts' text is English


def test_gallery_thumbnails_are_kept_per_language(client) -> None:  # type: ignore[no-untyped-def]
    english = client.get("/games/warzone/cards", headers={"Accept-Language": "en"}).get_data(as_text=True)
    chinese = client.get("/games/warzone/cards", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert 'aria-label="Edit ' in english and 'aria-label="编辑 ' in chinese and 'aria-label="Edit ' not in chinese


def test_no_message_is_hidden_from_extraction_inside_an_f_string() -> None:
    """Babel does not read calls inside an f-string: ``f'{gettext("budget")}'`` would never reach
    the catalogue, so the page would stay English without a missing-translation failure."""
    pattern = re.compile(r"""f["'][^"'\n]*\{[^}\n]*\b(?:n?gettext|pgettext|_)\(""")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in (ROOT / "workbench").rglob("*.py")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert found == []


def test_the_overview_and_deck_charts_speak_the_readers_language(client) -> None:  # type: ignore[no-untyped-def]
    overview = client.get("/games/seth/overview", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    titles = re.findall(r"<title>([^<]*)</title>", overview)
    assert "预算" in titles and any(re.match(r"^Ash Adder：7（Power 4）", t) for t in titles), titles[:6]
    assert not [t for t in titles if re.search(r"\b(at|budget)\b", t)]
    builder = client.get("/games/seth/decks/rot-and-stone/edit", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert "上限 30（必须小于）" in builder and "limit (must be less)" not in builder
    sorts = client.get("/games/seth/cards", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert '<option value="id">卡牌编号</option>' in sorts


def test_the_deck_builders_list_example_uses_the_games_own_cards_and_zones(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/games/fusion/decks/lie-yan-ji-feng/edit").get_data(as_text=True)
    example = re.search(r'id="list-text" rows="8" placeholder="([^"]*)"', page).group(1)
    assert example.startswith("2 ") and "额外卡组 Extra deck:" in example and "Ironclad" not in example
    warzone = client.get("/games/warzone/decks/iron-bastion/edit", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Areas:" in re.search(r'id="list-text" rows="8" placeholder="([^"]*)"', warzone).group(1)
