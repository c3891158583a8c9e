"""Tallies (what workers send back) give exactly the report that aggregating the records gives."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.services.playtest.test_runner import matchup, without_timing
from workbench.domain import stats
from workbench.services.playtest import runner
from workbench.services.playtest.tally import Tally, tally_of

CARDS = ["c1", "c2", "c3", "c4", "c5"]

record_strategy = st.fixed_dictionaries({
    "a_seat": st.sampled_from([0, 1]),
    "winner": st.sampled_from(["a", "b", None]),
    "first_won": st.sampled_from([True, False, None]),
    "turns": st.integers(0, 80),
    "reason": st.sampled_from(["P1 has 0 life (§3.1.4)", "P2 has -40 life (§3.1.4)", "deck out", "turn limit 30"]),
    "cards": st.fixed_dictionaries({
        side: st.fixed_dictionaries({"drawn": st.lists(st.sampled_from(CARDS), unique=True),
                                     "played": st.lists(st.sampled_from(CARDS), unique=True),
                                     "opening": st.lists(st.sampled_from(CARDS), unique=True, max_size=2),
                                     "facts": st.dictionaries(st.sampled_from(["survived", "removed_first"]),
                                                              st.lists(st.sampled_from(CARDS), unique=True),
                                                              max_size=2)})
        for side in ("a", "b")
    }),
    "unsimulated": st.lists(st.sampled_from(CARDS), unique=True, max_size=2),
})


@settings(max_examples=60, deadline=None)
@given(st.lists(record_strategy, max_size=40), st.integers(0, 40))
def test_tallies_merged_in_game_order_equal_the_aggregate_of_the_records(records, cut):
    records = [dict(r, index=i) for i, r in enumerate(records)]  # a cut may fall inside a pair
    deck_cards = {"a": ["c1", "c9"], "b": ["c2"]}
    names = {"c1": "One", "c9": "Nine"}
    expected = stats.aggregate(records, deck_cards, names)
    merged = tally_of(records[:cut])
    merged.merge(tally_of(records[cut:]))
    assert merged.report(deck_cards, names) == expected
    # JSON and back (how an interrupted web run keeps its progress) loses nothing.
    again = Tally.from_data(json.loads(json.dumps(merged.to_data())))
    assert again.report(deck_cards, names) == expected
    assert sum(expected["pairs"]["counts"]) == len(records) // 2


def test_a_real_run_reports_what_aggregating_every_full_record_reports():
    m = matchup(boost_a=1)
    report = runner.run_matchup(m, 60, workers=1)
    records = [runner.play_one(m, i)[0] for i in range(60)]
    expected = stats.aggregate(records, m.card_ids, m.names)
    assert {k: report[k] for k in expected} == expected
    assert report["records"] == [runner.short_record(r) for r in records]


def test_chunk_plans_shrink_towards_the_end_and_a_pool_matches_one_worker():
    chunks = runner.plan_chunks(10_000, 2)
    sizes = [stop - start for start, stop in chunks]
    assert [i for s, e in chunks for i in range(s, e)] == list(range(10_000))
    assert sizes[0] == runner.MAX_CHUNK and sizes[-1] <= runner.MIN_CHUNK
    assert sizes == sorted(sizes, reverse=True)
    assert all(start % 2 == 0 for start, _ in chunks)
    resumed = runner.plan_chunks(100, 2, start=40)
    assert resumed[0][0] == 40 and resumed[-1][1] == 100
    m = matchup(boost_a=2)
    assert without_timing(runner.run_matchup(m, 200, workers=2)) == without_timing(runner.run_matchup(m, 200, workers=1))
