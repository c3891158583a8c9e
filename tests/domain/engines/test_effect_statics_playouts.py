"""Whole games with the effects v2 item 8 sample cards (new triggers, static rules,
while_on_field) in the bundled decks: random and heuristic players finish every game, the
observation contract holds at every step (determinize keeps what a player sees), clones are
independent and a game replays from its seed and actions."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.domain.engines.test_engine_contract import apply, bundled, random_joint
from workbench.domain.engines import load_engine
from workbench.domain.engines.base import State

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = {
    "warzone": ["spiked-bulwark", "bloodthirsty-raider", "herald-of-dawn", "tithe-collector", "spell-warden",
                "war-drummer", "veiled-sentinel", "stone-wall-keeper", "shadow-runner", "twinblade-champion",
                "iron-ward", "grim-overseer"],
    "seth": ["thorn-warden", "sky-veil", "marsh-leech", "noon-bell", "hexbound-witch"],
    "fusion": ["lord-of-embers", "thorn-beetle", "vampire-bat", "vanguard-herald", "prying-eye", "spell-warden",
               "war-drummer", "veiled-mage", "stone-wall-warden", "shadow-walker", "ward-of-truce", "giant-killer",
               "ironshell-turtle", "altar-of-flame", "dread-lord"],
}
AREAS = ["banner-hall", "field-of-truce"]


def _card(game: str, cid: str) -> dict[str, Any]:
    card = yaml.safe_load((ROOT / "card_data" / game / "cards" / f"{cid}.yaml").read_text(encoding="utf-8"))
    return dict(card, id=cid)


def _decks(game: str) -> tuple[Any, Any, dict[str, Any]]:
    """The bundled decks with the sample cards in: two copies each in a main deck, the Areas in
    warzone's Area zone, seth's first monsters swapped (the team keeps its size and Power limit)."""
    a, b, options = bundled(game)
    out = []
    for deck in (a, b):
        deck = {zone: list(cards) for zone, cards in deck.items()}
        samples = [_card(game, cid) for cid in SAMPLES[game]]
        if game == "seth":
            team = deck["team"]
            for k, card in enumerate(samples[:3] if deck is not None and len(out) == 0 else samples[2:]):
                team[k] = card
            while sum(int(c.get("power", 0)) for c in team) >= 30:  # §2.2.2: keep under the limit
                team[-1] = dict(team[-1], power=max(1, int(team[-1]["power"]) - 1))
        else:
            main = deck["main"]
            main[-2 * len(samples):] = [dict(c) for c in samples for _ in range(2)]
            if game == "warzone":
                deck["area"][:2] = [_card(game, cid) for cid in AREAS]
        out.append(deck)
    return out[0], out[1], options


def _new(game: str, seed: int, log: bool = False) -> State:
    a, b, options = _decks(game)
    return load_engine(game).new_game(a, b, dict(options, _log=log), seed)


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_random_games_with_the_samples_keep_the_contract(game: str) -> None:
    steps = 0
    for seed in range(6):
        state = _new(game, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if steps % 4 == 0:
                for p in (0, 1):
                    key = state.observe(p).key()
                    assert state.determinize(p, random.Random(steps)).observe(p).key() == key, (game, seed, steps)
            apply(state, random_joint(state, rng))
            steps += 1
            assert steps < 200_000
    assert steps > 100


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_heuristic_games_with_the_samples_finish_and_replay(game: str) -> None:
    engine = load_engine(game)
    for seed in range(4):
        state = _new(game, seed, log=True)
        agents = [engine.agents["heuristic"](seed), engine.agents["heuristic"](seed + 7)]
        played = []
        clone_at = None
        while not state.is_terminal():
            if len(played) == 30:
                clone_at = (len(played), state.clone(), engine.snapshot(state))
            joint = {p: agents[p].choose(state, p) for p in state.to_act()}
            played.append(joint)
            apply(state, joint)
        assert state.result() is not None
        if clone_at is not None:  # the clone did not move with the game
            _, clone, snap = clone_at
            assert engine.snapshot(clone) == snap
        again = _new(game, seed, log=True)
        for joint in played:
            apply(again, joint)
        assert engine.snapshot(again) == engine.snapshot(state)
