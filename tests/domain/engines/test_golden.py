"""Golden fingerprints of seeded games per engine (python-chess's perft files, STYLE.md item 3).

Each line of ``golden/<game>.txt`` is ``PAIRING GAMES HASH``: the hash of every action, winner
and turn count of GAMES seeded games between the two agent kinds, computed by the engine's
benchmark (``benchmarks/engine_<game>.py --fingerprint GAMES``). A refactoring that keeps the
rules keeps the hashes. A deliberate rule, agent or sample-deck change changes them: re-run the
benchmark and write the new hashes into the file in the same commit, saying why.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = Path(__file__).with_name("golden")


def _bench(game: str):
    name = f"_bench_engine_{game}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"engine_{game}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _warzone(kinds: tuple[str, str], games: int) -> str:
    bench = _bench("warzone")
    assert kinds[0] == kinds[1], "warzone fingerprints pair one agent kind with itself"
    return bench.fingerprint(games, bench.options(_log=False), kinds[0])


def _seth(kinds: tuple[str, str], games: int) -> str:
    bench = _bench("seth")
    deck_a, deck_b, options, _ = bench.load_decks()
    return bench.fingerprint(kinds[0], kinds[1], games, deck_a, deck_b, dict(options, _log=False))


def _fusion(kinds: tuple[str, str], games: int) -> str:
    bench = _bench("fusion")
    deck_a, deck_b, options, _ = bench.load_decks("card_data")
    return bench.fingerprint(kinds, games, deck_a, deck_b, {**options, "_log": False})


FINGERPRINTS = {"warzone": _warzone, "seth": _seth, "fusion": _fusion}


def _cases() -> list[tuple[str, tuple[str, str], int, str]]:
    cases = []
    for game in FINGERPRINTS:
        for line in (GOLDEN / f"{game}.txt").read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                pairing, games, digest = line.split()
                a, b = pairing.split("-")
                cases.append((game, (a, b), int(games), digest))
    return cases


@pytest.mark.parametrize(("game", "kinds", "games", "digest"), _cases(),
                         ids=lambda v: "-".join(v) if isinstance(v, tuple) else str(v))
def test_seeded_games_match_the_golden_fingerprint(game, kinds, games, digest):
    got = FINGERPRINTS[game](kinds, games)
    assert got == digest, (
        f"{game} {'-'.join(kinds)}: {games} seeded games now hash to {got}, golden {digest}. "
        f"If the change of play is intended, run benchmarks/engine_{game}.py --fingerprint {games} "
        f"and update tests/domain/engines/golden/{game}.txt")


def test_every_engine_has_golden_games():
    games = {case[0] for case in _cases()}
    assert games == set(FINGERPRINTS)
