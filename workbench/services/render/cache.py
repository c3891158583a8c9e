"""The render cache: faces keyed by card content, template version, size and bleed.

Re-rendering a deck after one card changed redraws only that card: every other card's key is
unchanged, so its face comes from the cache. A cached face is stored in the form the PDF
needs (zlib-compressed RGB rows, embedded as a FlateDecode image without re-encoding), with a
small header; PNG files are made from it on demand.

Cold renders of many cards use a process pool (one worker per core), because drawing a face
is CPU-bound Python and Pillow work.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import io
import json
import multiprocessing
import os
import struct
import threading
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from workbench.domain.gamedef import GameDefinition, parse_definition
from workbench.services.processes import die_with_parent
from workbench.services.render.art import open_art
from workbench.services.render.faces import TEMPLATE_VERSION, render_back, render_face
from workbench.services.render.sizes import DPI, CardSize
from workbench.storage.render_cache import RenderCache

MAGIC = b"WBF1"
_HEADER = struct.Struct("<4sIIi")  # magic, width, height, overflow lines
POOL_THRESHOLD = 24  # fewer missing faces than this are drawn in-process

ArtLoader = Callable[[str], bytes | None]
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Face:
    """A cached face: pixel size, overflow, and the compressed RGB rows.

    ``zdata`` is a read-only view into the cached bytes rather than a copy: a deck holds
    hundreds of 40-70 kB faces, and copying them all costs more than assembling the PDF.
    """

    width: int
    height: int
    overflow_lines: int
    zdata: bytes | memoryview

    def image(self) -> Image.Image:
        """The face as a Pillow RGB image."""
        return Image.frombytes("RGB", (self.width, self.height), zlib.decompress(self.zdata))

    def png(self) -> bytes:
        """The face as PNG bytes (300 dpi recorded in the file)."""
        out = io.BytesIO()
        self.image().save(out, "PNG", dpi=(DPI, DPI), compress_level=6)
        return out.getvalue()


def encode_face(image: Image.Image, overflow_lines: int = 0) -> bytes:
    """Serialize a face image for the cache."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")  # convert() would copy 2 MB
    # Level 1: faces are flat colour and text, so level 6 saves little and costs 3x the time;
    # the PDF embeds these bytes as they are.
    return _HEADER.pack(MAGIC, rgb.width, rgb.height, overflow_lines) + zlib.compress(rgb.tobytes(), 1)


def decode_face(data: bytes) -> Face:
    """Read a cached face. Raises ValueError when the bytes are not a face."""
    if len(data) < _HEADER.size:
        raise ValueError("cached face is truncated")
    magic, width, height, overflow = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError("cached face has an unknown format")
    return Face(width, height, overflow, memoryview(data)[_HEADER.size:])


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False, separators=(",", ":")).encode()


def definition_digest(definition: GameDefinition) -> str:
    """A digest of everything in game.yaml a face depends on (all of it, to be safe)."""
    return hashlib.sha256(_canonical(dict(definition.raw))).hexdigest()


def face_key(def_digest: str, card: Mapping[str, Any], size: CardSize, bleed_mm: float, dpi: int,
             art_digest: str = "") -> str:
    """The cache key of a face. The card's id is left out: two identical cards share a face."""
    content = {k: v for k, v in card.items() if k != "id"}
    payload = [TEMPLATE_VERSION, def_digest, content, [size.width_mm, size.height_mm], round(bleed_mm, 4),
               dpi, art_digest]
    return hashlib.sha256(_canonical(payload)).hexdigest()


# ----- worker side (also used in-process) ------------------------------------------------------
_worker: dict[str, Any] = {}


def _init_worker(definition_raw: Mapping[str, Any], size: CardSize, bleed_mm: float, dpi: int) -> None:
    _worker.update(definition=parse_definition(definition_raw), size=size, bleed=bleed_mm, dpi=dpi)


def _start_pool_worker(parent: int, *args: Any) -> None:
    # A pool worker ends with the process that started it: killed mid-sheet, a CLI print would
    # otherwise leave its workers waiting on the pool's queue for good.
    die_with_parent(parent)
    _init_worker(*args)


def _render_job(job: tuple[dict[str, Any], bytes | None]) -> bytes:
    card, art_bytes = job
    art = open_art(art_bytes) if art_bytes else None
    result = render_face(_worker["definition"], card, _worker["size"], _worker["bleed"], art, _worker["dpi"])
    return encode_face(result.image, result.overflow_lines)


def _can_fork() -> bool:
    # A pool forks this process. Forking while other threads run (the web server) can deadlock
    # the child on a lock another thread held, and forkserver/spawn re-import the main script,
    # which a WSGI server or test runner does not expect; so threaded callers draw in-process.
    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


class FaceRenderer:
    """Renders faces of one game at one size and bleed, through the cache."""

    def __init__(self, definition: GameDefinition, size: CardSize, bleed_mm: float = 0.0, dpi: int = DPI,
                 cache: RenderCache | None = None, art_loader: ArtLoader | None = None,
                 workers: int | None = None) -> None:
        self.definition = definition
        self.size = size
        self.bleed_mm = bleed_mm
        self.dpi = dpi
        self.cache = cache
        self.art_loader = art_loader
        self.workers = workers if workers is not None else (os.cpu_count() or 1)
        self.def_digest = definition_digest(definition)
        self.rendered = 0  # faces drawn (cache misses) since creation
        self.hits = 0
        self._memory: dict[str, bytes] = {}
        self._art: dict[str, tuple[str, bytes | None]] = {}

    def _art_for(self, card: Mapping[str, Any]) -> tuple[str, bytes | None]:
        name = card.get("art")
        if not name or self.art_loader is None:
            return "", None
        name = str(name)
        if name not in self._art:
            data = self.art_loader(name)
            self._art[name] = (hashlib.sha256(data).hexdigest() if data else "missing", data)
        return self._art[name]

    def key(self, card: Mapping[str, Any]) -> str:
        """The cache key of a card's face."""
        return face_key(self.def_digest, card, self.size, self.bleed_mm, self.dpi, self._art_for(card)[0])

    def _lookup(self, key: str) -> bytes | None:
        if key in self._memory:
            return self._memory[key]
        return self.cache.get(key) if self.cache else None

    def _store(self, key: str, data: bytes) -> None:
        self._memory[key] = data
        if self.cache:
            self.cache.put(key, data)

    def keys(self, cards: Iterable[Mapping[str, Any]]) -> list[str]:
        """The cache key of each card's face, in order (a copy that is the same dict as the
        card before it is not hashed again)."""
        keys: list[str] = []
        last: Mapping[str, Any] | None = None
        for card in cards:
            if card is not last:  # decks list the copies of a card one after the other
                key, last = self.key(card), card
            keys.append(key)
        return keys

    def faces(self, cards: Iterable[Mapping[str, Any]], progress: Progress | None = None,
              keys: Iterable[str] | None = None) -> dict[str, Face]:
        """Faces of cards by key, drawing only those not cached. ``progress(done, total)`` is
        called as faces become ready; ``keys`` are the cards' keys when the caller already has
        them (from ``keys()``, same order). Raises FontMissing when fonts are not installed."""
        wanted: dict[str, Mapping[str, Any]] = {}
        for card, key in zip(cards, keys) if keys is not None else ((c, self.key(c)) for c in cards):
            wanted.setdefault(key, card)
        found: dict[str, bytes] = {}
        missing: list[str] = []
        for key in wanted:
            data = self._lookup(key)
            if data is None:
                missing.append(key)
            else:
                found[key] = data
        self.hits += len(found)
        total = len(wanted)
        if progress:
            progress(len(found), total)
        jobs = [({k: v for k, v in wanted[key].items() if k != "id"}, self._art_for(wanted[key])[1])
                for key in missing]
        args = (dict(self.definition.raw), self.size, self.bleed_mm, self.dpi)
        if len(missing) >= POOL_THRESHOLD and self.workers > 1 and _can_fork():
            with concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("fork"),
                initializer=_start_pool_worker, initargs=(os.getpid(), *args)
            ) as pool:
                results = pool.map(_render_job, jobs, chunksize=4)
                for key, data in zip(missing, results):
                    self._store(key, data)
                    found[key] = data
                    if progress:
                        progress(len(found), total)
        else:
            _init_worker(*args)
            for key, job in zip(missing, jobs):
                data = _render_job(job)
                self._store(key, data)
                found[key] = data
                if progress:
                    progress(len(found), total)
        self.rendered += len(missing)
        return {key: decode_face(data) for key, data in found.items()}

    def face(self, card: Mapping[str, Any]) -> Face:
        """One card's face (from the cache when it is there)."""
        return next(iter(self.faces([card]).values()))

    def back(self) -> Face:
        """The game's card back at this size and bleed (cached like a face)."""
        key = face_key(self.def_digest, {"__back__": True}, self.size, self.bleed_mm, self.dpi)
        data = self._lookup(key)
        if data is None:
            data = encode_face(render_back(self.definition, self.size, self.bleed_mm, self.dpi))
            self._store(key, data)
        return decode_face(data)
