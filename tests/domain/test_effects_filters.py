"""effects/filters.py: ``matches`` (``norm`` written out for texts and whole numbers) decides as
``matches_plain``, the definition with every value through ``norm``: on made-up values of every
kind, and on every card of played positions of the three engines with filters on each key the
engine filters by."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.domain.engines.test_engine_contract import positions
from workbench.domain.effects.filters import Filter, matches, matches_plain, read_filter
from workbench.domain.effects.filters import Test as FilterTest
from workbench.domain.effects.spec import Source
from workbench.domain.engines import load_engine

VALUES: list[Any] = [None, 0, 1, 2, 5, 300, -1, True, False, "Fire", " fire ", "FIRE", "water", "", "1", "true",
                     ["Fire", "Dragon"], ("x",), frozenset({"Warrior"}), {"a"}, [], [1, 2], 2.0, 1.5, b"fire"]


class _Reader:
    def __init__(self, table: dict[str, Any]) -> None:
        self.table = table

    def value(self, s: Any, item: Any, key: str) -> Any:
        return self.table[key]

    def seen_keys(self, s: Any, item: Any, viewer: int) -> frozenset[str] | None:
        return None


def _filters(keys: list[str], rng: random.Random, n: int) -> list[Filter]:
    out = []
    raws: list[Any] = [1, 2, 300, "fire", "Fire", ["fire", "warrior"], [1, 2], True, False, {"min": 1},
                       {"max": 2}, {"min": 0, "max": 500}, "true", "1"]
    for _ in range(n):
        raw = {k: rng.choice(raws) for k in rng.sample(keys, rng.randint(1, min(3, len(keys))))}
        f, problems = read_filter(raw, None)
        assert f is not None and not problems, raw
        out.append(f)
    return out


def test_matches_decides_as_the_plain_definition_on_every_kind_of_value() -> None:
    rng = random.Random(3)
    keys = ["a", "b", "c"]
    src = Source(0, "probe", card="card", unit="unit")
    for f in _filters(keys, rng, 300):
        for _ in range(20):
            reader = _Reader({k: rng.choice(VALUES) for k in keys})
            for item in ("unit", "card", "other one"):
                assert matches(f, item, src, None, reader) == matches_plain(f, item, src, None, reader), f
    other = Filter((FilterTest("other", flag=True),))
    for item in ("unit", "card", "x"):
        assert matches(other, item, src, None, _Reader({})) == (item == "x")
    assert matches(None, "x", src, None, _Reader({}))


@pytest.mark.parametrize("game", ("seth", "fusion", "warzone"))
def test_matches_decides_as_the_plain_definition_on_played_positions(game: str) -> None:
    caps = load_engine(game).capabilities
    assert caps is not None
    adapter = __import__(f"workbench.domain.engines.{game}.adapter", fromlist=["ADAPTER"]).ADAPTER
    rng = random.Random(7)
    keys = sorted(caps.filters)
    filters = _filters(keys, rng, 60) + [read_filter({k: v}, None)[0] for k in keys
                                          for v in (1, "fire", {"min": 1}, True)]
    checked = passed = 0
    for n, s in enumerate(positions(game, 2, every=9)):
        for p in (0, 1):
            items = list(adapter.units(s, p))
            if game != "seth":
                items += list(adapter.zone(s, p, "hand"))
            src = Source(p, "probe", items[0] if items else None, None)
            for f in rng.sample(filters, 12):
                for item in items:
                    got = matches(f, item, src, s, adapter)
                    assert got == matches_plain(f, item, src, s, adapter), (game, n, f)
                    checked += 1
                    passed += got
    assert checked > 500 and 0 < passed < checked
