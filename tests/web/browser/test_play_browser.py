"""The game table in a real Chromium against a real server: whole games of each bundled game played
by clicks against the random AI (checked against the engine for the same seed and moves), undo,
resume after a server restart, hot-seat and a replay step-through with take-over."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.live_server import copy_data, running_server
from workbench.domain.engines import load_engine
from workbench.services import table as tables

pytestmark = pytest.mark.browser

DECKS = {"warzone": ("iron-bastion", "vanguard-rush"), "seth": ("rot-and-stone", "skyburn-blitz"),
         "fusion": ("lie-yan-ji-feng", "pan-shi-chao-xi")}
READY = ("() => { const r = document.getElementById('play'); return r !== null && !r.hasAttribute('aria-busy') &&"
         " (r.dataset.over === 'true' || document.querySelectorAll('#pt-moves button.pt-move').length > 0); }")


def open_table(page, base: str, game: str, opponent: str = "random", seed: str = "7", seat: str = "first",
               options: dict[str, str] | None = None) -> str:
    """Start a game from the play form; ``options`` fills the form's rule options (by name)."""
    # fusion's pages open in Chinese: these tests read the English labels (test_i18n_browser the Chinese)
    page.context.add_cookies([{"name": "workbench_lang", "value": "en", "url": base}])
    page.goto(f"{base}/games/{game}/play")
    you, them = DECKS[game]
    page.get_by_label("Your deck").select_option(you)
    page.get_by_label("Opponent's deck", exact=True).select_option(them)
    page.get_by_label("Opponent", exact=True).select_option(opponent)
    page.get_by_label("You play").select_option(seat)
    page.get_by_label("Seed").fill(seed)
    fill_rule_options(page, options or {})
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#pt-status")).to_be_visible()
    if opponent != "human":
        page.get_by_label("AI speed").select_option("0")
    return page.url.rsplit("/", 1)[1]


def fill_rule_options(page, options: dict[str, str]) -> None:
    """Open the form's "Rule options" and fill the named ones."""
    if options:
        page.locator("details.play-options summary").click()
        for name, value in options.items():
            page.locator(f"#opt_{name}").fill(value)


# Random clicks make long fusion games (a three-player one took 70 s): a lower starting life,
# set on the form as a designer would, keeps them short and checks that the option reaches the game.
SHORT_FUSION = {"start_life": "8"}


def click_moves(page, rng: random.Random, limit: int, card_first: bool = True) -> list[str]:
    """Play the person's seat by clicks until the game ends or ``limit`` moves: sometimes a card on
    the table and then one of its moves, otherwise a move from the list of all legal moves."""
    clicked: list[str] = []
    root = page.locator("#play")
    for _ in range(limit):
        page.wait_for_function(READY)
        if root.get_attribute("data-over") == "true":
            break
        step = root.get_attribute("data-step")
        split = page.locator("#pt-split")
        if split.count() and rng.random() < 0.5:
            # seth: split the damage by hand, one less than all on the first target, one on the next
            inputs = split.locator("input[data-target]")
            columns = {}
            for i in range(inputs.count()):
                columns.setdefault(inputs.nth(i).get_attribute("data-element"), []).append(inputs.nth(i))
            for boxes in columns.values():
                total = int(boxes[0].get_attribute("max"))
                boxes[0].fill(str(total - 1 if len(boxes) > 1 and total > 1 else total))
                if len(boxes) > 1 and total > 1:
                    boxes[1].fill("1")
            clicked.append("split")
            split.get_by_role("button", name="Split").click()
            page.wait_for_function(f"() => document.getElementById('play').dataset.step !== '{step}'")
            continue
        cards = page.locator("#pt-board button.pt-card.has-moves:visible")
        if card_first and cards.count() and rng.random() < 0.5:
            cards.nth(rng.randrange(cards.count())).click()
            choices = page.locator("#pt-card-moves button.pt-move")
            expect(choices.first).to_be_focused()  # focus moves to the card's first move
        else:
            choices = page.locator("#pt-moves button.pt-move")
        button = choices.nth(rng.randrange(choices.count()))
        clicked.append(button.inner_text())
        button.click()
        page.wait_for_function(f"() => document.getElementById('play').dataset.step !== '{step}'")
    return clicked


def engine_result(table: dict) -> tuple:
    """The result of the table file's seed and decisions, played straight through the engine."""
    engine = load_engine(table["engine"])
    deck0, deck1 = tables.decks_of(table)
    state = engine.new_game(deck0, deck1, dict(table["options"]), int(table["seed"]))
    for decision in table["actions"]:
        chosen = {}
        for p, (kind, args) in decision["by"].items():
            args = tables.from_data(args)
            legal = [a for a in state.legal_actions(int(p)) if a.kind == kind and a.args == args]
            chosen[int(p)] = legal[0] if legal else tables.Action(kind, args)
        if len(chosen) == 1 and len(state.to_act()) == 1:
            state.apply(next(iter(chosen.values())))
        else:
            state.apply_joint(chosen)
    return state.result()


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_a_whole_game_by_clicks_against_the_random_ai_matches_the_engine(live_server, page, screenshot, game):
    table_id = open_table(page, live_server, game, options=SHORT_FUSION if game == "fusion" else None)
    rng = random.Random(11)
    clicked = click_moves(page, rng, 3000)
    status = page.locator("#pt-status")
    expect(status).to_contain_text("Game over")
    table = page.request.get(f"{live_server}/games/{game}/play/{table_id}.json").json()
    result = engine_result(table)
    labels = tables.seat_labels(table)
    if result.winner is None:
        expect(status).to_contain_text("a draw")
    else:
        expect(status).to_contain_text(f"{labels[result.winner]} won after {result.turns} turns")
    reason = re.sub(r"\bP([12])\b", lambda m: labels[int(m.group(1)) - 1], result.reason)
    assert reason in status.inner_text()
    mine = [d for d in table["actions"] if "0" in d["by"]]
    assert len(mine) == len(clicked) > 0, "every click was one decision of the person's seat"
    if game == "seth":
        splits = [d["by"]["0"] for d in mine if d["by"]["0"][0] == "split"]
        assert clicked.count("split") and len(splits) >= clicked.count("split"), "hand-made splits were played"
    # The game log speaks in deck names, never P1/P2.
    log = page.locator("#pt-log").inner_text()
    assert labels[0] in log and not re.search(r"\bP[12]\b", log)
    screenshot(page, f"play-{game}-over", full_page=False)
    assert not page.console_errors, page.console_errors


def test_undo_keyboard_and_a_phone_screen(live_server, page, screenshot):
    table_id = open_table(page, live_server, "warzone", seed="21")
    root = page.locator("#play")
    # Keyboard: focus a card that has moves, Enter opens its moves with the focus on the first one.
    page.wait_for_function(READY)
    with_moves = page.locator("#pt-board button.pt-card.has-moves:visible")
    for _ in range(12):  # set-up choices (Areas) come before moves of a card
        if with_moves.count():
            break
        click_moves(page, random.Random(1), 1, card_first=False)
        page.wait_for_function(READY)
    card = with_moves.first
    card.focus()
    expect(page.locator("#pt-large")).to_be_visible()  # focus shows the card's face large
    page.keyboard.press("Enter")
    expect(page.locator("#pt-card-moves button.pt-move").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(card).to_be_focused()
    screenshot(page, "play-warzone", full_page=False)
    # 1280×720: nothing runs off the side, the status and your moves are on the first screen.
    page.set_viewport_size({"width": 1280, "height": 720})
    assert page.evaluate("document.documentElement.scrollWidth") <= 1282
    for selector in ("#pt-status", "#pt-moves button.pt-move >> nth=0", "#pt-board"):
        box = page.locator(selector).bounding_box()
        assert box and box["y"] < 720 and box["x"] + min(box["width"], 50) <= 1280, selector
    # Screen readers hear the new log lines and how many legal moves there are.
    expect(page.locator("#pt-announce")).to_contain_text(re.compile(r"\d+ legal moves?"))
    click_moves(page, random.Random(4), 8, card_first=False)
    page.wait_for_function(READY)
    log_before = page.locator("#pt-log li").count()
    options = page.locator("#pt-undo-to option")
    assert options.count() >= 2
    oldest = options.last
    target = oldest.get_attribute("value")
    page.get_by_label("Undo to before").select_option(target)
    page.get_by_role("button", name="Undo").click()
    expect(root).to_have_attribute("data-step", target)
    page.wait_for_function(READY)
    assert page.locator("#pt-log li").count() < log_before
    table = page.request.get(f"{live_server}/games/warzone/play/{table_id}.json").json()
    assert len(table["actions"]) == int(target)
    # Restart: the same seed from the start.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Restart (same seed)").click()
    page.wait_for_function("() => document.getElementById('play').dataset.step === '0' || "
                           "Number(document.getElementById('play').dataset.step) < 4")
    # A phone: everything stacks, nothing runs off the side.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    page.wait_for_function(READY)
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    expect(page.locator("#pt-moves button.pt-move").first).to_be_visible()
    assert not page.console_errors, page.console_errors


def test_hot_seat_passes_the_screen_and_hides_the_first_choice(live_server, page, screenshot):
    open_table(page, live_server, "seth", opponent="human", seed="5")
    root = page.locator("#play")
    cover = page.locator("#pt-pass")
    for _ in range(40):
        expect(cover).to_be_visible()
        ready = page.locator("#pt-pass-ready")
        expect(ready).to_be_focused()
        who = ready.inner_text()
        name = re.match(r"I am (.+): show my hand", who).group(1)
        # the status line above the cover names who gets the screen, not the previous player's move
        assert page.locator("#pt-status").inner_text() == f"Hand the screen to {name}. Only they should look at it now."
        assert page.locator("#pt-board").is_hidden(), "the board stays hidden until the player is ready"
        assert page.locator("#pt-log li").count() == 0 and page.locator("#pt-large").is_hidden()
        ready.click()
        expect(cover).to_be_hidden()
        page.wait_for_function(READY)
        both = page.locator("#pt-status").inner_text()
        step = root.get_attribute("data-step")
        page.locator("#pt-moves button.pt-move").first.click()
        if "without seeing" in both:
            # The first of two simultaneous choices: kept hidden, the other player is asked next.
            expect(cover).to_be_visible()
            assert root.get_attribute("data-step") == step
            other = page.locator("#pt-pass-ready").inner_text()
            assert other != who
            screenshot(page, "play-hot-seat-pass", full_page=False)
            page.locator("#pt-pass-ready").click()
            page.wait_for_function(READY)
            assert "without seeing" in page.locator("#pt-status").inner_text()
            page.locator("#pt-moves button.pt-move").first.click()
            page.wait_for_function(f"() => document.getElementById('play').dataset.step !== '{step}'")
            break
        page.wait_for_function(f"() => document.getElementById('play').dataset.step !== '{step}'")
    else:
        raise AssertionError("no simultaneous step came up")
    assert not page.console_errors, page.console_errors


def test_a_game_resumes_after_the_server_restarts(tmp_path_factory, browser):
    data = copy_data(tmp_path_factory.mktemp("resume") / "card_data")
    instance = tmp_path_factory.mktemp("resume-instance")
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        with running_server(data, instance) as server:
            table_id = open_table(page, server.url, "fusion", seed="9")
            click_moves(page, random.Random(2), 6)
            page.wait_for_function(READY)
            step = page.locator("#play").get_attribute("data-step")
            log = page.locator("#pt-log").inner_text()
        with running_server(data, instance) as server:
            page.goto(f"{server.url}/games/fusion/play")
            page.locator(f"#saved-tables a[href$='/play/{table_id}']").click()
            page.wait_for_url(f"**/play/{table_id}")
            page.wait_for_function(READY)
            assert page.locator("#play").get_attribute("data-step") == step
            assert page.locator("#pt-log").inner_text() == log
            click_moves(page, random.Random(3), 2)  # and it plays on
            assert int(page.locator("#play").get_attribute("data-step")) > int(step)
    finally:
        context.close()


def test_a_playtest_game_replays_on_the_table_and_can_be_taken_over(live_server, page, screenshot):
    page.goto(live_server + "/games/warzone/playtest")
    page.get_by_label("Games").fill("4")
    page.get_by_label("Seed").fill("3")
    page.get_by_label("Worker processes").fill("1")
    page.get_by_role("button", name="Start playtest").click()
    expect(page.locator("#games")).to_be_visible(timeout=90_000)
    page.locator("#games button.table-link").nth(1).click()
    expect(page.get_by_role("heading", name=re.compile("^Replay:"))).to_be_visible()
    count = page.locator("#rp-count")
    expect(count).to_contain_text(re.compile(r"Step 0 of \d+"))
    total = int(count.inner_text().rsplit(" ", 1)[1])
    # Both hands are shown in a replay.
    assert page.locator("#pt-board .pt-hand .pt-back").count() == 0
    assert page.locator("#pt-board .pt-hand button.pt-card").count() >= 16
    forward = page.get_by_role("button", name="Step forward ▶")
    for _ in range(3):
        forward.click()
    expect(count).to_have_text(f"Step 3 of {total}")
    lines = page.locator("#pt-log li").count()
    page.get_by_role("button", name="◀ Step back").click()
    expect(count).to_have_text(f"Step 2 of {total}")
    assert page.locator("#pt-log li").count() <= lines
    page.keyboard.press("ArrowRight")
    expect(count).to_have_text(f"Step 3 of {total}")
    turns = page.locator("#rp-turn option")
    assert turns.count() >= 3
    page.get_by_label("Jump to turn").select_option(turns.nth(2).get_attribute("value"))
    expect(page.locator("#pt-turn")).to_have_text(f"Turn {turns.nth(2).get_attribute('value')}")
    screenshot(page, "play-replay", full_page=False)
    page.get_by_role("button", name="To the end").click()
    expect(count).to_have_text(f"Step {total} of {total}")
    expect(page.locator("#pt-status")).to_contain_text("Game over")
    page.get_by_role("button", name="To the start").click()
    forward.click()
    forward.click()
    expect(count).to_have_text(f"Step 2 of {total}")
    page.get_by_label("Take over as").select_option("0")
    page.get_by_label("against").select_option("random")
    page.get_by_role("button", name="Take over from here").click()
    expect(page.locator("#play")).to_have_attribute("data-kind", "game")
    assert not page.locator("h1").inner_text().startswith("Replay")
    page.get_by_label("AI speed").select_option("0")
    # the table script writes data-step once it has drawn the taken-over position (after a fetch)
    expect(page.locator("#play")).to_have_attribute("data-step", "2")
    click_moves(page, random.Random(8), 3)
    assert not page.console_errors, page.console_errors


def test_a_three_player_fusion_game_by_clicks_against_two_ai_players(live_server, page, screenshot):
    """RULES.md §3.9: the table seats three; both opponents are AI players; the game ends with a
    winner the engine agrees with."""
    page.context.add_cookies([{"name": "workbench_lang", "value": "en", "url": live_server}])
    page.goto(f"{live_server}/games/fusion/play")
    you, them = DECKS["fusion"]
    page.get_by_label("Your deck").select_option(you)
    page.get_by_label("Opponent's deck").select_option(them)
    page.get_by_label("Opponent", exact=True).select_option("random")
    page.get_by_label("Players", exact=True).select_option("3")
    page.get_by_label("Deck of opponent 2").select_option(you)
    page.get_by_label("Seed").fill("5")
    fill_rule_options(page, SHORT_FUSION)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#pt-status")).to_be_visible()
    page.get_by_label("AI speed").select_option("0")
    expect(page.locator("#pt-board .pt-side")).to_have_count(3)
    table_id = page.url.rsplit("/", 1)[1]
    click_moves(page, random.Random(4), 3000)
    status = page.locator("#pt-status")
    expect(status).to_contain_text("Game over")
    table = page.request.get(f"{live_server}/games/fusion/play/{table_id}.json").json()
    assert table["options"]["start_life"] == 8
    assert len(table["seats"]) == 3 and [s["player"] for s in table["seats"]][1:] == ["random", "random"]
    engine = load_engine("fusion")
    state = engine.new_seated(tables.decks_of(table), dict(table["options"]), int(table["seed"]))
    for decision in table["actions"]:
        ((p, (kind, args)),) = decision["by"].items()
        args = tables.from_data(args)
        state.apply(next(a for a in state.legal_actions(int(p)) if a.kind == kind and a.args == args))
    result = state.result()
    labels = tables.seat_labels(table)
    if result.winner is None:
        expect(status).to_contain_text("a draw")
    else:
        expect(status).to_contain_text(f"{labels[result.winner]} won after {result.turns} turns")
    screenshot(page, "play-fusion-three-players", full_page=False)
    assert not page.console_errors, page.console_errors


def test_card_backs_stay_small_on_a_phone(live_server, page):
    """At 390 wide the phone rule's card width (7.6rem) once reached the card backs too: the
    opponent's hand grew to rows of wide backs and, with the backs' overlap, each new row started
    outside its zone; each deck showed a card-wide back. Backs keep their size at every width."""
    page.set_viewport_size({"width": 390, "height": 844})
    open_table(page, live_server, "warzone", seed="3")
    page.wait_for_function(READY)
    backs = page.locator("#pt-board .pt-back")
    assert backs.count() >= 8  # the opponent's hand of 8 and both decks
    laptop_width = 1.9 * 16
    for i in range(backs.count()):
        box = backs.nth(i).bounding_box()
        zone = backs.nth(i).locator("xpath=ancestor::div[contains(@class, 'pt-zone')][1]").bounding_box()
        assert box["width"] <= laptop_width + 1, box
        assert box["x"] >= zone["x"] - 1, (box, zone)
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
