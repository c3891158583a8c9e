"""The effect vocabulary's and the game's names inside a translated problem: the label a designer
reads first, the internal name after it as secondary text (``造成伤害（damage）``).

A validation problem names the entry's trigger, action, target … as they are written in the card
file (``action is 'fly'; allowed: draw, damage``). On a page in another language each such value
is shown as ``label（name）`` with the labels of the card editor's effect rows
(``workbench.domain.effects.schema.LABELS``); a value the vocabulary does not know (a typo such as
``'fly'``) stays as written. A card field (``strength + resilience is 3800; the budget for degree
6 …``) is shown with its label from the game's ``game.yaml`` the same way.
"""

from __future__ import annotations

import re

from workbench.domain.effects.schema import LABELS

PLACEHOLDER_PARTS = {"action": "actions", "trigger": "triggers", "target": "targets", "zone": "zones"}
"""Placeholders of the problem forms that always hold a name of one part of the vocabulary."""

CODE_PARTS = {  # what ``value``, ``names`` and ``key`` hold in a problem of each code
    "effect.missing_action": "actions", "effect.unknown_action": "actions",
    "effect.missing_trigger": "triggers", "effect.unknown_trigger": "triggers",
    "effect.unknown_target": "targets", "effect.static_target": "targets",
    "effect.unknown_key": "keys", "effect.unknown_duration": "durations", "effect.unknown_side": "sides",
    "effect.unknown_pick": "picks", "effect.unknown_zone": "zones", "effect.missing_zone": "zones",
    "effect.unknown_condition": "conditions",
}
SHORT = {"actions": {"move": "移动卡牌", "choose": "选择一项", "arrange": "排列卡组顶端"},
         "zones": {"deck": "卡组"}}
"""Shorter labels inside a sentence where the editor's own label explains more."""

_QUOTED = re.compile(r"^(['\"])(.*)\1$")


def term(lang: str, part: str, name: str) -> str:
    """``name`` of vocabulary ``part`` as ``label（name）`` in ``lang``, or ``name`` without a label."""
    label = SHORT.get(part, {}).get(name) if lang == "zh" else None
    label = label or LABELS.get(lang, {}).get(part, {}).get(name)
    return f"{label}（{name}）" if label else name


def _one(lang: str, part: str, value: str) -> str:
    quoted = _QUOTED.match(value.strip())
    name = quoted.group(2) if quoted else value.strip()
    shown = term(lang, part, name)
    return value if shown == name else shown


def _many(lang: str, part: str, value: str) -> str:
    names = [n.strip() for n in value.split(",")]
    if not all(names):
        return value
    shown = [_one(lang, part, n) for n in names]
    return "、".join(shown) if lang == "zh" else ", ".join(shown)


FIELD_PLACEHOLDERS = ("field", "by", "parts")
"""Placeholders of the card problems that name fields of the game (``parts``: ``a + b``)."""


def field_term(definition: object, name: str) -> str:
    """Card field ``name`` of ``definition`` as ``Label（name）``, or ``name`` when it has no other label."""
    for kind in getattr(definition, "kinds", {}) or {}:
        try:
            fields = definition.fields_for(kind)  # type: ignore[attr-defined]
        except KeyError:
            continue
        for fdef in fields:
            if fdef.name == name and fdef.label and fdef.label != name:
                return f"{fdef.label}（{name}）"
    return name


ANY_PART = ("keys", "actions", "triggers", "conditions", "costs", "zones", "durations", "targets", "sides",
            "picks", "unless", "filter_states")
"""Where a name in a free value (``if count``, ``speed, trigger``) is looked up, first match wins."""

NOT_NAMES = frozenset({"text", "example", "n", "k", "s", "max", "min", "low", "high", "count", "numbers", "game",
                       "reason", "stuck", "value", "limit", "over", "cost", "step", "chars", "pt", "seconds", "copies",
                       "cards", "total", "label", "check", "card", "zones", "allowed", "deck"})
"""Placeholders that never hold vocabulary names (numbers, sentences, the designer's words)."""

_NEVER = frozenset({"yes", "no", "value", "values", "range", "step", "steps", "nothing", "costs", "name"})
"""Words of the vocabulary's labels that are plain English inside a value ("no costs")."""

_NAME = re.compile(r"(?<![\w'\"（])([a-z][a-z_]+)(?![\w'\"（])")
_FIELD_LISTS = {"effect.unknown_filter"}


def _any_term(lang: str, name: str, definition: object, fields_first: bool) -> str:
    if fields_first and definition is not None:
        shown = field_term(definition, name)
        if shown != name:
            return shown
    for part in ANY_PART:
        shown = term(lang, part, name)
        if shown != name:
            return shown
    return field_term(definition, name) if definition is not None and not fields_first else name


def _names_in(lang: str, value: str, definition: object, fields_first: bool = False) -> str:
    """Every vocabulary name in ``value`` (outside quotes) as ``label（name）``; lists joined by 、."""
    shown = _NAME.sub(lambda m: m.group(1) if m.group(1) in _NEVER else _any_term(lang, m.group(1), definition,
                                                                                      fields_first), value)
    return shown.replace(", ", "、") if lang == "zh" and shown != value else shown


def labelled_values(lang: str, code: str, values: dict[str, str], definition: object = None) -> dict[str, str]:
    """``values`` of a problem with the vocabulary's names, and the fields of ``definition`` (the
    page's game), shown by their labels (see the module). ``code`` ``""``: an engine's reason."""
    out = dict(values)
    if definition is not None and code.startswith("card."):
        for name in FIELD_PLACEHOLDERS:
            if name in out:
                out[name] = " + ".join(field_term(definition, part.strip()) for part in out[name].split(" + "))
        return out
    if not (code.startswith("effect.") or code == ""):
        return out
    part = CODE_PARTS.get(code)
    for name, value in values.items():
        if name in PLACEHOLDER_PARTS:
            out[name] = _one(lang, PLACEHOLDER_PARTS[name], value)
        elif part and name in ("value", "key", "kind"):
            out[name] = _one(lang, part, value)
            if out[name] == value and name == "key":  # "from is 'moon'": the key, not a zone
                out[name] = _names_in(lang, value, definition)
        elif part and name == "names":
            out[name] = _many(lang, part, value)
        elif name == "kind" and definition is not None and code == "":
            kinds = getattr(definition, "kinds", {}) or {}
            label = getattr(kinds.get(value), "label", None)
            out[name] = f"{label}（{value}）" if label and label != value else value
        elif name not in NOT_NAMES:
            out[name] = _names_in(lang, value, definition, fields_first=name in ("names", "keys") and (
                code in _FIELD_LISTS or code == ""))
    return out
