"""A card or deck created without an id gets one made from its name (``slugify``). The id keeps
64 characters, but the whole name was transliterated first: a name of 5 million Chinese
characters (a 16 MiB body) cost 3.8 s of CPU (0.9 s per million), and writing its YAML 3 s more (under the card's file lock), before
the card was refused as too large: 6.4 s a request, so a few at once held the server. Only the
first ``SLUG_SOURCE_CHARS`` characters make the id now, and a card or deck whose text alone is
over the byte limit is refused before any YAML is written."""

from __future__ import annotations

import json
import re
import time

from workbench.domain.ids import SLUG_SOURCE_CHARS, slugify

HUGE = "赤" * 5_000_000  # 15 MB of UTF-8, under the 16 MiB body cap


def test_slugify_reads_only_the_start_of_a_name() -> None:
    started = time.perf_counter()
    slug = slugify(HUGE)
    assert time.perf_counter() - started < 0.5  # 3.8 s before
    assert slug.startswith("chi-chi") and len(slug) <= 64
    # the proof it stops reading: letters past the limit no longer make the id
    assert slugify("!" * SLUG_SOURCE_CHARS + "late", fallback="card") == "card"


def test_create_with_a_huge_name_is_refused_quickly(env, anon, guard) -> None:
    body = json.dumps({"name": HUGE, "kind": "monster"}, ensure_ascii=False).encode()
    started = time.perf_counter()
    answer = anon.post("/api/games/seth/cards", data=body, content_type="application/json")
    elapsed = time.perf_counter() - started
    assert answer.status_code == 400, answer.data[:200]
    assert "the limit is 262,144" in answer.get_json()["error"]
    assert elapsed < 1.0, f"{elapsed:.1f} s"  # 3.4 s with the id fix alone, 6.4 s before


def test_update_with_huge_text_is_refused_before_writing_yaml(env, anon, guard) -> None:
    got = anon.get("/api/games/seth/cards/glass-wasp")
    card = dict(got.get_json()["card"], flavor=HUGE)
    started = time.perf_counter()
    answer = anon.put("/api/games/seth/cards/glass-wasp", data=json.dumps(card, ensure_ascii=False).encode(),
                      content_type="application/json", headers={"If-Match": got.headers["ETag"]})
    elapsed = time.perf_counter() - started
    assert answer.status_code == 400, answer.data[:200]
    assert re.search(r"would be at least 15,000,\d{3} bytes; the limit is 262,144", answer.get_json()["error"])
    assert elapsed < 1.0, f"{elapsed:.1f} s"


def test_deck_with_a_huge_name_is_refused_before_writing_yaml(env, anon, guard) -> None:
    deck = {"name": "x" * 15_000_000, "zones": {"team": {"glass-wasp": 1}}}
    started = time.perf_counter()
    answer = anon.post("/api/games/seth/decks", data=json.dumps(deck), content_type="application/json")
    assert answer.status_code == 400, answer.data[:200]
    assert re.search(r"would be at least 15,000,\d{3} bytes; the limit is 524,288", answer.get_json()["error"])
    assert time.perf_counter() - started < 1.0
