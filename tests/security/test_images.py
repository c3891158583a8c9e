"""Hostile pictures: files that are not images, damaged images, decompression bombs, polyglots,
hostile upload names. Each is refused with a clear 4xx; only cleaned PNGs are ever stored."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from tests.security.helpers import snapshot
from workbench.services.render.art import ArtRejected, clean_art


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height pixels, with a tiny (bogus) image stream."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(b"\0" * 1024)) + _png_chunk(b"IEND", b""))


def _real_png(size=(40, 30), fmt="PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, fmt)
    return out.getvalue()


def _gif() -> bytes:
    return _real_png(fmt="GIF")


NOT_IMAGES = {
    "empty": b"",
    "text": b"just some text, named art.png",
    "html": b"<html><script>alert(1)</script></html>",
    "svg": b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>',
    "pdf": b"%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF",
    "gif": _gif(),
    "bmp": _real_png(fmt="BMP"),
    "truncated-png": _real_png()[:60],
    "bomb-header": _png_header_only(60_000, 60_000),
    "tall-bomb": _png_header_only(1, 2_000_000_000),
    "zero-size": _png_header_only(0, 0),
    "elf": b"\x7fELF" + b"\0" * 100,
}


@pytest.mark.parametrize("name", sorted(NOT_IMAGES))
def test_clean_art_refuses_what_is_not_a_sane_picture(name):
    with pytest.raises(ArtRejected) as caught:
        clean_art(NOT_IMAGES[name])
    assert str(caught.value)


def test_a_polyglot_is_re_encoded_and_loses_its_payload():
    payload = b"<script>alert('polyglot')</script>"
    cleaned = clean_art(_real_png() + payload)
    assert cleaned.startswith(b"\x89PNG") and payload not in cleaned
    assert Image.open(io.BytesIO(cleaned)).size == (40, 30)


@pytest.mark.parametrize("name", ["html", "svg", "gif", "bomb-header", "truncated-png", "empty"])
def test_upload_route_refuses_with_4xx_and_stores_nothing(env, name, guard):
    client = env.app.test_client(use_cookies=False)
    for accept in ("application/json", "text/html"):
        answer = client.post("/games/seth/cards/glass-wasp/art", headers={"Accept": accept},
                             data={"art": (io.BytesIO(NOT_IMAGES[name]), "picture.png")},
                             content_type="multipart/form-data")
        assert 400 <= answer.status_code < 500, (name, accept, answer.status_code)
        assert b"Traceback" not in answer.data
    assert not (env.data / "seth" / "art").exists() or not list((env.data / "seth" / "art").iterdir())
    assert client.get("/healthz").status_code == 200


def test_upload_name_is_never_used_as_a_path(app, data_dir, tmp_path):
    before_outside = snapshot(tmp_path / "card_data" / "warzone")
    client = app.test_client(use_cookies=False)
    for hostile in ("../../../evil.png", "/tmp/evil.png", "..\\..\\evil.png", "evil.png\x00.html"):
        answer = client.post("/games/seth/cards/glass-wasp/art", headers={"Accept": "application/json"},
                             data={"art": (io.BytesIO(_real_png()), hostile)}, content_type="multipart/form-data")
        assert answer.status_code == 200, answer.get_data(as_text=True)[:200]
        assert answer.json["art"] == "glass-wasp.png"
    stored = sorted(p.name for p in (data_dir / "seth" / "art").iterdir())
    assert stored == ["glass-wasp.png"]
    assert not (tmp_path / "evil.png").exists() and not (data_dir / "evil.png").exists()
    assert snapshot(tmp_path / "card_data" / "warzone") == before_outside


def test_oversized_upload_is_413(anon):
    answer = anon.post("/games/seth/cards/glass-wasp/art",
                       data={"art": (io.BytesIO(b"\0" * (17 * 1024 * 1024)), "big.png")},
                       content_type="multipart/form-data")
    assert answer.status_code == 413
