"""Playtest reports and the game table in the reader's language.

The domain and the services write what happened as codes and values: an agent name, an early
stop's ``verdict`` (``better`` / ``worse`` / ``equal``), the card columns' keys, an action's
``kind`` and ``args``, a problem's ``code``. Their English sentences (a stored run's end reasons,
``first_player.message``, the stop rule's ``reason``) are kept as they are for the JSON answers,
the CLI and English pages. This module renders them with gettext, so a Chinese page reads Chinese
and an English page reads exactly the English the domain wrote.

End reasons are sentences of the engines (``"P2 has -4 life (§3.1.4)"``), stored in every run
file: each known form is a pattern here with its values as named groups, translated with its
values put back; a reason of an engine this table does not know is shown as the engine wrote it.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from flask import Flask
from flask_babel import get_locale, gettext, ngettext

from workbench.web.ui import N_

# ------------------------------------------------------------------ players (agents)

AGENT_NAMES = {"random": N_("random"), "heuristic": N_("heuristic"), "montecarlo": N_("Monte Carlo"),
               "search": N_("strong (search)")}
"""How the pages name the agent kinds (the domain's ``AGENT_LABELS``, translated)."""


def agent_label(name: Any) -> str:
    """An agent kind in words (``search:64``: the strong player with 64 iterations)."""
    text = str(name)
    base, _, budget = text.partition(":")
    label = gettext(AGENT_NAMES[base]) if base in AGENT_NAMES else base
    return gettext("%(player)s, %(n)s iterations", player=label, n=budget) if budget else label


def _english() -> bool:
    return str(get_locale() or "en").startswith("en")


# ------------------------------------------------------------------ end reasons

_WHO = r"(?P<who>P\d+|a player|.+?)"
END_REASONS: list[tuple[re.Pattern[str], str]] = [
    # fusion (RULES.md §3)
    (re.compile(rf"^{_WHO} has (?P<n>-?\d+) life (?P<rule>\(§[\d.]+\))$"), N_("%(who)s has %(n)s life %(rule)s")),
    (re.compile(r"^a player's life fell to 0 or below (?P<rule>\(§[\d.]+\))$"),
     N_("a player's life fell to 0 or below %(rule)s")),
    (re.compile(rf"^{_WHO} must draw from an empty deck (?P<rule>\(§[\d.]+\))$"),
     N_("%(who)s must draw from an empty deck %(rule)s")),
    (re.compile(r"^the last player left wins (?P<rule>\(§[\d.]+\))$"), N_("the last player left wins %(rule)s")),
    (re.compile(r"^the last players dropped out at once and share first place (?P<rule>\(§[\d.]+\))$"),
     N_("the last players dropped out at once and share first place %(rule)s")),
    (re.compile(r"^(?P<list>P\d+ has -?\d+ life(?:, P\d+ has -?\d+ life)+) (?P<rule>\(§[\d.]+\))$"),
     N_("%(list)s %(rule)s")),
    (re.compile(r"^both players reached 0 life at once (?P<rule>\(§[\d.]+\))$"),
     N_("both players reached 0 life at once %(rule)s")),
    (re.compile(r"^turn limit (?P<n>\d+) reached \(engine safety limit\)$"),
     N_("turn limit %(n)s reached (engine safety limit)")),
    (re.compile(r"^the turn limit was reached \(engine safety limit\)$"),
     N_("the turn limit was reached (engine safety limit)")),
    # warzone (RULES.md §1)
    (re.compile(rf"^{_WHO} has (?P<n>-?\d+) Life Points (?P<rule>\(§[\d.]+\))$"),
     N_("%(who)s has %(n)s Life Points %(rule)s")),
    (re.compile(r"^a player's Life Points fell to 0 or below (?P<rule>\(§[\d.]+\))$"),
     N_("a player's Life Points fell to 0 or below %(rule)s")),
    (re.compile(rf"^{_WHO} has (?P<n>\d+) cards in the Damage Pile (?P<rule>\(§[\d.]+\))$"),
     N_("%(who)s has %(n)s cards in the Damage Pile %(rule)s")),
    (re.compile(r"^a player's Damage Pile reached its limit (?P<rule>\(§[\d.]+\))$"),
     N_("a player's Damage Pile reached its limit %(rule)s")),
    (re.compile(rf"^{_WHO} must take a card from an empty deck (?P<rule>\(§[\d.]+\))$"),
     N_("%(who)s must take a card from an empty deck %(rule)s")),
    (re.compile(r"^draw: both lose at once \((?P<first>.+); (?P<second>.+)\) (?P<rule>\(§[\d.]+\))$"),
     N_("draw: both lose at once (%(first)s; %(second)s) %(rule)s")),
    # seth (RULES.md §2)
    (re.compile(r"^round limit of (?P<n>\w+) reached: a draw (?P<rule>\(§[\d.]+\))$"),
     N_("round limit of %(n)s reached: a draw %(rule)s")),
    (re.compile(r"^the round limit was reached: a draw (?P<rule>\(§[\d.]+\))$"),
     N_("the round limit was reached: a draw %(rule)s")),
    (re.compile(r"^both teams were removed at once: a draw (?P<rule>\(§[\d.]+\))$"),
     N_("both teams were removed at once: a draw %(rule)s")),
    (re.compile(rf"^all of {_WHO}'s monsters were removed: (?P<winner>P\d+|a player|.+?) wins (?P<rule>\(§[\d.]+\))$"),
     N_("all of %(who)s's monsters were removed: %(winner)s wins %(rule)s")),
    (re.compile(r"^unknown$"), N_("unknown")),
]
"""Each end reason an engine writes (as a game's record keeps it, and as a report counts it with
``stats.reason_key``), with its translation."""

_NESTED = ("first", "second")
_PEOPLE = {"a player": N_("a player")}


def end_reason(reason: Any) -> str:
    """An engine's end reason in the reader's language (unchanged in English, or when unknown)."""
    text = str(reason or "")
    if _english():
        return text
    for pattern, message in END_REASONS:
        m = pattern.match(text)
        if m:
            values = m.groupdict()
            for key in ("who", "winner"):
                if values.get(key) in _PEOPLE:
                    values[key] = gettext(_PEOPLE[values[key]])
            for key in _NESTED:
                if key in values:
                    values[key] = end_reason(values[key])
            if "list" in values:  # several players out at once: "P2 has 0 life, P3 has -1 life"
                values["list"] = gettext(", ").join(
                    gettext("%(who)s has %(n)s life", who=w, n=n)
                    for w, n in re.findall(r"(P\d+) has (-?\d+) life", values["list"]))
            return gettext(message, **values)
    return text


# ------------------------------------------------------------------ playtest reports

VERDICTS = {"better": N_("deck A is better"), "worse": N_("deck A is worse"),
            "equal": N_("deck A and deck B are equal (no difference as large as the margin)")}
STOP_RULES = {"IntervalRule": N_("95% interval"), "SPRT": N_("sequential test (GSPRT)")}

CARD_COLUMN_LABELS = {"opening": N_("Opening hand"), "drawn": N_("Drawn"), "not_drawn": N_("Not drawn"),
                      "played": N_("Played"), "improvement_when_drawn": N_("Improvement when drawn")}
CARD_COLUMN_TEXTS = {
    "opening": N_("Win rate in games where the card was in the kept opening hand (mulliganed hands do not count). "
                  "Association only: a card in the opening hand is also a card the player kept."),
    "drawn": N_("Win rate in games where the card was drawn at any point (opening hand included). Longer games draw "
                "more cards, so cards look better or worse with game length, not only with their strength."),
    "not_drawn": N_("Win rate in games where the card was never drawn. Short games (often quick wins or losses) "
                    "fill this column."),
    "played": N_("Win rate in games where the card was played. Players play more cards when ahead: association."),
    "improvement_when_drawn": N_("Drawn minus not drawn (17lands' IWD), with a 95 % interval. Shows association, "
                                 "not cause; the balance report (workbench balance) measures cause by swapping the card."),
}
"""The card table's columns (``workbench.domain.tally.CARD_COLUMNS``, whose English is the same)."""

FACT_LABELS = {"dealt_damage": (N_("Dealt damage"), N_("Not dealt damage")),
               "took_damage": (N_("Took damage"), N_("Not took damage")),
               "removed_first": (N_("Removed first"), N_("Not removed first")),
               "survived": (N_("Survived"), N_("Not survived"))}
FACT_TEXTS = {
    "dealt_damage": N_("it was assigned at least once with Damage above 0 (its Damage went into an attack)"),
    "took_damage": N_("it had damage on it at the end, or was removed"),
    "removed_first": N_("it was the first monster of its team to be removed (monsters removed together share it)"),
    "survived": N_("it was still in play at the end of the game"),
}
"""Seth's per-card facts (``workbench.domain.tally.FACT_COLUMNS``)."""


def verdict_text(verdict: Any) -> str:
    key = str(verdict)
    return gettext(VERDICTS[key]) if key in VERDICTS else key


def stop_rule_label(rule: Any) -> str:
    key = str(rule)
    return gettext(STOP_RULES[key]) if key in STOP_RULES else key


_STOP_REASONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^95% interval (?P<low>[\d.]+)–(?P<high>[\d.]+) lies above (?P<bound>[\d.]+)$"),
     N_("95%% interval %(low)s–%(high)s lies above %(bound)s")),
    (re.compile(r"^95% interval (?P<low>[\d.]+)–(?P<high>[\d.]+) lies below (?P<bound>[\d.]+)$"),
     N_("95%% interval %(low)s–%(high)s lies below %(bound)s")),
    (re.compile(r"^95% interval (?P<low>[\d.]+)–(?P<high>[\d.]+) lies within 0\.5 ± (?P<margin>[\d.]+)$"),
     N_("95%% interval %(low)s–%(high)s lies within 0.5 ± %(margin)s")),
    (re.compile(r"^GSPRT on pairs: log-likelihood ratio for (?P<sign>[+−])(?P<margin>[\d.]+) is (?P<llr>-?[\d.]+) ≥ (?P<bound>-?[\d.]+)$"),
     N_("GSPRT on pairs: log-likelihood ratio for %(sign)s%(margin)s is %(llr)s ≥ %(bound)s")),
    (re.compile(r"^GSPRT on pairs: both log-likelihood ratios \((?P<up>-?[\d.]+), (?P<down>-?[\d.]+)\) ≤ (?P<bound>-?[\d.]+): no difference of ±(?P<margin>[\d.]+)$"),
     N_("GSPRT on pairs: both log-likelihood ratios (%(up)s, %(down)s) ≤ %(bound)s: no difference of ±%(margin)s")),
    (re.compile(r"^no verdict before the last game$"), N_("no verdict before the last game")),
]


def stop_reason_text(stop: Any) -> str:
    """Why an early stop stopped (``early_stop.reason``, the stop rule's sentence), translated."""
    text = str((stop or {}).get("reason", "") if isinstance(stop, Mapping) else stop)
    if _english():
        return text
    for pattern, message in _STOP_REASONS:
        m = pattern.match(text)
        if m:
            return gettext(message, **m.groupdict())
    return text


def first_player_text(report: Any) -> str:
    """The report's warning when the first player is favoured: the stored sentence in English
    (``tally._first_message``), translated from the figures otherwise."""
    first = report.get("first_player") or {}
    if _english():
        return str(first.get("message") or "").capitalize() + "."
    rate = report["first_player_win_rate"]
    value = float(rate["value"])
    low, high = rate["ci95"]
    figures = {"rate": f"{100 * value:.1f}", "low": f"{100 * low:.1f}", "high": f"{100 * high:.1f}"}
    if value > 0.5:
        return gettext("The player who moves first wins %(rate)s %% (%(low)s–%(high)s): consider a rule change "
                       "that evens it out, such as a smaller opening hand or no attack on the first turn for the "
                       "first player, or an extra card or resource for the second.", **figures)
    return gettext("The player who moves first wins %(rate)s %% (%(low)s–%(high)s): moving second is the edge; "
                   "consider a rule change that evens it out, such as a smaller opening hand or no attack on the "
                   "first turn for the first player, or an extra card or resource for the second.", **figures)


def card_column_label(key: Any) -> str:
    return gettext(CARD_COLUMN_LABELS[key]) if key in CARD_COLUMN_LABELS else str(key)


def card_column_text(key: Any, stored: Any = "") -> str:
    """A card column's explanation: the report's own sentence in English, else the translation."""
    if (_english() and stored) or key not in CARD_COLUMN_TEXTS:
        return str(stored or key)
    return gettext(CARD_COLUMN_TEXTS[key])


def fact_label(fact: Any, negated: bool = False) -> str:
    if fact in FACT_LABELS:
        return gettext(FACT_LABELS[fact][1 if negated else 0])
    words = str(fact).replace("_", " ")
    return f"Not {words}" if negated else words.capitalize()


def fact_text(fact: Any, stored: Any = "") -> str:
    if (_english() and stored) or fact not in FACT_TEXTS:
        return str(stored or fact)
    return gettext(FACT_TEXTS[fact])


def _by_pattern(table: list[tuple[re.Pattern[str], str]], text: str) -> str:
    if _english():
        return text
    for pattern, message in table:
        m = pattern.match(text)
        if m:
            return gettext(message, **{k: v or "" for k, v in m.groupdict().items()})
    return text


_BASELINES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^the game's vanilla (?P<kind>\S+) card (?P<name>.+) \(game\.yaml balance\.vanilla\)$"),
     N_("the game's vanilla %(kind)s card %(name)s (game.yaml balance.vanilla)")),
    (re.compile(r"^a blank (?P<kind>\S+): the card's other fields, the average stats of the game's (?P<n>\d+) \S+ cards "
                r"with (?P<cost>\S+) (?P<value>\S+) \((?P<stats>.*)\), no text, keywords or effects$"),
     N_("a blank %(kind)s: the card's other fields, the average stats of the game's %(n)s %(kind)s cards with "
        "%(cost)s %(value)s (%(stats)s), no text, keywords or effects")),
    (re.compile(r"^a blank (?P<kind>\S+): the card's other fields, the average stats of the game's (?P<n>\d+) \S+ cards "
                r"\((?P<stats>.*)\), no text, keywords or effects$"),
     N_("a blank %(kind)s: the card's other fields, the average stats of the game's %(n)s %(kind)s cards "
        "(%(stats)s), no text, keywords or effects")),
]
_KEEP_RULES = [(re.compile(r"^keep with at least (?P<n>\d+) (?P<kind>\S+) card\(s\)$"),
                N_("keep with at least %(n)s %(kind)s card(s)"))]
RUN_KINDS = {"matchup": N_("playtest"), "task": N_("task"), "gauntlet": N_("gauntlet"), "balance": N_("balance report"),
             "variants": N_("variant comparison")}


def baseline_text(text: Any, definition: Any = None) -> str:
    """What stood in for a card in the balance report (``balance.baseline_card``'s sentence), with
    the kind's and the fields' labels of ``definition`` for their ids in other languages."""
    text = str(text or "")
    if _english():
        return text
    for pattern, message in _BASELINES:
        m = pattern.match(text)
        if m:
            values = {k: v or "" for k, v in m.groupdict().items()}
            if definition is not None:
                values["kind"] = _kind_label(definition, values.get("kind", ""))
                values["cost"] = _field_label(definition, values.get("cost", ""))
                if values.get("stats") == "none":
                    values["stats"] = gettext("none")
                elif values.get("stats"):
                    values["stats"] = gettext(", ").join(
                        " ".join([_field_label(definition, part.split(" ")[0]), *part.split(" ")[1:]])
                        for part in values["stats"].split(", "))
            return gettext(message, **values)
    return text


def _kind_label(definition: Any, kind: str) -> str:
    spec = definition.kinds.get(kind) if hasattr(definition, "kinds") else None
    label = getattr(spec, "label", None) if spec is not None else None
    return str(label or kind)


def _field_label(definition: Any, name: str) -> str:
    for fdef in getattr(definition, "common_fields", ()) or ():
        if fdef.name == name:
            return str(fdef.label or name)
    for kind in getattr(definition, "kinds", {}) or {}:
        try:
            for fdef in definition.fields_for(kind):
                if fdef.name == name:
                    return str(fdef.label or name)
        except KeyError:
            continue
    return name


PAIR_OUTCOMES = {"lost both": N_("lost both"), "lost one, drew one": N_("lost one, drew one"),
                 "one each (or two draws)": N_("one each (or two draws)"),
                 "won one, drew one": N_("won one, drew one"), "won both": N_("won both")}
"""The seed-pair outcomes of a report (``stats.PAIR_OUTCOMES``)."""


def pair_outcome(text: Any) -> str:
    return gettext(PAIR_OUTCOMES[text]) if text in PAIR_OUTCOMES else str(text)


def keep_rule_text(text: Any) -> str:
    """The goldfish's keep rule (``goldfish.opening_hands``' sentence)."""
    return _by_pattern(_KEEP_RULES, str(text or ""))


def run_kind(kind: Any) -> str:
    return gettext(RUN_KINDS[kind]) if kind in RUN_KINDS else str(kind)


def log_line(text: Any) -> str:
    """A line of an engine's game log in the reader's language (see :func:`engine_line`)."""
    return engine_line(text)


def problem_text(text: Any) -> str:
    """A card problem's or an unplayed effect's sentence (see :data:`PROBLEMS`)."""
    return _by_pattern(PROBLEMS, str(text or ""))


PROBLEMS: list[tuple[re.Pattern[str], str]] = [
    # why the engine does not play a card as written (services.playtest.service.unsimulated_reasons)
    (re.compile(r"^it has rules text but no effects or keywords the engine runs: it plays with its stats only$"),
     N_("it has rules text but no effects or keywords the engine runs: it plays with its stats only")),
    (re.compile(r"^keyword (?P<keyword>'[^']*'|\"[^\"]*\") is not one the (?P<game>\S+) engine knows$"),
     N_("keyword %(keyword)s is not one the %(game)s engine knows")),
    (re.compile(r"^game (?P<game>'[^']*') deals no opening hand \(game\.yaml play\.opening_hand\)$"),
     N_("game %(game)s deals no opening hand (game.yaml play.opening_hand)")),
]


FILTERS: dict[str, Callable[..., str]] = {
    "baseline_text": baseline_text, "keep_rule_text": keep_rule_text, "run_kind": run_kind,
    "log_line": log_line, "problem_text": problem_text, "pair_outcome": pair_outcome,
    "agent_label": agent_label, "end_reason": end_reason, "verdict_text": verdict_text,
    "stop_rule_label": stop_rule_label, "stop_reason_text": stop_reason_text,
    "first_player_text": first_player_text, "card_column_label": card_column_label,
    "card_column_text": card_column_text, "fact_label": fact_label, "fact_text": fact_text,
}


def init_game_text(app: Flask) -> None:
    """Register this module's template filters."""
    app.jinja_env.filters.update(FILTERS)
    app.jinja_env.globals.setdefault("ngettext", ngettext)


# ------------------------------------------------------------------ the game table

ZONE_LABELS = {
    "hand": N_("Hand"), "deck": N_("Deck"), "graveyard": N_("Graveyard"), "exile": N_("Exile"),
    "creatures": N_("Creatures"), "magic": N_("Magic"), "field": N_("Field"), "areas": N_("Areas"),
    "damage_pile": N_("Damage Pile"), "discard": N_("Discard"), "exiled": N_("Exiled"), "traps": N_("Set traps"),
    "monsters": N_("Monsters"), "removed": N_("Removed"), "targets": N_("Targets"), "total": N_("Total"),
    "assigned_now": N_("Assigned now"),
}
"""The engines' snapshot zones (``table.view``'s zone keys)."""
STAT_LABELS = {"life": N_("Life"), "mana": N_("Mana"), "mana_max": N_("Mana max"), "mulligans": N_("Mulligans"),
               "place": N_("Place")}
FLAG_LABELS = {"tapped": N_("tapped"), "face down": N_("face down"), "sick": N_("summoning sick"),
               "assigned": N_("assigned"), "attacked": N_("attacked"), "flight": N_("flight")}
ATTR_LABELS = {"atk": N_("ATK"), "def": N_("DEF"), "damage": N_("damage"), "attached to": N_("attached to"),
               "class": N_("class"), "position": N_("position"), "strength": N_("strength"),
               "resilience": N_("resilience"), "left": N_("left"), "damage taken": N_("damage taken"),
               "health": N_("health"), "poison": N_("poison"), "remaining": N_("remaining")}
ATTR_VALUES = {"battling": N_("battling"), "guarding": N_("guarding")}
ATTR_LABELS.update({"tapped": N_("tapped"), "attacked": N_("attacked"), "face down": N_("face down")})
PHASES = {
    # fusion (RULES.md §3: phases and their steps)
    "mulligan": N_("mulligan"), "ready": N_("reset phase"), "draw": N_("draw phase"), "main1": N_("main phase 1"),
    "battle": N_("battle phase"), "main2": N_("main phase 2"), "end": N_("end phase"), "over": N_("over"),
    "main": N_("main"), "discard": N_("discard"), "turn": N_("turn"), "block": N_("blocks"),
    "declare": N_("attack declaration"), "order": N_("damage order"), "window": N_("chance to respond"),
    "retarget": N_("new attack target"), "damage": N_("damage"), "target": N_("target"), "respond": N_("chain"),
    "ask": N_("a choice"),  # an effect asks a player while it resolves
    # warzone (RULES.md §1)
    "start": N_("start"), "wake": N_("wake"), "return": N_("return"), "recruit": N_("recruit"), "war": N_("war"),
    "night": N_("night"),
    "declaration": N_("declaration"), "end_of_combat": N_("end of combat"),
    # seth (RULES.md §2: the speeds of a round and its steps)
    "fast": N_("fast"), "medium": N_("medium"), "slow": N_("slow"), "ability": N_("ability"),
    "assign": N_("assign"), "split": N_("split"),
}


def _table_word(table: Mapping[str, str], key: Any, fallback: Any = None) -> str:
    text = str(key)
    if text in table:
        return gettext(table[text])
    return str(fallback if fallback is not None else text)


def seat_player(player: Any) -> str:
    """Who sits in a seat: a person (``human``) or an agent kind."""
    return gettext("human") if str(player) == "human" else agent_label(player)


def zone_label(key: Any, fallback: Any = None) -> str:
    return _table_word(ZONE_LABELS, key, fallback)


def stat_label(key: Any, fallback: Any = None) -> str:
    return _table_word(STAT_LABELS, key, fallback)


def flag_label(flag: Any) -> str:
    return _table_word(FLAG_LABELS, flag)


def attr_label(key: Any) -> str:
    words = str(key).replace("_", " ")
    return _table_word(ATTR_LABELS, words, words)


def attr_value(value: Any) -> str:
    if isinstance(value, bool):
        return "" if value else gettext("no")
    return _table_word(ATTR_VALUES, value, value) if isinstance(value, str) else str(value)


def phase_text(phase: Any) -> str:
    """A snapshot's phase and step (``"main1 · respond"``) in words; a step that only restates its
    phase (fusion's ``main1 · main``, ``draw · draw``) is left out."""
    parts: list[str] = []
    for part in (p.strip() for p in str(phase or "").split(" · ")):
        if part and not any(earlier.startswith(part) for earlier in parts):
            parts.append(part)
    return " · ".join(_table_word(PHASES, part) for part in parts)


# Engine text: log lines, move texts and end reasons as the engines write them, in the reader's
# language. A card is written "Name (a12)" (with ", ATK/DEF" for a creature in fusion's log), a
# player "P1"; the translation keeps both forms, so the table turns them into names afterwards.
_CARD = r"(?:[^;→()]|\([^()]*\)(?= ))+? \([a-z]+\d+(?:, -?\d+/-?\d+)?\)"  # a1, b12, ax1 (extra deck)
_PLAYER_REF = r"P\d+"
_TARGET = rf"(?:{_CARD}|{_PLAYER_REF}|the opponent)"


def _target(text: str) -> str:
    return gettext("the opponent") if text == "the opponent" else text


def _effect_what(what: str) -> str:
    """``": damage 2"`` of an activation: the effect's action in the designer's words."""
    from workbench.domain.effects.schema import LABELS

    m = re.match(r"^: (?P<action>\w+)(?P<rest>.*)$", what or "")
    if not m:
        return what or ""
    names = LABELS.get("en" if _english() else "zh", {}).get("actions", {})
    return gettext("：%(action)s%(amount)s", action=names.get(m.group("action"), m.group("action")), amount=m.group("rest"))


_FIXED_ACTIONS = {"keep the hand": N_("keep the hand"), "mulligan": N_("mulligan"), "go to battle": N_("go to battle"),
                  "end the turn": N_("end the turn"), "confirm the attack declaration": N_("confirm the attack declaration"),
                  "end the battle phase": N_("end the battle phase"), "no more blockers": N_("no more blockers"),
                  "pass": N_("pass"), "no blocks": N_("no blocks")}
_PLAY_VERBS = {"summon": N_("summon %(card)s"), "flip": N_("flip %(card)s face up"), "play": N_("play %(card)s")}


def fusion_action(text: str) -> str:
    """One of fusion's action texts (``FusionState._describe``) in the reader's language."""
    if text in _FIXED_ACTIONS:
        return gettext(_FIXED_ACTIONS[text])
    m = re.match(rf"^(?P<verb>summon|flip|play) (?P<card>{_CARD})(?: → (?P<targets>.+))?$", text)
    if m:
        done = gettext(_PLAY_VERBS[m.group("verb")], card=m.group("card"))
        if m.group("targets"):
            done += " → " + gettext(", ").join(_target(t) for t in m.group("targets").split(", "))
        return done
    m = re.match(rf"^activate (?P<card>{_CARD}) \(effect (?P<n>\d+)(?P<what>: [^)]*)?\)(?: → (?P<targets>.+))?$", text)
    if m:
        done = gettext("activate effect %(n)s of %(card)s%(what)s", card=m.group("card"), n=int(m.group("n")) + 1,
                       what=_effect_what(m.group("what") or ""))
        if m.group("targets"):
            done += " → " + gettext(", ").join(_target(t) for t in m.group("targets").split(", "))
        return done
    for pattern, message in _FUSION_ACTIONS:
        m = pattern.match(text)
        if m:
            return gettext(message, **{k: _target(v) for k, v in m.groupdict().items()})
    return text


_FUSION_ACTIONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^set (?P<card>{_CARD}) face down$"), N_("set %(card)s face down")),
    (re.compile(rf"^fusion summon (?P<card>{_CARD}) from the extra deck by its materials$"),
     N_("fusion summon %(card)s from the extra deck by its materials")),
    (re.compile(rf"^attack (?P<target>{_TARGET}) with (?P<card>{_CARD})$"), N_("attack %(target)s with %(card)s")),
    (re.compile(rf"^turn the attack to (?P<target>{_TARGET}) with (?P<card>{_CARD})$"),
     N_("turn the attack of %(card)s to %(target)s")),
    (re.compile(rf"^block (?P<attacker>{_CARD}) with (?P<card>{_CARD})$"), N_("block %(attacker)s with %(card)s")),
    (re.compile(rf"^(?P<card>{_CARD}) deals damage to (?P<target>{_CARD}) next$"),
     N_("%(card)s deals damage to %(target)s next")),
    (re.compile(rf"^discard (?P<card>{_CARD})$"), N_("discard %(card)s")),
    (re.compile(rf"^target (?P<target>{_TARGET})$"), N_("target %(target)s")),
]

_FUSION_LINES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(?P<p>P\d+)'s turn: life (?P<life>-?\d+(?: / -?\d+)*|-?\d+(?:--?\d+)*), mana (?P<mana>\d+/\d+), hand (?P<hand>\d+), deck (?P<deck>\d+)$"),
     N_("%(p)s 's turn: life %(life)s, mana %(mana)s, hand %(hand)s, deck %(deck)s")),
    (re.compile(r"^(?P<p>P\d+) draws a card$"), N_("%(p)s draws a card")),
    (re.compile(r"^(?P<p>P\d+) loses (?P<n>\d+) life \((?P<life>-?\d+)\)$"), N_("%(p)s loses %(n)s life (%(life)s)")),
    (re.compile(rf"^(?P<card>{_CARD}) hits (?P<p>P\d+) for (?P<n>-?\d+)$"), N_("%(card)s hits %(p)s for %(n)s")),
    (re.compile(rf"^(?P<card>{_CARD}) fights (?P<other>{_CARD})$"), N_("%(card)s fights %(other)s")),
    (re.compile(rf"^(?P<card>{_CARD}) is blocked by (?P<blockers>.+)$"), N_("%(card)s is blocked by %(blockers)s")),
    (re.compile(r"^battle damage: (?P<list>.+)$"), N_("battle damage: %(list)s")),
    (re.compile(rf"^(?P<card>{_CARD}) of (?P<p>P\d+) is destroyed(?: \((?P<n>\d+) damage, DEF (?P<def>-?\d+)\))?$"),
     N_("%(card)s of %(p)s is destroyed%(why)s")),
    (re.compile(rf"^(?P<card>{_CARD}) of (?P<p>P\d+) is destroyed by (?P<src>.+)$"),
     N_("%(card)s of %(p)s is destroyed by %(src)s")),
    (re.compile(rf"^(?P<card>{_CARD}) returns to (?P<p>P\d+)'s hand$"), N_("%(card)s returns to %(p)s 's hand")),
    (re.compile(rf"^(?P<card>{_CARD}) is negated$"), N_("%(card)s is negated")),
    (re.compile(rf"^(?P<card>{_CARD}) has no creature to attach to$"), N_("%(card)s has no creature to attach to")),
    (re.compile(r"^chain link (?P<link>C\d+): (?P<card>.+) \(speed (?P<speed>\d+)\)$"),
     N_("chain link %(link)s: %(card)s (speed %(speed)s)")),
    (re.compile(r"^(?P<p>P\d+) goes first \(coin toss\)$"), N_("%(p)s goes first (coin toss)")),
    (re.compile(r"^(?P<p>P\d+) goes first \(chosen at random\)$"), N_("%(p)s goes first (chosen at random)")),
    (re.compile(r"^(?P<p>P\d+) keeps (?P<n>\d+) cards after (?P<m>\d+) mulligan\(s\)$"),
     N_("%(p)s keeps %(n)s cards after %(m)s mulligan(s)")),
    # effects resolving (fusion/adapter.py, effects/interpreter.py): "Source: what happens"
    (re.compile(r"^(?P<src>[^:]+): (?P<p>P\d+) draws (?P<n>\d+)$"), N_("%(src)s: %(p)s draws %(n)s")),
    (re.compile(r"^(?P<src>[^:]+): (?P<p>P\d+) gains (?P<n>\d+) life \((?P<life>-?\d+)\)$"),
     N_("%(src)s: %(p)s gains %(n)s life (%(life)s)")),
    (re.compile(r"^(?P<src>[^:]+): (?P<n>\d+) damage to (?P<p>P\d+) \(life (?P<life>-?\d+)\)$"),
     N_("%(src)s: %(n)s damage to %(p)s (life %(life)s)")),
    (re.compile(rf"^(?P<src>[^:]+): (?P<n>\d+) damage to (?P<card>{_CARD})$"), N_("%(src)s: %(n)s damage to %(card)s")),
    (re.compile(rf"^(?P<src>[^:]+): (?P<card>{_CARD}) gets (?P<change>[-+]\d+/[-+]\d+)$"),
     N_("%(src)s: %(card)s gets %(change)s")),
    (re.compile(r"^(?P<src>[^:]+): (?P<p>P\d+) gains (?P<n>\d+) mana \((?P<mana>\d+)\)$"),
     N_("%(src)s: %(p)s gains %(n)s mana (%(mana)s)")),
    (re.compile(r"^(?P<src>[^:]+): (?P<p>P\d+) pays (?P<n>\d+) life \((?P<life>-?\d+)\)$"),
     N_("%(src)s: %(p)s pays %(n)s life (%(life)s)")),
    (re.compile(rf"^(?P<src>[^:]+): (?P<card>{_CARD}) goes from the (?P<from>[\w ]+) to the (?P<to>[\w ]+)$"),
     N_("%(src)s: %(card)s goes from the %(from)s to the %(to)s")),
    (re.compile(rf"^(?P<card>{_CARD}) of (?P<p>P\d+) goes to the (?P<to>[\w ]+)$"), N_("%(card)s of %(p)s goes to the %(to)s")),
    (re.compile(rf"^(?P<src>[^:]+): (?P<p>P\d+) special summons (?P<card>{_CARD}) from the (?P<from>[\w ]+)$"),
     N_("%(src)s: %(p)s special summons %(card)s from the %(from)s")),
    (re.compile(rf"^(?P<src>[^:]+): (?P<p>P\d+) gets the token (?P<card>{_CARD})$"), N_("%(src)s: %(p)s gets the token %(card)s")),
    (re.compile(r"^(?P<src>[^:]+): (?P<n>\d+) token\(s\) not made \(the engine keeps (?P<k>\d+) per kind\)$"),
     N_("%(src)s: %(n)s token(s) not made (the engine keeps %(k)s per kind)")),
    (re.compile(r"^(?P<src>[^:]+): (?P<p>P\d+) pays (?P<n>\d+) mana -> (?P<mana>-?\d+)$"),
     N_("%(src)s: %(p)s pays %(n)s mana -> %(mana)s")),
    (re.compile(r"^(?P<src>[^:]+): no extra-deck creature can be fusion summoned$"),
     N_("%(src)s: no extra-deck creature can be fusion summoned")),
    (re.compile(r"^(?P<src>[^:]+): chooses (?P<choice>.+)$"), N_("%(src)s: chooses %(choice)s")),
    (re.compile(r"^(?P<p>P\d+) wins: the last player left$"), N_("%(p)s wins: the last player left")),
    (re.compile(r"^(?P<src>[^:]+): (?P<action>\w+) has no target$"), N_("%(src)s: %(action)s has no target")),
    (re.compile(r"^(?P<src>[^:]+): no card to move from (?P<from>\w+)$"), N_("%(src)s: no card to move from %(from)s")),
    (re.compile(r"^(?P<src>[^:]+): the condition of (?P<action>\w+) does not hold$"),
     N_("%(src)s: the condition of %(action)s does not hold")),
]
_ZONE_WORDS = {"hand": "hand", "deck": "deck", "deck top": "deck_top", "deck bottom": "deck_bottom", "extra deck": "extra_deck",
               "graveyard": "graveyard", "exile": "exile", "field": "field", "damage pile": "damage_pile"}


def _zone_word(words: str) -> str:
    from workbench.domain.effects.schema import LABELS

    key = _ZONE_WORDS.get(words.strip(), words.strip())
    return str(LABELS.get("zh", {}).get("zones", {}).get(key, words)) if not _english() else words


def _action_word(action: str) -> str:
    from workbench.domain.effects.schema import LABELS

    return str(LABELS.get("zh", {}).get("actions", {}).get(action, action)) if not _english() else action


_LINES: dict[tuple[str, str], str] = {}
"""(language, engine line) -> :func:`engine_line`'s answer: a table view shows the whole log at
every move, and reading each line through the forms again was a quarter of a long game's request."""
_LINES_LIMIT = 20_000  # lines of many games; emptied when full (a few MB at most)


def engine_line(text: Any) -> str:
    """A line an engine wrote (log line, move, end reason) in the reader's language; a line this
    module does not know stays as the engine wrote it."""
    return engine_line_reader()(text)


def engine_line_reader() -> Callable[[Any], str]:
    """:func:`engine_line` for this request's language, looked up once: a table view reads its whole
    log through it, and finding the request's language again for each line was half of that."""
    if _english():
        return _as_written
    language = str(get_locale())

    def read(text: Any) -> str:
        line = str(text or "")
        key = (language, line)
        found = _LINES.get(key)
        if found is None:
            if len(_LINES) >= _LINES_LIMIT:
                _LINES.clear()
            found = _LINES[key] = _translated_line(line)
        return found

    return read


def _as_written(text: Any) -> str:
    return str(text or "")


def _translated_line(line: str) -> str:
    """:func:`engine_line` of a line, read through the forms (not remembered)."""
    m = re.match(r"^Turn (?P<turn>\d+) — (?P<body>.*)$", line, re.S)
    if m:
        return gettext("Turn %(turn)s — %(text)s", turn=m.group("turn"), text=_body(m.group("body")))
    m = re.match(r"^Setup — (?P<body>.*)$", line, re.S)
    if m:
        return gettext("Setup — %(text)s", text=_body(m.group("body")))
    return _body(line)


def _body(body: str) -> str:
    m = re.match(r"^(?P<players>P\d+(?:, P\d+)*) out of the game (?P<rule>\(§[\d.]+\)): (?P<reason>.+)$", body)
    if m:
        return gettext("%(players)s out of the game %(rule)s: %(reason)s", players=m.group("players"),
                       rule=m.group("rule"), reason=end_reason(m.group("reason")))
    m = re.match(r"^(?P<p>P\d+) wins: (?P<reason>.+)$", body)
    if m and m.group("reason") != "the last player left":
        return gettext("%(p)s wins: %(reason)s", p=m.group("p"), reason=end_reason(m.group("reason")))
    m = re.match(r"^draw: (?P<reason>.+)$", body)
    if m and not body.startswith("draw: both lose"):
        return gettext("draw: %(reason)s", reason=end_reason(m.group("reason")))
    m = re.match(r"^(?P<p>P\d+) attacks: (?P<list>.+)$", body)
    if m:
        parts = []
        for part in m.group("list").split("; "):
            a, _, t = part.partition(" → ")
            parts.append(f"{a} → {_target(t)}")
        return gettext("%(p)s attacks: %(list)s", p=m.group("p"), list=gettext("; ").join(parts))
    m = re.match(r"^(?P<p>P\d+): (?P<action>.+)$", body)
    if m:
        action = m.group("action")
        if " blocks " in action and not action.startswith("block "):
            blocks = [gettext("%(card)s blocks %(attacker)s", card=b.split(" blocks ")[0], attacker=b.split(" blocks ")[1])
                      for b in action.split("; ") if " blocks " in b]
            return gettext("%(p)s: %(text)s", p=m.group("p"), text=gettext("; ").join(blocks))
        return gettext("%(p)s: %(text)s", p=m.group("p"), text=fusion_action(action))
    translated = end_reason(body)
    if translated != body:
        return translated
    for pattern, message in _FUSION_LINES:
        m = pattern.match(body)
        if m:
            values = {k: v or "" for k, v in m.groupdict().items()}
            if "why" in message:
                values["why"] = gettext(" (%(n)s damage, DEF %(def)s)", n=values["n"], **{"def": values["def"]}) \
                    if values.get("n") else ""
            for key in ("from", "to"):
                if key in values:
                    values[key] = _zone_word(values[key])
            if "life" in values and "/" not in values["life"] and message.startswith("%(p)s 's turn"):
                # a run file written before the seats' lives were set apart by " / " ("23-21-5--9")
                values["life"] = " / ".join(re.findall(r"(?:^|-)(-?\d+)", values["life"]))
            if "action" in values:
                values["action"] = _action_word(values["action"])
            if "list" in values and message.startswith("battle damage"):
                values["list"] = gettext(", ").join(values["list"].split(", "))
            return gettext(message, **values)
    translated = fusion_action(body)
    if translated != body:
        return translated
    return _other_engine_line(body)


ENGINE_FORMS: tuple[str, ...] = (
    # warzone (engines/warzone: state.py, combat.py, setup.py, adapter.py; RULES.md §1)
    N_("%(p)s takes %(n)s: %(cards)s Damage Card(s), %(lp)s Life Points -> Life %(life)s, damage pile %(pile)s"),
    N_("%(p)s wakes (Life %(life)s, hand %(hand)s, deck %(deck)s, damage pile %(pile)s)"),
    N_("%(p)s switches %(card)s to %(position)s"),
    N_("%(p)s's %(card)s is destroyed"),
    N_("%(p)s's %(card)s (C%(cls)s) attacks %(target)s (C%(tcls)s)"),
    N_("%(p)s's %(card)s (C%(cls)s) declares a Direct Attack"),
    N_("%(p)s recruits %(card)s (C%(cls)s, %(position)s)"),
    N_("%(src)s: %(p)s gains %(n)s Life Points -> %(life)s"),
    N_("%(src)s gives %(card)s %(change)s"),
    N_("%(src)s deals %(n)s to %(target)s"),
    N_("%(p)s takes %(n)s Battle Damage"),
    N_("%(p)s activates spell %(card)s"),
    N_("%(p)s sets a trap face down"),
    N_("%(p)s answers with trap %(card)s"),
    N_("battle: %(card)s %(atk)s vs %(target)s %(def)s (%(position)s) -> %(left)s | %(tleft)s"),
    N_("%(p)s intercepts with %(card)s"),
    N_("%(p)s brings Areas %(areas)s and draws %(n)s cards"),
    N_("%(p)s places its Areas: %(areas)s"),
    N_("%(p)s's %(card)s returns to the hand"),
    N_("Direct Attack hits %(p)s for %(n)s"),
    N_("game over — %(reason)s; %(p)s wins"),
    N_("game over — %(reason)s; draw"),
    N_("%(src)s heals %(card)s by %(n)s"),
    N_("%(card)s's %(trigger)s effect goes on the chain"),
    N_("recruit %(card)s (battling)"),
    N_("recruit %(card)s (guarding)"),
    N_("switch the position of %(card)s"),
    N_("%(card)s attacks directly"),
    N_("%(card)s attacks %(target)s"),
    N_("%(card)s targets %(target)s"),
    N_("activate trap %(card)s"),
    N_("activate %(card)s"),
    N_("intercept with %(card)s"),
    N_("use %(card)s"),
    N_("turn %(card)s face up"),
    N_("set %(card)s face down"),
    N_("end the phase"),
    N_("no response"),
    N_("let the attack through"),
    N_("Areas: %(areas)s"),
    # seth (engines/seth/state.py; RULES.md §2)
    N_("%(p)s assigns nothing"),
    N_("%(p)s assigns %(cards)s"),
    N_("%(card)s heals %(n)s"),
    N_("%(card)s takes %(n)s from %(p)s's %(element)s %(m)s (%(left)s health left)"),
    N_("%(card)s takes %(n)s from %(counters)s poison counter(s) (%(left)s health left)"),
    N_("%(card)s takes %(n)s from %(src)s's ability (%(left)s health left)"),
    N_("%(card)s gets %(n)s poison counter(s) (now %(now)s)"),
    N_("%(card)s has %(n)s poison counter(s) after the abilities resolved together"),
    N_("%(card)s is removed"),
    N_("%(p)s activates %(card)s: %(what)s"),
    N_("%(p)s's %(card)s on play: %(what)s"),
    N_("%(card)s's on-play ability %(n)s has no legal target and does nothing"),
    N_("%(card)s (start of turn): %(what)s"),
    N_("%(p)s splits %(damage)s: all on %(card)s"),
    N_("%(p)s splits %(damage)s: %(parts)s"),
    N_("Game over: %(reason)s"),
    N_("assign nothing"),
    N_("assign %(cards)s"),
    N_("done"),
    N_("everything on %(card)s"),
    N_("activate %(card)s #%(effect)s mode %(mode)s on %(target)s"),
    N_("activate %(card)s #%(effect)s mode %(mode)s"),
    N_("activate %(card)s #%(effect)s on %(target)s"),
    N_("activate %(card)s #%(effect)s"),
    N_("trigger %(card)s #%(effect)s mode %(mode)s on %(target)s"),
    N_("trigger %(card)s #%(effect)s mode %(mode)s"),
    N_("trigger %(card)s #%(effect)s on %(target)s"),
    N_("trigger %(card)s #%(effect)s"),
)
"""Warzone's and seth's log lines and moves (fusion's are the tables above), values as %(name)s."""

_ROW_WORDS = {"row": N_("row %(n)s")}
_POSITIONS = {"Battling": N_("battling"), "Guarding": N_("guarding"), "battling": N_("battling"),
              "guarding": N_("guarding")}
_SETH_PHASES = {"Fast": N_("fast"), "Medium": N_("medium"), "Slow": N_("slow")}


def _other_engine_line(body: str) -> str:
    """A warzone or seth line (see :data:`ENGINE_FORMS`); unknown lines stay as the engine wrote them."""
    from workbench.web.problem_forms import match_form

    indent = body[: len(body) - len(body.lstrip(" "))]
    text = body.lstrip(" ")
    m = re.match(r"^Round (?P<n>\d+)(?:, (?P<phase>Fast|Medium|Slow) — (?P<rest>.*))?$", text, re.S)
    if m:
        if m.group("rest") is None:
            return indent + gettext("Round %(n)s", n=m.group("n"))
        return indent + gettext("Round %(n)s, %(phase)s — %(text)s", n=m.group("n"),
                                phase=gettext(_SETH_PHASES[m.group("phase")]), text=_other_engine_line(m.group("rest")))
    if re.match(r"^-?\d+ \S+ on .+$", text) and all(re.match(r"^-?\d+ \S+ on .+$", p) for p in text.split("; ")):
        # a seth damage split: "2 fire on Glass Wasp (b-glass-wasp); 1 poison on …"
        return indent + gettext("; ").join(
            gettext("%(damage)s on %(card)s", damage=d, card=c)
            for d, _, c in (part.partition(" on ") for part in text.split("; ")))
    found = match_form(text, _ENGINE_FORMS)
    if found is None:
        return body
    form, values = found
    if "position" in values and values["position"] in _POSITIONS:
        values["position"] = gettext(_POSITIONS[values["position"]])
    if "reason" in values:
        values["reason"] = end_reason(values["reason"])
    if "target" in values:
        values["target"] = _target(values["target"])
    if "trigger" in values:
        values["trigger"] = _trigger_word(values["trigger"])
    if "areas" in values:
        values["areas"] = re.sub(r"\(row (\d+)\)", lambda r: "（" + gettext("row %(n)s", n=r.group(1)) + "）",
                                 re.sub(r" in row (\d+)", lambda r: gettext(" in row %(n)s", n=r.group(1)), values["areas"]))
    if "effect" in values and values["effect"].isdigit():  # "#0": counted from 1 in words (no '#')
        values["effect"] = str(int(values["effect"]) + 1)
    if "what" in values:
        values["what"] = _seth_what(values["what"])
    if "parts" in values:
        values["parts"] = gettext("; ").join(
            gettext("%(damage)s on %(card)s", damage=d, card=c)
            for d, _, c in (part.partition(" on ") for part in values["parts"].split("; ")))
    return indent + gettext(form, **values)


def _sorted_forms() -> list[str]:
    from workbench.web.problem_forms import _by_length

    return _by_length(ENGINE_FORMS)


_ENGINE_FORMS = _sorted_forms()


def _trigger_word(trigger: str) -> str:
    from workbench.domain.effects.schema import LABELS

    return str(LABELS.get("zh", {}).get("triggers", {}).get(trigger, trigger))


def _seth_what(what: str) -> str:
    """``add poison 2 on Glass Wasp (b-glass-wasp)``: an ability's action (seth's ``_describe``)."""
    m = re.match(r"^(?P<verb>[a-z ]+?) (?P<n>-?\d+)(?: on (?P<target>.+))?$", what)
    if not m:
        return what
    from workbench.domain.effects.schema import LABELS

    action = m.group("verb").replace(" ", "_")
    word = str(LABELS.get("zh", {}).get("actions", {}).get(action, m.group("verb")))
    if m.group("target"):
        return gettext("%(action)s %(n)s on %(target)s", action=word, n=m.group("n"), target=m.group("target"))
    return gettext("%(action)s %(n)s", action=word, n=m.group("n"))


FILTERS.update({"seat_player": seat_player, "zone_label": zone_label, "stat_label": stat_label, "flag_label": flag_label,
                "attr_label": attr_label, "attr_value": attr_value, "phase_text": phase_text,
                "engine_line": engine_line})


# ------------------------------------------------------------------ validation problems

_RULE = r"(?P<rule> \([^()]*\))?"
_TYPE_WORDS = {"text": N_("text"), "a whole number": N_("a whole number"), "a number": N_("a number"),
               "true or false": N_("true or false"), "a list": N_("a list")}
PROBLEM_FORMS: dict[str, list[tuple[re.Pattern[str], str]]] = {
    "card.required": [
        (re.compile(rf"^(?P<field>.+?) is required when (?P<why>.+?){_RULE}$"), N_("%(field)s is required when %(why)s")),
        (re.compile(rf"^(?P<field>.+?) is required{_RULE}$"), N_("%(field)s is required")),
    ],
    "card.forbidden": [(re.compile(rf"^(?P<field>.+?) must be empty when (?P<why>.+?){_RULE}$"),
                        N_("%(field)s must be empty when %(why)s"))],
    "card.minimum": [(re.compile(rf"^(?P<field>.+?) is (?P<value>.+); the minimum is (?P<limit>[^ ]+){_RULE}$"),
                      N_("%(field)s is %(value)s; the minimum is %(limit)s"))],
    "card.maximum": [(re.compile(rf"^(?P<field>.+?) is (?P<value>.+); the maximum is (?P<limit>[^ ]+){_RULE}$"),
                      N_("%(field)s is %(value)s; the maximum is %(limit)s"))],
    "card.max_length": [(re.compile(rf"^(?P<field>.+?) is (?P<value>.+); the limit is (?P<limit>\d+) characters{_RULE}$"),
                         N_("%(field)s is %(value)s; the limit is %(limit)s characters"))],
    "card.enum": [(re.compile(rf"^(?P<field>.+?) is (?P<value>.+); allowed: (?P<values>.+?){_RULE}$"),
                   N_("%(field)s is %(value)s; allowed: %(values)s"))],
    "card.min_items": [(re.compile(rf"^(?P<field>.+?) is (?P<value>.+); at least (?P<limit>\d+) needed{_RULE}$"),
                        N_("%(field)s is %(value)s; at least %(limit)s needed"))],
    "card.max_items": [(re.compile(rf"^(?P<field>.+?) is (?P<value>.+); at most (?P<limit>\d+) allowed{_RULE}$"),
                        N_("%(field)s is %(value)s; at most %(limit)s allowed"))],
    "card.unique": [(re.compile(rf"^(?P<field>.+?) is (?P<value>.+); values must not repeat{_RULE}$"),
                     N_("%(field)s is %(value)s; values must not repeat"))],
    "card.type": [(re.compile(rf"^(?P<field>.+?) is (?P<value>.+); it must be (?P<type>.+?){_RULE}$"),
                   N_("%(field)s is %(value)s; it must be %(type)s"))],
    "card.kind": [(re.compile(rf"^kind is (?P<value>.+); allowed: (?P<values>.+?){_RULE}$"),
                   N_("kind is %(value)s; allowed: %(values)s"))],
    "card.unknown_field": [
        (re.compile(r"^field (?P<field>'[^']*') does not belong to a (?P<kind>.+) card$"),
         N_("field %(field)s does not belong to a %(kind)s card")),
        (re.compile(r"^field (?P<field>'[^']*') is not part of the (?P<game>.+) card format; it is kept but not used$"),
         N_("field %(field)s is not part of the %(game)s card format; it is kept but not used")),
    ],
    "deck.zone_exact": [(re.compile(rf"^(?P<zone>.+?) has (?P<total>\d+) \S+; it must have exactly (?P<n>\d+){_RULE}$"),
                         N_("%(zone)s has %(total)s; it must have exactly %(n)s"))],
    "deck.zone_min": [(re.compile(rf"^(?P<zone>.+?) has (?P<total>\d+) \S+; the minimum is (?P<n>\d+){_RULE}$"),
                       N_("%(zone)s has %(total)s; the minimum is %(n)s"))],
    "deck.zone_max": [(re.compile(rf"^(?P<zone>.+?) has (?P<total>\d+) \S+; the maximum is (?P<n>\d+){_RULE}$"),
                       N_("%(zone)s has %(total)s; the maximum is %(n)s"))],
    "deck.unknown_card": [(re.compile(rf"^card (?P<card>.+) in (?P<zone>.+) does not exist{_RULE}$"),
                           N_("card %(card)s in %(zone)s does not exist"))],
}
"""The validator's sentences by problem code (``workbench.domain.validation``): each form with its
values as named groups. The English stays the domain's own; other languages read the template."""


def problem_message(problem: Any) -> str:
    """A validation problem (a ``Problem`` or its dict) in the reader's language, from its code and
    values; the domain's English as it is in English or for a form this table does not know."""
    get = problem.get if isinstance(problem, Mapping) else (lambda key, default=None: getattr(problem, key, default))
    message = str(get("message", "") or "")
    if _english():
        return message
    for pattern, template in PROBLEM_FORMS.get(str(get("code", "")), []):
        m = pattern.match(message)
        if m:
            return _filled_form(template, m)
    from workbench.web.problem_forms import translate_problem

    translated = translate_problem(problem)
    return translated if translated is not None else problem_text(message)


def _filled_form(template: str, m: re.Match[str]) -> str:
    """A problem form's translation with the values its pattern read (the rule reference kept as written)."""
    values = {k: v or "" for k, v in m.groupdict().items()}
    rule = values.pop("rule", "")
    if values.get("type") in _TYPE_WORDS:
        values["type"] = gettext(_TYPE_WORDS[values["type"]])
    return gettext(template, **values) + rule


def problem_sentence(message: str) -> str | None:
    """A validation problem's sentence without its code (an import's row problem), in the reader's
    language, or ``None`` when it reads as no problem form."""
    for forms in PROBLEM_FORMS.values():
        for pattern, template in forms:
            m = pattern.match(message)
            if m:
                return _filled_form(template, m)
    from workbench.web.problem_forms import translate_problem

    return translate_problem({"code": "", "message": message})


def with_texts(problems: Any) -> Any:
    """Problem dicts for a JSON answer: each gains ``text``, its message in the reader's language
    (``message`` stays the domain's English for clients and scripts that match on it)."""
    if _english():
        return problems
    return [dict(p, text=problem_message(p)) if isinstance(p, Mapping) else p for p in problems]


FILTERS["problem_message"] = problem_message


def _transfer_text(text: Any) -> str:
    from workbench.web.transfer_text import transfer_text

    return transfer_text(text)


FILTERS["transfer_text"] = _transfer_text
