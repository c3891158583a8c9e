"""The card editor: a form generated from the game definition, live validation and preview.

The page is built by ``static/js/editor.js`` from the JSON data block this view renders; saving
goes through the JSON API with ``If-Match`` so a stale save is refused (and the editor shows the
conflict panel). Delete and rename are plain forms with confirmation pages, so they work and are
CSRF-checked like every other state change.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext, ngettext
from werkzeug.wrappers import Response

from workbench.domain.effects.schema import DOCS_PAGE, effects_schema
from workbench.domain.errors import AlreadyExists, Conflict, InvalidId, NotFound
from workbench.domain.validation import filter_keys, stat_names
from workbench.services.card_rename import decks_using, rename_card
from workbench.services.checks import card_problems
from workbench.web import get_repo
from workbench.web.ui import cached_page, editor_schema, face_url, install_error_page, preview_url, rule_url

bp = Blueprint("editor", __name__)
install_error_page(bp)
ART_RULE = "/games/<game>/cards/<card_id>/art"  # the render feature's upload route, when installed


def _page(game: str, card_id: str | None, card: dict[str, Any], version: str | None,
          duplicate_of: str | None = None, **extra: Any) -> str:
    repo = get_repo()
    definition = repo.game(game)
    problems = card_problems(definition, card, card_id) if card_id else []
    data = {
        "game": game,
        "schema": editor_schema(definition),
        "card_id": card_id,
        "version": version,
        "card": card,
        "effects": _effects_data(definition),
        "urls": {
            "cards": url_for("api.create_card", game=game),
            "card": url_for("api.get_card", game=game, card_id="__ID__"),
            "validate": url_for("api.validate", game=game),
            "edit": url_for("editor.edit_card", game=game, card_id="__ID__"),
            "preview": preview_url(game),
            "gallery": url_for("gallery.gallery", game=game),
        },
    }
    kind = card.get("kind")
    return render_template(
        "editor.html",
        game=definition,
        game_id=game,
        card_id=card_id,
        card=card,
        version=version,
        data=data,
        kinds=[{"id": k, "label": kd.label} for k, kd in definition.kinds.items()],
        kind=kind,
        problems=problems,
        duplicate_of=duplicate_of,
        face=face_url(game, card_id) if card_id else None,
        used_in=decks_using(repo, game, card_id) if card_id else [],
        nav_active="Gallery",
        art_upload=rule_url(ART_RULE, method="POST", game=game, card_id=card_id) if card_id else None,
        name_label=next((f.label for f in definition.common_fields if f.name == "name"), "Name"),
        **extra,
    )


def has_x_costs(definition: Any) -> bool:
    """Whether an effect's amount can be X in this game: a card field allows "X" (game.yaml's
    ``also_allowed``, fusion's cost) or the engine's capabilities take a mana cost (``mana: X``).
    Warzone and seth have no mana, so their Amount hint does not mention X."""
    from workbench.domain.errors import WorkbenchError
    from workbench.services.playtest.runner import resolve_engine

    fields = list(definition.common_fields) + [f for k in definition.kinds.values() for f in k.fields]
    if any("X" in (f.spec.get("also_allowed") or []) for f in fields):
        return True
    try:
        caps = resolve_engine(definition.engine).capabilities if definition.engine else None
    except WorkbenchError:
        caps = None
    return caps is None or "mana" in caps.costs  # an engine that declares nothing: X may be meant


def _effects_data(definition: Any) -> dict[str, Any]:
    """What the structured effects editor offers: the vocabulary, the game's stats (name, label) and
    the schema the rows are built from (``effects.schema.effects_schema``), in the page's language."""
    labels: dict[str, str] = {}
    for fdef in list(definition.common_fields) + [f for k in definition.kinds.values() for f in k.fields]:
        labels.setdefault(fdef.name, fdef.label or fdef.name)
    labels.setdefault("kind", gettext("Kind"))  # every card's kind, which no game.yaml field labels
    stats = [(name, labels.get(name, name)) for name in sorted(stat_names(definition))]
    keys = [(name, labels.get(name, name)) for name in sorted(filter_keys(definition))]
    language = str(get_locale() or "en")
    # The schema's parts are lists, in the vocabulary's order (the page's JSON sorts mapping keys).
    return {"stats": [{"name": name, "label": label} for name, label in stats],
            "schema": effects_schema(stats, keys, "zh" if language.startswith("zh") else "en",
                                     x_costs=has_x_costs(definition)),
            "docs": url_for("help.page", name=DOCS_PAGE),
            # The rules text is offered in the game's own language (fusion: Chinese) and English.
            "text_languages": ["zh", "en"] if definition.raw.get("language") == "zh" else ["en"]}


@bp.get("/games/<game>/new-card")
def new_card(game: str) -> str:
    """The editor for a new card of ``?kind=`` (or a copy of ``?from=<card id>``)."""
    repo = get_repo()
    definition = repo.game(game)
    source = request.args.get("from")
    if source:
        original = repo.get_card(game, source)
        card = dict(original.data)
        card["name"] = f"{card.get('name', source)} (copy)"
        return _page(game, None, card, None, duplicate_of=source)
    kind = request.args.get("kind") or next(iter(definition.kinds))
    if kind not in definition.kinds:
        raise NotFound(f"{definition.name} has no card kind {kind!r}; kinds: {', '.join(definition.kinds)}")
    card: dict[str, Any] = {"name": "", "kind": kind}
    for fdef in definition.fields_for(kind):
        if "default" in fdef.spec:
            card[fdef.name] = fdef.spec["default"]
    return _page(game, None, card, None)


@bp.get("/games/<game>/cards/<card_id>/edit")
def edit_card(game: str, card_id: str) -> str:
    """The editor for a saved card (remembered per card version, definition and decks)."""
    repo = get_repo()
    item = repo.get_card(game, card_id)
    definition = repo.game(game)
    key = ("editor", game, card_id, item.version, id(definition), repo.snapshot(game, "decks").token)
    return cached_page(key, definition, lambda **extra: _page(game, card_id, item.data, item.version, **extra))


@bp.route("/games/<game>/cards/<card_id>/delete", methods=["GET", "POST"])
def delete_card(game: str, card_id: str) -> str | Response:
    """GET: ask for confirmation (naming the decks that use the card). POST: delete it."""
    repo = get_repo()
    definition = repo.game(game)
    if request.method == "POST":
        version = request.form.get("version", "")
        name = request.form.get("name", card_id)
        try:
            repo.delete_card(game, card_id, version)
        except Conflict:
            flash(gettext("%(name)s was changed in another window since you opened it; nothing was deleted. "
                          "Check the current version below before deleting.", name=name), "error")
            return redirect(url_for("editor.delete_card", game=game, card_id=card_id))
        except NotFound:
            flash(gettext("%(name)s was already deleted.", name=name), "info")
            return redirect(url_for("gallery.gallery", game=game))
        flash(gettext("Deleted %(name)s.", name=name), "success")
        return redirect(url_for("gallery.gallery", game=game))
    item = repo.get_card(game, card_id)
    return render_template("card_delete.html", game=definition, game_id=game, card_id=card_id, item=item,
                           used_in=decks_using(repo, game, card_id), nav_active="Gallery")


@bp.route("/games/<game>/cards/<card_id>/rename", methods=["GET", "POST"])
def rename(game: str, card_id: str) -> str | Response:
    """GET: the rename form. POST: move the card to a new id and update the decks that use it."""
    repo = get_repo()
    definition = repo.game(game)
    item = repo.get_card(game, card_id)
    error = None
    new_id = request.form.get("new_id", "").strip() if request.method == "POST" else ""
    if request.method == "POST":
        try:
            created, decks = rename_card(repo, game, card_id, new_id, request.form.get("version", ""))
        except (InvalidId, AlreadyExists, Conflict) as exc:
            error = str(exc)
        else:
            note = ngettext(" and updated %(num)d deck (%(decks)s)", " and updated %(num)d decks (%(decks)s)", len(decks),
                            decks=", ".join(decks)) if decks else ""
            flash(gettext("Renamed %(old)s to %(new)s%(note)s.", old=card_id, new=created.id, note=note), "success")
            return redirect(url_for("editor.edit_card", game=game, card_id=created.id))
    return render_template("card_rename.html", game=definition, game_id=game, card_id=card_id, item=item,
                           new_id=new_id, error=error, used_in=decks_using(repo, game, card_id),
                           nav_active="Gallery"), (400 if error else 200)
