"""The render service: card faces as PNG, print sheets as PDF, and print problems for validation."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from workbench.domain.gamedef import GameDefinition
from workbench.domain.problems import Problem
from workbench.services.render.cache import ArtLoader, FaceRenderer
from workbench.services.render.faces import LAYOUT_MAX_CHARS, RENDER_TIME_LIMIT_S, plan_face
from workbench.services.render.fonts import FontMissing
from workbench.services.render.pdf import SheetCard, SheetOptions, build_pdf, plan_grid
from workbench.services.render.sizes import CardSize, check_bleed, parse_card_size
from workbench.storage.render_cache import RenderCache

StageProgress = Callable[[str, int, int], None]


def default_size(definition: GameDefinition) -> CardSize:
    """The game's card size from game.yaml ``card_size`` (poker when absent)."""
    return parse_card_size(str(definition.raw.get("card_size") or "poker"))


def render_png(definition: GameDefinition, card: Mapping[str, Any], size: CardSize | None = None,
               bleed_mm: float = 0.0, cache: RenderCache | None = None,
               art_loader: ArtLoader | None = None) -> bytes:
    """One card's face as PNG bytes at 300 dpi (cached). Raises SizeError, FontMissing."""
    renderer = FaceRenderer(definition, size or default_size(definition), check_bleed(bleed_mm),
                            cache=cache, art_loader=art_loader, workers=1)
    return renderer.face(card).png()


def render_pdf(definition: GameDefinition, cards: Sequence[Mapping[str, Any]], options: SheetOptions,
               cache: RenderCache | None = None, art_loader: ArtLoader | None = None,
               progress: StageProgress | None = None, renderer: FaceRenderer | None = None) -> bytes:
    """A print PDF of ``cards`` (one dict per printed copy, in order, each with ``id``).

    ``progress(stage, done, total)`` reports the stages ``faces`` and ``pages``. Only faces
    missing from the cache are drawn. Raises PrintError, SizeError, FontMissing.
    """
    options.check()
    check_bleed(options.bleed_mm)
    plan_grid(options.paper, options.size, options.bleed_mm, options.crop_marks)  # fail before drawing
    renderer = renderer or FaceRenderer(definition, options.size, options.bleed_mm, cache=cache,
                                        art_loader=art_loader)
    keys = renderer.keys(cards)  # hashing a card's content is the costly part of a warm render
    faces = renderer.faces(cards, (lambda d, t: progress("faces", d, t)) if progress else None, keys)
    back = renderer.back() if options.backs != "none" else None
    # The PDF's text layer carries the name and number as drawn: cut like the face's texts.
    sheet_cards = [SheetCard(key, str(card.get("name", ""))[:LAYOUT_MAX_CHARS],
                             str(card.get("number") or "")[:LAYOUT_MAX_CHARS])
                   for key, card in zip(keys, cards)]
    return build_pdf(sheet_cards, faces, back, options, definition.name,
                     (lambda d, t: progress("pages", d, t)) if progress else None)


def render_problems(definition: GameDefinition, card: Mapping[str, Any]) -> list[Problem]:
    """Print problems of a card at the game's card size: effect text that overflows at the
    smallest size (``card.text_overflow``), a name too long for its bar (``card.name_overflow``),
    and characters no installed font can draw (``card.missing_glyphs``). All are warnings.

    Never raises for missing fonts: that becomes one ``card.render_unavailable`` warning, so
    validation keeps working on a machine without the print fonts.
    """
    try:
        return _memo_problems(definition, card)
    except FontMissing as exc:
        return [Problem(severity="warning", code="card.render_unavailable", card=card.get("id"),
                        message=f"the print layout cannot be checked: {exc}", rule="print")]


def _memo_problems(definition: GameDefinition, card: Mapping[str, Any]) -> list[Problem]:
    digest = hashlib.sha256(json.dumps([dict(definition.raw), dict(card)], sort_keys=True, default=str)
                            .encode()).hexdigest()
    if digest not in _PROBLEMS:
        if len(_PROBLEMS) > 4096:  # a plain bounded memo: validation asks again and again
            _PROBLEMS.clear()
        _PROBLEMS[digest] = _problems(definition, card)
    return list(_PROBLEMS[digest])


_PROBLEMS: dict[str, tuple[Problem, ...]] = {}


def _problems(definition: GameDefinition, card: Mapping[str, Any]) -> tuple[Problem, ...]:
    card_id = card.get("id")
    plan = plan_face(definition, card, default_size(definition))
    problems = []
    if plan.overflow_lines:
        lines = plan.overflow_lines
        problems.append(Problem(
            severity="warning", code="card.text_overflow", card=card_id, field="text",
            message=f"effect text overflows by {lines} line{'s' if lines != 1 else ''} at the smallest size "
                    f"({plan.body.size_px / 300 * 72 if plan.body else 0:.1f} pt); shorten the text",
            actual=lines, limit=0, rule="print"))
    if plan.timed_out:
        problems.append(Problem(
            severity="warning", code="card.render_timeout", card=card_id, field="text",
            message=f"the card's text could not be laid out within {RENDER_TIME_LIMIT_S:g} s, so the face "
                    "shows a placeholder; shorten the text", rule="print"))
    if plan.name_overflow:
        problems.append(Problem(
            severity="warning", code="card.name_overflow", card=card_id, field="name",
            message="the name is too long for the name bar at the smallest size; shorten it",
            actual=len(str(card.get("name", ""))), rule="print"))
    if plan.missing:
        shown = " ".join(plan.missing[:10])
        problems.append(Problem(
            severity="warning", code="card.missing_glyphs", card=card_id,
            message=f"no installed font can draw {shown}; these characters would print as boxes",
            actual=plan.missing, rule="print"))
    return tuple(problems)


__all__ = ["render_png", "render_pdf", "render_problems", "default_size", "SheetOptions", "FaceRenderer"]
