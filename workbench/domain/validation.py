"""Card and deck validation against a game definition.

Card fields are checked by a JSON Schema built from the definition (jsonschema does the type,
range, enum and list checks); this module turns its errors into :class:`Problem` sentences that
name the rule, the actual value and the limit, and adds what a schema cannot say well: soft
limits (warnings), the cost budget, and the declarative deck rules of game.yaml.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

import jsonschema

from workbench.domain.effects import check_effects
from workbench.domain.gamedef import FieldDef, GameDefinition, indefinite_article
from workbench.domain.limits import (
    CARD_SIZE_TEXT,
    LIMIT_TEXT,
    MAX_CARD_VALUES,
    MAX_COPIES,
    card_values_over_cap,
    deck_shape_over_caps,
    shown_count,
)
from workbench.domain.problems import Problem, Severity

Card = Mapping[str, Any]
CardIndex = Mapping[str, Card]

_BASE_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "text": {"type": "string"},
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "boolean": {"type": "boolean"},
    "effects": {"type": "array"},  # each entry is checked by domain.effects, naming "effect N"
    "materials": {"type": "array"},  # checked by domain.effects.materials (RULES.md §3.10.2)
}
_TYPE_WORDS = {
    "string": "text",
    "text": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "list": "a list",
    "effects": "a list of effects",
    "materials": "a list of materials",
}


def resolve_bound(value: Any, options: Mapping[str, Any]) -> Any:
    """A bound from game.yaml: a number, or ``{option: NAME}`` read from ``options``."""
    if isinstance(value, Mapping) and "option" in value:
        return options.get(str(value["option"]))
    return value


def _rule(spec: Mapping[str, Any], fallback: str = "") -> str:
    return str(spec.get("rule", fallback))


def _with_rule(message: str, rule: str) -> str:
    return f"{message} ({rule})" if rule else message


def field_schema(fdef: FieldDef, options: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON Schema of one field with option bounds resolved."""
    spec = fdef.spec
    if fdef.type == "list":
        items = dict(spec.get("items") or {"type": "string"})
        schema: dict[str, Any] = {"type": "array", "items": items}
        if "min_items" in spec:
            schema["minItems"] = resolve_bound(spec["min_items"], options)
        if "max_items" in spec:
            schema["maxItems"] = resolve_bound(spec["max_items"], options)
        if spec.get("unique"):
            schema["uniqueItems"] = True
        return schema
    schema = dict(_BASE_TYPES[fdef.type])
    for key, target in (("minimum", "minimum"), ("maximum", "maximum"), ("max_length", "maxLength")):
        bound = resolve_bound(spec.get(key), options)
        if bound is not None:
            schema[target] = bound
    if "enum" in spec:
        schema["enum"] = list(spec["enum"])
    also = spec.get("also_allowed")
    if also:
        return {"anyOf": [schema, {"enum": list(also)}]}
    return schema


def kind_schema(definition: GameDefinition, kind: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON Schema of a card of ``kind``. Raises KeyError for an unknown kind."""
    fields = definition.fields_for(kind)
    return {
        "type": "object",
        "properties": {f.name: field_schema(f, options) for f in fields},
        "required": [f.name for f in fields if f.required],
    }


@lru_cache(maxsize=256)
def _validator(schema_key: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(schema_key))


# (definition identity, kind, options) -> (definition, validator). The definition is kept in the
# value so its id cannot be reused by another object while the entry lives.
_KIND_VALIDATORS: dict[tuple[int, str, str], tuple[GameDefinition, jsonschema.Draft202012Validator]] = {}


def _kind_validator(
    definition: GameDefinition, kind: str, options: Mapping[str, Any]
) -> jsonschema.Draft202012Validator:
    key = (id(definition), kind, repr(sorted(options.items(), key=lambda kv: kv[0])))
    cached = _KIND_VALIDATORS.get(key)
    if cached is not None and cached[0] is definition:
        return cached[1]
    if len(_KIND_VALIDATORS) > 512:
        _KIND_VALIDATORS.clear()
    schema = kind_schema(definition, kind, options)
    validator = _validator(json.dumps(schema, sort_keys=True, default=str))
    _KIND_VALIDATORS[key] = (definition, validator)
    return validator


def _describe_limit(error: jsonschema.ValidationError, fdef: FieldDef) -> tuple[str, Any]:
    validator = error.validator
    value = error.validator_value
    if validator == "minimum":
        return f"the minimum is {value}", value
    if validator == "maximum":
        return f"the maximum is {value}", value
    if validator == "maxLength":
        return f"the limit is {value} characters", value
    if validator == "enum" and isinstance(value, list):  # always a list: the schema went through JSON
        return "allowed: " + ", ".join(str(v) for v in value), value
    if validator == "minItems":
        return f"at least {value} needed", value
    if validator == "maxItems":
        return f"at most {value} allowed", value
    if validator == "uniqueItems":
        return "values must not repeat", None
    if validator == "anyOf" and fdef.spec.get("also_allowed"):
        # Report the inner failure of the main alternative, which is the informative one.
        inner = [e for e in error.context or [] if e.validator != "enum" or e.relative_schema_path[0] == 0]
        if inner:
            return _describe_limit(inner[0], fdef)
    if validator == "type":
        also = fdef.spec.get("also_allowed") or []
        extra = "".join(f" or {a}" for a in also)
        return f"it must be {_TYPE_WORDS.get(fdef.type, fdef.type)}{extra}", None
    return error.message, value


def _shown(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def validate_card(
    definition: GameDefinition,
    card: Card,
    card_id: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Problem]:
    """Check one card against its kind's fields, soft limits and the cost budget.

    Returns problems (errors and warnings); never raises for bad card data.
    """
    opts = dict(definition.default_options())
    opts.update(options or {})
    problems: list[Problem] = []

    def add(severity: Severity, code: str, message: str, rule: str = "", **kw: Any) -> None:
        problems.append(
            Problem(severity, code, _with_rule(message, rule), rule, "card", card_id, **kw)
        )

    if not isinstance(card, Mapping):
        add("error", "card.shape", "a card must be a mapping of field names to values")
        return problems
    if card_values_over_cap(card):  # checked before any field: each would cost time and a problem
        add("error", "card.too_large", f"the card is too large: {CARD_SIZE_TEXT}",
            limit=MAX_CARD_VALUES)
        return problems
    kind = card.get("kind")
    if kind not in definition.kinds:
        allowed = ", ".join(definition.kinds)
        add("error", "card.kind", f"kind is {_shown(kind)}; allowed: {allowed}", field="kind",
            actual=kind, limit=list(definition.kinds))
        return problems
    fields = {f.name: f for f in definition.fields_for(str(kind))}
    validator = _kind_validator(definition, str(kind), opts)
    for error in sorted(validator.iter_errors(dict(card)), key=lambda e: list(e.absolute_path)):
        if error.validator == "required":
            missing = error.message.split("'")[1] if "'" in error.message else "?"
            fdef = fields.get(missing)
            rule = _rule(fdef.spec) if fdef else ""
            add("error", "card.required", f"{fdef.label if fdef else missing} is required", rule,
                field=missing)
            continue
        path = list(error.absolute_path)
        name = str(path[0]) if path else "?"
        fdef = fields.get(name)
        if fdef is None:
            continue
        value = card.get(name)
        limit_text, limit = _describe_limit(error, fdef)
        shown_value = value if len(path) == 1 else error.instance
        code = {"minimum": "card.minimum", "maximum": "card.maximum", "enum": "card.enum",
                "maxLength": "card.max_length", "type": "card.type", "minItems": "card.min_items",
                "maxItems": "card.max_items", "uniqueItems": "card.unique"}.get(
                    str(error.validator), f"card.{error.validator}")
        if error.validator == "anyOf":
            code = "card.maximum" if "maximum" in limit_text else (
                "card.minimum" if "minimum" in limit_text else "card.type")
        what = fdef.label if len(path) == 1 else f"{fdef.label} entry {path[1]}"
        add("error", code, f"{what} is {_shown(shown_value)}; {limit_text}", _rule(fdef.spec),
            field=name, actual=shown_value, limit=limit)
    _check_conditions(card, fields, add)
    _check_multiples(card, fields, opts, add)
    for fdef in fields.values():
        if fdef.type == "effects" and card.get(fdef.name) is not None:
            check_effects(card[fdef.name], stat_names(definition), fdef.name, add,
                          x_cost=card.get("cost") == "X", filter_keys=filter_keys(definition))
    _check_materials(definition, card, fields, add)
    for name in card:
        if name not in fields and name != "kind":
            known = name in definition.field_names()
            message = (f"field {name!r} does not belong to a {definition.kinds[str(kind)].label} card"
                       if known else f"field {name!r} is not part of the {definition.name} card format; it is kept but not used")
            add("warning", "card.unknown_field", message, field=name)
    problems.extend(check_budget(definition, card, card_id, opts))
    return problems


def _check_materials(definition: GameDefinition, card: Card, fields: Mapping[str, FieldDef], add: Any) -> None:
    """A ``materials`` field reads as materials; an extra-deck creature has them (§3.10.2)."""
    from workbench.domain.effects.materials import RULE as MATERIALS_RULE
    from workbench.domain.effects.materials import read_materials

    for fdef in fields.values():
        if fdef.type != "materials":
            continue
        rule = _rule(fdef.spec, MATERIALS_RULE)
        raw = card.get(fdef.name)
        if raw is not None:
            for code, message, actual, limit in read_materials(raw, filter_keys(definition))[1]:
                add("error", code, message, rule, field=fdef.name, actual=actual, limit=limit)
        extra = card.get("extra") is True
        if extra and raw is None:
            add("warning", "card.no_materials", f"{card.get('name', 'this card')} is an extra-deck creature "
                f"without {fdef.label}: nothing can fusion summon it", rule, field=fdef.name)
        elif raw is not None and "extra" in fields and not extra:
            add("warning", "card.materials_unused", f"{fdef.label} only apply to an extra-deck creature "
                "(extra: true)", rule, field=fdef.name)


_NOT_FILTERS = frozenset({"art", "flavor", "text", "text_en", "effects", "number", "materials"})


def filter_keys(definition: GameDefinition) -> frozenset[str]:
    """The names an effect ``filter`` may use: the game's card fields (not pictures or texts)
    and the states of a card in play (docs/effects.md)."""
    from workbench.domain.effects.vocabulary import FILTER_STATES

    return frozenset(definition.field_names() - _NOT_FILTERS) | frozenset(FILTER_STATES)


def stat_names(definition: GameDefinition) -> frozenset[str]:
    """The numeric stats ``modify_stats`` may change: fields marked ``stat: true`` in game.yaml
    (any kind), else every integer field."""
    every = list(definition.common_fields) + [f for k in definition.kinds.values() for f in k.fields]
    marked = {f.name for f in every if f.spec.get("stat")}
    return frozenset(marked or {f.name for f in every if f.type in ("integer", "number")})


def _check_conditions(card: Card, fields: Mapping[str, FieldDef], add: Any) -> None:
    for fdef in fields.values():
        for key, must_have in (("required_when", True), ("forbidden_when", False)):
            condition = fdef.spec.get(key)
            if not condition:
                continue
            applies = all(card.get(f) in list(vals) for f, vals in condition.items())
            present = card.get(fdef.name) not in (None, "", [])
            if applies and must_have and not present:
                why = ", ".join(f"{f} is {card.get(f)}" for f in condition)
                add("error", "card.required", f"{fdef.label} is required when {why}",
                    _rule(fdef.spec), field=fdef.name)
            if applies and not must_have and present:
                why = ", ".join(f"{f} is {card.get(f)}" for f in condition)
                add("error", "card.forbidden", f"{fdef.label} must be empty when {why}",
                    _rule(fdef.spec), field=fdef.name, actual=card.get(fdef.name))


def _check_multiples(card: Card, fields: Mapping[str, FieldDef], opts: Mapping[str, Any], add: Any) -> None:
    for fdef in fields.values():
        spec = fdef.spec.get("multiple_of")
        value = card.get(fdef.name)
        if not spec or not isinstance(value, int) or isinstance(value, bool):
            continue
        step = resolve_bound(spec.get("value", spec), opts)
        if isinstance(step, int) and step > 0 and value % step:
            add(spec.get("severity", "error"), "card.multiple_of",
                f"{fdef.label} is {value}; it should be a multiple of {step}",
                str(spec.get("rule", _rule(fdef.spec))), field=fdef.name, actual=value, limit=step)


def budget_limit(definition: GameDefinition, card: Card) -> tuple[int, int] | None:
    """(cost, limit) of a card under the game's cost budget, or None when it does not apply."""
    budget = definition.budget
    if not budget or card.get("kind") not in budget.get("kinds", list(definition.kinds)):
        return None
    by_value = card.get(str(budget["by"]))
    parts = [card.get(str(f)) for f in budget["sum"]]
    if not isinstance(by_value, int) or isinstance(by_value, bool):
        return None
    numbers = [p for p in parts if isinstance(p, int) and not isinstance(p, bool)]
    if len(numbers) != len(parts):
        return None
    table = budget.get("table")
    if table:
        limit = table.get(by_value, table.get(str(by_value)))
        if limit is None:
            return None
    else:
        limit = int(budget.get("base", 0)) + int(budget.get("per_step", 0)) * by_value
    return sum(numbers), int(limit)


def check_budget(
    definition: GameDefinition, card: Card, card_id: str | None, options: Mapping[str, Any]
) -> list[Problem]:
    """A warning when the card's stats exceed the game's cost budget, saying by how much."""
    found = budget_limit(definition, card)
    if not found:
        return []
    cost, limit = found
    if cost <= limit:
        return []
    budget = definition.budget or {}
    parts = " + ".join(str(f) for f in budget["sum"])
    rule = str(budget.get("rule", "budget"))
    message = (f"{parts} is {cost}; the budget for {budget['by']} {card.get(budget['by'])} is "
               f"{limit}, over by {cost - limit}")
    return [Problem("warning", "card.budget", _with_rule(message, rule), rule, "card", card_id,
                    field=str(budget["sum"][0]), actual=cost, limit=limit)]


# ---------------------------------------------------------------- decks


def validate_deck(
    definition: GameDefinition,
    deck: Mapping[str, Any],
    cards: CardIndex,
    deck_id: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Problem]:
    """Check a deck against the game's zones and deck rules.

    ``cards`` maps card ids to card data. The deck's ``format`` (if any) selects option values;
    explicit ``options`` override them. Returns problems; never raises for bad deck data.
    """
    problems: list[Problem] = []

    def add(severity: Severity, code: str, message: str, rule: str = "", **kw: Any) -> None:
        problems.append(Problem(severity, code, _with_rule(message, rule), rule, "deck",
                                deck=deck_id, **kw))

    if not isinstance(deck, Mapping):
        add("error", "deck.shape", "a deck must be a mapping with a 'zones' mapping")
        return problems
    opts = definition.default_options()
    fmt = deck.get("format")
    if fmt:
        if fmt in definition.formats:
            opts.update(definition.formats[fmt].get("options") or {})
        else:
            add("error", "deck.format", f"format {_shown(fmt)} does not exist; formats: "
                f"{', '.join(definition.formats) or 'none'}", field="format", actual=fmt)
    opts.update(options or {})
    zones_raw = deck.get("zones") or {}
    if not isinstance(zones_raw, Mapping):
        add("error", "deck.shape", "zones must be a mapping of zone names to card counts", field="zones")
        return problems
    too_many = deck_shape_over_caps(zones_raw)
    if too_many is not None:  # one problem, not one per entry
        add("error", "deck.too_large", too_many, field="zones")
        return problems
    entries: dict[str, list[tuple[str, int, Card]]] = {z: [] for z in definition.zones}
    wrong_zone: set[tuple[str, str]] = set()  # (zone, card) already reported as not belonging there
    for zone_id, content in zones_raw.items():
        if zone_id not in definition.zones:
            add("error", "deck.unknown_zone", f"zone {_shown(zone_id)} does not exist in "
                f"{definition.name}; zones: {', '.join(definition.zones)}", zone=str(zone_id))
            continue
        zone = definition.zones[zone_id]
        if content is None:
            continue
        if not isinstance(content, Mapping):
            add("error", "deck.shape", f"zone {zone_id} must map card ids to counts", zone=zone_id)
            continue
        for card_id, count in content.items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                add("error", "deck.count", f"{card_id} in {zone.label} has count {_shown(count)}; "
                    "a count is a whole number of at least 1", zone=zone_id, card=str(card_id),
                    actual=count, limit=1)
                continue
            if count > MAX_COPIES:
                add("error", "deck.count", f"{card_id} in {zone.label} has {shown_count(count)} copies; {LIMIT_TEXT}",
                    zone=zone_id, card=str(card_id), actual=count, limit=MAX_COPIES)
                continue
            card = cards.get(str(card_id))
            if card is None:
                add("error", "deck.unknown_card", f"card {_shown(card_id)} in {zone.label} does not exist",
                    zone=zone_id, card=str(card_id))
                continue
            misplaced = card.get("kind") not in zone.kinds
            if misplaced:
                kind = definition.kinds.get(str(card.get("kind")))
                kind_text = str(kind.label if kind else card.get("kind"))
                allowed = ", ".join(definition.kinds[k].label for k in zone.kinds)
                add("error", "deck.zone_kind",
                    f"{card.get('name', card_id)} is {indefinite_article(kind_text)} {kind_text} card; "
                    f"{zone.label} takes only {allowed}",
                    str(zone.spec.get("kind_rule", zone.spec.get("rule", ""))), zone=zone_id,
                    card=str(card_id), actual=card.get("kind"), limit=list(zone.kinds))
            for field, wanted in (zone.spec.get("cards_with") or {}).items() if not misplaced else ():
                misplaced |= _check_zone_field(definition, zone, card, str(card_id), str(field), wanted, add)
            if misplaced:
                wrong_zone.add((zone_id, str(card_id)))
            if any(p.is_error for p in validate_card(definition, card, str(card_id), opts)):
                add("error", "deck.card_invalid",
                    f"{card.get('name', card_id)} breaks a card rule; fix the card first",
                    zone=zone_id, card=str(card_id))
            entries[zone_id].append((str(card_id), count, card))
    for zone_id, zone in definition.zones.items():
        _check_zone_size(zone, sum(c for _, c, _ in entries[zone_id]), opts, add)
    for rule in definition.deck_rules:
        _check_deck_rule(definition, rule, entries, opts, add, wrong_zone)
    return problems


def _check_zone_field(definition: GameDefinition, zone: Any, card: Card, card_id: str, field: str,
                      wanted: Any, add: Any) -> bool:
    """Report an error and return True when ``card`` lacks the value zone ``cards_with`` asks of
    ``field``.

    A field the card does not set counts as false for a boolean (fusion's ``extra``): an
    extra-deck creature in the main deck, or a plain creature in the extra deck, would otherwise be
    moved or ignored by the engine without a word (RULES.md §3.10.2).
    """
    value = card.get(field)
    if value is None and isinstance(wanted, bool):
        value = False
    if value == wanted:
        return False
    kind = str(card.get("kind"))
    fdef = next((f for f in definition.fields_for(kind) if f.name == field), None) if kind in definition.kinds else None
    label = fdef.label if fdef else field
    add("error", "deck.zone_field",
        f"{card.get('name', card_id)} has {label}: {_yes_no(value)}; {zone.label} takes only cards "
        f"with {label}: {_yes_no(wanted)}",
        str(zone.spec.get("cards_with_rule", zone.spec.get("rule", ""))), zone=zone.id, card=card_id,
        field=field, actual=value, limit=wanted)
    return True


def _yes_no(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return _shown(value)


def _check_zone_size(zone: Any, total: int, opts: Mapping[str, Any], add: Any) -> None:
    spec = zone.spec
    rule = str(spec.get("rule", ""))
    exactly = resolve_bound(spec.get("exactly"), opts)
    low = resolve_bound(spec.get("min"), opts)
    high = resolve_bound(spec.get("max"), opts)
    noun = "card" if total == 1 else "cards"
    if exactly is not None and total != exactly:
        add("error", "deck.zone_exact", f"{zone.label} has {total} {noun}; it must have exactly {exactly}",
            rule, zone=zone.id, actual=total, limit=exactly)
        return
    if low is not None and total < low:
        add("error", "deck.zone_min", f"{zone.label} has {total} {noun}; the minimum is {low}",
            rule, zone=zone.id, actual=total, limit=low)
    if high is not None and total > high:
        add("error", "deck.zone_max", f"{zone.label} has {total} {noun}; the maximum is {high}",
            rule, zone=zone.id, actual=total, limit=high)


def _check_deck_rule(
    definition: GameDefinition,
    rule: Mapping[str, Any],
    entries: Mapping[str, list[tuple[str, int, Card]]],
    opts: Mapping[str, Any],
    add: Any,
    wrong_zone: AbstractSet[tuple[str, str]] = frozenset(),
) -> None:
    check = rule["check"]
    zones = list(rule.get("zones") or definition.zones)
    ref = str(rule.get("rule", ""))
    limit = resolve_bound(rule.get("limit"), opts)
    severity = str(rule.get("severity", "error"))
    in_scope = [e for z in zones for e in entries.get(z, [])]
    where_zones = " + ".join(definition.zones[z].label for z in zones)
    if check == "extra_summonable":
        sources = [e for z in (rule.get("from") or [z for z in definition.zones if z not in zones])
                   for e in entries.get(z, [])]
        # a card already reported as not belonging in the extra deck is not asked about its materials
        placed = [e for z in zones for e in entries.get(z, []) if (z, e[0]) not in wrong_zone]
        _check_extra_summonable(definition, placed, sources, opts, ref, severity, where_zones, zones[0], add)
        return
    if limit is None:
        return  # the option is switched off (e.g. seth max_copies: null)
    if check == "max_copies":
        by_name: Counter[str] = Counter()
        for _, count, card in in_scope:
            by_name[str(card.get("name", ""))] += count
        for name, count in sorted(by_name.items()):
            if count > limit:
                add(severity, "deck.max_copies", f"{name} has {count} copies across {where_zones}; "
                    f"the maximum is {limit}", ref, actual=count, limit=limit)
    elif check == "max_matching":
        where = rule.get("where") or {}
        total = sum(c for _, c, card in in_scope if all(card.get(k) == v for k, v in where.items()))
        label = str(rule.get("label", " and ".join(f"{k}={v}" for k, v in where.items())))
        if total > limit:
            add(severity, "deck.max_matching", f"{total} {label} cards across {where_zones}; "
                f"the maximum is {limit}", ref, actual=total, limit=limit)
    elif check == "total_below":
        fname = str(rule["field"])
        total = sum(c * int(card.get(fname) or 0) for _, c, card in in_scope
                    if isinstance(card.get(fname), int))
        strict = bool(rule.get("strict", True))
        label = str(rule.get("label", f"total {fname}"))
        if (total >= limit) if strict else (total > limit):
            bound = f"it must be less than {limit}" if strict else f"the maximum is {limit}"
            add(severity, "deck.total_limit", f"{label} is {total}; {bound}", ref,
                field=fname, actual=total, limit=limit)
    else:
        add("warning", "deck.unknown_rule", f"game.yaml has a deck rule {check!r} the workbench does not know")


def _check_extra_summonable(definition: GameDefinition, extra: list[tuple[str, int, Card]],
                            sources: list[tuple[str, int, Card]], opts: Mapping[str, Any], ref: str,
                            severity: str, where: str, zone: str, add: Any) -> None:
    """A warning naming the extra-deck creatures the deck cannot bring out (RULES.md §3.10.2): no
    materials, no card of the deck whose ``fusion_summon`` effect reaches them (unless option
    ``extra_deck_summon`` is ``materials_in_main``), or materials the other zones do not hold."""
    from workbench.domain.effects.filters import read_filter
    from workbench.domain.effects.materials import read_materials, static_match

    keys = filter_keys(definition)
    reach: list[Any] = []  # the filters of the deck's fusion_summon effects (None: any creature)
    for _, _, card in sources:
        for entry in card.get("effects") or []:
            if isinstance(entry, Mapping) and entry.get("action") == "fusion_summon":
                reach.append(read_filter(entry["filter"], keys)[0] if "filter" in entry else None)
    in_main = opts.get("extra_deck_summon") == "materials_in_main"
    stuck: list[str] = []
    for card_id, _, card in extra:
        name = f"{card.get('name', card_id)} ({card_id})"
        needs = read_materials(card["materials"], keys)[0] if card.get("materials") is not None else ()
        if not needs:
            stuck.append(f"{name}: it has no materials")
        elif not in_main and not any(f is None or static_match(f, card) for f in reach):
            stuck.append(f"{name}: no card of the deck fusion summons it")
        else:
            lacking = [need for need in needs
                       if sum(n for _, n, c in sources if static_match(need[0], c)) < need[1]]
            if lacking:
                words = ", ".join(" and ".join(f"{t.key} {'/'.join(map(str, sorted(t.values, key=str)))}"
                                               if t.values is not None else t.key for t in f.tests
                                               if not (t.key == "kind" and t.values == {"creature"}))
                                  or "creature" for f, _ in lacking)
                stuck.append(f"{name}: the deck holds too few of its materials ({words})")
    if stuck:
        add(severity, "deck.extra_unsummonable",
            f"{where} holds creatures the deck cannot bring out — " + "; ".join(stuck), ref,
            zone=zone, actual=[s.split(" (")[0] for s in stuck])
