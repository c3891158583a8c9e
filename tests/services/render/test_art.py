"""Art uploads: PNG/JPEG/WebP only, content-checked, pixel-capped, re-encoded to PNG."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from workbench.services.render.art import MAX_ART_SIDE, ArtRejected, clean_art, open_art


def _encode(image: Image.Image, fmt: str, **kw) -> bytes:  # type: ignore[no-untyped-def]
    out = io.BytesIO()
    image.save(out, fmt, **kw)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "WEBP"])
def test_allowed_formats_are_re_encoded_as_png(fmt: str) -> None:
    picture = Image.new("RGB", (320, 200), (200, 40, 40))
    cleaned = clean_art(_encode(picture, fmt))
    result = Image.open(io.BytesIO(cleaned))
    assert result.format == "PNG" and result.size == (320, 200) and result.mode == "RGB"
    assert open_art(cleaned) is not None


def test_metadata_and_trailing_bytes_are_dropped() -> None:
    data = _encode(Image.new("RGB", (64, 64), "blue"), "PNG") + b"<script>alert(1)</script>"
    cleaned = clean_art(data)
    assert b"<script>" not in cleaned


def test_transparency_is_flattened_on_white() -> None:
    picture = Image.new("RGBA", (10, 10), (0, 0, 0, 0))
    cleaned = Image.open(io.BytesIO(clean_art(_encode(picture, "PNG"))))
    assert cleaned.mode == "RGB" and cleaned.getpixel((5, 5)) == (255, 255, 255)


def test_large_pictures_are_scaled_down() -> None:
    cleaned = Image.open(io.BytesIO(clean_art(_encode(Image.new("RGB", (3000, 1000), "green"), "JPEG"))))
    assert max(cleaned.size) == MAX_ART_SIDE


@pytest.mark.parametrize("data", [b"", b"GIF89a" + b"\0" * 64, b"<svg xmlns='http://www.w3.org/2000/svg'/>",
                                  b"\x89PNG\r\n\x1a\n" + b"\0" * 40])
def test_other_or_broken_files_are_refused(data: bytes) -> None:
    with pytest.raises(ArtRejected):
        clean_art(data)


def test_a_gif_named_png_is_refused() -> None:
    with pytest.raises(ArtRejected, match="PNG, JPEG or WebP"):
        clean_art(_encode(Image.new("RGB", (8, 8)), "GIF"))


def test_a_decompression_bomb_is_refused_before_decoding() -> None:
    bomb = _encode(Image.new("1", (5200, 5200)), "PNG")  # tiny file, 27 megapixels
    assert len(bomb) < 200_000
    with pytest.raises(ArtRejected, match="megapixels"):
        clean_art(bomb)
