"""The messages the page scripts write, so the Chinese interface covers them too.

The scripts (``static/js/*.js``) write every visible message through ``Workbench.t("…", {n: 1})``
or ``Workbench.tn("… card", "… cards", n, {…})``; each message is listed here, marked with ``N_``
so ``scripts/translations.py`` extracts it into the catalogues with the templates' messages. A page
in a language other than English carries the translations of this list as a JSON block
(``<script type="application/json" id="i18n">``, data and not code, so the CSP's ban on inline
scripts holds); ``Workbench.t`` looks a message up there and fills its ``%(name)s`` places.
``tests/web/test_i18n.py`` fails when a script calls ``Workbench.t`` with a message not listed here.
"""

from __future__ import annotations

from flask_babel import gettext

from workbench.web.ui import N_

JS_MESSAGES: tuple[str, ...] = (
    # common.js: the unsaved-changes guard and the API helpers write nothing visible.
    # editor.js
    N_("Show preview"),
    N_("Hide preview"),
    # deck.js (the deck builder)
    N_("Trying changes: viewers cannot save"),
    N_("Copies of %(card)s in %(zone)s"),
    N_("One fewer %(card)s"),
    N_("One more %(card)s"),
    N_("%(n)s copies of %(card)s (the most allowed)"),
    N_("%(card)s (missing)"),
    N_("Remove %(card)s from %(zone)s"),
    N_("In deck: %(zones)s"),
    N_("Add %(card)s to %(zone)s"),
    N_("%(n)s copies of %(card)s in %(zone)s (the most allowed)"),
    N_("Showing %(shown)s of %(n)s matching cards; type more to narrow."),
    N_("Cannot check this deck"),
    N_("Legal"),
    N_("A kind"),
    N_("any %(kind)s"),
    N_("A card"),
    N_("(add cards first)"),
    N_("Unsaved changes"),
    N_("Paste a list or choose a file first."),
    N_("Cannot read the list (HTTP %(code)s)"),
    N_("%(n)s in %(zone)s"),
    N_(": %(zones)s"),
    N_(". Nothing is changed until you add them."),
    N_("The deck now holds the list's %(n)s cards."),
    N_("Added the list's %(n)s cards."),
    N_("%(name)s (copy)"),
    N_("Could not duplicate (HTTP %(code)s)"),
    N_("Saving…"),
    N_("Saved %(time)s"),
    N_(" · legal"),
    N_(" · not legal yet"),
    N_("Not saved: the deck changed elsewhere"),
    N_("Save failed (HTTP %(code)s)"),
    N_("Save failed: %(error)s. Your deck is still here."),
    N_("This deck was changed elsewhere"),
    N_("This deck was deleted elsewhere"),
    N_("Your save was refused, so nothing was overwritten; your deck is still in the builder."),
    N_("Name"),
    N_("Format"),
    N_("What"),
    N_("Saved version"),
    N_("Yours"),
    N_("Keep mine (replace the saved deck)"),
    N_("Keep theirs (drop my changes)"),
    N_("Showing the saved deck."),
    N_("Save mine as a new deck"),
    N_("%(n)s matching card"),
    N_("%(n)s matching cards"),
    N_(" (%(n)s warning)"),
    N_(" (%(n)s warnings)"),
    N_("Not legal: %(n)s error"),
    N_("Not legal: %(n)s errors"),
    N_("%(zone)s: %(n)s card"),
    N_("%(zone)s: %(n)s cards"),
    N_("%(n)s card found"),
    N_("%(n)s cards found"),
    N_("%(n)s difference"),
    N_("%(n)s differences"),
    # render.js (the Print page)
    N_("Laying out sheets"),
    N_("Drawing card faces"),
    N_("%(stage)s: %(done)s of %(total)s"),
    N_("%(stage)s…"),
    N_("Rendering the first sheet…"),
    N_("Fronts"),
    N_("Backs"),
    N_("%(side)s of sheet 1: %(n)s card on %(paper)s"),
    N_("%(side)s of sheet 1: %(n)s cards on %(paper)s"),
    N_(", with crop marks"),
    N_(", no crop marks"),
    N_(", %(mm)s mm bleed"),
    N_("Sheet 1 of %(sheets)s: %(n)s of up to %(per)s cards per sheet, fronts and backs."),
    N_("Sheet 1 of %(sheets)s: %(n)s of up to %(per)s cards per sheet, fronts only."),
    N_("No preview: %(error)s"),
    N_("Starting…"),
    N_("Ready in %(s)s s. Downloading…"),
    N_("Could not make the PDF: %(error)s"),
    N_("status %(code)s"),
)


def js_catalogue(language: str) -> dict[str, str]:
    """The scripts' messages in ``language`` (empty for English: the scripts' own text is English)."""
    if language == "en":
        return {}
    return {message: gettext(message) for message in JS_MESSAGES}
