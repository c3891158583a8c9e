"""Import and export notes, and the errors a page shows, in the reader's language.

The export and import services write their notes and a dry run's row and deck problems as
English sentences (kept as they are in the JSON answers, the CLI and English pages). Each known
sentence is a form here, the English with its values as ``%(name)s`` (read back with the same
patterns as the validation problems, ``problem_forms.form_pattern``), and the gettext message id
of its translation. A sentence may begin with where it is (``row 4, column C (Atk):``,
``line 3:``, ``row 2: error:``, a zone's name); a validation problem after ``error:`` reads as
the validator's own forms. A sentence this module does not know stays as written.
``tests/web/test_transfer_text.py`` builds the notes from the services and checks each reads.
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import get_locale, gettext

from workbench.web.error_forms import ERRORS
from workbench.web.problem_forms import _by_length, match_form
from workbench.web.ui import N_

SENTENCES: tuple[str, ...] = (
    # exports (workbench/services/exports)
    N_("card %(card)s has the same name as another card in set %(set)s; it is exported in set %(other)s"),
    N_("card faces are placeholders (%(n)s cards): the render service is not available, so each face shows name, "
       "kind, stats and text only"),
    N_("%(n)s card faces could not be rendered and are placeholders: %(failures)s"),
    N_("%(change)s: %(where)s; the mush export keeps the exact text"),
    N_("the text of %(n)s cards was cut to fit one %(bytes)s-byte MUSH line: %(names)s; the mush export keeps all of it"),
    N_("%(change)s: %(where)s; the exact text is kept as base64 in the *_UTF8 attributes"),
    N_("images are linked as local file:// paths: this save works on this computer only; upload the sheets and "
       "export again with a base URL to share it"),
    N_("the deck is empty"),
    N_("%(n)s card files could not be read and were left out: %(ids)s"),
    N_("deck %(deck)s was left out: %(error)s"),
    N_("play.cockatrice.tablerow in game.yaml is not a mapping of kinds; default rows are used"),
    N_("play.cockatrice.tablerow names kind %(kind)s, which the game does not have"),
    N_("play.cockatrice.tablerow for kind %(kind)s is not a row 0-3 or {row, by, rows}; it uses row %(row)s"),
    N_("%(n)s cards have names that cannot be a picture file name everywhere (a '|', a leading dot or space, or too "
       "long), so they have no local picture; export with a base URL to give them one: %(names)s"),
    N_("%(n)s cards share a name (or a picture file name) with another card and are exported as 'Name (card-id)': "
       "%(names)s"),
    N_("%(n)s token cards for the cards' create_token effects (Cockatrice offers them in the maker's menu): "
       "%(names)s"),
    N_("%(n)s cells hold characters an XLSX file cannot carry (control characters, U+FFFE, U+FFFF); they are written "
       "as U+FFFD: %(cells)s"),
    N_("%(n)s card names are folded to ASCII (the names as written are in the OriginalName column): %(names)s"),
    N_("%(n)s card names start with a double quote; Lackey gets ' instead: %(names)s"),
    N_("deck %(deck)s names cards that do not exist, left out: %(names)s"),
    # imports (workbench/services/imports)
    N_("the sheet is %(n)s columns wide; only the first %(max)s were read"),
    N_("%(n)s cards are named %(name)s (%(ids)s); a new card is made. Add an id column to change one of them"),
    N_("columns not imported (no matching field; map them with --mapping): %(names)s"),
    N_("card %(card)s was already imported from row %(row)s"),
    N_("a new card needs a kind (%(kinds)s); map a column to kind"),
    N_("%(cells)s cells but the header has %(n)s columns"),
    N_("the card has no name"),
    N_("%(value)s is not a whole number or %(allowed)s"),
    N_("%(value)s is not a whole number"),
    N_("%(value)s is not a number"),
    N_("%(value)s is not yes or no"),
    N_("a list must be written as a, b, c or as a JSON list"),
    N_("materials must be card names joined by + or a JSON list"),
    N_("effects must be a JSON list of effect objects"),
    N_("%(what)s longer than %(n)s characters is refused"),
    N_("%(what)s must be valid JSON: %(error)s"),
    N_("kind %(value)s is not one of: %(kinds)s"),
    # deck lists (workbench/services/imports: text lists, .dek, .cod)
    N_("zone %(zone)s: Cockatrice tokens are not part of a deck here; skipped"),
    N_("%(name)s has count %(count)s; skipped"),
    N_("no card named %(name)s in %(game)s; skipped"),
    N_("no zone of %(game)s takes %(name)s; skipped"),
    N_("count 0 for %(name)s; skipped"),
    N_("zone %(zone)s is not a zone of %(game)s (%(zones)s); its cards are skipped"),
    N_("zone %(zone)s is not a zone of %(game)s (%(zones)s); its cards were skipped"),
    N_("%(line)s is neither 'count name' nor 'Zone:'; skipped"),
    N_("%(n)s cards are named %(name)s; %(card)s was used"),
)
"""The services' notes and problems (values as ``%(name)s``); the refusals a page shows are
:data:`workbench.web.error_forms.ERRORS`."""

NESTED: dict[str, tuple[str, ...]] = {
    "change": (N_("PennMUSH stores only Latin-1, so text was folded to ASCII (accents dropped, other characters as ?)"),
               N_("text was folded to ASCII (--ascii)"),
               N_("TinyMUX drops characters it cannot print (zero-width joiners, soft hyphens …), so they were left out")),
    "where": (N_("%(n)s cards (%(names)s)"), N_("the deck title")),
    "names": (N_("%(names)s and %(n)s more"),),
    # the refusals' values (workbench/web/error_forms.py)
    "why": (N_("the server is playing %(n)s playtests already, its limit (PLAYTEST_MAX_RUNS = %(max)s)"),
            N_("%(user)s is playing %(n)s playtest already, the limit per user (PLAYTEST_MAX_RUNS_PER_USER = %(max)s)"),
            N_("%(user)s is playing %(n)s playtests already, the limit per user (PLAYTEST_MAX_RUNS_PER_USER = %(max)s)")),
    "when": (N_("the soonest should end in about %(n)s s"), N_("none of them can tell yet when it ends")),
    "who": (N_("started by %(user)s"), N_("not started by a named account")),
    "action": (N_("cancel"), N_("resume")),
    "role": (N_("viewer"), N_("designer")),
    "status": (N_("running"), N_("done"), N_("error"), N_("cancelled"), N_("interrupted"), N_("queued")),
    "field": (N_("games"), N_("seed"), N_("workers"), N_("players"), N_("seat"), N_("index"), N_("expect"),
              N_("step"), N_("bleed mm"), N_("offset x mm"), N_("offset y mm"), N_("games per card")),
    "what": (N_("games"), N_("games per card")),
    "type": (N_("a boolean"), N_("an integer"), N_("a number")),
}
"""Values that are sentences of their own (a MUSH server's folding, which cards it touched); a
value whose forms it does not match stays as written (``names``: a plain list; the values in
:data:`KEPT`). ``error`` and ``problem`` values are sentences of any form (the reason a file or a
deck was refused), translated when they read as one and kept as written otherwise."""

KEPT = frozenset({"names", "field", "what", "status", "action", "role", "who", "type"})
"""Nested values kept as written when they read as none of their forms (a list, an internal name)."""

FREE = frozenset({"error", "problem"})
"""Values that may be any sentence of this module (or a validation problem)."""

PLACES: tuple[str, ...] = (
    N_("row %(n)s, column %(column)s (%(header)s): %(text)s"),
    N_("row %(n)s, field %(field)s: %(text)s"),
    N_("row %(n)s: error: %(text)s"),
    N_("row %(n)s: warning: %(text)s"),
    N_("row %(n)s: %(text)s"),
    N_("line %(n)s: %(text)s"),
    N_("error: %(text)s"),
    N_("warning: %(text)s"),
    N_("%(zone)s, card %(n)s: %(text)s"),
    N_("%(zone)s: %(text)s"),
)
"""Where a sentence is, as it begins (the most specific first)."""

_SENTENCES = _by_length(SENTENCES + ERRORS)


def _english() -> bool:
    return str(get_locale() or "en").startswith("en")


def _sentence(text: str) -> str | None:
    found = match_form(text, _SENTENCES)
    if found is None:
        from workbench.web.game_text import problem_sentence

        return problem_sentence(text)
    return _fill(*found)


def _fill(form: str, values: dict[str, str]) -> str | None:
    """``form`` translated with its values, the nested ones translated first (see :data:`NESTED`)."""
    for name in set(values) & set(NESTED):
        inner = match_form(values[name], _by_length(NESTED[name]))
        filled = _fill(*inner) if inner is not None else None
        if filled is not None:
            values[name] = filled
        elif name not in KEPT:
            return None
    for name in set(values) & FREE:
        inner = _read(values[name], 1)
        if inner is not None:
            values[name] = inner
    if "option" in values:
        values["option"] = _option_label(values["option"])
    if "agents" in values:  # the AI players' kinds by the names the Play form gives them
        from workbench.web.game_text import agent_label

        values["agents"] = "、".join(f"{agent_label(a.strip())}（{a.strip()}）" for a in values["agents"].split(","))
        values["human"] = gettext(values["human"]) if values.get("human") == "human" else values.get("human", "")
    return gettext(form, **values)


def _option_label(name: str) -> str:
    """A rule option of the page's game as ``Label（name）`` (its ``game.yaml`` label), or as written.

    The refusals of :meth:`GameDefinition.coerce_option` name it ``Label (name)`` already; the key
    in the brackets is the one looked up."""
    from workbench.web.problem_forms import _page_game

    labelled = re.fullmatch(r"(?s).+ \(([^()]+)\)", name)
    key = labelled.group(1) if labelled else name.strip("'\"")
    definition = _page_game()
    option = getattr(definition, "options", {}).get(key) if definition is not None else None
    label = option.spec.get("label") if option is not None else None
    return f"{label}（{key}）" if label else name


def _read(text: str, depth: int = 0) -> str | None:
    """``text`` translated (a place in front of it, then its sentence), or ``None``."""
    if depth < 2:  # where it is first: a sentence's own values would swallow "row 3, column B (Power):"
        found = _placed(text, depth, PLACES[:-2])
        if found is not None:
            return found
    whole = _sentence(text)
    if whole is not None or depth >= 2:
        return whole
    # a zone's name in front ("Main deck: …") only when the whole is no sentence: "these decks
    # cannot be played: deck 'a' does not exist" is one sentence, not a zone called "these decks …"
    return _placed(text, depth, PLACES[-2:])


def _placed(text: str, depth: int, places: tuple[str, ...]) -> str | None:
    for place in places:
        m = re.match(_place_pattern(place), text, re.S)
        if m:
            values = m.groupdict()
            inner = _read(values.pop("text"), depth + 1)
            if inner is not None:
                return gettext(place, text=inner, **values)
    return None


_PATTERNS: dict[str, str] = {}


def _place_pattern(place: str) -> str:
    if place not in _PATTERNS:
        from workbench.web.problem_forms import form_pattern

        _PATTERNS[place] = form_pattern(place).pattern
    return _PATTERNS[place]


def transfer_text(text: Any) -> str:
    """An import or export note (or a dry run's problem) in the reader's language."""
    line = str(text or "")
    if _english():
        return line
    read = _read(line)
    if read is None:
        return line
    # a label's closing parenthesis needs no space before the Chinese that follows ("（games）必须")
    return re.sub(r"(?<=[a-z_]）) (?=[\u4e00-\u9fff])", "", read) if "）" in read else read


def reads(text: str) -> bool:
    """Whether ``text`` reads as one of the forms (for the tests)."""
    return _read(text) is not None
