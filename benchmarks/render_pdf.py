"""Benchmark the print PDF: a 540-card deck cold (empty render cache), then after one card edit.

The deck is built in a temporary copy of a game's folder: 540 distinct cards by default (the
worst case: no copies share a face), or fewer distinct cards with more copies (``--distinct``).
It goes through the same path as ``workbench render GAME --deck DECK --format pdf``: repository,
deck resolution, render cache on disk, a process per core for the cold faces, reportlab.

Prints wall-clock seconds, CPU seconds (this process and its workers, so a busy shared machine
shows up as wall >> CPU), the warm/cold ratio and the targets: cold <= 10 s, warm <= 5 % of cold.

Usage: python3 benchmarks/render_pdf.py [--game warzone] [--cards 540] [--distinct 540] [--workers N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.services.render.cache import FaceRenderer  # noqa: E402
from workbench.services.render.jobs import art_loader, cache_for, select_cards  # noqa: E402
from workbench.services.render.pdf import SheetOptions  # noqa: E402
from workbench.services.render.service import default_size, render_pdf  # noqa: E402
from workbench.storage.repository import Repository  # noqa: E402

TEMPLATES = {
    "warzone": lambda i: {"name": f"Bench Sentry {i}", "kind": "creature", "class": 1 + i % 3, "degree": i % 7,
                          "strength": 600 + 50 * (i % 5), "resilience": 450,
                          "text": f"When recruited, draw {1 + i % 3} card(s). While this creature is in Class 1, "
                                  f"your other creatures get +{50 * (i % 4)} Strength.",
                          "flavor": "It has not blinked since the war began.", "number": f"BX-{i:03d}"},
    "seth": lambda i: {"name": f"Bench Drake {i}", "kind": "monster", "power": i % 9, "damage": 3, "health": 5,
                       "speed": ["fast"], "race": "Dragon", "element": "fire", "text": f"Deals {i % 4} extra damage.",
                       "number": f"BS-{i:03d}"},
    "fusion": lambda i: {"name": f"基准魔导师{i}", "name_en": f"Bench Magus {i}", "kind": "creature",
                         "cost": i % 10, "attribute": "fire", "subtype": "魔法师", "stars": 1 + i % 8, "atk": 5,
                         "def": 3, "text": f"召唤成功时，对对方一只生物造成{i % 5}点伤害。", "number": f"BF-{i:03d}"},
}


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(game: str, total: int, distinct: int, workers: int | None) -> dict[str, float]:
    work = Path(tempfile.mkdtemp(prefix="render-bench-"))
    try:
        data = work / "card_data"
        (data / game / "cards").mkdir(parents=True)
        (data / game / "decks").mkdir()
        shutil.copy(ROOT / "card_data" / game / "game.yaml", data / game / "game.yaml")
        repo = Repository(data)
        ids = [repo.create_card(game, TEMPLATES[game](i), f"bench-{i:03d}").id for i in range(distinct)]
        copies = {card_id: total // distinct + (1 if n < total % distinct else 0) for n, card_id in enumerate(ids)}
        zone = next(iter(repo.game(game).zones))
        repo.create_deck(game, {"name": "Bench", "zones": {zone: copies}}, "bench")
        definition = repo.game(game)
        options = SheetOptions(size=default_size(definition))
        cache = cache_for(work / "exports")

        def once() -> tuple[float, float, int, int]:
            start_wall, start_cpu = time.perf_counter(), cpu()
            cards = select_cards(repo, game, deck_id="bench")
            renderer = FaceRenderer(definition, options.size, cache=cache, art_loader=art_loader(repo, game),
                                    workers=workers)
            pdf = render_pdf(definition, cards, options, renderer=renderer)
            (work / "bench.pdf").write_bytes(pdf)
            return time.perf_counter() - start_wall, cpu() - start_cpu, renderer.rendered, len(cards)

        cold_wall, cold_cpu, cold_drawn, count = once()
        stored = repo.get_card(game, ids[len(ids) // 2])
        repo.update_card(game, stored.id, dict(stored.data, text="Edited for the benchmark: draw a card."),
                         stored.version)
        warm_wall, warm_cpu, warm_drawn, _ = once()
        size_mb = (work / "bench.pdf").stat().st_size / 1e6
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"cards": count, "distinct": distinct, "cold_wall": cold_wall, "cold_cpu": cold_cpu,
            "cold_drawn": cold_drawn, "warm_wall": warm_wall, "warm_cpu": warm_cpu, "warm_drawn": warm_drawn,
            "pdf_mb": size_mb}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="warzone", choices=sorted(TEMPLATES))
    parser.add_argument("--cards", type=int, default=540, help="cards in the deck, copies included")
    parser.add_argument("--distinct", type=int, default=None, help="distinct cards (default: all different)")
    parser.add_argument("--workers", type=int, default=None, help="processes for cold faces (default: cores)")
    args = parser.parse_args()
    distinct = args.distinct or args.cards
    r = run(args.game, args.cards, distinct, args.workers)
    ratio = r["warm_wall"] / r["cold_wall"]
    print(f"{args.game}: {r['cards']} cards ({r['distinct']} distinct), {os.cpu_count()} cores, PDF {r['pdf_mb']:.1f} MB")
    print(f"cold: {r['cold_wall']:.2f} s wall, {r['cold_cpu']:.2f} s CPU, {r['cold_drawn']} faces drawn")
    print(f"warm after one edit: {r['warm_wall']:.2f} s wall, {r['warm_cpu']:.2f} s CPU, "
          f"{r['warm_drawn']} face(s) drawn")
    print(f"ratio warm/cold: {ratio:.1%} (wall), {r['warm_cpu'] / r['cold_cpu']:.1%} (CPU)")
    cold_ok, warm_ok = r["cold_wall"] <= 10.0, ratio <= 0.05
    print(f"targets: cold <= 10 s {'met' if cold_ok else 'MISSED'}; warm <= 5 % of cold {'met' if warm_ok else 'MISSED'}")
    return 0 if cold_ok and warm_ok else 1


if __name__ == "__main__":
    sys.exit(main())
