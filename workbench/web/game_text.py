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
    """A line of an engine's game log (English as the engine wrote it; see :data:`LOG_LINES`)."""
    return _by_pattern(LOG_LINES, str(text or ""))


def problem_text(text: Any) -> str:
    """A card problem's or an unplayed effect's sentence (see :data:`PROBLEMS`)."""
    return _by_pattern(PROBLEMS, str(text or ""))


LOG_LINES: list[tuple[re.Pattern[str], str]] = []
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
