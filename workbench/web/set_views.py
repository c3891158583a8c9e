"""The set overview (``GET /games/<game>/overview``): charts of the whole card set, filtered like
the gallery (kind, any enumerated field, search): counts by kind and by each enumerated field,
the cost curve, and the cost budget as a scatter with the budget line and the cards over it."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for
from flask_babel import gettext

from workbench.domain.gamedef import GameDefinition
from workbench.domain.setstats import FieldCounts, SetOverview, set_overview
from workbench.web import get_repo
from workbench.web.charts import bar_chart, budget_scatter
from workbench.web.gallery_views import _filter_options, check_query, filter_fields, query_cards
from workbench.web.ui import all_fields, install_error_page, value_label

bp = Blueprint("overview", __name__)
install_error_page(bp)


def _bars(definition: GameDefinition, counts: FieldCounts) -> list[tuple[str, float]]:
    fdef = next((f for f in all_fields(definition) if f.name == counts.field), None)
    return [(value_label(fdef, value), float(n)) for value, n in counts.counts.items()]


def _budget_chart(game: str, definition: GameDefinition, overview: SetOverview) -> Any:
    budget = definition.budget or {}
    if not overview.budget:
        return None
    limits = sorted({(p.step, p.limit) for p in overview.budget})
    fields = {f.name: f.label for f in all_fields(definition)}
    stat_label = " + ".join(fields.get(str(s), str(s)) for s in budget.get("sum", []))
    points = [(p.name, url_for("editor.edit_card", game=game, card_id=p.card_id), float(p.step), float(p.total),
               p.over > 0) for p in overview.budget]
    by = str(budget.get("by", ""))
    return budget_scatter(gettext("%(stats)s against %(by)s, with the budget line", stats=stat_label, by=fields.get(by, by)), points,
                          [(float(x), float(y)) for x, y in limits], fields.get(by, by), stat_label)


def _budget_columns(definition: GameDefinition) -> tuple[str, str]:
    """The over-budget table's step and stats headers: the game's field labels (``Oil cost``,
    ``Glow + Ward``), as on the scatter's axes."""
    budget = definition.budget or {}
    fields = {f.name: f.label for f in all_fields(definition)}
    by = str(budget.get("by", ""))
    return fields.get(by, by) or gettext("Step"), " + ".join(fields.get(str(s), str(s)) for s in budget.get("sum", [])) or gettext("Stats")


@bp.get("/games/<game>/overview")
def overview(game: str) -> str:
    """The set overview page; the query string filters the cards as the gallery's does."""
    check_query(request.args)
    repo = get_repo()
    definition = repo.game(game)
    cards = list(repo.snapshot(game, "cards").items)
    chosen = [item for item, _ in query_cards(game, definition, cards, request.args)]
    result = set_overview(definition, [(item.id, item.data) for item in chosen])
    kind_labels = {k: kd.label for k, kd in definition.kinds.items()}
    return render_template(
        "overview.html", game=definition, game_id=game, nav_active="Overview", overview=result,
        kind_chart=bar_chart(gettext("Cards by kind"), [(kind_labels.get(k, k or gettext("no kind")), float(n))
                                               for k, n in result.by_kind.items()], "bar kind"),
        curve_chart=bar_chart(gettext("%(field)s curve", field=result.curve.label), _bars(definition, result.curve), "bar curve")
        if result.curve else None,
        field_charts=[(c, bar_chart(gettext("Cards by %(field)s", field=c.label), _bars(definition, c))) for c in result.fields
                      if result.curve is None or c.field != result.curve.field],
        budget_chart=_budget_chart(game, definition, result),
        budget_columns=_budget_columns(definition),
        kinds=[{"id": k, "label": kd.label} for k, kd in definition.kinds.items()],
        filters=_filter_options(definition, cards, filter_fields(definition)),
        args=request.args, total=len(cards),
    )
