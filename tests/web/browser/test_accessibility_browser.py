"""Every page, and the main interactive states, checked with axe-core (from npm, injected by the
test) for critical and serious accessibility violations, and at 1280x720 and 390x844 for content
wider than the screen (a phone must never scroll sideways)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
PAGES = [
    "/", "/docs/", "/docs/printing",
    "/games/warzone/cards", "/games/fusion/cards", "/games/seth/cards",
    "/games/warzone/cards/ashcloud-catapult/edit", "/games/fusion/new-card?kind=creature", "/games/seth/new-card?kind=monster",
    "/games/warzone/decks", "/games/warzone/decks/iron-bastion/edit", "/games/seth/decks/rot-and-stone/edit",
    "/games/fusion/new-deck",
    "/games/warzone/print", "/games/fusion/export", "/games/seth/import", "/games/warzone/playtest",
    "/games/seth/playtest/gauntlet", "/games/seth/playtest/balance", "/games/fusion/overview",
    "/games/seth/cards/bog-lurker/history", "/games/warzone/deleted",
]
# Elements that may be wider than the screen because they scroll inside themselves.
_SCROLLERS = "pre, .help-body table, .table-scroll, .chart, .print-card-list"
_OVERFLOW = ("[...document.querySelectorAll('body *')].filter(e => { const r = e.getBoundingClientRect();"
             " if (r.width === 0 || r.right <= window.innerWidth + 1 || e.closest('" + _SCROLLERS + "')) return false;"
             " for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {"  # clipped inside its box
             "   if (getComputedStyle(a).overflowX !== 'visible' && a.getBoundingClientRect().right <= window.innerWidth + 1)"
             "     return false; }"
             " return true; })"
             ".slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className"
             " + ' ' + (e.textContent || '').slice(0, 40))")


def _violations(page) -> list[str]:  # type: ignore[no-untyped-def]
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
            for v in result["violations"] if v["impact"] in ("critical", "serious")]


@pytest.fixture
def tester(browser):  # type: ignore[no-untyped-def]
    if not AXE.is_file():
        raise RuntimeError(f"{AXE} is missing: scripts/install.sh test installs it with npm")
    contexts = []

    def open_page(width: int, height: int):  # type: ignore[no-untyped-def]
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)  # to inject axe
        context.set_default_timeout(30_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["laptop", "phone"])
def test_every_page_has_no_serious_violations_and_no_sideways_scroll(live_server, tester, size):
    page = tester(*size)
    problems: dict[str, list[str]] = {}
    for path in PAGES:
        page.goto(live_server + path)
        page.wait_for_load_state("networkidle", timeout=90_000)  # requests can queue on a busy machine
        found = _violations(page)
        wide = page.evaluate(_OVERFLOW)
        if page.evaluate("document.documentElement.scrollWidth") > size[0]:
            wide.append(f"page scrollWidth {page.evaluate('document.documentElement.scrollWidth')}")
        if found or wide:
            problems[path] = found + [f"wider than the screen: {w}" for w in wide]
    assert problems == {}


def test_interactive_states_have_no_serious_violations(live_server, tester):
    page = tester(1280, 720)
    problems: dict[str, list[str]] = {}
    page.goto(live_server + "/games/seth/new-card?kind=monster")
    page.get_by_label("Power").fill("40")  # an error shown next to its field
    page.wait_for_load_state("networkidle", timeout=90_000)  # a preview render can queue on a busy machine
    problems["editor with an error"] = _violations(page)
    page.goto(live_server + "/games/warzone/decks/iron-bastion/edit")
    page.get_by_text("Paste or import a list").click()
    page.get_by_label("Deck list").fill("4 Mudfoot Recruit\n1 nothing")
    page.get_by_role("button", name="Check the list").click()
    page.locator("#list-report p").wait_for()
    problems["deck list report"] = _violations(page)
    page.goto(live_server + "/games/warzone/print?deck=iron-bastion")
    page.get_by_role("button", name="Preview the first sheet").click()
    page.locator("#preview-pages img").first.wait_for()
    problems["print preview"] = _violations(page)
    assert {k: v for k, v in problems.items() if v} == {}


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["laptop", "phone"])
def test_a_playtest_report_and_its_replay(live_server, tester, size):
    page = tester(*size)
    page.goto(live_server + "/games/seth/playtest")
    page.get_by_label("Games").fill("40")
    page.get_by_label("Seed").fill("5")
    page.get_by_label("Worker processes").fill("1")
    page.get_by_role("button", name="Start playtest").click()
    page.locator("#chart-win-rate").wait_for(timeout=90_000)
    problems = {"report": _violations(page) + [f"wider than the screen: {w}" for w in page.evaluate(_OVERFLOW)]}
    page.locator("a.replay-link").first.click()
    page.locator("#replay-log").wait_for()
    problems["replay"] = _violations(page) + [f"wider than the screen: {w}" for w in page.evaluate(_OVERFLOW)]
    assert {k: v for k, v in problems.items() if v} == {}


def _open_nested_effect_rows(page) -> None:  # type: ignore[no-untyped-def]
    """Open every kind of nested control on effect 1: a condition with a filter, a cost with a
    sacrifice filter and counters, for each, and the YAML view."""
    def add(adder: str, value: str) -> None:
        page.locator("#" + adder).select_option(value)
        page.locator("#" + adder + "-button").click()

    add("field-effects-1-add", "if")
    add("field-effects-1-if-count-add", "filter")
    page.locator("#field-effects-1-if-count-filter-add").click()
    add("field-effects-1-add", "cost")
    add("field-effects-1-cost-add", "sacrifice")
    page.locator("#field-effects-1-cost-sacrifice-form").select_option("1")
    add("field-effects-1-cost-sacrifice-v-add", "filter")
    page.locator("#field-effects-1-cost-sacrifice-v-filter-add").click()
    add("field-effects-1-cost-add", "remove_counters")
    page.locator("#field-effects-1-cost-remove_counters-add").click()
    add("field-effects-1-add", "per")
    if page.locator("#field-effects-1-options-add").count():  # choose one: an option of several steps
        page.locator("#field-effects-1-options-add").click()
        page.locator("#field-effects-1-options-3-form").select_option("1")
        page.locator("#field-effects-1-options-3-v-add").click()
        page.locator("#field-effects-1-options-3-v-1-action").select_option("damage")
    page.locator("#field-effects-toggle").click()
    page.locator("#field-effects-reads").wait_for()


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["laptop", "phone"])
@pytest.mark.parametrize("path", ["/games/warzone/cards/archmage-torvin/edit", "/games/fusion/cards/bao-lie-huo-yao-tong/edit",
                                  "/games/fusion/cards/jue-ze/edit"], ids=["warzone", "fusion-chinese", "fusion-choose-one"])
def test_the_effect_editor_with_nested_rows_open(live_server, tester, size, path):
    page = tester(*size)
    page.goto(live_server + path)
    _open_nested_effect_rows(page)
    page.wait_for_load_state("networkidle", timeout=90_000)  # a preview render can queue on a busy machine
    found = _violations(page) + [f"wider than the screen: {w}" for w in page.evaluate(_OVERFLOW)]
    if page.evaluate("document.documentElement.scrollWidth") > size[0]:
        found.append(f"page scrollWidth {page.evaluate('document.documentElement.scrollWidth')}")
    assert found == []


def test_the_effect_rows_are_reached_and_used_with_the_keyboard_only(live_server, live_server_data, tester):
    # a card of its own: other browser tests of the session edit the bundled ones
    (live_server_data / "warzone" / "cards" / "fx-keyboard-rows.yaml").write_text(
        "name: Keyboard Rows\nkind: spell\ntext: Destroy an enemy creature.\neffects:\n"
        "  - {trigger: on_play, action: destroy, target: enemy_creature}\n", encoding="utf-8")
    page = tester(1280, 720)
    page.goto(live_server + "/games/warzone/cards/fx-keyboard-rows/edit")
    page.locator("#field-effects-1-action").focus()
    seen = []
    for _ in range(12):  # Tab walks the row: the action's docs link, whom, the detail list, its Add button
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.id || document.activeElement.getAttribute('href')"))
        if seen[-1] == "field-effects-1-add-button":
            break
    assert seen[:4] == ["/docs/effects#actions", "field-effects-1-target", "field-effects-1-add",
                        "field-effects-1-add-button"], seen
    page.keyboard.press("Shift+Tab")
    for _ in range(3):  # "Only if" is the fourth detail; the arrow keys only choose, adding nothing
        page.keyboard.press("ArrowDown")
    assert page.locator("#field-effects-1-if").count() == 0
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "field-effects-1-if-kind"  # the new detail has the focus
    page.keyboard.press("Tab")  # on to its own controls
    assert page.evaluate("document.activeElement.closest('#field-effects-1-if') !== null")


_READY = ("() => { const r = document.getElementById('play'); return r !== null && !r.hasAttribute('aria-busy') &&"
          " (r.dataset.over === 'true' || document.querySelectorAll('#pt-moves button.pt-move').length > 0); }")


def _english_left(page, words) -> list[str]:  # type: ignore[no-untyped-def]
    from tests.web.pages_helpers import untranslated

    return untranslated(page.content(), words)


_SIZES = {"phone": (390, 844), "laptop": (1280, 720)}


def _at_both_sizes(page) -> list[str]:  # type: ignore[no-untyped-def]
    """axe-core's critical and serious violations, and what is wider than the screen, of the page
    as it is now at each of ``_SIZES`` (the page is resized; it ends at the phone's size)."""
    found = []
    for name, (width, height) in reversed(_SIZES.items()):
        page.set_viewport_size({"width": width, "height": height})
        found += [f"{name}: {v}" for v in _violations(page)]
        found += [f"{name}: wider than the screen: {w}" for w in page.evaluate(_OVERFLOW)]
    return found


def test_a_playtest_and_the_game_table_in_chinese(live_server, live_server_data, tester):
    """Fusion's pages in Chinese: a small playtest (form, live progress, report, replay) and a whole
    game on the table by clicks, played on a phone's screen. No English is left beyond the
    designer's own words (card, deck and option names); axe-core finds nothing critical or serious
    and nothing is wider than the screen, on a laptop's screen and on the phone's. (The HTML is the
    same at both sizes: one walk through, each page checked at both, instead of a walk per size.)"""
    import random

    from tests.web.test_i18n_pages import designer_words
    from workbench.storage.repository import Repository

    words = designer_words(Repository(live_server_data), "fusion")
    page = tester(*_SIZES["phone"])
    page.goto(live_server + "/games/fusion/playtest")
    assert page.locator("html").get_attribute("lang") == "zh-Hans"
    problems = {"form": _english_left(page, words)}
    page.get_by_label("对局数").fill("20")
    page.get_by_label("种子").fill("4")
    page.get_by_label("工作进程数").fill("1")
    page.get_by_role("button", name="开始试玩测试").click()
    page.locator("#chart-win-rate").wait_for(timeout=90_000)
    problems["report"] = _english_left(page, words) + _at_both_sizes(page)
    page.locator("a.replay-link").first.click()
    page.locator("#replay-log").wait_for()
    page.get_by_role("button", name="步 ▶").click()
    assert "第 2 步，共" in page.locator("#step-count").inner_text()
    problems["replay"] = _english_left(page, words) + _at_both_sizes(page)

    page.goto(live_server + "/games/fusion/play")
    problems["play form"] = _english_left(page, words)
    page.get_by_label("你的卡组").select_option("lie-yan-ji-feng")
    page.get_by_label("对手的卡组", exact=True).select_option("pan-shi-chao-xi")
    page.get_by_label("种子", exact=False).fill("3")
    page.locator("details.play-options summary").click()  # a short game: random clicks play long ones
    page.locator("#opt_start_life").fill("4")  # ~30 clicks; test_i18n_pages walks a whole long game
    page.get_by_role("button", name="开始对战").click()
    page.get_by_label("AI 速度").select_option("0")
    rng, root = random.Random(1), page.locator("#play")
    checked = False
    for _ in range(400):
        page.wait_for_function(_READY)
        if root.get_attribute("data-over") == "true":
            break
        if not checked and page.locator("#pt-log li").count() > 3:  # a game under way: moves, log, undo
            problems["table"] = _english_left(page, words) + _at_both_sizes(page)
            checked = True
        step = root.get_attribute("data-step")
        moves = page.locator("#pt-moves button.pt-move")
        moves.nth(rng.randrange(moves.count())).click()
        page.wait_for_function(f"() => document.getElementById('play').dataset.step !== '{step}'")
    assert root.get_attribute("data-over") == "true" and page.locator("#pt-status").inner_text().startswith("对局结束：")
    assert checked, "the game ended before its table was checked mid-game"
    problems["table at the end"] = _english_left(page, words) + _at_both_sizes(page)
    assert {k: v for k, v in problems.items() if v} == {}
