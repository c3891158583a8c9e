"""Decks: the list of a game's decks, the deck builder, its statistics panel, delete.

The builder (``static/js/deck.js``) keeps the deck in the page, asks the validate API for the
legality panel and ``POST /games/<game>/deck-stats`` for the statistics (server-rendered SVG
charts from :mod:`workbench.domain.deckstats`), and saves through the JSON API with If-Match.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from workbench.domain.deckstats import (
    DEFAULT_TURNS,
    StatsError,
    deck_counts,
    deck_options,
    deck_statistics,
    draw_plan,
    odds_table,
    prob_opening_hand,
    wanted_count,
)
from workbench.domain.errors import Conflict, NotFound
from workbench.domain.gamedef import GameDefinition
from workbench.domain.limits import deck_shape_over_caps
from workbench.domain.problems import has_errors
from workbench.domain.validation import resolve_bound
from workbench.services.checks import deck_problems
from workbench.web import get_repo
from workbench.web.charts import bar_chart, gauge, line_chart
from workbench.web.game_text import problem_message
from workbench.web.ui import N_, card_summary, install_error_page, search_text

bp = Blueprint("decks", __name__)
install_error_page(bp)
MAX_TURNS = 20


@bp.get("/games/<game>/decks")
def deck_list(game: str) -> str:
    """Every deck of a game with its size per zone and whether it is legal."""
    repo = get_repo()
    definition = repo.game(game)
    decks, unreadable = repo.list_decks_tolerant(game)
    rows = []
    for item in decks:
        problems = deck_problems(repo, game, item.data, item.id)
        zones = item.data.get("zones") if isinstance(item.data.get("zones"), dict) else {}
        sizes = []
        for zone_id, zone in definition.zones.items():
            content = zones.get(zone_id) if isinstance(zones.get(zone_id), dict) else {}
            total = sum(n for n in content.values() if isinstance(n, int) and not isinstance(n, bool))
            if total or zone.spec.get("play"):
                sizes.append({"label": zone.label, "total": total})
        fmt = item.data.get("format")
        rows.append({
            "id": item.id, "name": str(item.data.get("name") or item.id),
            "format": str(definition.formats.get(fmt, {}).get("label", fmt)) if fmt else "",
            "sizes": sizes, "legal": not has_errors(problems),
            "errors": sum(p.is_error for p in problems), "warnings": sum(not p.is_error for p in problems),
            "first_problem": next((problem_message(p) for p in problems if p.is_error), ""),
        })
    return render_template("decks.html", game=definition, game_id=game, rows=rows, unreadable=unreadable,
                           nav_active="Decks")


def _zones(definition: GameDefinition) -> list[dict[str, Any]]:
    options = definition.default_options()
    out = []
    for zone_id, zone in definition.zones.items():
        spec = zone.spec
        exactly = resolve_bound(spec.get("exactly"), options)
        low = resolve_bound(spec.get("min"), options)
        high = resolve_bound(spec.get("max"), options)
        if exactly is not None:
            size = gettext("exactly %(n)s", n=exactly)
        elif low is not None and high is not None:
            size = f"{low}–{high}"
        elif low is not None:
            size = gettext("at least %(n)s", n=low)
        elif high is not None:
            size = gettext("at most %(n)s", n=high)
        else:
            size = ""
        out.append({"id": zone_id, "label": zone.label, "kinds": list(zone.kinds), "size": size})
    return out


def _copy_limits(definition: GameDefinition) -> dict[str, dict[str, int]]:
    """Format ("" = none) -> zone -> the most copies of one card its ``max_copies`` rule allows,
    for the builder's "4×" buttons (zones without the rule, and formats without a limit, have none)."""
    zones = [z for rule in definition.deck_rules if rule.get("check") == "max_copies" for z in rule.get("zones", [])]
    out: dict[str, dict[str, int]] = {}
    for fmt in [""] + list(definition.formats):
        try:
            options = definition.resolve_options(fmt or None)
        except Exception:  # noqa: BLE001 - a broken format shows no limit buttons; validation names it
            continue
        rule = next((r for r in definition.deck_rules if r.get("check") == "max_copies"), None)
        limit = resolve_bound(rule.get("limit"), options) if rule else None
        if isinstance(limit, int) and limit > 0:
            out[fmt] = {zone: limit for zone in zones}
    return out


def _deck_links(game: str, deck_id: str) -> list[dict[str, str]]:
    """Where a saved deck can go next: print, playtest, play, export, and its text list."""
    from workbench.web.ui import rule_url

    links = [(N_("Print this deck"), rule_url("/games/<game>/print", game=game), {"deck": deck_id}),
             (N_("Playtest this deck"), rule_url("/games/<game>/playtest", game=game), {"deck_a": deck_id}),
             (N_("Play with this deck"), rule_url("/games/<game>/play", game=game), {"deck": deck_id}),
             (N_("Export this deck"), rule_url("/games/<game>/export", game=game), {"deck": deck_id}),
             (N_("Download as text"), url_for("decks.deck_list_text_view", game=game, deck_id=deck_id), {})]
    from urllib.parse import urlencode

    return [{"label": label, "url": url + (("?" + urlencode(args)) if args else "")}
            for label, url, args in links if url]


def _builder(game: str, deck_id: str | None, deck: dict[str, Any], version: str | None) -> str:
    repo = get_repo()
    definition = repo.game(game)
    cards, _ = repo.list_cards_tolerant(game)
    card_rows = []
    for item in sorted(cards, key=lambda c: str(c.data.get("name", c.id)).casefold()):
        kind = str(item.data.get("kind", ""))
        summary = card_summary(definition, item.data)
        card_rows.append({
            "id": item.id, "name": str(item.data.get("name") or item.id), "kind": kind,
            "kind_label": definition.kinds[kind].label if kind in definition.kinds else kind,
            "summary": " · ".join(f"{s['label']} {s['value']}".strip() for s in summary),
            "search": search_text(item.id, item.data),
        })
    data = {
        "game": game,
        "copy_limits": _copy_limits(definition),
        "deck_id": deck_id,
        "version": version,
        "deck": deck,
        "zones": _zones(definition),
        "kinds": {k: kd.label for k, kd in definition.kinds.items()},
        "cards": card_rows,
        "urls": {
            "decks": url_for("api.create_deck", game=game),
            "deck": url_for("api.get_deck", game=game, deck_id="__ID__"),
            "validate": url_for("api.validate", game=game),
            "stats": url_for("decks.deck_stats", game=game),
            "edit": url_for("decks.edit_deck", game=game, deck_id="__ID__"),
            "card": url_for("editor.edit_card", game=game, card_id="__ID__"),
            "import_list": url_for("decks.deck_import", game=game),
        },
    }
    stats_html = render_stats(game, definition, deck, {})
    return render_template(
        "deck_builder.html", game=definition, game_id=game, deck_id=deck_id, deck=deck, data=data,
        zones=data["zones"], formats=[{"id": f, "label": str(v.get("label", f))} for f, v in definition.formats.items()],
        kinds=[{"id": k, "label": kd.label} for k, kd in definition.kinds.items()],
        stats_html=stats_html, nav_active="Decks", has_draws=draw_plan(definition).draws,
        deck_links=_deck_links(game, deck_id) if deck_id else [],
        list_example=_list_example(definition, card_rows),
    )


def _list_example(definition: Any, card_rows: list[dict[str, Any]]) -> str:
    """The paste box's example in this game's own cards and zones ("2 火龙 / 2x … / 额外卡组 Extra deck: / 1 …")."""
    zones = list(definition.zones.values())
    if not zones:
        return ""
    first = [c for c in card_rows if c["kind"] in zones[0].kinds][:2]
    lines = [f"{count} {c['name']}" for count, c in zip(("2", "2x"), first)]
    if len(zones) > 1:
        other = [c for c in card_rows if c["kind"] in zones[1].kinds and c not in first][:1]
        lines += [f"{zones[1].label}:", *(f"1 {c['name']}" for c in other)] if other else []
    return "\n".join(lines)


@bp.get("/games/<game>/new-deck")
def new_deck(game: str) -> str:
    """The deck builder with an empty deck."""
    definition = get_repo().game(game)
    deck: dict[str, Any] = {"name": request.args.get("name", ""), "zones": {z: {} for z in definition.zones}}
    if definition.formats:
        deck["format"] = next(iter(definition.formats))
    return _builder(game, None, deck, None)


@bp.get("/games/<game>/decks/<deck_id>/edit")
def edit_deck(game: str, deck_id: str) -> str:
    """The deck builder for a saved deck."""
    item = get_repo().get_deck(game, deck_id)
    return _builder(game, deck_id, item.data, item.version)


def _target(definition: GameDefinition, deck: dict[str, Any], cards: dict[str, Any],
            zone: str | None, body: dict[str, Any]) -> tuple[str, str | None, str | None, int]:
    """(description, card id, kind, k) of the draw-odds question; defaults to the first kind present."""
    try:
        k = max(1, min(int(body.get("k", 1)), 60))
    except (TypeError, ValueError):
        k = 1
    card_id = body.get("card") if isinstance(body.get("card"), str) and body.get("card") else None
    kind = body.get("kind") if isinstance(body.get("kind"), str) and body.get("kind") in definition.kinds else None
    if card_id and zone:
        name = str((cards.get(card_id) or {}).get("name", card_id))
        return (f"{name}", card_id, None, k)
    if kind is None:
        content = deck_counts(deck).get(zone, {}) if zone else {}
        present = {str((cards.get(cid) or {}).get("kind")) for cid in content}
        kind = next((k_ for k_ in definition.kinds if k_ in present), next(iter(definition.kinds)))
    return (gettext("%(kind)s cards", kind=definition.kinds[kind].label), None, kind, k)


def render_stats(game: str, definition: GameDefinition, deck: dict[str, Any], body: dict[str, Any]) -> str:
    """The statistics panel (HTML with SVG charts) for a deck and a draw-odds question."""
    repo = get_repo()
    cards = repo.card_index(game)
    stats = deck_statistics(definition, deck, cards)
    kind_labels = {k: kd.label for k, kd in definition.kinds.items()}
    zone_charts = []
    for zone in stats.zones:
        if not zone.total:
            continue
        bars = [(kind_labels.get(k, k), n) for k, n in zone.by_kind.items()]
        zone_charts.append({"zone": zone, "chart": bar_chart(gettext("%(zone)s: cards by kind", zone=zone.label), bars, "bar kind")})
    curve_charts = []
    for curve in stats.curves:
        zone_label = definition.zones[curve.zone].label
        bars = [(str(v), n) for v, n in curve.counts.items()]
        curve_charts.append({"curve": curve, "zone_label": zone_label,
                             "chart": bar_chart(gettext("%(zone)s: %(field)s curve", zone=zone_label, field=curve.label), bars, "bar curve")})
    totals = [{"total": t, "chart": gauge(gettext("%(total)s: %(n)s against the limit %(limit)s", total=t.label, n=t.total, limit=t.limit), t.total, t.limit, t.strict)}
              for t in stats.totals]
    odds = None
    error = None
    if stats.plan.draws and stats.draw_zone and stats.draw_zone_size:
        described, card_id, kind, k = _target(definition, deck, cards, stats.draw_zone, body)
        try:
            turns = max(1, min(int(body.get("turns", DEFAULT_TURNS)), MAX_TURNS))
        except (TypeError, ValueError):
            turns = DEFAULT_TURNS
        try:
            wanted = wanted_count(deck, cards, stats.draw_zone, card_id=card_id, kind=kind)
            rows = odds_table(stats.draw_zone_size, wanted, k, stats.plan, turns)
            opening = float(prob_opening_hand(stats.draw_zone_size, wanted, k, stats.plan))
        except StatsError as exc:
            error = str(exc)
        else:
            same = all(r.first == r.second for r in rows)
            series = [(gettext("going first"), "first", [(r.turn, r.first) for r in rows])]
            if not same:
                series.append((gettext("going second"), "second", [(r.turn, r.second) for r in rows]))
            title = gettext("Chance of at least %(k)s × %(what)s by turn", k=k, what=described)
            odds = {"rows": rows, "same": same, "k": k, "opening": opening,
                    "opening_seen": min(stats.plan.opening_hand, stats.draw_zone_size), "wanted": wanted, "described": described,
                    "card": card_id, "kind": kind, "turns": turns,
                    "chart": line_chart(title, series, x_label=gettext("turn"))}
    return render_template("decks/_stats.html", game=definition, stats=stats, zone_charts=zone_charts,
                           curve_charts=curve_charts, totals=totals, odds=odds, odds_error=error,
                           options=deck_options(definition, deck), kind_labels=kind_labels)


@bp.post("/games/<game>/deck-stats")
def deck_stats(game: str) -> Response:
    """Statistics of the deck in the body (``{"deck": …, "card"|"kind": …, "k": 1, "turns": 10}``) as HTML."""
    definition = get_repo().game(game)
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("deck"), dict):
        response = jsonify({"error": 'send {"deck": {...}} as JSON'})
        response.status_code = 400
        return response
    too_many = deck_shape_over_caps(body["deck"].get("zones"))
    if too_many is not None:  # counted before any statistic is built from the entries
        response = jsonify({"error": too_many})
        response.status_code = 400
        return response
    return jsonify({"html": render_stats(game, definition, body["deck"], body)})


@bp.post("/games/<game>/deck-import")
def deck_import(game: str) -> Response:
    """Read a pasted or uploaded deck list (``{"text": …, "filename": …}``) without saving it.

    Text lists (``4 Name``, ``4x Name``, names or ids, ``Zone:`` headings), Lackey ``.dek`` and
    Cockatrice ``.cod`` are recognised by file name or content. Answers the zones it found and
    the problems (unknown names, zones) for the builder's dry-run report; 400 names what is wrong.
    """
    from workbench.services.imports.builder import read_any_deck
    from workbench.services.imports.tabular import ImportFileError

    repo = get_repo()
    definition = repo.game(game)
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("text"), str):
        return _json_error('send {"text": "4 Card name\\n…"} as JSON', 400)
    cards = {cid: data for cid, data in repo.card_index(game).items()}
    try:
        found = read_any_deck(body["text"].encode("utf-8"), str(body.get("filename") or ""), definition, cards)
    except ImportFileError as exc:
        return _json_error(str(exc), 400)
    names = {cid: str(cards[cid].get("name", cid)) for zone in found.zones.values() for cid in zone}
    from workbench.web.transfer_text import transfer_text

    return jsonify({"name": found.name, "zones": found.zones, "problems": found.problems,
                    "problem_texts": [transfer_text(p) for p in found.problems],  # in the reader's language
                    "cards": sum(n for zone in found.zones.values() for n in zone.values()), "names": names})


@bp.get("/games/<game>/decks/<deck_id>/list.txt")
def deck_list_text_view(game: str, deck_id: str) -> Response:
    """The saved deck as a plain-text list (``4 Name`` under ``Zone:`` headings) to download."""
    from workbench.services.exports.decklist import deck_list_text

    repo = get_repo()
    definition = repo.game(game)
    item = repo.get_deck(game, deck_id)
    names = {cid: str(data.get("name", cid)) for cid, data in repo.card_index(game).items()}
    response = Response(deck_list_text(definition, item.data, names), mimetype="text/plain")
    response.headers["Content-Disposition"] = f'attachment; filename="{deck_id}.txt"'
    return response


def _json_error(message: str, status: int) -> Response:
    response = jsonify({"error": message})
    response.status_code = status
    return response


@bp.route("/games/<game>/decks/<deck_id>/delete", methods=["GET", "POST"])
def delete_deck(game: str, deck_id: str) -> str | Response:
    """GET: ask for confirmation. POST: delete the deck (refused if it changed meanwhile)."""
    repo = get_repo()
    definition = repo.game(game)
    if request.method == "POST":
        name = request.form.get("name", deck_id)
        try:
            repo.delete_deck(game, deck_id, request.form.get("version", ""))
        except Conflict:
            flash(gettext("%(name)s was changed elsewhere since you opened it; nothing was deleted.", name=name), "error")
            return redirect(url_for("decks.delete_deck", game=game, deck_id=deck_id))
        except NotFound:
            flash(gettext("%(name)s was already deleted.", name=name), "info")
            return redirect(url_for("decks.deck_list", game=game))
        flash(gettext("Deleted deck %(name)s.", name=name), "success")
        return redirect(url_for("decks.deck_list", game=game))
    item = repo.get_deck(game, deck_id)
    return render_template("deck_delete.html", game=definition, game_id=game, deck_id=deck_id, item=item,
                           nav_active="Decks")
