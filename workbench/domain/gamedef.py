"""Game definitions: the parsed form of a game's ``game.yaml``.

A definition says which card kinds a game has, each kind's fields, the deck zones, the deck
rules, the cost budget, the rule options (with RULES.md defaults and Decisions) and the formats.
Everything game-specific that validation needs is data here, so a new game is a new folder.
"""

from __future__ import annotations

import functools

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from workbench.domain.symbols import SymbolSet
from workbench.domain.errors import DefinitionError
from workbench.domain.ids import is_valid_id

FIELD_TYPES = {"string", "text", "integer", "number", "boolean", "list", "effects", "materials"}

# The shape of game.yaml itself, checked before anything reads it.
_BOUND = {"anyOf": [{"type": "number"}, {"type": "object", "required": ["option"]}]}
_FIELD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {"enum": sorted(FIELD_TYPES)},
        "label": {"type": "string"},
        "help": {"type": "string"},
        "rule": {"type": "string"},
        "required": {"type": "boolean"},
        "minimum": _BOUND,
        "maximum": _BOUND,
        "max_length": {"type": "integer", "minimum": 1},
        "enum": {"type": "array"},
        "also_allowed": {"type": "array"},
        "labels": {"type": "object"},
        "items": {"type": "object"},
        "min_items": {"type": "integer", "minimum": 0},
        "max_items": {"type": "integer", "minimum": 1},
        "unique": {"type": "boolean"},
        "multiple_of": {"type": "object"},
        "required_when": {"type": "object"},
        "forbidden_when": {"type": "object"},
        "default": {},
        "stat": {"type": "boolean"},
        "show": {"type": "boolean"},
        "short": {"type": "string", "minLength": 1, "maxLength": 8},
        "badge": {"type": "boolean"},
    },
    "additionalProperties": False,
}
DEFINITION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["id", "name", "kinds", "zones"],
    "properties": {
        "id": {"type": "string"},
        "name": {"type": "string"},
        "description": {"type": "string"},
        "engine": {"type": ["string", "null"]},
        "rules_ref": {"type": "string"},
        "card_size": {"type": "string"},
        "style": {"type": "object"},
        "symbols": {"type": "object"},
        "language": {"enum": ["en", "zh"]},
        "fields": {"type": "object", "additionalProperties": _FIELD_SCHEMA},
        "kinds": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "color": {"type": "string"},
                    "fields": {"type": "object", "additionalProperties": _FIELD_SCHEMA},
                },
                "additionalProperties": False,
            },
        },
        "zones": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "kinds": {"type": "array", "items": {"type": "string"}},
                    "min": _BOUND,
                    "max": _BOUND,
                    "exactly": _BOUND,
                    "rule": {"type": "string"},
                    "play": {"type": "boolean"},
                    "reserve": {"type": "boolean"},
                    "cards_with": {"type": "object", "minProperties": 1},
                    "cards_with_rule": {"type": "string"},
                },
                "additionalProperties": False,
            },
        },
        "deck_rules": {"type": "array", "items": {"type": "object", "required": ["check"]}},
        "budget": {"type": "object"},
        "options": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["default"],
                "properties": {
                    "default": {},
                    "type": {"enum": ["integer", "number", "boolean", "string"]},
                    "minimum": {"type": "number"},
                    "maximum": {"type": "number"},
                    "nullable": {"type": "boolean"},
                    "enum": {"type": "array"},
                    "label": {"type": "string"},
                    "help": {"type": "string"},
                    "rule": {"type": "string"},
                    "decision": {"type": "boolean"},
                },
                "additionalProperties": False,
            },
        },
        "formats": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "description": {"type": "string"},
                    "options": {"type": "object"},
                },
                "additionalProperties": False,
            },
        },
        "play": {"type": "object"},
    },
    "additionalProperties": False,
}


@dataclass(frozen=True)
class FieldDef:
    """One card field: its type and constraints, as written in game.yaml."""

    name: str
    type: str
    spec: Mapping[str, Any]

    @property
    def label(self) -> str:
        return str(self.spec.get("label") or self.name.replace("_", " ").capitalize())

    @property
    def required(self) -> bool:
        return bool(self.spec.get("required", False))

    @property
    def enum(self) -> list[Any] | None:
        values = self.spec.get("enum")
        if values is None and self.type == "list":
            values = (self.spec.get("items") or {}).get("enum")
        return list(values) if values is not None else None

    @property
    def help(self) -> str:
        return str(self.spec.get("help", ""))


@dataclass(frozen=True)
class KindDef:
    """A card kind (creature, spell, monster …) and its own fields."""

    id: str
    label: str
    color: str
    fields: tuple[FieldDef, ...]


@dataclass(frozen=True)
class ZoneDef:
    """A deck zone (main, side, team …): which kinds it takes and how many cards."""

    id: str
    label: str
    kinds: tuple[str, ...]
    spec: Mapping[str, Any]


@dataclass(frozen=True)
class OptionDef:
    """A rule option: a named parameter with a default, often one of RULES.md's Decisions."""

    name: str
    default: Any
    spec: Mapping[str, Any]


_VOWEL_LETTERS = frozenset("aeiou")
_LETTERS_SAID_WITH_A_VOWEL = frozenset("aefhilmnorsx")  # "an F", "an NPC": eff, en-pee-see
_CONSONANT_SOUND_STARTS = ("uni", "use", "usu", "ura", "ure", "uri", "uro", "eu", "ewe", "one", "once", "ubiq")
_UN_PREFIXED = ("unin", "unim", "unid")  # un-informed, un-important, un-identified: "an"
_SILENT_H_STARTS = ("hour", "honest", "honor", "honour", "heir")


def indefinite_article(word: str) -> str:
    """``an`` before a word said with a vowel sound first (``an integer``, ``an Area/Location
    card``, ``an hour``, ``an NPC``), else ``a`` (``a Unit``, ``a one-shot``, ``a HERO``). Card
    kinds are the designer's words, so the common English exceptions are known; an unusual word
    goes by its first letter."""
    head = word.strip().split("/")[0].split(" ")[0].strip("\"'()[]")
    if not head:
        return "a"
    lower = head.lower()
    if len(head) > 1 and head.isupper() and head.isalpha() and not set(lower) & _VOWEL_LETTERS:
        return "an" if lower[0] in _LETTERS_SAID_WITH_A_VOWEL else "a"  # NPC, HQ: said letter by letter
    if len(head) == 1 and head.isalpha():
        return "an" if lower in _LETTERS_SAID_WITH_A_VOWEL else "a"
    if lower.startswith(_SILENT_H_STARTS):
        return "an"
    if lower.startswith(_CONSONANT_SOUND_STARTS) and not lower.startswith(_UN_PREFIXED):
        return "a"
    return "an" if lower[0] in _VOWEL_LETTERS else "a"


@dataclass(frozen=True)
class GameDefinition:
    """A parsed, checked game.yaml. Build it with :func:`parse_definition`."""

    id: str
    name: str
    raw: Mapping[str, Any]
    common_fields: tuple[FieldDef, ...]
    kinds: Mapping[str, KindDef]
    zones: Mapping[str, ZoneDef]
    options: Mapping[str, OptionDef]
    formats: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def engine(self) -> str | None:
        value = self.raw.get("engine")
        return str(value) if value else None

    @property
    def description(self) -> str:
        return str(self.raw.get("description", ""))

    @property
    def deck_rules(self) -> list[Mapping[str, Any]]:
        return list(self.raw.get("deck_rules") or [])

    @functools.cached_property
    def symbols(self) -> SymbolSet:
        """The inline symbols of ``symbols:`` (``{T}``, ``{2}``); empty when none are declared."""
        return SymbolSet.from_raw(self.raw.get("symbols"))

    @property
    def budget(self) -> Mapping[str, Any] | None:
        return self.raw.get("budget")

    def fields_for(self, kind: str) -> tuple[FieldDef, ...]:
        """Common fields followed by the kind's own fields (no duplicates; kind wins).

        Raises KeyError for an unknown kind.
        """
        own = self.kinds[kind].fields
        own_names = {f.name for f in own}
        return tuple(f for f in self.common_fields if f.name not in own_names) + own

    def field_names(self) -> set[str]:
        """Every field name any kind of this game knows, plus ``kind``."""
        names = {f.name for f in self.common_fields} | {"kind"}
        for kind in self.kinds.values():
            names |= {f.name for f in kind.fields}
        return names

    def default_options(self) -> dict[str, Any]:
        """Rule options at their defaults."""
        return {name: opt.default for name, opt in self.options.items()}

    def resolve_options(
        self, format_id: str | None = None, overrides: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Options for a format and explicit overrides, checked against the option specs.

        Raises DefinitionError for an unknown format or option, or a value of the wrong type.
        """
        options = self.default_options()
        if format_id:
            if format_id not in self.formats:
                raise DefinitionError(
                    f"game {self.id!r} has no format {format_id!r}; "
                    f"formats: {', '.join(sorted(self.formats)) or 'none'}"
                )
            options.update(self.formats[format_id].get("options") or {})
        for name, value in (overrides or {}).items():
            options[name] = self.coerce_option(name, value)
        return options

    def option_name(self, name: str) -> str:
        """A rule option as its refusals name it: its game.yaml label with the key beside it
        (``Starting Life Points (start_life)``), or the key alone when it has no label."""
        label = self.options[name].spec.get("label") if name in self.options else None
        return f"{label} ({name})" if label and str(label) != name else name

    def coerce_option(self, name: str, value: Any) -> Any:
        """Convert a text or JSON value to the option's type; raise DefinitionError if it cannot."""
        if name not in self.options:
            raise DefinitionError(
                f"game {self.id!r} has no rule option {name!r}; "
                f"options: {', '.join(sorted(self.options))}"
            )
        spec = self.options[name].spec
        kind = spec.get("type") or _type_of(self.options[name].default)
        if value is None or (isinstance(value, str) and value.lower() in {"none", "null"}):
            if spec.get("nullable") or self.options[name].default is None:
                return None
            raise DefinitionError(f"rule option {self.option_name(name)} cannot be empty")
        try:
            if kind == "boolean":
                if isinstance(value, str):
                    if value.lower() not in {"true", "false", "yes", "no", "1", "0"}:
                        raise ValueError(value)
                    return value.lower() in {"true", "yes", "1"}
                return bool(value)
            if kind == "integer":
                result: Any = int(value)
            elif kind == "number":
                result = float(value)
            else:
                text = str(value)
                allowed = spec.get("enum")
                if allowed and text not in [str(v) for v in allowed]:
                    raise DefinitionError(f"rule option {self.option_name(name)} is {text!r}; allowed: "
                                          f"{', '.join(map(str, allowed))}")
                return text
        except (TypeError, ValueError):
            raise DefinitionError(f"rule option {self.option_name(name)} must be {indefinite_article(kind)} {kind}, "
                                  f"not {value!r}") from None
        low, high = spec.get("minimum"), spec.get("maximum")
        if low is not None and result < low:
            raise DefinitionError(f"rule option {self.option_name(name)} is {result}; the minimum is {low}")
        if high is not None and result > high:
            raise DefinitionError(f"rule option {self.option_name(name)} is {result}; the maximum is {high}")
        return result


def _type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"


def _fields(raw: Mapping[str, Any] | None) -> tuple[FieldDef, ...]:
    return tuple(FieldDef(name, str(spec["type"]), spec) for name, spec in (raw or {}).items())


def parse_definition(raw: Mapping[str, Any], expected_id: str | None = None) -> GameDefinition:
    """Check a parsed game.yaml and build its GameDefinition.

    Raises DefinitionError naming the first problem (bad shape, unknown kind in a zone, an
    option bound that names no option, an id that does not match its folder).
    """
    if not isinstance(raw, Mapping):
        raise DefinitionError("game.yaml must be a mapping")
    errors = sorted(
        jsonschema.Draft202012Validator(DEFINITION_SCHEMA).iter_errors(dict(raw)),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        raise DefinitionError(f"game.yaml at {where}: {err.message}")
    game_id = str(raw["id"])
    if not is_valid_id(game_id):
        raise DefinitionError(f"game id {game_id!r} is not a valid id")
    if expected_id is not None and game_id != expected_id:
        raise DefinitionError(f"game.yaml says id {game_id!r} but its folder is {expected_id!r}")
    options = {
        name: OptionDef(name, spec["default"], spec) for name, spec in (raw.get("options") or {}).items()
    }
    kinds = {
        kid: KindDef(
            id=kid,
            label=str(spec.get("label", kid.capitalize())),
            color=str(spec.get("color", "#555555")),
            fields=_fields(spec.get("fields")),
        )
        for kid, spec in raw["kinds"].items()
    }
    zones = {
        zid: ZoneDef(
            id=zid,
            label=str(spec.get("label", zid)),
            kinds=tuple(spec.get("kinds") or kinds.keys()),
            spec=spec,
        )
        for zid, spec in raw["zones"].items()
    }
    definition = GameDefinition(
        id=game_id,
        name=str(raw["name"]),
        raw=raw,
        common_fields=_fields(raw.get("fields")),
        kinds=kinds,
        zones=zones,
        options=options,
        formats=dict(raw.get("formats") or {}),
    )
    _check_references(definition)
    definition.symbols  # noqa: B018 - a bad symbols: entry is refused with the definition
    return definition


def _option_refs(value: Any) -> list[str]:
    if isinstance(value, Mapping):
        found = [str(value["option"])] if "option" in value else []
        for item in value.values():
            found += _option_refs(item)
        return found
    if isinstance(value, list):
        return [ref for item in value for ref in _option_refs(item)]
    return []


def _check_references(definition: GameDefinition) -> None:
    for zone in definition.zones.values():
        for kind in zone.kinds:
            if kind not in definition.kinds:
                raise DefinitionError(f"zone {zone.id!r} names unknown kind {kind!r}")
        for name in zone.spec.get("cards_with") or {}:
            if name not in definition.field_names():
                raise DefinitionError(f"zone {zone.id!r}: cards_with names unknown field {name!r}")
    for name in _option_refs(dict(definition.raw)):
        if name not in definition.options:
            raise DefinitionError(f"game.yaml refers to rule option {name!r}, which is not defined")
    for rule in definition.deck_rules:
        for zone in rule.get("zones", []):
            if zone not in definition.zones:
                raise DefinitionError(f"deck rule {rule.get('check')!r} names unknown zone {zone!r}")
    for fmt_id, fmt in definition.formats.items():
        for name in (fmt.get("options") or {}):
            if name not in definition.options:
                raise DefinitionError(f"format {fmt_id!r} sets unknown rule option {name!r}")
