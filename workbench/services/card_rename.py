"""Renaming a card's id: a new file under the new id, the old one deleted, decks updated.

A card's id is its file name, and decks refer to cards by id, so a rename that did not update
the decks would silently break them.
"""

from __future__ import annotations

from workbench.domain.errors import AlreadyExists, Conflict
from workbench.domain.ids import check_id
from workbench.storage.repository import Repository, Stored


def rename_card(repo: Repository, game: str, old_id: str, new_id: str, expected_version: str) -> tuple[Stored, list[str]]:
    """Move card ``old_id`` to ``new_id`` and point every deck of the game at the new id.

    Returns the card as stored under its new id and the ids of the decks that were changed.
    Raises InvalidId for a bad new id, AlreadyExists when it is taken (by another card, or the new
    id is this card's own), NotFound when the card is gone, Conflict when the card changed since
    ``expected_version`` (nothing is changed then).
    """
    check_id(new_id, "new card id")
    current = repo.get_card(game, old_id)
    if new_id == old_id:  # not "exists already": the card it would clash with is this one
        raise AlreadyExists(f"{new_id!r} is already this card's id; type a different id to rename it")
    if current.version != expected_version:
        raise Conflict(
            f"card {old_id!r} was changed since version {expected_version}; it is now at version "
            f"{current.version}. Reload it and rename again.", current.version)
    created = repo.create_card(game, current.data, new_id)
    try:
        repo.delete_card(game, old_id, expected_version)
    except Exception:
        repo.delete_card(game, new_id, created.version)  # undo: never leave two copies behind
        raise
    changed = []
    decks, _ = repo.list_decks_tolerant(game)
    for deck in decks:
        zones = deck.data.get("zones")
        if not isinstance(zones, dict) or not any(isinstance(z, dict) and old_id in z for z in zones.values()):
            continue
        new_zones = {}
        for zone, content in zones.items():
            if isinstance(content, dict) and old_id in content:
                content = {(new_id if cid == old_id else cid): n for cid, n in content.items()}
            new_zones[zone] = content
        repo.update_deck(game, deck.id, {**deck.data, "zones": new_zones}, deck.version)
        changed.append(deck.id)
    return created, changed


def decks_using(repo: Repository, game: str, card_id: str) -> list[tuple[str, str]]:
    """(deck id, deck name) of the decks of ``game`` that hold ``card_id`` in any zone."""
    decks, _ = repo.list_decks_tolerant(game)
    out = []
    for deck in decks:
        zones = deck.data.get("zones")
        if isinstance(zones, dict) and any(isinstance(z, dict) and card_id in z for z in zones.values()):
            out.append((deck.id, str(deck.data.get("name") or deck.id)))
    return out
