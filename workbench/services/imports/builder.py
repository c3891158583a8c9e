"""One entry point for the deck builder's paste box and file picker: a text list, a Lackey
``.dek`` or a Cockatrice ``.cod``, told apart by the file name or, for pasted text, the content."""

from __future__ import annotations

from collections.abc import Mapping

from workbench.domain.gamedef import GameDefinition
from workbench.services.imports.cockatrice_deck import looks_like_cod, read_cod
from workbench.services.imports.decklist import read_decklist
from workbench.services.imports.lackey import DeckImport, read_dek


def read_any_deck(data: bytes, filename: str, definition: GameDefinition,
                  cards: Mapping[str, Mapping[str, object]]) -> DeckImport:
    """The deck in ``data``. Raises ImportFileError (too large, not UTF-8, malformed, no card line)."""
    if looks_like_cod(filename, data):
        return read_cod(data, definition, cards)
    head = data[:400].lstrip().lower()
    name = filename.lower()
    if name.endswith(".dek") or (head.startswith(b"<") and b"<deck" in head):
        return read_dek(data, definition, cards)
    return read_decklist(data, definition, cards)
