"""Pages rendered in Chinese hold no English beyond the designer's own words (card, deck and
option names): the playtest pages with their generated text (end reasons, verdicts, card
figures, the unplayed-cards notice) and the game table."""

from __future__ import annotations

import re

import pytest

from tests.web.pages_helpers import page_token, untranslated
from tests.web.test_playtest_views import wait_done

ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}


def designer_words(repo, game: str) -> tuple[str, ...]:
    """Card, deck and option names and labels of ``game``: shown as written, in any language."""
    definition = repo.game(game)
    words = {str(c.data.get("name", c.id)) for c in repo.list_cards(game)}
    words |= {c.id for c in repo.list_cards(game)}
    words |= {str(d.data.get("name", d.id)) for d in repo.list_decks(game)}
    words |= {definition.name, definition.id}
    for fid, spec in definition.formats.items():
        words |= {fid, str(spec.get("label", "")) if isinstance(spec, dict) else ""}
    for opt in definition.options.values():
        words |= {opt.name, str(opt.spec.get("label") or ""), str(opt.spec.get("rule") or ""), str(opt.default)}
    for kind in definition.kinds.values():
        words |= {kind.id, kind.label}
        for fdef in definition.fields_for(kind.id):  # labels and enumerated values (seth's speeds, elements)
            spec = fdef.spec
            words |= {fdef.label, *(str(v) for v in spec.get("enum") or (spec.get("items") or {}).get("enum") or [])}
    return tuple(w for w in words if re.search(r"[A-Za-z]{2,}", w))  # ids such as "a1" are not words


def _run(client, game: str, url: str, form: dict) -> str:
    token = page_token(client, url)
    answer = client.post(url, data={"csrf_token": token, **form}, headers=ZH)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:800]
    run_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert wait_done(client, game, run_id)["status"] == "done"
    return run_id


@pytest.mark.parametrize("game, deck_a, deck_b", [("seth", "rot-and-stone", "skyburn-blitz"),
                                                  ("fusion", "lie-yan-ji-feng", "pan-shi-chao-xi")])
def test_playtest_pages_and_reports_in_chinese(client, repo, game, deck_a, deck_b) -> None:  # type: ignore[no-untyped-def]
    words = designer_words(repo, game)
    for url in ("playtest", "playtest/gauntlet", "playtest/balance", "playtest/goldfish"):
        body = client.get(f"/games/{game}/{url}", headers=ZH).get_data(as_text=True)
        assert untranslated(body, words) == [], (url, untranslated(body, words))
    run_id = _run(client, game, f"/games/{game}/playtest",
                  {"deck_a": deck_a, "deck_b": deck_b, "games": "40", "seed": "5", "workers": "1",
                   "early_stop": "sprt", "agent_check": "random"})
    body = client.get(f"/games/{game}/playtests/{run_id}", headers=ZH).get_data(as_text=True)
    assert 'id="card-table"' in body
    assert untranslated(body, words) == []
    body = client.get(f"/games/{game}/playtests/{run_id}/games/1", headers=ZH).get_data(as_text=True)
    body = re.sub(r'<ol class="pt-log" id="replay-log">.*?</ol>', "", body, flags=re.S)  # the engine's log: not yet
    assert untranslated(body, words) == []
    goldfish = client.post(f"/games/{game}/playtest/goldfish", headers=ZH,
                           data={"csrf_token": page_token(client, f"/games/{game}/playtest"), "deck": deck_a, "games": "5"})
    assert 'id="goldfish-hands"' in goldfish.get_data(as_text=True)
    assert untranslated(goldfish.get_data(as_text=True), words) == []
    gauntlet = _run(client, game, f"/games/{game}/playtest/gauntlet", {"deck": deck_a, "games": "4", "workers": "1"})
    assert untranslated(client.get(f"/games/{game}/playtests/{gauntlet}", headers=ZH).get_data(as_text=True), words) == []
    balance = _run(client, game, f"/games/{game}/playtest/balance",
                   {"deck": deck_a, "vs": deck_b, "games": "4", "workers": "1"})
    assert untranslated(client.get(f"/games/{game}/playtests/{balance}", headers=ZH).get_data(as_text=True), words) == []


def _walk(client, game: str, table_id: str, token: str, rng, check, steps: int = 1500) -> dict:
    """Play a table with random legal moves for the person and the AI's own, checking each view."""
    view = client.get(f"/games/{game}/play/{table_id}/state", headers=ZH).get_json()
    for _ in range(steps):
        check(view)
        if view["over"]:
            break
        headers = {**ZH, "X-CSRF-Token": token}
        if view["moves"]:
            move = rng.choice(view["moves"])
            view = client.post(f"/games/{game}/play/{table_id}/move", headers=headers, json={
                "seat": view["seat"], "index": move["index"], "kind": move["kind"], "expect": view["decisions"]}).get_json()
        else:
            view = client.post(f"/games/{game}/play/{table_id}/advance", headers=headers,
                               json={"expect": view["decisions"]}).get_json()
        assert "error" not in view, view.get("error")
    check(view)
    return view


@pytest.mark.parametrize("game, deck_a, deck_b, engine_words", [
    ("fusion", "lie-yan-ji-feng", "pan-shi-chao-xi", True),
    ("seth", "rot-and-stone", "skyburn-blitz", True),
    ("warzone", "iron-bastion", "vanguard-rush", True),
])
def test_the_game_table_in_chinese(client, repo, game, deck_a, deck_b, engine_words) -> None:  # type: ignore[no-untyped-def]
    import random

    words = designer_words(repo, game)
    token = page_token(client, f"/games/{game}/play")
    assert untranslated(client.get(f"/games/{game}/play", headers=ZH).get_data(as_text=True), words) == []
    answer = client.post(f"/games/{game}/play", headers=ZH, data={
        "csrf_token": token, "deck_you": deck_a, "deck_opponent": deck_b, "opponent": "random", "seat": "first", "seed": "3"})
    table_id = answer.headers["Location"].rsplit("/", 1)[1]
    assert untranslated(client.get(f"/games/{game}/play/{table_id}", headers=ZH).get_data(as_text=True), words) == []
    left: list[str] = []

    def check(view: dict) -> None:
        texts = [view["status"], view["phase"], view["turn_label"], view["board"].get("pending") or ""]
        if engine_words:
            texts += [m["text"] for m in view["moves"]] + view["log"] + [u["text"] for u in view["undo"]]
        page = "<main>" + "".join(f"<p>{t}</p>" for t in texts) + view["board_html"] + "</main>"
        left.extend(t for t in untranslated(page, words) if t not in left)

    view = _walk(client, game, table_id, token, random.Random(1), check)
    assert view["over"] and left == []
    assert view["status"].startswith("对局结束：")
    listing = client.get(f"/games/{game}/play", headers=ZH).get_data(as_text=True)
    assert untranslated(listing, words) == []


REASONS = {  # each engine's end reasons, as a game record keeps them and as a report counts them
    "P2 has -4 life (§3.1.4)": "P2 的生命值为 -4 (§3.1.4)",
    "a player's life fell to 0 or below (§3.1.4)": "一名玩家的生命值降到 0 或以下 (§3.1.4)",
    "P1 must draw from an empty deck (§3.1.8)": "P1 必须从空卡组抽卡 (§3.1.8)",
    "the last player left wins (§3.9.5)": "最后留下的玩家获胜 (§3.9.5)",
    "P1 has 0 Life Points (§1.4.1)": "P1 的生命值为 0 (§1.4.1)",
    "a player's Damage Pile reached its limit (§1.4.2)": "一名玩家的伤害堆达到上限 (§1.4.2)",
    "draw: both lose at once (P1 has 0 Life Points (§1.4.1); P2 has 10 cards in the Damage Pile (§1.4.2)) (§1.4.4)":
        "平局：双方同时落败（P1 的生命值为 0 (§1.4.1)；P2 的伤害堆有 10 张卡牌 (§1.4.2)）(§1.4.4)",
    "all of P1's monsters were removed: P2 wins (§2.6)": "P1 的怪兽全部被移除：P2 获胜 (§2.6)",
    "round limit of 2 reached: a draw (§2.6)": "达到 2 轮的上限：平局 (§2.6)",
}


def test_end_reasons_and_verdicts_read_chinese_and_english_stays_as_the_engine_wrote_it(app) -> None:  # type: ignore[no-untyped-def]
    from workbench.web.game_text import end_reason, engine_line, stop_reason_text, verdict_text

    with app.test_request_context("/", headers=ZH):
        assert {r: end_reason(r) for r in REASONS} == REASONS
        assert verdict_text("better") == "卡组 A 更强" and verdict_text("equal").startswith("卡组 A 与卡组 B 实力相当")
        assert stop_reason_text({"reason": "95% interval 0.561–0.640 lies above 0.530"}) == "95% 区间 0.561–0.640 高于 0.530"
        assert engine_line("Turn 3 — P1: attack 霜龙 (b4) with 焰龙 (a2)") == "第 3 回合 — P1：用 焰龙 (a2) 攻击 霜龙 (b4)"
        assert end_reason("an engine's own words") == "an engine's own words"  # unknown: as written
        turn = "第 7 回合 — P2 的回合：生命值 23 / 21 / 5 / -9，魔力 3/5，手牌 4，卡组 30"
        assert engine_line("Turn 7 — P2's turn: life 23 / 21 / 5 / -9, mana 3/5, hand 4, deck 30") == turn
        assert engine_line("Turn 7 — P2's turn: life 23-21-5--9, mana 3/5, hand 4, deck 30") == turn  # an older run file
        assert engine_line("Turn 4 — P1 recruits Mudfoot Recruit (C1, Guarding)") == "第 4 回合 — P1 招募 Mudfoot Recruit（阶级 1，守备）"
        assert engine_line("Round 2, Fast — P2 assigns nothing") == "第 2 轮，快速 — P2 没有派出怪兽"
        assert engine_line("activate Glass Wasp (b-glass-wasp) #0 on Ash Adder (a-ash-adder)") == \
            "发动 Glass Wasp (b-glass-wasp) 的第 1 个效果，对象 Ash Adder (a-ash-adder)"
        assert engine_line("2 fire on Ash Adder (a1); 1 poison on Elder Oak (a2)") == "2 fire 给 Ash Adder (a1)；1 poison 给 Elder Oak (a2)"
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert [end_reason(r) for r in REASONS] == list(REASONS)
        assert engine_line("Turn 3 — P1: pass") == "Turn 3 — P1: pass"


def test_validation_messages_read_chinese_from_their_codes_and_english_stays_the_domains(client) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/warzone/cards")
    card = {"kind": "creature", "name": "Test", "class": 9, "degree": 99}  # out of range, required fields missing
    english = client.post("/api/games/warzone/validate", json={"card": card},
                          headers={"X-CSRF-Token": token, "Accept-Language": "en"}).get_json()["problems"]
    chinese = client.post("/api/games/warzone/validate", json={"card": card},
                          headers={"X-CSRF-Token": token, **ZH}).get_json()["problems"]
    assert all("text" not in p for p in english)
    assert [p["message"] for p in chinese] == [p["message"] for p in english]  # the domain's English, unchanged
    texts = {p["code"]: p["text"] for p in chinese}
    assert texts["card.required"].startswith("必须填写") and "is required" not in texts["card.required"]
    assert "允许的值：1, 2, 3" in texts["card.enum"] and "最大值为" in texts["card.maximum"]
    untranslated_codes = [p["code"] for p in chinese if re.search(r"\b(is|the|must|allowed)\b", p["text"])]
    assert untranslated_codes == []
    deck = client.post("/api/games/warzone/validate", json={"deck": {"name": "x", "zones": {"main": {"ironclad-sentry": 4}}}},
                       headers={"X-CSRF-Token": token, **ZH}).get_json()["problems"]
    assert any(p["code"] == "deck.zone_min" and "最少" in p["text"] for p in deck), deck


_OPTION = re.compile(r'<option value="([^"]*)"[^>]*>([^<]*)</option>')


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_chinese_pages_name_no_choice_by_its_internal_id(client, repo, game) -> None:  # type: ignore[no-untyped-def]
    """A select shows a label a designer reads; an option whose text is its own id (``csv``,
    ``decklist``) is an internal name shown bare (found walking the Chinese UI)."""
    words = set(designer_words(repo, game)) | {str(v) for k in repo.game(game).kinds.values()
                                               for f in repo.game(game).fields_for(k.id) for v in f.spec.get("enum") or []}
    pages = ["cards", "import", "export", "playtest", "playtest/balance", "playtest/gauntlet", "playtest/goldfish",
             "play", "print", "overview", "decks", f"decks/{repo.list_decks(game)[0].id}/edit", "new-card"]
    bare = []
    for page in pages:
        body = client.get(f"/games/{game}/{page}", headers=ZH).get_data(as_text=True)
        bare += [f"{page}: {value}" for value, text in _OPTION.findall(body)
                 if text.strip() == value and re.fullmatch(r"[a-z][a-z0-9_-]+", value) and value not in words]
    assert bare == []


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_the_effect_rows_label_every_filter_key_and_stat(app, game) -> None:  # type: ignore[no-untyped-def]
    """The effect rows' selects show labels: no filter key, stat or token key only by its name
    (``kind`` was, found walking the Chinese editor)."""
    from workbench.web import get_repo
    from workbench.web.editor_views import _effects_data

    with app.test_request_context("/", headers=ZH):
        parts = _effects_data(get_repo().game(game))["schema"]["parts"]
    bare = [f"{part}: {item['name']}" for part in ("filter_keys", "stats", "token_keys") for item in parts[part]
            if item["label"] == item["name"]]
    assert bare == []


def test_remembered_engine_lines_read_as_the_forms_read_them_in_each_language(app) -> None:  # type: ignore[no-untyped-def]
    """engine_line remembers each line's translation (a table view reads the whole log at every
    move): asked again, and after other lines, it answers what the forms give, per language."""
    from workbench.web import game_text

    lines = ["Turn 3 — P1: attack 霜龙 (b4) with 焰龙 (a2)", "Turn 4 — P1 recruits Mudfoot Recruit (C1, Guarding)",
             "Round 2, Fast — P2 assigns nothing", "an engine's own words"]
    game_text._LINES.clear()
    with app.test_request_context("/", headers=ZH):
        first = [game_text.engine_line(line) for line in lines]
        assert first == [game_text._translated_line(line) for line in lines]
        assert [game_text.engine_line(line) for line in lines] == first
        assert len(game_text._LINES) == len(lines)
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert [game_text.engine_line(line) for line in lines] == lines  # English: as the engine wrote it
    with app.test_request_context("/", headers=ZH):
        assert [game_text.engine_line(line) for line in lines] == first
