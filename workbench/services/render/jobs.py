"""What to print: a whole set, a deck with its copies, or a selection of cards, from the repository."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from workbench.domain.errors import NotFound, WorkbenchError
from workbench.domain.ids import check_id
from workbench.domain.limits import MAX_PRINT_CARDS, TooMany
from workbench.storage.art import read_art
from workbench.storage.render_cache import RenderCache
from workbench.storage.repository import Repository

CACHE_FOLDER = ".render-cache"


class NothingToPrint(WorkbenchError):
    """The chosen set, deck or selection has no cards."""


def select_cards(repo: Repository, game_id: str, deck_id: str | None = None,
                 card_ids: Sequence[str] | None = None, all_cards: bool = False) -> list[dict[str, Any]]:
    """Card dicts (with ``id``) to print, one per printed copy, in print order.

    A deck gives each copy of each card, zone by zone in game.yaml order; a selection gives
    each named card once, in the order given; ``all_cards`` gives the set once, by card number
    then id. Exactly one of the three must be chosen. Raises NotFound, InvalidId,
    NothingToPrint, WorkbenchError (none or several chosen).
    """
    chosen = sum(1 for x in (deck_id, card_ids, all_cards) if x)
    if chosen != 1:
        raise WorkbenchError("choose exactly one of a deck, a list of cards or the whole set")
    definition = repo.game(game_id)
    if deck_id:
        zones = repo.deck_cards(game_id, check_id(deck_id, "deck id"))
        order = list(definition.zones) + [z for z in zones if z not in definition.zones]
        cards = [card for zone in order for card in zones.get(zone, [])]
    elif card_ids:
        if len(card_ids) > MAX_PRINT_CARDS:  # refused before reading any card
            raise TooMany(f"{len(card_ids):,} cards to print; one PDF holds at most {MAX_PRINT_CARDS:,}")
        cards = []
        for card_id in card_ids:
            stored = repo.get_card(game_id, check_id(card_id.strip(), "card id"))
            cards.append(dict(stored.data, id=stored.id))
    else:
        stored_cards = repo.list_cards(game_id)
        cards = [dict(c.data, id=c.id) for c in stored_cards]
        cards.sort(key=lambda c: (str(c.get("number") or "~"), c["id"]))
    if not cards:
        raise NothingToPrint("nothing to print: the set, deck or selection has no cards")
    if len(cards) > MAX_PRINT_CARDS:
        raise TooMany(f"{len(cards):,} cards to print; one PDF holds at most {MAX_PRINT_CARDS:,} "
                      "(print the deck or set in parts)")
    return cards


def art_loader(repo: Repository, game_id: str) -> Callable[[str], bytes | None]:
    """A function giving the bytes of a card's art file (None when it is missing or unsafe)."""
    game_dir = repo.game_dir(game_id)

    def load(name: str) -> bytes | None:
        return read_art(game_dir, name)

    return load


def cache_for(export_dir: Path | str) -> RenderCache:
    """The render cache inside the exports folder (ignored by git)."""
    return RenderCache(Path(export_dir) / CACHE_FOLDER)


def require_card(repo: Repository, game_id: str, card_id: str) -> dict[str, Any]:
    """One card's data with its id. Raises NotFound/InvalidId."""
    stored = repo.get_card(game_id, check_id(card_id, "card id"))
    if stored is None:  # pragma: no cover - repository raises first
        raise NotFound(f"card {card_id!r} does not exist")
    return dict(stored.data, id=stored.id)
