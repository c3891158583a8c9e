"""Every validation, effect and layout problem the domain and the services report, as a form per
problem code, so a page in another language renders it from its code and values.

The domain writes each problem as an English sentence (``Problem.message``, kept as it is for the
JSON answers, the CLI and English pages) with a stable ``code``. Each form here is the English
sentence with its values as ``%(name)s``: it is both the pattern that reads the values back out
of the message and the gettext message id the catalogue translates. A problem is read as:

* its rule, the ``(docs/effects.md)`` after the sentence (``Problem.rule``), kept as written;
* where it is: ``effect 2:`` (an entry of the effects list), ``effect 2, option 1, step 2:`` (a
  step of a ``choose`` option) or ``material 1:`` — put in front in the reader's words;
* the sentence, against the forms of its code (then every form: a filter's sentence is reported
  under the codes of the filter, the materials and ``played``);
* values named in :data:`NESTED` are sentences of their own (an engine's reason for not running
  an effect, the extra-deck creatures a deck cannot bring out), read against their own forms.

``tests/web/test_problem_forms.py`` lists every code the domain and the services can emit and
fails on one without a form, and builds broken cards and decks that reach every form.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping

from flask_babel import gettext

from workbench.web.ui import N_

FORMS: dict[str, tuple[str, ...]] = {
    # -------------------------------------------------- card fields (workbench.domain.validation)
    "card.shape": (N_("a card must be a mapping of field names to values"),),
    "card.too_large": (N_("the card is too large: a card holds at most %(limit)s values, every field and "
                          "effect part counted"),),
    "card.multiple_of": (N_("%(field)s is %(value)s; it should be a multiple of %(step)s"),),
    "card.budget": (N_("%(parts)s is %(cost)s; the budget for %(by)s %(value)s is %(limit)s, over by %(over)s"),),
    "card.no_materials": (N_("%(name)s is an extra-deck creature without %(field)s: nothing can fusion summon it"),),
    "card.materials_unused": (N_("%(field)s only apply to an extra-deck creature (extra: true)"),),
    "card.materials": (
        N_("materials is %(value)s; a list of card names or {filter: {...}, count: N} entries"),
        N_("material %(k)s is %(value)s; write a card name, {name: NAME, count: N} or {filter: {...}, count: N}"),
        N_("material %(k)s count is %(value)s; a whole number 1 or more"),
        N_("material %(k)s name is %(value)s; a card name"),
        N_("material %(k)s is %(value)s; a card name or {filter: {...}, count: N}"),
    ),
    # -------------------------------------------------- decks (workbench.domain.validation)
    "deck.shape": (N_("a deck must be a mapping with a 'zones' mapping"),
                   N_("zones must be a mapping of zone names to card counts"),
                   N_("zone %(zone)s must map card ids to counts")),
    "deck.too_large": (N_("the deck names %(count)s zones; at most %(limit)s are read"),
                       N_("the deck lists %(count)s card entries; at most %(limit)s (%(cards)s cards in a deck)")),
    "deck.format": (N_("format %(value)s does not exist; formats: %(names)s"),),
    "deck.unknown_zone": (N_("zone %(value)s does not exist in %(game)s; zones: %(names)s"),),
    "deck.count": (N_("%(card)s in %(zone)s has count %(value)s; a count is a whole number of at least 1"),
                   N_("%(card)s in %(zone)s has %(count)s copies; at most %(copies)s copies of a card, "
                      "%(cards)s cards in a deck")),
    "deck.zone_kind": (N_("%(card)s is a %(kind)s card; %(zone)s takes only %(allowed)s"),
                       N_("%(card)s is an %(kind)s card; %(zone)s takes only %(allowed)s")),  # before a vowel
    "deck.card_invalid": (N_("%(card)s breaks a card rule; fix the card first"),),
    "deck.max_copies": (N_("%(card)s has %(count)s copies across %(zones)s; the maximum is %(limit)s"),),
    "deck.max_matching": (N_("%(total)s %(label)s cards across %(zones)s; the maximum is %(limit)s"),),
    "deck.total_limit": (N_("%(label)s is %(total)s; it must be less than %(limit)s"),
                         N_("%(label)s is %(total)s; the maximum is %(limit)s")),
    "deck.unknown_rule": (N_("game.yaml has a deck rule %(check)s the workbench does not know"),),
    "deck.zone_field": (N_("%(card)s has %(field)s: yes; %(zone)s takes only cards with %(field)s: no"),
                        N_("%(card)s has %(field)s: no; %(zone)s takes only cards with %(field)s: yes"),
                        N_("%(card)s has %(field)s: %(actual)s; %(zone)s takes only cards with %(field)s: %(wanted)s")),
    "deck.extra_unsummonable": (N_("%(zone)s holds creatures the deck cannot bring out — %(stuck)s"),),
    # -------------------------------------------------- the print layout (workbench.services.render)
    "card.render_unavailable": (N_("the print layout cannot be checked: %(error)s"),),
    "card.text_overflow": (N_("effect text overflows by %(n)s line at the smallest size (%(pt)s pt); shorten the text"),
                           N_("effect text overflows by %(n)s lines at the smallest size (%(pt)s pt); shorten the text")),
    "card.render_timeout": (N_("the card's text could not be laid out within %(seconds)s s, so the face shows a "
                               "placeholder; shorten the text"),),
    "card.name_overflow": (N_("the name is too long for the name bar at the smallest size; shorten it"),),
    "card.missing_glyphs": (N_("no installed font can draw %(chars)s; these characters would print as boxes"),),
    # -------------------------------------------------- effects (workbench.domain.effects.vocabulary)
    "effect.shape": (N_("must be a mapping of keys (trigger, action, target, …)"),),
    "effect.missing_action": (N_("action is missing; one of %(names)s"),),
    "effect.unknown_action": (N_("action is %(value)s; allowed: %(names)s"),),
    "effect.missing_trigger": (N_("trigger is missing; one of %(names)s"),),
    "effect.unknown_trigger": (N_("trigger is %(value)s; allowed: %(names)s"),),
    "effect.unknown_target": (N_("target is %(value)s; allowed: %(names)s"),),
    "effect.unknown_key": (N_("key %(key)s is not part of the effect vocabulary; it is kept but not used (keys: %(names)s)"),),
    "effect.bad_unless": (N_("unless goes on a step of an option, not on choose itself"),
                          N_("unless is %(value)s; write one of %(names)s"),
                          N_("unless key is %(key)s; allowed: %(names)s"),
                          N_("unless %(key)s is %(value)s; a whole number 1 or more")),
    "effect.bad_amount": (N_("arrange looks at %(value)s cards; 1 to %(max)s"),
                          N_("amount is %(value)s; it must be a whole number (-1: one less)"),
                          N_("amount is %(value)s; it must be a whole number 0 or more (or X)")),
    "effect.unused_key": (N_("options only apply to choose, not %(action)s"),
                          N_("token only applies to create_token, not %(action)s"),
                          N_("stats and duration only apply to modify_stats, not %(action)s"),
                          N_("counter only applies to add_counters and remove_counters, not %(action)s"),
                          N_("ready only applies to move to: field"),
                          N_("%(keys)s only apply to move, not %(action)s"),
                          N_("target only applies to move from field, not from %(zone)s"),
                          N_("side and pick apply to move from a zone; from field takes a target"),
                          N_("phase only applies to the on_phase trigger, not %(trigger)s"),
                          N_("played only applies to the on_opponent_play trigger, not %(trigger)s"),
                          N_("a continuous effect always lasts while its card is on the field; while_on_field is "
                             "for a change another trigger makes")),
    "effect.bad_options": (N_("choose needs options: a list of 2 to %(max)s options, each a step (a mapping) or a "
                              "list of steps"),
                           N_("option %(k)s has no step"),
                           N_("option %(k)s: a step is a mapping (action, target, …)"),
                           N_("option %(k)s: %(keys)s belong to the choose entry, not to a step"),
                           N_("option %(k)s: a choose inside a choose is not allowed")),
    "effect.bad_count": (N_("choose %(count)s of %(n)s options leaves nothing to choose; count must be 1 to %(max)s"),
                         N_("count is %(value)s; a whole number 1 or more"),
                         N_("count on a chosen target needs random: true (players are asked for one %(target)s)")),
    "effect.bad_token": (N_("create_token needs token: the token's name and stats, e.g. %(example)s"),
                         N_("token needs a name, e.g. %(example)s"),
                         N_("token %(stat)s is %(value)s; a whole number 0 or more (the token's stats: %(names)s)"),
                         N_("token key %(key)s is not a token field; allowed: %(names)s")),
    "effect.missing_amount": (N_("%(action)s needs an amount (a whole number)"),),
    "effect.amount_x": (N_("amount X needs an X mana cost (cost: {mana: X}, or the card's cost X)"),),
    "effect.missing_stats": (N_("modify_stats needs stats, e.g. %(example)s"),),
    "effect.bad_stats": (N_("stats is %(value)s; it must map stat names to whole numbers"),
                         N_("stats change %(stat)s: %(value)s must be a whole number")),
    "effect.unknown_stat": (N_("stat %(stat)s is not a stat of this game; allowed: %(names)s"),),
    "effect.unknown_duration": (N_("duration is %(value)s; allowed: %(names)s"),),
    "effect.bad_cost": (N_("cost is %(value)s; write {mana: N, tap: true}"),
                        N_("cost mana is %(value)s; a whole number 0 or more, or X"),
                        N_("cost tap is %(value)s; true or false"),
                        N_("cost sacrifice is %(value)s; N or {count: N, filter: {...}}"),
                        N_("cost %(key)s is %(value)s; a whole number 1 or more"),
                        N_("cost remove_counters is %(value)s; write {charge: 2}"),
                        N_("cost key %(key)s is unknown; allowed: %(names)s")),
    "effect.bad_speed": (N_("speed is %(value)s; it must be %(low)s, 2 or %(high)s"),),
    "effect.bad_once_per_turn": (N_("once_per_turn is %(value)s; true or false"),),
    "effect.bad_random": (N_("random is %(value)s; true or false"),),
    "effect.missing_counter": (N_("%(action)s needs counter: the counters' name, e.g. charge"),),
    "effect.bad_ready": (N_("ready is %(value)s; true or false"),),
    "effect.missing_zone": (N_("move needs to: one of %(names)s"),),
    "effect.unknown_zone": (N_("%(key)s is %(value)s; allowed: %(names)s"),
                            N_("%(name)s zone is %(value)s; allowed: %(names)s")),
    "effect.bad_zone": (N_("move from field to field does nothing; name another zone"),
                        N_("from deck_bottom is not a zone to take from; use deck_top or deck")),
    "effect.unknown_side": (N_("side is %(value)s; allowed: %(names)s"),),
    "effect.unknown_pick": (N_("pick is %(value)s; allowed: %(names)s"),),
    "effect.bad_pick": (N_("pick: choose takes one card (count 1) of your own zone (side: own); from deck_top it "
                           "needs look: N"),),
    "effect.bad_look": (N_("look is %(value)s; a whole number 1 or more, with from: deck_top"),),
    "effect.static_trigger": (N_("%(action)s is a static rule: it holds while the card is on the field, so its "
                                 "trigger is continuous (not %(trigger)s)"),),
    "effect.static_target": (N_("%(action)s reaches %(target)s; allowed: %(names)s"),),
    "effect.missing_phase": (N_("on_phase needs phase: the name of the phase that begins (warzone wake, recruit, war, "
                                "return, night; fusion ready, draw, main1, battle, main2, end; seth fast, medium, slow)"),),
    "effect.bad_phase": (N_("phase is %(value)s; a phase name or a list of them"),),
    # -------------------------------------------------- filters and conditions (workbench.domain.effects.filters)
    "effect.bad_filter": (N_("%(what)s is %(value)s; it must map card fields or states to values, e.g. "
                             "{kind: creature, strength: {min: 500}}"),
                          N_("%(what)s %(key)s: %(value)s must be a value, a list of values, true/false or "
                             "{min: N, max: N}")),
    "effect.unknown_filter": (N_("%(what)s key %(key)s is not a card field, stat or state of this game; allowed: "
                                 "%(names)s"),),
    "effect.bad_condition": (N_("%(name)s %(bound)s is %(value)s; a whole number"),
                             N_("%(name)s needs min or max, e.g. {min: 3}"),
                             N_("%(name)s side is %(value)s; allowed: %(names)s"),
                             N_("%(name)s is %(value)s; write {zone: field, side: own, filter: {...}, min: N}"),
                             N_("%(name)s is %(value)s; write {zone: field, side: own, filter: {...}}"),
                             N_("%(name)s key %(key)s is unknown; keys: %(names)s"),
                             N_("if is %(value)s; it takes exactly one condition: %(names)s"),
                             N_("phase is %(value)s; a phase name or a list of them"),
                             N_("%(name)s takes true, not %(value)s"),
                             N_("%(name)s is %(value)s; write {min: N} or {max: N} with side: own or opponent"),
                             N_("%(name)s is %(value)s; write {min: N} or {max: N}"),
                             N_("counters is %(value)s; write {counter: charge, min: 3}")),
    "effect.unknown_condition": (N_("condition %(kind)s is unknown; allowed: %(names)s"),),
    # -------------------------------------------------- the checks service (workbench.services.checks)
    "effect.text_differs": (N_("the text does not mention %(numbers)s, which its effects use; the effects read: "
                               "“%(text)s”"),),
    "effect.unsimulated": (N_("%(reason)s; playtests play the card without it"),
                           N_("the %(game)s engine does not run %(action)s; playtests play the card without it "
                              "(runs: %(names)s)")),
}
"""Each problem code with its sentences (the English of the domain, values as ``%(name)s``)."""

REASONS: tuple[str, ...] = (
    # why an engine does not run an effect (workbench.domain.effects.parse, the engines' adapters)
    N_("the %(game)s engine does not run %(action)s (runs: %(names)s)"),
    N_("%(game)s %(kind)s cards do not run %(trigger)s effects (they run: %(names)s)"),
    N_("%(game)s has no %(zone)s zone for move (zones: %(names)s)"),
    N_("%(game)s has no extra deck to fusion summon from (RULES.md §3.10.2 is fusion's)"),
    N_("in %(game)s, %(action)s cannot target %(target)s (targets: %(names)s)"),
    N_("the %(game)s engine does not filter by %(keys)s (it filters by: %(names)s)"),
    N_("the %(game)s engine does not filter by %(keys)s"),
    N_("target same needs a step before it that resolves together with it (in %(game)s: %(names)s effects)"),
    N_("a continuous effect is a standing stat change (modify_stats) on this card or on all own or enemy "
       "creatures, or a static rule"),
    N_("a standing effect's filter cannot depend on what changes in play (%(keys)s); filter by printed fields "
       "(kind, class, race …)"),
    N_("%(game)s has no X costs"),
    N_("%(stat)s is not a %(game)s stat (stats: %(names)s)"),
    N_("the %(game)s engine has no %(duration)s duration (it has: %(names)s)"),
    N_("%(game)s has no %(key)s cost (it has: %(names)s)"),
    N_("costs beyond mana and tapping are paid when an effect is activated"),
    N_("%(game)s has no phase %(phases)s (phases: %(names)s)"),
    N_("in %(game)s, a player cannot pay %(key)s for unless (it can pay: %(names)s)"),
    N_("the %(game)s engine has no summoning sickness for ready to lift"),
    N_("seth's rules (RULES.md §2) have no tokens: a player fields its five monsters under the Power limit and no "
       "effect adds one; create_token is fusion's (§3.10.3)"),
    N_("seth has no extra deck: fusion_summon is fusion's (RULES.md §3.10.2)"),
    N_("warzone's rules (RULES.md §1) have no tokens: every creature is a card recruited into a row by its Class; "
       "create_token is fusion's (§3.10.3)"),
    N_("warzone has no extra deck (RULES.md §1.2): fusion_summon is fusion's (§3.10.2)"),
    # fusion's refusals (engines/fusion/adapter.py)
    N_("fusion's standing changes hold while their card is face up on the field; an if or per on a continuous "
       "effect is not run"),
    N_("a %(kind)s card does not stay on the field as a creature (while_on_field is for creatures)"),
    N_("in fusion only an on_damaged effect names the attacker (the creature whose damage it took)"),
    N_("negate answers a chain link, so it is played (on_play) or activated"),
    N_("extra-deck creatures come out only by fusion_summon and go back there by themselves (RULES.md §3.10.2); a "
       "move from or to the extra deck is not run"),
    # seth's (engines/seth/adapter.py)
    N_("in seth only an on_damaged effect names the attacker (the monsters whose damage it took)"),
    N_("seth asks for a mode only when its controller picks the ability (activated, or a monster's first on_play); "
       "its other triggers resolve with nobody asked"),
    N_("in seth, a mode names at most one chosen target (the pick carries one target)"),
    N_("a standing stat change cannot depend on the stats it changes (filter by race, element …)"),
    # warzone's (engines/warzone/adapter.py)
    N_("an attack trigger resolves at once, before the defender answers, so it cannot ask for a target: use a mass "
       "target or random: true"),
    N_("an attack trigger resolves at once, before the defender answers, so it cannot ask a player (a mode, an "
       "unless payment, an order)"),
    N_("warzone's standing changes hold while their card is in play; an if or per on a continuous effect is not run"),
    N_("warzone cards have no cost to change (Degrees limit recruiting, §1.6.2)"),
    N_("a %(kind)s is not on the field, so nothing lasts while it is (while_on_field is for creatures)"),
    N_("a %(kind)s is not in play to watch for %(trigger)s"),
    N_("only a trap negates (a spell, or an attack it answers)"),
    N_("only a trap, an on_attacked, on_block or on_damaged effect has an attacker (the creature attacking, or "
       "whose damage it took)"),
    N_("the Exiled zone is out of the game for good (§1.12.6): nothing comes back from it"),
    N_("a %(kind)s is not on the field, so it cannot affect itself"),
)
"""An engine's reasons for not running an effect (``effect.unsimulated``'s ``%(reason)s``)."""

STUCK: tuple[str, ...] = (
    N_("%(card)s: it has no materials"),
    N_("%(card)s: no card of the deck fusion summons it"),
    N_("%(card)s: the deck holds too few of its materials (%(materials)s)"),
)
"""The extra-deck creatures a deck cannot bring out (``deck.extra_unsummonable``'s ``%(stuck)s``)."""

NESTED: dict[str, tuple[str, tuple[str, ...]]] = {"reason": ("", REASONS), "stuck": ("; ", STUCK)}
"""Values that are sentences of their own: the separator of a list of them, and their forms."""

PLACES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^effect (?P<n>\d+), option (?P<k>\d+), step (?P<s>\d+): (?P<text>.*)$", re.S),
     N_("effect %(n)s, option %(k)s, step %(s)s: %(text)s")),
    (re.compile(r"^effect (?P<n>\d+), option (?P<k>\d+): (?P<text>.*)$", re.S), N_("effect %(n)s, option %(k)s: %(text)s")),
    (re.compile(r"^effect (?P<n>\d+): (?P<text>.*)$", re.S), N_("effect %(n)s: %(text)s")),
    (re.compile(r"^material (?P<n>\d+): (?P<text>.*)$", re.S), N_("material %(n)s: %(text)s")),
)
"""Where in a field a problem is, as the message begins (see the module)."""

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")
_RULE_TAIL = re.compile(r" \((?:docs/[^()]*|RULES\.md[^()]*|§[^()]*|game\.yaml[^()]*)\)$")


@lru_cache(maxsize=None)
def form_pattern(form: str) -> re.Pattern[str]:
    """The pattern reading a form's values back out of a sentence (the form's words, literally)."""
    parts, seen, at = ["^"], set(), 0
    for m in _PLACEHOLDER.finditer(form):
        parts.append(re.escape(form[at:m.start()]))
        name = m.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        at = m.end()
    parts += [re.escape(form[at:]), "$"]
    return re.compile("".join(parts), re.S)


def _by_length(forms: tuple[str, ...]) -> list[str]:
    """The forms with the most fixed words first (a more specific form wins over a looser one)."""
    return sorted(forms, key=lambda f: -len(_PLACEHOLDER.sub("", f)))


_ALL_FORMS = _by_length(tuple({f for forms in FORMS.values() for f in forms}))


def match_form(text: str, forms: list[str] | tuple[str, ...]) -> tuple[str, dict[str, str]] | None:
    """The first of ``forms`` that ``text`` reads as, with its values."""
    for form in forms:
        m = form_pattern(form).match(text)
        if m:
            return form, m.groupdict()
    return None


def read_problem(code: str, message: str, rule: str = "") -> tuple[list[tuple[str, dict[str, str]]], str, str] | None:
    """How a problem's message reads: its places (outermost first), then its sentence's form and
    values, and its rule tail; ``None`` when no form of this module matches it."""
    tail = ""
    if rule and message.endswith(f" ({rule})"):
        message, tail = message[: -len(rule) - 3], f" ({rule})"
    else:
        m = _RULE_TAIL.search(message)
        if m:
            message, tail = message[: m.start()], m.group(0)
    places: list[tuple[str, dict[str, str]]] = []
    for _ in range(3):
        for pattern, form in PLACES:
            m = pattern.match(message)
            if m:
                values = m.groupdict()
                message = values.pop("text")
                places.append((form, values))
                break
        else:
            break
    found = match_form(message, _by_length(FORMS.get(code, ()))) or match_form(message, _ALL_FORMS)
    if found is None:
        return None
    return [*places, found], tail, message


_OPTION = re.compile(r"^option (?P<k>\d+): (?P<text>.*)$", re.S)


def read_nested(name: str, value: str) -> list[tuple[str | None, str, dict[str, str]] | None]:
    """A nested value's sentences (see :data:`NESTED`): each as (its option, form, values), or
    ``None`` for one that reads as none of its forms."""
    separator, forms = NESTED[name]
    out: list[tuple[str | None, str, dict[str, str]] | None] = []
    for part in value.split(separator) if separator else [value]:
        option = _OPTION.match(part)  # a choose option's step: "option 2: the seth engine does not run …"
        found = match_form(option.group("text") if option else part, _by_length(forms))
        out.append((option.group("k") if option else None, *found) if found else None)
    return out


def _nested(name: str, value: str) -> str | None:
    out = []
    for read in read_nested(name, value):
        if read is None:
            return None
        option, form, values = read
        from flask_babel import get_locale

        from workbench.web.effect_terms import labelled_values

        values = labelled_values(str(get_locale() or "en")[:2], "", values, _page_game())  # an engine's reason
        text = gettext(form, **values)
        out.append(gettext("option %(k)s: %(text)s", k=option, text=text) if option else text)
    return gettext("; ").join(out) if NESTED[name][0] else out[0]


def _page_game() -> Any:
    """The definition of the game the current page or API call is about, or ``None``."""
    from flask import has_request_context, request

    game = (request.view_args or {}).get("game") if has_request_context() else None
    if not isinstance(game, str):
        return None
    from workbench.web import get_repo

    try:
        return get_repo().game(game)
    except Exception:  # noqa: BLE001 - an unknown or broken game: its names stay as written
        return None


def translate_problem(problem: Any) -> str | None:
    """A problem (a ``Problem`` or its dict) in the reader's language from its code and values, or
    ``None`` when its message reads as none of the forms (the caller shows the English)."""
    get = problem.get if isinstance(problem, Mapping) else (lambda key, default=None: getattr(problem, key, default))
    read = read_problem(str(get("code", "") or ""), str(get("message", "") or ""), str(get("rule", "") or ""))
    if read is None:
        return None
    (*places, (form, values)), tail, _ = read
    for name in set(values) & set(NESTED):
        translated = _nested(name, values[name])
        if translated is None:
            return None
        values[name] = translated
    from flask_babel import get_locale

    from workbench.web.effect_terms import labelled_values

    values = labelled_values(str(get_locale() or "en")[:2], str(get("code", "") or ""), values, _page_game())
    text = gettext(form, **values)
    for place, where in reversed(places):
        text = gettext(place, text=text, **where)
    if "（" in text:  # a label's closing parenthesis needs no space before the Chinese that follows
        text = re.sub(r"(?<=[a-z_]）) (?=[\u4e00-\u9fff])", "", text)
    return text + tail
