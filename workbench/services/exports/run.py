"""Run an export by format name: read the game from the Repository, call the format's writer,
and hand the bundle to :mod:`workbench.storage.export_files`. Used by the CLI and the web."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from PIL import Image

from workbench.domain.errors import DataError, NotFound
from workbench.domain.limits import TooMany, check_deck_counts
from workbench.storage import export_files
from workbench.storage.repository import Repository
from workbench.services.exports import cockatrice, dvorak, lackey, mush, table, tts
from workbench.services.exports.common import Bundle
from workbench.services.exports.faces import Faces

def N_(message: str) -> str:
    """Mark a label for the web interface's catalogues (the page translates it; the CLI shows it as is)."""
    return message


FORMATS: dict[str, str] = {
    "lackey": N_("LackeyCCG plugin (folder and zip)"),
    "dvorak-lackey": N_("Dvorak wiki 8-column Lackey dump"),
    "mush": N_("MUSHcode deck object (PennMUSH / TinyMUX)"),
    "dvorak-mush": N_("Dvorak MUSH Engine loadcard commands"),
    "cockatrice": N_("Cockatrice cards.xml (v4) and .cod decks"),
    "tts": N_("Tabletop Simulator deck sheets and saved object"),
    "csv": N_("Spreadsheet (CSV) of all cards"),
    "xlsx": N_("Spreadsheet (XLSX) of all cards"),
}
NEEDS_IMAGES = {"lackey", "cockatrice", "tts"}


@dataclass
class ExportResult:
    """What an export wrote: the folder, the files, the main file, a zip, notes for the designer."""

    format: str
    folder: Path
    files: list[Path]
    main: Path
    zip: Path | None = None
    notes: list[str] = field(default_factory=list)
    base_url: str | None = None  # as written into the files (auto-update, picture URLs), checked


def _check_url(base_url: str | None) -> str | None:
    """The base URL as the exports write it (ending in ``/``), or None. Raises DataError unless it
    is an http or https address of a host, with no user name or password in it (an auto-updater
    would send them to whoever the host is), no query, fragment, spaces or quotes."""
    if not base_url:
        return None
    shown = base_url[:80]
    if any(c in base_url for c in " \t\r\n\"'<>\\") or any(ord(c) < 32 or ord(c) == 127 for c in base_url):
        raise DataError(f"base URL {shown!r} must be an http(s) address without spaces or quotes")
    try:
        parts = urlsplit(base_url)
        port = parts.port  # a bad port raises ValueError
    except ValueError:
        raise DataError(f"base URL {shown!r} is not a valid address") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DataError(f"base URL {shown!r} must be an http(s) address: start with http:// or https:// "
                        f"and name a host")
    if "@" in parts.netloc:
        raise DataError(f"base URL {shown!r} must not hold a user name or password")
    if parts.query or parts.fragment or "?" in base_url or "#" in base_url:
        raise DataError(f"base URL {shown!r} must not have a query (?…) or fragment (#…)")
    if port == 0:
        raise DataError(f"base URL {shown!r} has port 0")
    return base_url.rstrip("/") + "/"


def build(
    repo: Repository,
    game_id: str,
    fmt: str,
    *,
    deck_id: str | None = None,
    base_url: str | None = None,
    local_folder: Path | None = None,
    server: str = "pennmush",
    ascii_only: bool = False,
    renderer: Any = True,
    today: _dt.date | None = None,
) -> Bundle:
    """The bundle of one export, nothing written. Raises DataError for an unknown format or a bad
    base URL, NotFound/InvalidId for a missing game or deck."""
    if fmt not in FORMATS:
        raise DataError(f"export format {fmt!r} is not known; formats: {', '.join(FORMATS)}")
    base_url = _check_url(base_url)
    definition = repo.game(game_id)
    stored, unreadable = repo.list_cards_tolerant(game_id)
    cards = [dict(c.data, id=c.id) for c in stored]
    over_caps: list[str] = []
    if deck_id:
        decks = [dict(repo.get_deck(game_id, deck_id).data, id=deck_id)]
    else:
        decks, over_caps = _decks_within_caps([dict(d.data, id=d.id) for d in repo.list_decks_tolerant(game_id)[0]])
    deck = decks[0] if deck_id else None
    in_deck = cards
    if deck is not None:
        used = {str(cid) for zone in (deck.get("zones") or {}).values() for cid in (zone or {})}
        in_deck = [c for c in cards if c["id"] in used]
    faces = Faces(definition, renderer, art=_art_loader(repo, game_id)) if fmt in NEEDS_IMAGES else None
    if fmt == "lackey":
        bundle = lackey.export_plugin(definition, cards, decks, faces=faces, base_url=base_url, today=today,
                                      ascii_names=ascii_only)
    elif fmt == "dvorak-lackey":
        bundle = dvorak.lackey_dump(definition, in_deck, deck.get("name") if deck else None)
    elif fmt == "dvorak-mush":
        bundle = dvorak.mush(definition, in_deck, deck.get("name") if deck else None, server=server,
                             ascii_only=ascii_only)
    elif fmt == "mush":
        bundle = mush.export_deck_object(definition, cards, deck, server=server, ascii_only=ascii_only)
    elif fmt == "cockatrice":
        bundle = cockatrice.export_cockatrice(definition, cards, decks, faces=faces, base_url=base_url, today=today)
    elif fmt == "tts":
        if base_url is None:
            if local_folder is None:
                raise DataError("a Tabletop Simulator export needs a base URL or a local folder")
            base_url = local_folder.resolve().as_uri() + "/"
        bundle = tts.export_tts(definition, cards, deck, faces=faces, base_url=base_url)
    elif fmt == "csv":
        bundle = table.export_csv(definition, cards)
    else:
        bundle = table.export_xlsx(definition, cards)
    if unreadable:
        bundle.notes.append(f"{len(unreadable)} card files could not be read and were left out: "
                            + ", ".join(cid for cid, _ in unreadable))
    bundle.notes.extend(over_caps)
    return bundle


def _decks_within_caps(decks: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The decks an export of every deck can write, and a note for each one left out.

    A deck whose counts pass the caps of workbench.domain.limits (a hand-edited file) would make
    the export expand a billion copies; it is left out with the cap named, and the other decks
    and every card are still exported. (An export of that one deck is refused with the same message.)
    """
    kept: list[dict[str, Any]] = []
    notes: list[str] = []
    for deck in decks:
        try:
            check_deck_counts(deck.get("zones"), f"deck {str(deck['id'])[:80]!r}")
        except TooMany as exc:
            notes.append(f"deck {deck['id']} was left out: {exc}")
            continue
        kept.append(deck)
    return kept, notes


def _art_loader(repo: Repository, game_id: str) -> Any:
    """A function card -> its uploaded art picture (or None), for the renderer."""

    def load(card: dict[str, Any]) -> Image.Image | None:
        name = card.get("art")
        if not isinstance(name, str) or not name:
            return None
        try:
            path = repo.art_file(game_id, name)
            if path is None:
                return None
            with Image.open(path) as picture:  # art was checked and re-encoded on upload
                picture.load()
                return picture.convert("RGB")
        except (OSError, ValueError, Image.DecompressionBombError):
            return None

    return load


def default_folder(export_root: Path, game_id: str, fmt: str) -> Path:
    """``exports/<game>/<format>`` (both names checked)."""
    if fmt not in FORMATS:
        raise DataError(f"export format {fmt!r} is not known; formats: {', '.join(FORMATS)}")
    return export_files.game_export_dir(export_root, game_id) / fmt


def run(
    repo: Repository,
    game_id: str,
    fmt: str,
    *,
    export_root: Path,
    out: Path | None = None,
    deck_id: str | None = None,
    base_url: str | None = None,
    server: str = "pennmush",
    ascii_only: bool = False,
    renderer: Any = True,
    today: _dt.date | None = None,
) -> ExportResult:
    """Build an export and write it (to ``out`` or ``exports/<game>/<format>/``).

    A Lackey plugin replaces ``<folder>/<plugin>/`` whole and is zipped to ``<folder>/<plugin>.zip``.
    Raises what :func:`build` raises, and OSError from the file system.
    """
    folder = Path(out) if out else default_folder(export_root, game_id, fmt)
    bundle = build(repo, game_id, fmt, deck_id=deck_id, base_url=base_url, local_folder=folder,
                   server=server, ascii_only=ascii_only, renderer=renderer, today=today)
    if not bundle.files:
        raise NotFound("the export produced no files")
    with export_files.export_lock(folder, repo.lock_dir):
        if fmt == "lackey":
            name = lackey.plugin_name(repo.game(game_id))
            files = export_files.replace_tree(folder / name, bundle.files)
            archive: Path | None = export_files.write_zip(folder / f"{name}.zip", bundle.files, folder=name)
            return ExportResult(fmt, folder, files, folder / name / bundle.main, archive, bundle.notes,
                                _check_url(base_url))
        files = export_files.write_files(folder, bundle.files)
        archive = None
        if len(bundle.files) > 1:
            archive = export_files.write_zip(folder / f"{Path(bundle.main).stem}.zip", bundle.files)
    return ExportResult(fmt, folder, files, folder / bundle.main, archive, bundle.notes, _check_url(base_url))
