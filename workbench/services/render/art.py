"""Card art uploads: content-checked, pixel-capped and re-encoded to PNG before they are stored.

Only PNG, JPEG and WebP are opened (Pillow's format allowlist), whatever the file is called. The
header's pixel count is checked before any decoding, so a decompression bomb is refused without
being decompressed; ``Image.MAX_IMAGE_PIXELS`` is lowered to the same cap as a second line.
Re-encoding drops metadata and anything hidden after the image data.
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, UnidentifiedImageError

from workbench.domain.errors import WorkbenchError

ALLOWED_FORMATS = ("PNG", "JPEG", "WEBP")
MAX_ART_BYTES = 15 * 1024 * 1024
MAX_ART_PIXELS = 24_000_000  # 6000 x 4000: far more than a 300 dpi card needs
MAX_ART_SIDE = 2400  # stored art is scaled down to this (a tarot card at 300 dpi is 1417 px tall)

if Image.MAX_IMAGE_PIXELS is None or Image.MAX_IMAGE_PIXELS > MAX_ART_PIXELS:
    Image.MAX_IMAGE_PIXELS = MAX_ART_PIXELS


class ArtRejected(WorkbenchError):
    """An uploaded picture is not an allowed, intact image of an allowed size."""


def _open_checked(data: bytes) -> Image.Image:
    if not data:
        raise ArtRejected("the art file is empty")
    if len(data) > MAX_ART_BYTES:
        raise ArtRejected(f"the art file is {len(data) // 1024} KiB; the limit is {MAX_ART_BYTES // 1024} KiB")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            probe = Image.open(io.BytesIO(data), formats=list(ALLOWED_FORMATS))
            if probe.width * probe.height > MAX_ART_PIXELS:
                raise ArtRejected(
                    f"the picture is {probe.width}x{probe.height} pixels; the limit is "
                    f"{MAX_ART_PIXELS // 1_000_000} megapixels"
                )
            probe.verify()  # structure and checksums; the object is unusable afterwards
            image = Image.open(io.BytesIO(data), formats=list(ALLOWED_FORMATS))
            image.load()
    except ArtRejected:
        raise
    except UnidentifiedImageError:
        raise ArtRejected("the file is not a PNG, JPEG or WebP picture") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ArtRejected(f"the picture has too many pixels; the limit is {MAX_ART_PIXELS // 1_000_000} megapixels") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ArtRejected(f"the picture is damaged: {exc}") from None
    return image


def clean_art(data: bytes) -> bytes:
    """Check an uploaded picture and return it re-encoded as PNG (RGB, at most MAX_ART_SIDE px).

    Raises ArtRejected for an empty, oversized, damaged or disallowed file.
    """
    image = _open_checked(data)
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if "A" in image.getbands() or "transparency" in image.info else "RGB")
    if image.mode == "RGBA":
        # Cards print on white: flatten transparency rather than letting it print black.
        flat = Image.new("RGB", image.size, (255, 255, 255))
        flat.paste(image, mask=image.getchannel("A"))
        image = flat
    image.thumbnail((MAX_ART_SIDE, MAX_ART_SIDE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False)
    return out.getvalue()


def open_art(data: bytes) -> Image.Image | None:
    """Open stored (already cleaned) art for drawing; a broken file gives None, not an error,
    so one bad picture never stops a whole print run (the placeholder is drawn instead)."""
    try:
        return _open_checked(data).convert("RGB")
    except ArtRejected:
        return None
