"""Inline symbols in rules text: ``{T}`` (tap, 横置), ``{2}`` / ``{X}`` (fusion's circled mana).

A game declares its symbols in ``game.yaml``::

    symbols:
      tap:  {tokens: [T], label: 横置 Tap, glyph: 横, shape: circle}
      mana: {match: "[0-9]{1,2}|X", label: Mana, shape: circle}   # {0} … {99}, {X}; glyph = the token

In card text a symbol is written as its token in braces. Faces (and so the PDF and the gallery's
thumbnails) draw it as a small badge; the gallery's text and screen readers get its label;
exports keep the token as written (``{T}``), which is what Cockatrice, Lackey and MUSH players
type themselves. Text in braces that is no symbol of the game stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from workbench.domain.errors import DefinitionError

SHAPES = ("circle", "square", "diamond")
_TOKEN = re.compile(r"\{([^{}\s]{1,12})\}")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


@dataclass(frozen=True)
class Symbol:
    """One declared symbol: which tokens it takes and how it looks."""

    name: str
    label: str
    tokens: tuple[str, ...]
    match: re.Pattern[str] | None
    glyph: str | None  # the text drawn inside; None = the token itself
    shape: str
    fill: str
    color: str

    def takes(self, token: str) -> bool:
        """True when ``{token}`` is this symbol."""
        return token in self.tokens or bool(self.match and self.match.fullmatch(token))

    def drawn_text(self, token: str) -> str:
        """The characters drawn inside the badge for ``{token}``."""
        return self.glyph if self.glyph is not None else token


@dataclass(frozen=True)
class SymbolUse:
    """A symbol found in a text: the token as written (``T``) and its place."""

    symbol: Symbol
    token: str
    start: int
    end: int

    @property
    def written(self) -> str:
        return "{" + self.token + "}"


@dataclass(frozen=True)
class SymbolSet:
    """A game's symbols, in declaration order (the first that takes a token wins)."""

    symbols: tuple[Symbol, ...] = ()

    @classmethod
    def from_raw(cls, raw: Any) -> SymbolSet:
        """Parse ``game.yaml``'s ``symbols`` mapping. Raises DefinitionError naming the entry."""
        if raw in (None, {}):
            return cls()
        if not isinstance(raw, Mapping):
            raise DefinitionError("symbols: must be a mapping of name -> {tokens or match, label, …}")
        out = []
        for name, spec in raw.items():
            where = f"symbols.{name}"
            if not isinstance(spec, Mapping):
                raise DefinitionError(f"{where}: must be a mapping")
            unknown = set(spec) - {"tokens", "match", "label", "glyph", "shape", "fill", "color"}
            if unknown:
                raise DefinitionError(f"{where}: unknown key(s) {sorted(unknown)}; allowed: tokens, match, label, "
                                      "glyph, shape, fill, color")
            tokens = spec.get("tokens") or []
            if not isinstance(tokens, list) or not all(isinstance(t, (str, int)) and _TOKEN.fullmatch("{" + str(t) + "}")
                                                       for t in tokens):
                raise DefinitionError(f"{where}.tokens: a list of short tokens without spaces or braces (e.g. [T])")
            pattern = None
            if spec.get("match") is not None:
                try:
                    pattern = re.compile(str(spec["match"]))
                except re.error as exc:
                    raise DefinitionError(f"{where}.match: not a regular expression ({exc})") from None
            if not tokens and pattern is None:
                raise DefinitionError(f"{where}: give tokens (e.g. [T]) or match (e.g. \"[0-9]+\")")
            shape = str(spec.get("shape", "circle"))
            if shape not in SHAPES:
                raise DefinitionError(f"{where}.shape: {shape!r} is not one of {', '.join(SHAPES)}")
            fill, color = str(spec.get("fill", "#3b3530")), str(spec.get("color", "#ffffff"))
            for key, value in (("fill", fill), ("color", color)):
                if not _HEX.match(value):
                    raise DefinitionError(f"{where}.{key}: {value!r} is not a colour like #3b3530")
            glyph = spec.get("glyph")
            out.append(Symbol(str(name), str(spec.get("label") or name), tuple(str(t) for t in tokens), pattern,
                              None if glyph is None else str(glyph)[:3], shape, fill, color))
        return cls(tuple(out))

    def __bool__(self) -> bool:
        return bool(self.symbols)

    def find(self, text: str) -> Iterator[SymbolUse]:
        """Every symbol written in ``text``, in order."""
        if not self.symbols or "{" not in text:
            return
        for m in _TOKEN.finditer(text):
            symbol = next((s for s in self.symbols if s.takes(m.group(1))), None)
            if symbol is not None:
                yield SymbolUse(symbol, m.group(1), m.start(), m.end())

    def spoken(self, text: str) -> str:
        """``text`` with each symbol replaced by its label in brackets (``[横置 Tap]``), for places
        that show plain text (tooltips, screen readers)."""
        out, at = [], 0
        for use in self.find(text):
            out += [text[at:use.start], f"[{use.symbol.label}{'' if use.symbol.tokens else ' ' + use.token}]"]
            at = use.end
        return "".join(out) + text[at:]
