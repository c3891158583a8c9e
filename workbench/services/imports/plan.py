"""The import dry run and its confirmation.

:func:`dry_run` reads a file (its kind detected from name and content), compares every card with
the stored game and returns an :class:`ImportPlan`: per row *create*, *change* (which fields, old
and new), *unchanged* or *skip* (a cell could not be read), with every validation problem. Nothing
is written. :func:`apply` writes a confirmed plan through the Repository, each change guarded by
the version the dry run saw, so a card edited in between is reported, not overwritten.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Literal

from workbench.domain.errors import AlreadyExists, Conflict, DataError, NotFound, WorkbenchError
from workbench.domain.gamedef import GameDefinition
from workbench.domain.ids import is_valid_id, slugify
from workbench.domain.validation import validate_card, validate_deck
from workbench.storage.repository import Repository, Stored
from workbench.services.imports import cockatrice_deck, decklist, lackey, tabular
from workbench.services.imports.lackey import DeckImport
from workbench.services.imports.tabular import ImportFileError, ImportRow

Action = Literal["create", "change", "unchanged", "skip"]
FILE_KINDS = ("csv", "xlsx", "lackey", "dek", "cod", "decklist")


@dataclass
class PlanRow:
    """What the import would do with one row."""

    row: int
    card_id: str
    name: str
    action: Action
    changes: list[tuple[str, Any, Any]] = field(default_factory=list)  # (field, old, new)
    problems: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    version: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON and templates."""
        return {"row": self.row, "card_id": self.card_id, "name": self.name, "action": self.action,
                "changes": [{"field": f, "old": o, "new": n} for f, o, n in self.changes],
                "problems": list(self.problems)}


@dataclass
class DeckPlan:
    """What the import would do with a deck file."""

    deck_id: str
    name: str
    action: Action
    data: dict[str, Any]
    problems: list[str] = field(default_factory=list)
    version: str | None = None
    cards: int = 0


@dataclass
class ImportPlan:
    """The dry run of one file."""

    game_id: str
    source: str
    kind: str
    rows: list[PlanRow] = field(default_factory=list)
    deck: DeckPlan | None = None
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many rows would be created, changed, left unchanged, skipped."""
        counts = {"create": 0, "change": 0, "unchanged": 0, "skip": 0}
        for row in self.rows:
            counts[row.action] += 1
        if self.deck:
            counts[self.deck.action] += 1
        return counts

    def problem_count(self) -> int:
        """Every problem of the plan (rows, deck and file notes)."""
        return sum(len(r.problems) for r in self.rows) + (len(self.deck.problems) if self.deck else 0)

    def digest(self) -> str:
        """A fingerprint of what would be written; a confirmation must match the dry run's."""
        payload = [(r.card_id, r.action, r.version, r.data) for r in self.rows if r.action in ("create", "change")]
        if self.deck and self.deck.action in ("create", "change"):
            payload.append((self.deck.deck_id, self.deck.action, self.deck.version, self.deck.data))
        text = json.dumps(payload, sort_keys=True, default=str, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


@dataclass
class ApplyResult:
    """What a confirmed import wrote."""

    created: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def detect_kind(filename: str, data: bytes) -> str:
    """csv, xlsx, lackey (carddata / Dvorak dump), dek, cod (Cockatrice deck) or decklist, from
    name and content."""
    low = filename.lower()
    if low.endswith((".xlsx", ".xlsm")) or data[:4] == b"PK\x03\x04":
        return "xlsx"
    if cockatrice_deck.looks_like_cod(filename, data):  # as the deck builder tells it
        return "cod"
    if low.endswith(".dek") or data.lstrip()[:5] == b"<deck":
        return "dek"
    head = data[:4096].decode("utf-8", "replace").lstrip("\ufeff")
    first = head.split("\n", 1)[0]
    if first.startswith("Name\t"):
        return "lackey"
    if low.endswith(".csv"):
        return "csv"
    if decklist.looks_like_decklist(head):
        return "decklist"
    return "csv"


def _existing(repo: Repository, game_id: str) -> dict[str, Stored]:
    cards, _ = repo.list_cards_tolerant(game_id)
    return {c.id: c for c in cards}


def plan_cards(definition: GameDefinition, rows: list[ImportRow], existing: dict[str, Stored]) -> list[PlanRow]:
    """Compare imported rows with the stored cards: match by id, else by a unique name."""
    by_name: dict[str, list[str]] = {}
    for cid, stored in existing.items():
        by_name.setdefault(str(stored.data.get("name", "")).strip().casefold(), []).append(cid)
    taken = set(existing)
    seen: dict[str, int] = {}
    plans: list[PlanRow] = []
    for row in rows:
        name = str(row.data.get("name", "")).strip()
        if not row.readable:
            plans.append(PlanRow(row.row, row.card_id or "", name, "skip", problems=list(row.problems)))
            continue
        card_id = row.card_id if row.card_id in existing else None
        notes: list[str] = []
        if card_id is None:
            matches = by_name.get(name.casefold(), [])
            if len(matches) == 1 and not row.card_id:
                card_id = matches[0]
            elif len(matches) > 1 and not row.card_id:
                notes.append(f"row {row.row}: warning: {len(matches)} cards are named {name!r} "
                             f"({', '.join(matches)}); a new card is made. Add an id column to change one of them")
        if card_id is None:
            card_id = row.card_id if row.card_id and is_valid_id(row.card_id) and row.card_id not in taken else None
        if card_id is None:
            base = slugify(name, fallback="card")[:58].strip("-") or "card"
            card_id, n = base, 1
            while card_id in taken:
                n += 1
                card_id = f"{base}-{n}"
        if card_id in seen:
            plans.append(PlanRow(row.row, card_id, name, "skip",
                                 problems=[f"row {row.row}: card {card_id} was already imported from row {seen[card_id]}"]))
            continue
        seen[card_id] = row.row
        taken.add(card_id)
        stored = existing.get(card_id)
        if stored is None:
            data = dict(row.data)
            if "kind" not in data:
                plans.append(PlanRow(row.row, card_id, name, "skip", problems=[
                    f"row {row.row}: a new card needs a kind ({', '.join(definition.kinds)}); map a column to kind"]))
                continue
            plan = PlanRow(row.row, card_id, name, "create", data=data,
                           changes=[(k, None, v) for k, v in data.items()])
        else:
            data = dict(stored.data)
            data.update(row.data)  # an empty cell keeps the stored value
            changes = [(k, stored.data.get(k), v) for k, v in row.data.items() if stored.data.get(k) != v]
            plan = PlanRow(row.row, card_id, name, "change" if changes else "unchanged", changes=changes,
                           data=data, version=stored.version)
        plan.problems += notes
        for problem in validate_card(definition, plan.data, card_id):
            plan.problems.append(f"row {row.row}: {problem.severity}: {problem.message}")
        plans.append(plan)
    return plans


def plan_deck(definition: GameDefinition, deck: DeckImport, deck_id: str, repo: Repository, game_id: str) -> DeckPlan:
    """Compare an imported deck with a stored deck of the same id (zones replaced, rest kept)."""
    try:
        stored: Stored | None = repo.get_deck(game_id, deck_id)
    except NotFound:
        stored = None
    data: dict[str, Any] = dict(stored.data) if stored else {"name": deck.name}
    data["zones"] = {z: dict(c) for z, c in deck.zones.items()}
    action: Action = "create" if stored is None else ("unchanged" if stored.data == data else "change")
    plan = DeckPlan(deck_id, str(data.get("name", deck.name)), action, data, list(deck.problems),
                    stored.version if stored else None,
                    sum(n for zone in deck.zones.values() for n in zone.values()))
    index = repo.card_index(game_id)
    for problem in validate_deck(definition, data, index, deck_id):
        plan.problems.append(f"{problem.severity}: {problem.message}")
    return plan


def dry_run(
    repo: Repository,
    game_id: str,
    filename: str,
    data: bytes,
    *,
    mapping: str | dict[str, str] | None = None,
    kind: str | None = None,
    deck_id: str | None = None,
) -> ImportPlan:
    """Read a file and plan its import; nothing is written.

    Raises ImportFileError (a DataError) with a message naming the line, row or column when the
    file cannot be read at all; per-row problems are in the plan.
    """
    definition = repo.game(game_id)
    kind = kind or detect_kind(filename, data)
    if kind not in FILE_KINDS:
        raise DataError(f"import kind {kind!r} is not known; kinds: {', '.join(FILE_KINDS)}")
    given = tabular.parse_mapping(mapping) if isinstance(mapping, str) else dict(mapping or {})
    plan = ImportPlan(game_id, PurePath(filename).name, kind)
    if kind in ("dek", "cod", "decklist"):
        cards = {cid: s.data for cid, s in _existing(repo, game_id).items()}
        stem = PurePath(filename).stem
        if kind == "dek":
            deck = lackey.read_dek(data, definition, cards, fallback_name=stem or "Imported deck")
        elif kind == "cod":  # the deck builder's reader (services/imports/builder.py)
            deck = cockatrice_deck.read_cod(data, definition, cards, fallback_name=stem or "Imported deck")
        else:
            deck = decklist.read_decklist(data, definition, cards, name=stem or "Imported deck")
        target = deck_id or slugify(stem or deck.name, fallback="deck")
        plan.deck = plan_deck(definition, deck, target, repo, game_id)
        return plan
    if kind == "lackey":
        table = lackey.read_carddata(data)
        rows = lackey.carddata_cards(definition, table, given)
        if lackey.is_dvorak(table):
            plan.kind = "dvorak"
    else:
        table = tabular.read_xlsx(data) if kind == "xlsx" else tabular.read_csv(data)
        rows = tabular.rows_to_cards(definition, table, tabular.auto_mapping(definition, table.headers, given))
        ignored = [h for h, t in tabular.auto_mapping(definition, table.headers, given).items() if not t]
        if ignored:
            plan.notes.append(f"columns not imported (no matching field; map them with --mapping): {', '.join(ignored)}")
    plan.notes += table.notes
    plan.rows = plan_cards(definition, rows, _existing(repo, game_id))
    return plan


def apply(repo: Repository, game_id: str, plan: ImportPlan) -> ApplyResult:
    """Write the create and change rows of a confirmed plan (and its deck).

    Each change names the version the dry run saw; a card changed since is reported in
    ``failed`` and left as it is. Never raises for one row's failure.
    """
    result = ApplyResult()
    for row in plan.rows:
        try:
            if row.action == "create":
                repo.create_card(game_id, row.data, row.card_id)
                result.created.append(row.card_id)
            elif row.action == "change":
                repo.update_card(game_id, row.card_id, row.data, row.version)
                result.changed.append(row.card_id)
        except (Conflict, AlreadyExists, NotFound) as exc:
            result.failed.append(f"row {row.row} ({row.card_id}): {exc}")
        except WorkbenchError as exc:
            result.failed.append(f"row {row.row} ({row.card_id}): {exc}")
    deck = plan.deck
    if deck is not None and deck.action in ("create", "change"):
        try:
            if deck.action == "create":
                repo.create_deck(game_id, deck.data, deck.deck_id)
                result.created.append(f"deck {deck.deck_id}")
            else:
                repo.update_deck(game_id, deck.deck_id, deck.data, deck.version)
                result.changed.append(f"deck {deck.deck_id}")
        except WorkbenchError as exc:
            result.failed.append(f"deck {deck.deck_id}: {exc}")
    return result


__all__ = ["ImportPlan", "PlanRow", "DeckPlan", "ApplyResult", "ImportFileError", "dry_run", "apply", "detect_kind"]
