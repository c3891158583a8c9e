"""Benchmark: the card gallery and the card API with 1,000 cards.

Creates a temporary data folder holding the bundled warzone game plus 1,000 generated cards,
then times (Flask test client, no network) the first gallery page cold and warm, a search, a
filter, a sort, the last page, the JSON card list and the editor page. Prints the figures.

    python benchmarks/gallery.py [--cards 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.storage.repository import Repository  # noqa: E402
from workbench.web import create_app  # noqa: E402

WORDS = ["Iron", "Ash", "Storm", "Vale", "Ember", "Frost", "Grave", "Sun", "Moon", "Thorn", "龙", "火", "风"]
NOUNS = ["Guard", "Seer", "Drake", "Knight", "Archer", "Golem", "Wisp", "Titan", "士兵", "法师"]


def generate(data: Path, count: int, seed: int = 7) -> None:
    """Write ``count`` warzone cards (a few with problems) through the repository."""
    rng = random.Random(seed)
    repo = Repository(data)
    for i in range(count):
        kind = rng.choice(["creature"] * 6 + ["spell", "trap", "area"])
        card: dict = {"name": f"{rng.choice(WORDS)} {rng.choice(NOUNS)} {i}", "kind": kind,
                      "text": f"When recruited, draw {rng.randint(1, 3)} cards. 效果 {i}", "number": f"BM-{i:04d}"}
        if kind == "creature":
            degree = rng.randint(0, 6)
            card.update({"class": rng.randint(1, 3), "degree": degree,
                         "strength": 50 * rng.randint(2, 30), "resilience": 50 * rng.randint(2, 30),
                         "class_master": rng.random() < 0.05})
            if i % 50 == 0:
                card["degree"] = 9  # a broken card now and then, so badges are computed too
        repo.create_card("warzone", card, f"bench-{i:04d}")


def timed(client, url: str, repeat: int) -> tuple[float, float, int]:
    """(first, median of the rest) in milliseconds, and the body size of ``url``."""
    times = []
    size = 0
    for _ in range(repeat):
        start = time.perf_counter()
        answer = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, (url, answer.status_code)
        size = len(answer.data)
    rest = times[1:] or times
    return times[0], statistics.median(rest), size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "card_data"
        data.mkdir()
        shutil.copytree(ROOT / "card_data" / "warzone", data / "warzone",
                        ignore=shutil.ignore_patterns(".locks", ".tmp-*"))
        start = time.perf_counter()
        generate(data, args.cards)
        total = len(list((data / "warzone" / "cards").glob("*.yaml")))
        print(f"generated {args.cards} cards ({total} in the game) in {time.perf_counter() - start:.1f} s")
        app = create_app({"TESTING": True, "DATA_DIR": str(data), "EXPORT_DIR": str(Path(tmp) / "exports"),
                          "SECRET_KEY": "bench"})
        client = app.test_client()
        pages = total // 48 + 1
        rows = [
            ("gallery, first page (cold, then warm)", "/games/warzone/cards"),
            ("gallery, search 'storm'", "/games/warzone/cards?q=storm"),
            ("gallery, search CJK '龙'", "/games/warzone/cards?q=%E9%BE%99"),
            ("gallery, filter class 3 + degree 4", "/games/warzone/cards?f_class=3&f_degree=4"),
            ("gallery, sort by strength desc", "/games/warzone/cards?sort=strength&order=desc"),
            ("gallery, errors only", "/games/warzone/cards?problems=errors"),
            (f"gallery, last page ({pages})", f"/games/warzone/cards?page={pages}"),
            ("gallery, 192 per page", "/games/warzone/cards?per=192"),
            ("API, GET /api/games/warzone/cards", "/api/games/warzone/cards"),
            ("editor page", "/games/warzone/cards/bench-0001/edit"),
            ("deck builder (all cards searchable)", "/games/warzone/new-deck"),
        ]
        print(f"{'request':44} {'first ms':>9} {'median ms':>10} {'KiB':>7}")
        for label, url in rows:
            first, median, size = timed(client, url, args.repeat)
            print(f"{label:44} {first:9.0f} {median:10.0f} {size / 1024:7.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
