"""Validation as the app and CLI use it: domain rules plus checks that need other services.

The render service adds a text-overflow warning when it is available; everything else is the
domain validator of :mod:`workbench.domain.validation`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from workbench.domain.effects import ACTIONS, parse_effects
from workbench.domain.effects import RULE as EFFECTS_RULE
from workbench.domain.effects.parse import UNSIMULATED
from workbench.domain.effects.text import missing_numbers
from workbench.domain.errors import WorkbenchError
from workbench.domain.gamedef import GameDefinition
from workbench.domain.problems import Problem
from workbench.domain.validation import validate_card, validate_deck
from workbench.services.memo import MISSING, Memo
from workbench.storage.repository import Repository

ExtraCardCheck = Callable[[GameDefinition, Mapping[str, Any]], list[Problem]]


def _extra_card_checks() -> list[ExtraCardCheck]:
    checks: list[ExtraCardCheck] = []
    try:  # the render service, when installed, knows whether the text fits on the face
        from workbench.services.render import render_problems  # type: ignore[attr-defined]

        checks.append(render_problems)
    except (ImportError, AttributeError):
        pass
    return checks


# (definition identity, card id, with_layout, repr of the card) -> problems. The card page, the
# validate API and the gallery ask about the same unchanged cards on every request; repr (not
# JSON) keeps 1, 1.0, True and "1" apart, so equal keys mean equal cards. Huge cards are not
# remembered, so the memo stays a few megabytes at most.
_CARD_PROBLEMS = Memo(4096)
_MAX_KEY_CHARS = 8192


def card_problems(
    definition: GameDefinition, card: Mapping[str, Any], card_id: str | None = None,
    with_layout: bool = True,
) -> list[Problem]:
    """Every problem of one card: field rules, budget and (if ``with_layout``) text overflow.

    Remembered per definition object and card content, so asking again costs a ``repr``.
    Never raises for bad card data.
    """
    try:
        shown = repr(card)
    except Exception:  # noqa: BLE001 - an object whose repr fails is simply not memoised
        shown = ""
    key = (id(definition), card_id, with_layout, shown) if 0 < len(shown) <= _MAX_KEY_CHARS else None
    if key is not None:
        hit = _CARD_PROBLEMS.get(key, definition)
        if hit is not MISSING:
            return list(hit)
    problems = _card_problems(definition, card, card_id, with_layout)
    if key is not None:
        _CARD_PROBLEMS.put(key, tuple(problems), definition)
    return problems


def _card_problems(
    definition: GameDefinition, card: Mapping[str, Any], card_id: str | None, with_layout: bool,
) -> list[Problem]:
    problems = validate_card(definition, card, card_id)
    problems += _unsimulated_effects(definition, card, card_id)
    problems += _text_and_effects(definition, card, card_id)
    if with_layout and not any(p.is_error for p in problems):
        for check in _extra_card_checks():
            for problem in check(definition, card):
                problems.append(_with_card(problem, card_id))
    return problems


def _unsimulated_effects(definition: GameDefinition, card: Mapping[str, Any], card_id: str | None) -> list[Problem]:
    """Warnings for effect entries the game's engine does not run (the card plays without them).

    The reasons are the engine parser's own (``parse_effects(...).skipped``), so the editor
    warns about exactly what playtests skip. Entries that break the vocabulary are the card
    validator's errors, not repeated here.
    """
    if not definition.engine or not isinstance(card, Mapping):
        return []
    from workbench.services.playtest.runner import resolve_engine  # lazy: the playtest package imports this one

    try:  # an engine id, or package.module:ATTR for an engine package outside the workbench
        engine = resolve_engine(definition.engine)
    except WorkbenchError:
        return []
    kind = card.get("kind")
    caps = engine.capabilities
    if kind not in definition.kinds:
        return []
    if caps is None:
        return _unsupported_actions(definition, card, card_id, str(kind), engine.supported_actions)
    out: list[Problem] = []
    for name in (f.name for f in definition.fields_for(str(kind)) if f.type == "effects"):
        entries = card.get(name)
        if not isinstance(entries, list):
            continue
        for skip in parse_effects(str(kind), entries, caps).skipped:
            if skip.code != UNSIMULATED:
                continue
            entry = entries[skip.index] if skip.index < len(entries) else None
            action = entry.get("action") if isinstance(entry, Mapping) else None
            out.append(Problem(
                "warning", "effect.unsimulated",
                f"effect {skip.index + 1}: {skip.reason}; playtests play the card without it "
                f"({EFFECTS_RULE})",
                EFFECTS_RULE, "card", card_id, field=name, actual=action, limit=sorted(caps.verbs),
                path=(skip.index,)))
    return out


_CJK = re.compile(r"[\u3400-\u9fff]")


def _text_and_effects(definition: GameDefinition, card: Mapping[str, Any], card_id: str | None) -> list[Problem]:
    """A warning when the card's text does not mention a number its effects use (the text and
    the effects disagree); the message gives the rules text the effects read as."""
    if not isinstance(card, Mapping) or not isinstance(card.get("text"), str):
        return []
    kind = card.get("kind")
    if kind not in definition.kinds:
        return []
    out: list[Problem] = []
    text = card["text"]
    lang = "zh" if _CJK.search(text) else "en"
    for name in (f.name for f in definition.fields_for(str(kind)) if f.type == "effects"):
        missing, generated = missing_numbers(text, card.get(name), lang, str(kind), definition)
        if missing:
            shown = ", ".join(str(n) for n in sorted(missing))
            out.append(Problem(
                "warning", "effect.text_differs",
                f"the text does not mention {shown}, which its effects use; the effects read: "
                f"\u201c{generated}\u201d ({EFFECTS_RULE})",
                EFFECTS_RULE, "card", card_id, field="text", actual=text, limit=generated))
    return out


def _unsupported_actions(definition: GameDefinition, card: Mapping[str, Any], card_id: str | None,
                         kind: str, supported: frozenset[str]) -> list[Problem]:
    """An engine without capabilities (a plug-in): warn about actions it does not list."""
    out: list[Problem] = []
    if not supported:
        return out
    for name in (f.name for f in definition.fields_for(kind) if f.type == "effects"):
        entries = card.get(name)
        for index, entry in enumerate(entries if isinstance(entries, list) else []):
            action = entry.get("action") if isinstance(entry, Mapping) else None
            if action in ACTIONS and action not in supported:
                out.append(Problem(
                    "warning", "effect.unsimulated",
                    f"effect {index + 1}: the {definition.engine} engine does not run {action}; playtests "
                    f"play the card without it (runs: {', '.join(sorted(supported))}) ({EFFECTS_RULE})",
                    EFFECTS_RULE, "card", card_id, field=name, actual=action, limit=sorted(supported),
                    path=(index,)))
    return out


def _with_card(problem: Problem, card_id: str | None) -> Problem:
    if problem.card == card_id:
        return problem
    from dataclasses import replace

    return replace(problem, card=card_id)


def deck_problems(repo: Repository, game_id: str, deck: Mapping[str, Any], deck_id: str | None = None) -> list[Problem]:
    """Every problem of a deck (saved or not) against the game's current cards."""
    return validate_deck(repo.game(game_id), deck, repo.card_index(game_id), deck_id)


def game_report(repo: Repository, game_id: str, with_layout: bool = False) -> dict[str, Any]:
    """Problems of every card and deck of a game, plus files that cannot be read.

    Returns ``{"cards": {id: [Problem]}, "decks": {id: [Problem]}, "unreadable": [(path, reason)]}``.
    """
    definition = repo.game(game_id)
    cards, bad_cards = repo.list_cards_tolerant(game_id)
    decks, bad_decks = repo.list_decks_tolerant(game_id)
    index = {c.id: c.data for c in cards}
    return {
        "cards": {c.id: card_problems(definition, c.data, c.id, with_layout) for c in cards},
        "decks": {d.id: validate_deck(definition, d.data, index, d.id) for d in decks},
        "unreadable": [(f"cards/{i}.yaml", r) for i, r in bad_cards] + [(f"decks/{i}.yaml", r) for i, r in bad_decks],
    }
