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
READY = ("() => { const r = document.getElementById('play'); return !r.hasAttribute('aria-busy') &&"
         " (r.dataset.over === 'true' || document.querySelectorAll('#pt-moves button.pt-move').length > 0); }")


def open_table(page, base: str, game: str, opponent: str = "random", seed: str = "7", seat: str = "first") -> str:
    page.goto(f"{base}/games/{game}/play")
    you, them = DECKS[game]
    page.get_by_label("Your deck").select_option(you)
    page.get_by_label("Opponent's deck").select_option(them)
    page.get_by_label("Opponent", exact=True).select_option(opponent)
    page.get_by_label("You play").select_option(seat)
    page.get_by_label("Seed").fill(seed)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#pt-board")).to_be_visible()
    page.get_by_label("AI speed").select_option("0")
    return page.url.rsplit("/", 1)[1]


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
        cards = page.locator("#pt-board button.pt-card.has-moves")
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
    table_id = open_table(page, live_server, game)
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
    # The game log speaks in deck names, never P1/P2.
    log = page.locator("#pt-log").inner_text()
    assert labels[0] in log and not re.search(r"\bP[12]\b", log)
    screenshot(page, f"play-{game}-over", full_page=False)
    assert not page.console_errors, page.console_errors
