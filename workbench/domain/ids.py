"""The id allowlist shared by games, cards, decks and engines.

Ids become file names, so only a conservative alphabet is accepted: no path separators,
no dots, no NUL, nothing that could leave the data folder.
"""

from __future__ import annotations

import re
import unicodedata

from anyascii import anyascii

from workbench.domain.errors import InvalidId

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")

SLUG_SOURCE_CHARS = 1_000
"""How much of a name :func:`slugify` reads. An id keeps at most 64 characters, so the rest of a
longer name never shows; reading all of it let one request (a name of 5 million Chinese
characters in a 16 MiB body) spend 3.8 s of CPU before the card was refused as too large."""


def is_valid_id(value: object) -> bool:
    """Tell whether ``value`` is a string on the id allowlist."""
    return isinstance(value, str) and ID_PATTERN.fullmatch(value) is not None


def check_id(value: object, what: str = "id") -> str:
    """Return ``value`` when it is a valid id; raise InvalidId naming the rule otherwise."""
    if not is_valid_id(value):
        shown = repr(value)[:80]
        raise InvalidId(
            f"{what} {shown} is not allowed: use 1-64 lower-case letters, digits, '-' or '_', "
            "starting with a letter or digit"
        )
    assert isinstance(value, str)
    return value


def _is_han(char: str) -> bool:
    return unicodedata.name(char, "").startswith(("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH"))


def slugify(text: str, fallback: str = "card") -> str:
    """Make an id from a display name: transliterated to ASCII, lower case, dashes.

    Chinese characters become pinyin syllables joined by dashes (赤炎狼 → ``chi-yan-lang``, the
    convention of the bundled fusion cards); kana, hangul, Cyrillic, accented Latin … are
    transliterated by anyascii; a name with nothing transliterable (e.g. only punctuation) gives
    ``fallback``. Never raises; the result always passes :func:`check_id`. Only the first
    ``SLUG_SOURCE_CHARS`` characters are read.
    """
    # One Han character is one syllable: dashes between them keep the id readable.
    spaced = "".join(f" {char} " if _is_han(char) else char for char in text[:SLUG_SOURCE_CHARS])
    folded = anyascii(spaced)
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")[:64].strip("-")
    return slug if slug else fallback
