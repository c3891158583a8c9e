"""``GameStats.copy`` (every clone of a position makes one): equal to the original, and no set or
table shared with it."""

from __future__ import annotations

from workbench.domain.engines.base import GameStats


def test_game_stats_copy_is_equal_and_shares_nothing() -> None:
    stats = GameStats.of(3)
    stats.drawn[0].add("a")
    stats.played[2].update({"b", "c"})
    stats.unsimulated.add("d")
    stats.opening[1].add("e")
    stats.facts[0]["survived"] = {"f"}
    copy = stats.copy()
    assert copy == stats and copy is not stats
    for mine, theirs in ((stats.drawn, copy.drawn), (stats.played, copy.played),
                         (stats.opening, copy.opening), (stats.facts, copy.facts)):
        assert mine is not theirs and all(x is not y for x, y in zip(mine, theirs))
    assert copy.unsimulated is not stats.unsimulated
    assert copy.facts[0]["survived"] is not stats.facts[0]["survived"]
    copy.drawn[0].add("z")
    copy.facts[0]["survived"].add("z")
    copy.facts[1]["new"] = {"z"}
    assert stats.drawn[0] == {"a"} and stats.facts[0]["survived"] == {"f"} and stats.facts[1] == {}
