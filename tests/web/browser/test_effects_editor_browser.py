"""The structured effects editor in a real Chromium: effects are rows of labelled selects and boxes,
saved as the structured list; unknown keys survive; the YAML view stays in sync and a typo typed there
is reported next to the row it concerns."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _api_card(base: str, game: str, card_id: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/games/{game}/cards/{card_id}", timeout=5) as answer:
        return json.loads(answer.read())["card"]


def test_change_an_action_add_a_row_and_save(live_server, live_server_data: Path, page, screenshot):
    page.goto(live_server + "/games/warzone/cards/archmage-torvin/edit")
    first = page.locator("fieldset.effect-row").nth(0)
    expect(first.locator(":scope > legend")).to_have_text("Effect 1")
    action = first.get_by_label("What it does")
    expect(action).to_have_value("destroy")
    # options follow the vocabulary table (on_play first), labelled as a designer reads them; the
    # internal name is secondary text beside the select
    expect(first.get_by_label("When", exact=True).locator("option").nth(1)).to_have_attribute("value", "on_play")
    expect(first.get_by_label("When", exact=True).locator("option").nth(2)).to_have_text("When this is destroyed")
    expect(action.locator("option:checked")).to_have_text("Destroy")
    expect(page.locator("#field-effects-1-action-name")).to_have_text("destroy")
    expect(first.get_by_label("Amount")).to_have_count(0)  # destroy takes no amount
    doc = page.locator("#field-effects-1-action-doc")
    expect(doc).to_contain_text("What it does: destroy the target creature or monster.")
    expect(doc.get_by_role("link")).to_have_attribute("href", "/docs/effects#actions")
    action.select_option("damage")
    expect(page.locator("#field-effects-1-action-doc")).to_contain_text("What it does: damage to a creature")  # follows the choice
    amount = first.get_by_label("Amount")
    expect(amount).to_be_visible()
    # damage needs an amount: the live check says so next to row 1, on the Amount box
    expect(page.locator("#problems-effects-1")).to_contain_text("effect 1: damage needs an amount")
    expect(amount).to_have_attribute("aria-invalid", "true")
    amount.fill("400")
    expect(page.locator("#problems-effects-1")).to_be_empty()

    page.get_by_role("button", name="Add effect").click()
    second = page.locator("fieldset.effect-row").nth(1)
    expect(second.locator(":scope > legend")).to_have_text("Effect 2")
    expect(second.get_by_label("When", exact=True)).to_be_focused()  # keyboard users land in the new row
    second.get_by_label("When", exact=True).select_option("end_of_turn")
    second.get_by_label("What it does").select_option("modify_stats")
    second.get_by_label("Whom").select_option("own_creatures")
    second.get_by_role("button", name="Add to Stat changes").click()
    second.get_by_label("Which").select_option("strength")
    second.get_by_label("Value", exact=True).fill("-100")
    second.get_by_label("How long").select_option("end_of_turn")
    expect(page.locator("#problems-effects-2")).to_be_empty()
    # each row reads as its rules text, live from the check
    expect(page.locator("#field-effects-2-reads")).to_have_text(
        "Reads: At the end of your turn, each of your creatures gets -100 Strength until end of turn.")
    screenshot(page.locator(".field-effects"), "editor-effects")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")

    expected = [
        {"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 400},
        {"trigger": "end_of_turn", "action": "modify_stats", "target": "own_creatures",
         "stats": {"strength": -100}, "duration": "end_of_turn"},
    ]
    assert _api_card(live_server, "warzone", "archmage-torvin")["effects"] == expected
    saved = yaml.safe_load((live_server_data / "warzone" / "cards" / "archmage-torvin.yaml").read_text(encoding="utf-8"))
    assert saved["effects"] == expected
    # keys are written in the bundled cards' order, so a saved file diffs cleanly
    assert [list(entry) for entry in saved["effects"]] == [list(entry) for entry in expected]

    # Move the new row up with the keyboard-reachable button: the order is what is saved
    page.get_by_role("button", name="Move up: effect 2").click()
    expect(page.get_by_role("button", name="Move down: effect 1")).to_be_focused()
    expect(page.locator("fieldset.effect-row").nth(0).get_by_label("What it does")).to_have_value("modify_stats")
    page.get_by_role("button", name="Remove: effect 2").click()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    assert _api_card(live_server, "warzone", "archmage-torvin")["effects"] == expected[1:]
    assert not page.console_errors, page.console_errors


def test_unknown_key_survives_and_a_json_typo_shows_next_to_its_row(live_server, live_server_data: Path, page):
    card_file = live_server_data / "warzone" / "cards" / "fx-noted-volley.yaml"
    card_file.write_text(yaml.safe_dump({
        "name": "Noted Volley", "kind": "spell", "text": "Deal 300 damage to an enemy creature.",
        "effects": [{"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 300,
                     "note": "from the playtest of week 3"}],
    }, sort_keys=False), encoding="utf-8")
    page.goto(live_server + "/games/warzone/cards/fx-noted-volley/edit")
    row = page.locator("fieldset.effect-row").nth(0)
    expect(row.get_by_label("note", exact=True)).to_have_value("from the playtest of week 3\n")  # kept, as YAML
    row.get_by_label("Amount").fill("350")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    assert _api_card(live_server, "warzone", "fx-noted-volley")["effects"] == [
        {"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 350,
         "note": "from the playtest of week 3"}]

    toggle = page.get_by_role("button", name="Edit as YAML")
    toggle.click()
    expect(page.get_by_role("button", name="Hide YAML")).to_have_attribute("aria-pressed", "true")
    area = page.get_by_label("Effects as YAML")
    assert yaml.safe_load(area.input_value())[0]["amount"] == 350  # the YAML view shows what the rows hold
    row.get_by_label("Amount").fill("360")  # and follows the rows as they change
    assert yaml.safe_load(area.input_value())[0]["amount"] == 360
    area.fill(area.input_value().replace("action: damage", "action: damgae"))
    problems = page.locator("#problems-effects-1")
    expect(problems).to_contain_text("effect 1: action is 'damgae'")
    expect(row.get_by_label("What it does")).to_have_attribute("aria-invalid", "true")
    # the row keeps the unknown name visibly instead of dropping it
    expect(row.get_by_label("What it does").locator("option:checked")).to_contain_text("damgae")
    area.fill("[{")
    expect(page.locator("#problems-effects")).to_contain_text("not valid YAML")
    area.fill(json.dumps([{"trigger": "on_play", "action": "draw", "target": "self", "amount": 2, "note": "kept"}]))
    expect(page.locator("#problem-summary")).to_contain_text("1 warning")  # the unknown key 'note' only
    expect(page.locator("fieldset.effect-row").nth(0).get_by_label("What it does")).to_have_value("draw")
    assert not page.console_errors, page.console_errors


def test_problems_are_placed_by_their_path_not_by_their_english_message(live_server, page):
    """The validate API's messages rewritten (as a translation would: no "effect N:" left): each
    problem still goes next to its own row, on its control, from its code and path."""
    def translated(route):
        answer = route.fetch()
        body = answer.json()
        for problem in body.get("problems", []):
            problem["message"] = "问题 " + problem["code"]  # no English, no row number
        route.fulfill(response=answer, json=body)

    page.route(live_server + "/api/games/warzone/validate", translated)
    page.goto(live_server + "/games/warzone/cards/archmage-torvin/edit")
    page.get_by_role("button", name="Add effect").click()
    second = page.locator("fieldset.effect-row").nth(1)
    second.get_by_label("When", exact=True).select_option("on_play")
    second.get_by_label("What it does").select_option("damage")
    second.get_by_label("Whom").select_option("opponent")
    expect(page.locator("#problems-effects-2")).to_contain_text("问题 effect.missing_amount")
    expect(second.get_by_label("Amount")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#problems-effects-1")).to_be_empty()  # row 1 is fine
    second.get_by_label("Amount").fill("2")
    expect(page.locator("#problems-effects-2")).to_be_empty()


def test_a_viewer_can_try_rows_but_not_save(live_server, page):
    """The page a team-mode viewer gets (form marked data-read-only, no Save button), served here by
    rewriting the local page: rows still change and are checked, Ctrl+S saves nothing."""
    path = "/games/warzone/cards/firepot-volley/edit"

    def as_viewer(route):
        body = route.fetch().text()
        body = body.replace('id="card-form" class="card-form" novalidate',
                            'id="card-form" class="card-form" novalidate data-read-only="true"')
        body = body.replace('id="save-button"', 'id="save-button" hidden')
        route.fulfill(body=body, headers={"Content-Type": "text/html; charset=utf-8"})

    page.route(live_server + path, as_viewer)
    page.goto(live_server + path)
    before = _api_card(live_server, "warzone", "firepot-volley")
    row = page.locator("fieldset.effect-row").nth(0)
    row.get_by_label("What it does").select_option("heal")
    row.get_by_label("Amount").fill("")
    expect(page.locator("#problems-effects-1")).to_contain_text("heal needs an amount")
    expect(page.locator("#save-status")).to_contain_text("viewers cannot save")
    page.keyboard.press("Control+s")
    page.wait_for_timeout(300)
    assert _api_card(live_server, "warzone", "firepot-volley") == before
    assert not page.console_errors, page.console_errors


def _pick(page, select_id: str, value: str) -> None:
    page.locator("#" + select_id).select_option(value)


def _add(page, adder_id: str, value: str) -> None:
    """An "Add …" list and its Add button: choose, then press the button."""
    page.locator("#" + adder_id).select_option(value)
    page.locator("#" + adder_id + "-button").click()


def test_nested_effects_built_by_clicks_save_as_the_expected_yaml(live_server, live_server_data: Path, page, screenshot):
    """Every kind of nested construct — zones, a filter, conditions (count, previous, phase list),
    costs (life, discard, sacrifice with a filter, counters), per, a shared target, stats — is built
    with the rows' controls only (no YAML typed), and the card file holds exactly that list."""
    card_file = live_server_data / "warzone" / "cards" / "fx-built-by-clicks.yaml"
    card_file.write_text(yaml.safe_dump({
        "name": "Built By Clicks", "kind": "creature", "class": 2, "degree": 3, "strength": 500,
        "resilience": 500, "text": "Built in the editor."}, sort_keys=False), encoding="utf-8")
    page.goto(live_server + "/games/warzone/cards/fx-built-by-clicks/edit")
    add_effect = page.get_by_role("button", name="Add effect")

    # 1. search the deck for a Class 2 creature (move: zones and a filter)
    add_effect.click()
    row = page.locator("#field-effects-1")
    row.get_by_label("When", exact=True).select_option("on_play")
    row.get_by_label("What it does").select_option("move")
    expect(page.locator("#field-effects-1-action-doc").get_by_role("link")).to_have_attribute(
        "href", "/docs/effects#zones-move")
    row.get_by_label("From zone").select_option("deck")
    row.get_by_label("To zone").select_option("hand")
    row.get_by_role("button", name="Add to Only cards that match").click()
    _pick(page, "field-effects-1-filter-1-key", "kind")
    page.locator("#field-effects-1-filter-1-value-v").fill("creature")
    row.get_by_role("button", name="Add to Only cards that match").click()
    _pick(page, "field-effects-1-filter-2-key", "class")
    page.locator("#field-effects-1-filter-2-value-v").fill("2")

    # 2. if you control three or more creatures, draw a card (if: count with zone, side, min)
    add_effect.click()
    row = page.locator("#field-effects-2")
    _pick(page, "field-effects-2-trigger", "on_play")
    _pick(page, "field-effects-2-action", "draw")
    _pick(page, "field-effects-2-target", "self")
    page.locator("#field-effects-2-amount").fill("1")
    _add(page, "field-effects-2-add", "if")
    expect(page.locator("#field-effects-2-if-kind")).to_be_focused()  # the new detail takes the focus
    _pick(page, "field-effects-2-if-kind", "count")
    _add(page, "field-effects-2-if-count-add", "zone")
    _pick(page, "field-effects-2-if-count-zone", "field")
    _add(page, "field-effects-2-if-count-add", "side")
    _pick(page, "field-effects-2-if-count-side", "own")
    page.locator("#field-effects-2-if-count-min").fill("3")  # a count condition starts "at least 1"

    # 3. pay 2 life, discard a card: draw two (an activated cost)
    add_effect.click()
    _pick(page, "field-effects-3-trigger", "activated")
    _pick(page, "field-effects-3-action", "draw")
    _pick(page, "field-effects-3-target", "self")
    page.locator("#field-effects-3-amount").fill("2")
    _add(page, "field-effects-3-add", "cost")
    _add(page, "field-effects-3-cost-add", "pay_life")
    page.locator("#field-effects-3-cost-pay_life").fill("2")
    _add(page, "field-effects-3-cost-add", "discard")  # 1 by default

    # 4-5. 300 damage to an enemy creature, then, if you do, it loses 200 Strength until your next turn
    add_effect.click()
    _pick(page, "field-effects-4-trigger", "on_play")
    _pick(page, "field-effects-4-action", "damage")
    _pick(page, "field-effects-4-target", "enemy_creature")
    page.locator("#field-effects-4-amount").fill("300")
    add_effect.click()
    _pick(page, "field-effects-5-trigger", "on_play")
    _pick(page, "field-effects-5-action", "modify_stats")
    _pick(page, "field-effects-5-target", "same")
    page.locator("#field-effects-5-stats-add").click()
    _pick(page, "field-effects-5-stats-1-key", "strength")
    page.locator("#field-effects-5-stats-1-value").fill("-200")
    _pick(page, "field-effects-5-duration", "until_your_next_turn")
    _add(page, "field-effects-5-add", "if")
    _pick(page, "field-effects-5-if-kind", "previous")

    # 6. sacrifice another creature and remove 3 charge counters: 100 damage to the opponent for
    #    each creature you control, only in the War or Return phase
    add_effect.click()
    _pick(page, "field-effects-6-trigger", "activated")
    _pick(page, "field-effects-6-action", "damage")
    _pick(page, "field-effects-6-target", "opponent")
    page.locator("#field-effects-6-amount").fill("100")
    _add(page, "field-effects-6-add", "per")
    _add(page, "field-effects-6-per-add", "zone")  # the first zone offered is the hand …
    _pick(page, "field-effects-6-per-zone", "field")  # … changed to the field
    _add(page, "field-effects-6-add", "cost")
    _add(page, "field-effects-6-cost-add", "sacrifice")
    _pick(page, "field-effects-6-cost-sacrifice-form", "1")  # "Only cards that match": {count, filter}
    _add(page, "field-effects-6-cost-sacrifice-v-add", "count")
    _add(page, "field-effects-6-cost-sacrifice-v-add", "filter")
    page.locator("#field-effects-6-cost-sacrifice-v-filter-add").click()
    _pick(page, "field-effects-6-cost-sacrifice-v-filter-1-key", "kind")
    page.locator("#field-effects-6-cost-sacrifice-v-filter-1-value-v").fill("creature")
    _add(page, "field-effects-6-cost-add", "remove_counters")
    page.locator("#field-effects-6-cost-remove_counters-add").click()
    name = page.locator("#field-effects-6-cost-remove_counters-1-key")
    name.fill("charge")
    name.press("Tab")
    page.locator("#field-effects-6-cost-remove_counters-1-value").fill("3")
    _add(page, "field-effects-6-add", "if")
    _pick(page, "field-effects-6-if-kind", "phase")
    _pick(page, "field-effects-6-if-phase-form", "1")  # a list of phases
    page.locator("#field-effects-6-if-phase-v-add").click()
    page.locator("#field-effects-6-if-phase-v-1").fill("war")
    page.locator("#field-effects-6-if-phase-v-add").click()
    page.locator("#field-effects-6-if-phase-v-2").fill("return")

    expect(page.locator("#field-effects-2-reads")).to_have_text(
        "Reads: When this is summoned, if 3 or more cards you control, draw 1 card.")
    screenshot(page.locator(".field-effects"), "editor-effects-nested")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    expected = [
        {"trigger": "on_play", "action": "move", "from": "deck", "to": "hand", "filter": {"kind": "creature", "class": 2}},
        {"trigger": "on_play", "action": "draw", "target": "self", "amount": 1,
         "if": {"count": {"zone": "field", "side": "own", "min": 3}}},
        {"trigger": "activated", "cost": {"pay_life": 2, "discard": 1}, "action": "draw", "target": "self", "amount": 2},
        {"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 300},
        {"trigger": "on_play", "action": "modify_stats", "target": "same", "stats": {"strength": -200},
         "duration": "until_your_next_turn", "if": {"previous": True}},
        {"trigger": "activated", "cost": {"sacrifice": {"count": 1, "filter": {"kind": "creature"}},
                                          "remove_counters": {"charge": 3}},
         "action": "damage", "target": "opponent", "amount": 100, "if": {"phase": ["war", "return"]},
         "per": {"zone": "field"}},
    ]
    saved = yaml.safe_load(card_file.read_text(encoding="utf-8"))
    assert saved["effects"] == expected
    assert [list(entry) for entry in saved["effects"]] == [list(entry) for entry in expected]  # a clean diff
    expect(page.locator("#problem-list")).not_to_contain_text(re.compile(r"effect \d+:"))  # every entry is in the vocabulary
    assert not page.console_errors, page.console_errors


def test_rules_text_live_in_chinese_used_as_the_card_text(live_server, live_server_data: Path, page):
    """A fusion card (its pages open in Chinese): the labels are the seed's words with the internal
    name beside them; each row reads as its rules text as it changes; when the text and the effects
    disagree the editor says so; "Use as card text" writes the Chinese text and the English gloss."""
    page.goto(live_server + "/games/fusion/cards/bao-lie-huo-yao-tong/edit")
    row = page.locator("#field-effects-1")
    trigger = row.get_by_label("时机", exact=True)
    expect(trigger.locator("option:checked")).to_have_text("此卡使用时")
    expect(row.get_by_label("效果", exact=True).locator("option:checked")).to_have_text("造成伤害")
    expect(page.locator("#field-effects-1-action-name")).to_have_text("damage")  # the internal name, secondary
    expect(row.get_by_label("对象", exact=True).locator("option:checked")).to_have_text("对手")
    expect(page.locator("#field-effects-1-reads")).to_have_text("读作：给予对手3伤害。 / Deal 3 damage to the opponent.")
    expect(page.locator("#field-effects-disagree")).to_have_count(0)  # the text says 3, so does the effect

    row.get_by_label("数值", exact=True).fill("4")
    expect(page.locator("#field-effects-1-reads")).to_have_text("读作：给予对手4伤害。 / Deal 4 damage to the opponent.")
    expect(page.locator("#field-effects-disagree")).to_contain_text("卡牌文字与其效果不一致。")
    # the reason in the reader's words too (the problem's text), not the domain's English message
    expect(page.locator("#field-effects-disagree")).to_contain_text("卡牌文字没有提到效果用到的 4")
    expect(page.locator("#field-effects-disagree")).not_to_contain_text("the text does not mention")
    page.get_by_role("button", name="用作卡牌文字（中文）").click()
    expect(page.locator("#field-text")).to_have_value("给予对手4伤害。")
    page.get_by_role("button", name="用作卡牌文字（English）").click()
    expect(page.locator("#field-text_en")).to_have_value("Deal 4 damage to the opponent.")
    expect(page.locator("#field-effects-disagree")).to_have_count(0)
    page.keyboard.press("Control+s")
    expect(page.locator("#save-status")).to_have_class(re.compile("status-ok"))  # 已于 … 保存
    saved = yaml.safe_load((live_server_data / "fusion" / "cards" / "bao-lie-huo-yao-tong.yaml").read_text(encoding="utf-8"))
    assert (saved["text"], saved["text_en"]) == ("给予对手4伤害。", "Deal 4 damage to the opponent.")
    assert saved["effects"] == [{"trigger": "on_play", "action": "damage", "target": "opponent", "amount": 4}]
    assert not page.console_errors, page.console_errors


def test_choose_one_with_a_sequence_unless_and_arrange_built_by_clicks(live_server, live_server_data: Path, page):
    """The constructs other parts of the vocabulary add — choose one (an option of one step, an
    option of two steps), unless its controller pays, arrange the top cards — are rows too: the
    schema brings them, the script has no word of its own for them."""
    card_file = live_server_data / "warzone" / "cards" / "fx-choose-by-clicks.yaml"
    card_file.write_text(yaml.safe_dump({"name": "Choose By Clicks", "kind": "spell", "text": "Choose one."},
                                        sort_keys=False), encoding="utf-8")
    page.goto(live_server + "/games/warzone/cards/fx-choose-by-clicks/edit")
    page.get_by_role("button", name="Add effect").click()
    _pick(page, "field-effects-1-trigger", "on_play")
    _pick(page, "field-effects-1-action", "choose")
    expect(page.locator("#field-effects-1-action-doc").get_by_role("link")).to_have_attribute(
        "href", "/docs/effects#choices-while-an-effect-resolves")
    # option 1: one step, destroy an enemy creature unless its controller pays 2 life
    page.locator("#field-effects-1-options-add").click()
    expect(page.locator("#field-effects-1-options-1-form")).to_be_focused()
    expect(page.locator("#field-effects-1-options-1-v-trigger")).to_have_count(0)  # a step has no trigger
    _pick(page, "field-effects-1-options-1-v-action", "destroy")
    _pick(page, "field-effects-1-options-1-v-target", "enemy_creature")
    _add(page, "field-effects-1-options-1-v-add", "unless")
    _pick(page, "field-effects-1-options-1-v-unless-kind", "pay_life")
    page.locator("#field-effects-1-options-1-v-unless-pay_life").fill("2")
    # option 2: two steps, draw a card then gain 3 life
    page.locator("#field-effects-1-options-add").click()
    _pick(page, "field-effects-1-options-2-form", "1")  # several steps
    page.locator("#field-effects-1-options-2-v-add").click()
    _pick(page, "field-effects-1-options-2-v-1-action", "draw")
    _pick(page, "field-effects-1-options-2-v-1-target", "self")
    page.locator("#field-effects-1-options-2-v-1-amount").fill("1")
    page.locator("#field-effects-1-options-2-v-add").click()
    _pick(page, "field-effects-1-options-2-v-2-action", "gain_life")
    page.locator("#field-effects-1-options-2-v-2-amount").fill("3")
    # then look at the top three cards and put them back in any order
    page.get_by_role("button", name="Add effect").click()
    _pick(page, "field-effects-2-trigger", "on_play")
    _pick(page, "field-effects-2-action", "arrange")
    page.locator("#field-effects-2-amount").fill("3")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    expected = [
        {"trigger": "on_play", "action": "choose", "options": [
            {"action": "destroy", "target": "enemy_creature", "unless": {"pay_life": 2}},
            [{"action": "draw", "target": "self", "amount": 1}, {"action": "gain_life", "amount": 3}]]},
        {"trigger": "on_play", "action": "arrange", "amount": 3},
    ]
    assert yaml.safe_load(card_file.read_text(encoding="utf-8"))["effects"] == expected
    expect(page.locator("#problem-list")).not_to_contain_text(re.compile(r"effect \d+:"))  # no entry has a problem
    assert not page.console_errors, page.console_errors


def test_what_the_rows_cannot_show_stays_yaml_and_is_saved_unchanged(live_server, live_server_data: Path, page):
    """Two conditions in one `if` and a filter range with a stray key are not controls: each stays
    YAML text in its row, saved exactly as it was while the rest of the row is edited; a list with an
    entry that is not a mapping is edited as YAML only, and saved as it is."""
    odd_if = {"life": {"max": 10}, "turn": {"min": 3}}
    odd_filter = {"strength": {"min": 500, "step": 100}}
    card_file = live_server_data / "warzone" / "cards" / "fx-odd-values.yaml"
    card_file.write_text(yaml.safe_dump({
        "name": "Odd Values", "kind": "spell", "text": "Deal 300 damage.",
        "effects": [{"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 300,
                     "if": odd_if, "filter": odd_filter}]}, sort_keys=False), encoding="utf-8")
    page.goto(live_server + "/games/warzone/cards/fx-odd-values/edit")
    expect(page.locator("#field-effects-1-if")).to_have_js_property("tagName", "TEXTAREA")
    assert yaml.safe_load(page.locator("#field-effects-1-if").input_value()) == odd_if
    assert yaml.safe_load(page.locator("#field-effects-1-filter").input_value()) == odd_filter
    page.locator("#field-effects-1-amount").fill("400")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    saved = yaml.safe_load(card_file.read_text(encoding="utf-8"))["effects"]
    assert saved == [{"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 400,
                      "filter": odd_filter, "if": odd_if}]

    odd_list = [{"trigger": "on_play", "action": "draw", "target": "self", "amount": 1}, "and then some"]
    card_file.write_text(yaml.safe_dump({"name": "Odd Values", "kind": "spell", "text": "Draw a card.",
                                         "effects": odd_list}, sort_keys=False), encoding="utf-8")
    page.goto(live_server + "/games/warzone/cards/fx-odd-values/edit")
    expect(page.locator("#field-effects-note")).to_contain_text("effect 2 is not a mapping of keys")
    assert yaml.safe_load(page.get_by_label("Effects as YAML").input_value()) == odd_list
    expect(page.get_by_role("button", name="Add effect")).to_be_disabled()
    page.locator("#field-flavor").fill("Kept as it was.")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    assert yaml.safe_load(card_file.read_text(encoding="utf-8"))["effects"] == odd_list
    assert not page.console_errors, page.console_errors


def test_tokens_and_a_fusion_summon_built_by_clicks_in_chinese(live_server, live_server_data: Path, page):
    card_file = live_server_data / "fusion" / "cards" / "fx-tokens-by-clicks.yaml"
    card_file.write_text(yaml.safe_dump({"name": "点击衍生", "kind": "magic", "cost": 1, "subtype": "normal",
                                         "text": "特殊召唤2只1/1的衍生物。"}, sort_keys=False, allow_unicode=True),
                         encoding="utf-8")
    page.goto(live_server + "/games/fusion/cards/fx-tokens-by-clicks/edit")
    page.get_by_role("button", name="添加效果").click()
    _pick(page, "field-effects-1-trigger", "on_play")
    _pick(page, "field-effects-1-action", "create_token")
    expect(page.locator("#field-effects-1-action option:checked")).to_have_text("特殊召唤衍生物")
    _pick(page, "field-effects-1-target", "self")
    # no token yet: the problem (effect.bad_token) is next to row 1, on the token's control
    expect(page.locator("#problems-effects-1")).to_contain_text("token")
    expect(page.locator("#field-effects-1-token-add")).to_have_attribute("aria-invalid", "true")
    page.locator("#field-effects-1-count").fill("2")
    for n, value in ((1, "衍生物"), (2, "1"), (3, "1")):  # name, then the game's stats ATK and DEF
        page.locator("#field-effects-1-token-add").click()
        page.locator(f"#field-effects-1-token-{n}-value-v").fill(value)
    expect(page.locator("#field-effects-1-token-2-key")).to_have_value("atk")
    page.get_by_role("button", name="添加效果").click()
    _pick(page, "field-effects-2-trigger", "on_play")
    _pick(page, "field-effects-2-action", "fusion_summon")
    page.locator("#field-effects-2-filter-add").click()
    _pick(page, "field-effects-2-filter-1-key", "subtype")
    page.locator("#field-effects-2-filter-1-value-v").fill("龙")
    expect(page.locator("#field-effects-1-reads")).to_contain_text("衍生物")
    page.keyboard.press("Control+s")
    expect(page.locator("#save-status")).to_have_class(re.compile("status-ok"))
    assert yaml.safe_load(card_file.read_text(encoding="utf-8"))["effects"] == [
        {"trigger": "on_play", "action": "create_token", "target": "self", "count": 2,
         "token": {"name": "衍生物", "atk": 1, "def": 1}},
        {"trigger": "on_play", "action": "fusion_summon", "filter": {"subtype": "龙"}},
    ]
    expect(page.locator("#problem-list")).not_to_contain_text(re.compile(r"effect \d+:"))
    assert not page.console_errors, page.console_errors


def test_triggers_with_keys_static_rules_durations_and_counters_built_by_clicks(live_server, live_server_data: Path, page):
    card_file = live_server_data / "warzone" / "cards" / "fx-statics-by-clicks.yaml"
    card_file.write_text(yaml.safe_dump({
        "name": "Statics By Clicks", "kind": "creature", "class": 2, "degree": 3, "strength": 500,
        "resilience": 500, "text": "Built in the editor."}, sort_keys=False), encoding="utf-8")
    page.goto(live_server + "/games/warzone/cards/fx-statics-by-clicks/edit")
    add_effect = page.get_by_role("button", name="Add effect")
    add_effect.click()  # 1. when the War phase begins, your creatures get +100 Strength
    _pick(page, "field-effects-1-trigger", "on_phase")
    expect(page.get_by_label("Which phase as")).to_be_visible()  # the trigger's own key shows at once
    page.locator("#field-effects-1-phase-v").fill("war")
    _pick(page, "field-effects-1-action", "modify_stats")
    _pick(page, "field-effects-1-target", "own_creatures")
    page.locator("#field-effects-1-stats-add").click()
    _pick(page, "field-effects-1-stats-1-key", "strength")
    page.locator("#field-effects-1-stats-1-value").fill("100")
    add_effect.click()  # 2. your Class 2 creatures cannot be targeted
    _pick(page, "field-effects-2-trigger", "continuous")
    _pick(page, "field-effects-2-action", "cannot_be_targeted")
    expect(page.locator("#field-effects-2-action-doc").get_by_role("link")).to_have_attribute(
        "href", "/docs/effects#static-rules")
    _pick(page, "field-effects-2-target", "own_creatures")
    _add(page, "field-effects-2-add", "filter")
    page.locator("#field-effects-2-filter-add").click()
    _pick(page, "field-effects-2-filter-1-key", "class")
    page.locator("#field-effects-2-filter-1-value-v").fill("2")
    add_effect.click()  # 3. when the opponent draws, 100 damage to them
    _pick(page, "field-effects-3-trigger", "on_draw")
    _pick(page, "field-effects-3-side", "opponent")
    _pick(page, "field-effects-3-action", "damage")
    _pick(page, "field-effects-3-target", "opponent")
    page.locator("#field-effects-3-amount").fill("100")
    add_effect.click()  # 4. a charge counter at the start of each turn
    _pick(page, "field-effects-4-trigger", "start_of_turn")
    _pick(page, "field-effects-4-action", "add_counters")
    _pick(page, "field-effects-4-target", "this")
    page.locator("#field-effects-4-counter").fill("charge")
    page.locator("#field-effects-4-amount").fill("1")
    add_effect.click()  # 5. your creatures get +100 Strength while this is on the field
    _pick(page, "field-effects-5-trigger", "on_play")
    _pick(page, "field-effects-5-action", "modify_stats")
    _pick(page, "field-effects-5-target", "own_creatures")
    page.locator("#field-effects-5-stats-add").click()
    _pick(page, "field-effects-5-stats-1-key", "strength")
    page.locator("#field-effects-5-stats-1-value").fill("100")
    _pick(page, "field-effects-5-duration", "while_on_field")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    assert yaml.safe_load(card_file.read_text(encoding="utf-8"))["effects"] == [
        {"trigger": "on_phase", "phase": "war", "action": "modify_stats", "target": "own_creatures",
         "stats": {"strength": 100}},
        {"trigger": "continuous", "action": "cannot_be_targeted", "target": "own_creatures", "filter": {"class": 2}},
        {"trigger": "on_draw", "side": "opponent", "action": "damage", "target": "opponent", "amount": 100},
        {"trigger": "start_of_turn", "action": "add_counters", "target": "this", "counter": "charge", "amount": 1},
        {"trigger": "on_play", "action": "modify_stats", "target": "own_creatures", "stats": {"strength": 100},
         "duration": "while_on_field"},
    ]
    expect(page.locator("#problem-list")).not_to_contain_text(re.compile(r"effect \d+:"))
    assert not page.console_errors, page.console_errors


_COVERED = """() => {
  const bar = document.querySelector("#card-form .form-actions").getBoundingClientRect();
  const r = document.activeElement.getBoundingClientRect();
  return {inEffects: !!document.activeElement.closest(".effects-editor"), bottom: r.bottom, top: r.top,
          barTop: bar.top, tag: document.activeElement.id || document.activeElement.tagName};
}"""


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["laptop", "phone"])
def test_a_focused_row_scrolls_above_the_sticky_save_bar(live_server, page, size):
    """Tabbing down through the effect rows (and a new row's first select) never leaves the focused
    control behind the sticky Save bar at the bottom of the window."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(live_server + "/games/warzone/cards/archmage-torvin/edit")
    for _ in range(3):
        page.get_by_role("button", name="Add effect").click()
        # the new row's When select has the focus and shows above the bar, also once the live check's
        # answer (which may come while the row is added) has grown the rows above it
        try:
            page.wait_for_function(f"() => {{ const s = ({_COVERED})(); return s.inEffects && s.bottom <= s.barTop; }}",
                                   timeout=3000)
        except Exception:
            pass
        seen = page.evaluate(_COVERED)
        assert seen["inEffects"] and seen["bottom"] <= seen["barTop"], seen
    # the live check's answer fills the new rows' problem lists (rows grow): wait for it, so the
    # walk below measures the settled page, not one that shifts while it tabs
    expect(page.locator("#problems-effects-4")).not_to_be_empty()
    page.wait_for_load_state("networkidle", timeout=90_000)  # a preview render can queue on a busy machine
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("fieldset.effect-row").nth(0).get_by_label("When", exact=True).focus()
    checked = 0
    for _ in range(60):
        page.keyboard.press("Tab")
        seen = page.evaluate(_COVERED)
        if not seen["inEffects"]:
            break
        assert seen["bottom"] <= seen["barTop"] + 0.5, seen  # not under the bar
        checked += 1
    assert checked >= 20  # the walk went through several rows
