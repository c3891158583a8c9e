"""Every refusal the storage, the services and the views raise reads in Chinese on a page
(workbench/web/error_forms.py, read by transfer_text): each ``raise SomeError("…")`` and
``abort(…, description="…")`` of those layers (and of the deck statistics, the game definition
and its symbols, whose refusals the deck builder, the games page and the rule options show) is rebuilt with sample values and must read as a form, so a new message
without a translation fails here."""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path

import pytest

from workbench.web.transfer_text import reads, transfer_text

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("workbench/storage", "workbench/services", "workbench/web", "workbench/domain/deckstats.py",
           "workbench/domain/gamedef.py", "workbench/domain/symbols.py",
           "workbench/domain/ids.py")  # the id rule: the editor's, the deck builder's and the rename page's refusal

NOT_SHOWN_FILES = {  # modules whose refusals no page shows, and why
    "workbench/storage/backup.py": "workbench backup / restore (the command line only)",
    "workbench/storage/scenario_files.py": "workbench scenario (the command line only)",
    "workbench/services/scenario_runs.py": "workbench scenario (the command line only)",
    "workbench/services/playtest/pod_scenarios.py": "pod scenarios of workbench scenario (the command line only)",
    "workbench/storage/users.py": "workbench user (the command line only; the login page says its own words)",
    "workbench/services/playtest/cluster.py": "the Dask back-end of workbench playtest --cluster",
    "workbench/services/rule_coverage.py": "a documentation check run by the tests",
}
NOT_SHOWN = {  # messages that are programming errors, not answers to what a designer did
    "pool worker started without a pod", "pool worker started without a matchup", "'q1' is not an Engine",
    "no engine at 'q1': q1", "an early stop inside a chunk needs the chunk's records",
}
BUILT_IN = {"ValueError", "TypeError", "KeyError", "OSError", "SystemExit", "RuntimeError", "AssertionError"}
EXPANSIONS = {  # values a message names in words (so each has its own form)
    "collection[:-1]": ("card", "deck"), "collection": ("cards", "decks"),
    "COLLECTIONS[collection]": ("card", "deck"), "LIMIT_TEXT": ("at most 1,000 copies of a card, 10,000 cards in a deck",),
    "HUMAN": ("human",), "yamlio.py:where": ("", " at line 3, column 4"), "values.py:extra": ("", " or X"),
    "api.py:what": ("card", "deck"), "symbols.py:sorted(unknown)": ("['glow']",),
    "ids.py:what": ("card id", "new card id", "deck id", "game id"),  # the ids a page's form or address gives
    "playtest_views.py:whose": ("deck A's", "deck B's", "the deck's", "the opponents'", "the opponent's"),
}
SAMPLE = "q1"


def _values(node: ast.expr, file: str) -> tuple[str, ...]:
    """The texts a formatted value can be: a known expansion (``module.py:name`` for one module's
    own), both sides of a constant if-else, or a sample."""
    source = ast.unparse(node)
    for key in (f"{file}:{source}", source):
        if key in EXPANSIONS:
            return EXPANSIONS[key]
    if isinstance(node, ast.IfExp) and all(isinstance(n, ast.Constant) for n in (node.body, node.orelse)):
        return (str(node.body.value), str(node.orelse.value))  # type: ignore[attr-defined]
    return (SAMPLE,)


def _texts(node: ast.expr, file: str) -> list[str] | None:
    """Every sentence a message argument can be, or None when it is not written out here."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        sides = [_texts(node.body, file), _texts(node.orelse, file)]
        return None if None in sides else [t for side in sides for t in side]  # type: ignore[union-attr]
    if not isinstance(node, ast.JoinedStr):
        return None
    values = [v for v in node.values if isinstance(v, ast.FormattedValue)]
    sources = sorted({ast.unparse(v.value) for v in values})
    texts = []
    for choice in itertools.product(*(_values(next(v.value for v in values if ast.unparse(v.value) == s), file)
                                      for s in sources)):  # one value per expression: card … card, not card … deck
        chosen = dict(zip(sources, choice))
        text = ""
        for value in node.values:
            if isinstance(value, ast.Constant):
                text += str(value.value)
            else:
                shown = chosen[ast.unparse(value.value)]  # type: ignore[attr-defined]
                text += f"'{shown}'" if value.conversion == ord("r") else shown  # type: ignore[attr-defined]
        texts.append(text)
    return texts


def refusals() -> list[tuple[str, int, str]]:
    """(file, line, sentence) of every message raised or aborted with in the shown layers."""
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")) if (ROOT / folder).is_dir() else [ROOT / folder]:
            name = str(path.relative_to(ROOT))
            if name in NOT_SHOWN_FILES:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                message = None
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                    if ast.unparse(node.exc.func) not in BUILT_IN:
                        message = node.exc.args[0]
                elif isinstance(node, ast.Call) and ast.unparse(node.func) == "abort":
                    message = next((k.value for k in node.keywords if k.arg == "description"), None)
                if message is None:
                    continue
                if isinstance(message, ast.Call) and ast.unparse(message.func) in ("gettext", "ngettext", "_"):
                    continue  # translated where it is raised
                for text in _texts(message, path.name) or []:
                    found.append((name, node.lineno, text))
    return found


def test_the_scan_finds_the_refusals() -> None:
    found = {text for _, _, text in refusals()}
    assert len(found) > 250
    assert "the 'q1' file is empty" in found or "the q1 file is empty" in found
    assert "deck 'q1' exists already" in found and "card 'q1' exists already" in found


def test_every_refusal_a_page_can_show_reads_as_a_form() -> None:
    unread = [f"{name}:{line}: {text}" for name, line, text in refusals() if text not in NOT_SHOWN and not reads(text)]
    assert unread == []


@pytest.mark.parametrize("message, chinese", [
    ("card 'fire-imp' does not exist", "卡牌 'fire-imp' 不存在"),
    ("line 3: the CSV file cannot be read: field larger than field limit (131072) (check for an unclosed quote)",
     "第 3 行：无法读取 CSV 文件：field larger than field limit (131072)（请检查是否有未闭合的引号）"),
    ("these decks cannot be played: deck 'a' does not exist", "这些卡组无法对战：卡组 'a' 不存在"),
    ("the variant's start_life, max_hand are filled but 'Compare with this variant' is not ticked: tick it to "
     "compare, or clear those fields", None),
    ("no AI player 'x'; choose one of heuristic, random or human", "没有 AI 玩家 'x'；请从 启发式（heuristic）、随机（random）或真人中选择"),
    ("games must be between 1 and 100,000, not 0", "局数（games）必须在 1 到 100,000 之间，而不是 0"),
])
def test_refusals_read_chinese_with_their_values(app, message, chinese) -> None:  # type: ignore[no-untyped-def]
    with app.test_request_context("/", headers={"Accept-Language": "zh"}):
        text = transfer_text(message)
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert transfer_text(message) == message
    assert re.search(r"[\u4e00-\u9fff]", text), text
    if chinese:
        assert text == chinese


def test_a_rule_option_typed_wrong_names_the_option_by_its_label_in_chinese(client) -> None:  # type: ignore[no-untyped-def]
    from tests.web.pages_helpers import page_token

    token = page_token(client, "/games/fusion/playtest")
    answer = client.post("/games/fusion/playtest", headers={"Accept-Language": "zh"}, data={
        "csrf_token": token, "deck_a": "lie-yan-ji-feng", "deck_b": "pan-shi-chao-xi", "games": "10", "compare": "1",
        "var_opt_start_life": "-5"})
    error = re.search(r'id="playtest-error">(.*?)</p>', answer.get_data(as_text=True)).group(1)
    assert answer.status_code == 400 and error.startswith("规则选项 Starting life（start_life）为 -5"), error


def test_a_broken_game_yaml_reads_chinese_on_the_games_page(app, data_dir) -> None:  # type: ignore[no-untyped-def]
    game = data_dir / "broken"
    game.mkdir()
    (game / "game.yaml").write_text("id: other\nname: Broken\n", encoding="utf-8")
    body = app.test_client().get("/", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    notice = re.search(r'<p class="notice notice-error" role="alert">(.*?)</p>', body, re.S)
    assert notice and re.search(r"[\u4e00-\u9fff]", notice.group(1)) and " at " not in notice.group(1), notice



def test_an_id_that_breaks_the_id_rule_is_refused_in_chinese(client) -> None:  # type: ignore[no-untyped-def]
    """A new card or deck id, or a rename, that breaks the id rule: the refusal in the reader's words."""
    from tests.web.pages_helpers import page_token

    zh = {"Accept-Language": "zh-CN"}
    for collection, word in (("cards", "卡牌 id"), ("decks", "卡组 id")):
        answer = client.post(f"/api/games/warzone/{collection}", json={"id": "Bad Id!", "name": "X", "zones": {}}, headers=zh)
        assert answer.status_code == 400
        assert answer.get_json()["error_text"].startswith(f"{word} 'Bad Id!' 不可用"), answer.get_json()
    page = client.get("/games/warzone/cards/ember-adept/rename", headers=zh).get_data(as_text=True)
    version = re.search(r'name="version" value="([^"]*)"', page).group(1)
    answer = client.post("/games/warzone/cards/ember-adept/rename", headers=zh, data={
        "csrf_token": page_token(client, "/games/warzone/cards/ember-adept/rename"), "version": version,
        "new_id": "Ember Adept"})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "新的卡牌 id" in body and "is not allowed" not in body
