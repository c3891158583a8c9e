#!/usr/bin/env python3
"""Rebuild the interface's translation catalogues from the templates and the code.

    python scripts/translations.py          # extract messages, fill zh from zh.json, compile .mo

The translations themselves are kept in ``workbench/translations/<lang>.json`` (English message ->
translation, a list for plural forms; a message with a context, ``pgettext("playtest", "Games")``,
is keyed ``"[playtest] Games"``) so they are reviewed as plain text; this script writes the
gettext ``messages.po`` and ``messages.mo`` Flask-Babel reads. ``tests/web/test_i18n.py`` fails
when a message of the templates has no translation or the compiled catalogue is out of date.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "workbench" / "translations"
LANGUAGES = ("zh",)


def extract() -> Catalog:
    """Every message of the templates and the code (``_``, ``gettext``, ``ngettext``, ``N_``)."""
    with tempfile.TemporaryDirectory() as folder:
        pot = Path(folder) / "messages.pot"
        subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", str(ROOT / "babel.cfg"),
                        "-k", "N_", "--no-location", "--omit-header", "--no-wrap", "-o", str(pot), str(ROOT)],
                       capture_output=True, check=True, cwd=ROOT)
        return read_po(io.BytesIO(pot.read_bytes()))


def json_key(message: Message) -> str:
    """The key of ``message`` in ``<lang>.json``: its id (the singular of a plural), after its context."""
    key = message.id[0] if isinstance(message.id, tuple) else message.id
    return f"[{message.context}] {key}" if message.context else key


def build(lang: str, template: Catalog) -> tuple[Catalog, list[str]]:
    """The catalogue of ``lang`` from its JSON; returns it and the messages with no translation."""
    table = json.loads((FOLDER / f"{lang}.json").read_text(encoding="utf-8"))
    catalog = Catalog(locale=lang, domain="messages", project="Card Workbench", fuzzy=False)
    missing = []
    for message in template:
        if not message.id:
            continue
        key = json_key(message)
        found = table.get(key)
        if not found:
            missing.append(key)
        if isinstance(message.id, tuple):
            forms = found if isinstance(found, list) else [found or ""]
            catalog.add(message.id, tuple(forms), context=message.context)
        else:
            catalog.add(message.id, found if isinstance(found, str) else "", context=message.context)
    return catalog, missing


def main() -> int:
    template = extract()
    code = 0
    for lang in LANGUAGES:
        catalog, missing = build(lang, template)
        target = FOLDER / lang / "LC_MESSAGES"
        target.mkdir(parents=True, exist_ok=True)
        with open(target / "messages.po", "wb") as out:
            write_po(out, catalog, width=0, omit_header=False, no_location=True)
        with open(target / "messages.mo", "wb") as out:
            write_mo(out, catalog)
        for key in missing:
            print(f"{lang}: no translation for {key!r}", file=sys.stderr)
            code = 1
    return code


if __name__ == "__main__":
    sys.exit(main())
