"""``workbench render GAME``: card faces as PNG files or a print PDF, with a progress bar.

Examples::

    workbench render warzone --deck iron-wall --format pdf -o iron-wall.pdf
    workbench render fusion --all --format pdf -o set.pdf --paper letter --bleed 3.175
    workbench render seth --cards ember-drake,frost-wyrm --format png -o faces/

See docs/printing.md for every option and how to print right the first time.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from tqdm import tqdm

from workbench.cli import add_data_option
from workbench.domain.errors import WorkbenchError
from workbench.services.render.cache import FaceRenderer
from workbench.services.render.jobs import art_loader, cache_for, select_cards
from workbench.services.render.pdf import BACKS, SheetOptions, plan_grid
from workbench.services.render.service import default_size, render_pdf
from workbench.services.render.sizes import check_bleed, parse_card_size, parse_paper
from workbench.storage.atomic import atomic_write
from workbench.storage.render_cache import RenderCache
from workbench.storage.repository import Repository


def _bleed(value: str) -> float:
    try:
        return check_bleed(float(value))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``render`` sub-command."""
    parser = subparsers.add_parser(
        "render", help="render card faces (PNG, 300 dpi) or a print PDF with crop marks and duplex backs",
        description="Render a deck, a selection or a whole set. See docs/printing.md.",
    )
    parser.add_argument("game", help="game id, e.g. warzone")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--deck", metavar="DECK", help="a deck, each card as many times as it has copies")
    what.add_argument("--cards", metavar="ID,...", help="these cards, once each, in this order")
    what.add_argument("--all", action="store_true", help="every card of the game once")
    parser.add_argument("--format", choices=["pdf", "png"], default="pdf", help="pdf print sheets or png faces")
    parser.add_argument("-o", "--output", required=True, metavar="PATH",
                        help="the PDF file; for png a folder (one <card-id>.png each), or a .png file for one card")
    parser.add_argument("--paper", default="a4", type=str.lower, choices=["a4", "letter"], help="paper (pdf)")
    parser.add_argument("--card-size", metavar="SIZE",
                        help="poker (63.5x88.9 mm), bridge, tarot, mini or WxHmm; default: the game's card_size")
    parser.add_argument("--bleed", type=_bleed, default=0.0, metavar="MM",
                        help="bleed in mm around each card, e.g. 3 or 3.175 (1/8 in); default 0")
    parser.add_argument("--backs", choices=list(BACKS), default="long",
                        help="duplex backs after each fronts page: long-edge flip (default), short-edge, or none")
    parser.add_argument("--crop-marks", dest="crop_marks", action=argparse.BooleanOptionalAction, default=True,
                        help="corner ticks in the margin in line with every cut (default on)")
    parser.add_argument("--back-offset-x", type=float, default=0.0, metavar="MM",
                        help="move backs right by MM as seen from the front (printer calibration)")
    parser.add_argument("--back-offset-y", type=float, default=0.0, metavar="MM",
                        help="move backs down by MM as seen from the front (printer calibration)")
    parser.add_argument("--calibration", action="store_true",
                        help="start with a duplex calibration sheet to measure the back offset")
    parser.add_argument("--cache", metavar="DIR",
                        help="render cache folder (default <exports>/.render-cache)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_data_option(parser)
    parser.set_defaults(func=run)


# tqdm's monitor thread would make this a multi-threaded process, and the face renderer only
# forks its worker processes from a single-threaded one.
tqdm.monitor_interval = 0


class _Bars:
    """One tqdm bar per stage (faces, pages)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bars: dict[str, tqdm] = {}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        bar = self.bars.get(stage)
        if bar is None:
            bar = self.bars[stage] = tqdm(total=total, desc=stage, unit="card" if stage == "faces" else "sheet",
                                          leave=False)
        bar.n = done
        bar.refresh()

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()


def run(args: argparse.Namespace) -> int:
    """Render and write the output; print what was written. WorkbenchErrors propagate to main."""
    repo = Repository(Path(args.data))
    definition = repo.game(args.game)
    card_ids = [c for c in args.cards.split(",") if c.strip()] if args.cards else None
    cards = select_cards(repo, args.game, deck_id=args.deck, card_ids=card_ids, all_cards=args.all)
    size = parse_card_size(args.card_size) if args.card_size else default_size(definition)
    exports = os.environ.get("WORKBENCH_EXPORTS", "exports")
    cache = RenderCache(Path(args.cache)) if args.cache else cache_for(exports)
    loader = art_loader(repo, args.game)
    out = Path(args.output)
    bars = _Bars(not args.no_progress)
    renderer = FaceRenderer(definition, size, args.bleed, cache=cache, art_loader=loader)
    try:
        if args.format == "pdf":
            parse_paper(args.paper)
            options = SheetOptions(
                size=size, paper=args.paper, bleed_mm=args.bleed, backs=args.backs, crop_marks=args.crop_marks,
                back_offset_x_mm=args.back_offset_x, back_offset_y_mm=args.back_offset_y,
                calibration=args.calibration, title=f"{definition.name}: print sheets",
            )
            pdf = render_pdf(definition, cards, options, progress=bars, renderer=renderer)
            atomic_write(out, pdf)
            per_page = _per_page(options)
            sheets = -(-len(cards) // per_page)
            print(f"{out}: {len(cards)} cards on {sheets} sheet(s) of {per_page} ({args.paper}, {size.name}"
                  f"{f', bleed {args.bleed:g} mm' if args.bleed else ''}, backs {args.backs}); "
                  f"{renderer.rendered} face(s) drawn, {renderer.hits} from the cache")
        else:
            faces = renderer.faces(cards, lambda d, t: bars("faces", d, t))
            unique = {}
            for card in cards:
                unique.setdefault(card["id"], card)
            if out.suffix.lower() == ".png":
                if len(unique) != 1:
                    raise WorkbenchError(f"{len(unique)} cards chosen: give a folder as -o, not a .png file")
                atomic_write(out, faces[renderer.key(next(iter(unique.values())))].png())
                print(f"{out}: 1 face")
            else:
                out.mkdir(parents=True, exist_ok=True)
                for card_id, card in unique.items():
                    atomic_write(out / f"{card_id}.png", faces[renderer.key(card)].png())
                print(f"{out}/: {len(unique)} face(s) as PNG at 300 dpi")
    finally:
        bars.close()
    unique_cards = {c["id"]: c for c in cards}.values()
    overflowing = [c["id"] for c in unique_cards if renderer.face(c).overflow_lines > 0]
    if overflowing:
        print(f"warning: text overflows on {len(overflowing)} card(s): {', '.join(overflowing[:10])} "
              "(run workbench validate for details)")
    return 0


def _per_page(options: SheetOptions) -> int:
    return plan_grid(options.paper, options.size, options.bleed_mm, options.crop_marks).per_page
