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
