"""Inline symbols on faces: a badge in the symbol's colour where {T} is written, one badge wide in
layout; games without symbols keep braces as text; exports keep the token as written."""

from __future__ import annotations

import io

from PIL import Image

from workbench.services.render.fonts import text_width
from workbench.services.render.inline_symbols import BADGE_EM, encode
from workbench.services.render.service import render_png


def _pixels_of(png: bytes, rgb: tuple[int, int, int]) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    data = image.tobytes()
    return sum(1 for i in range(0, len(data), 3) if all(abs(data[i + k] - rgb[k]) <= 6 for k in range(3)))


def test_a_tap_symbol_is_drawn_as_its_badge(repo) -> None:  # type: ignore[no-untyped-def]
    fusion = repo.game("fusion")
    base = dict(repo.get_card("fusion", "gu-lao-mo-dian").data, id="gu-lao-mo-dian")
    tap = (0x7A, 0x4B, 0x1E)  # fusion's tap fill in game.yaml
    with_symbol = render_png(fusion, dict(base, text="{T}：抽1张卡。"))
    without = render_png(fusion, dict(base, text="抽1张卡。"))
    assert _pixels_of(with_symbol, tap) > 200 and _pixels_of(without, tap) == 0


def test_a_symbol_is_one_badge_wide_and_unknown_games_keep_braces(repo) -> None:  # type: ignore[no-untyped-def]
    fusion, seth = repo.game("fusion"), repo.game("seth")
    encoded = encode("{T}", fusion.symbols)
    assert len(encoded) == 1 and text_width("sans", encoded, 100.0) == BADGE_EM * 100.0
    assert encode("{T} stays", seth.symbols) == "{T} stays"  # seth declares no symbols


def test_exports_keep_the_token_as_written(repo) -> None:  # type: ignore[no-untyped-def]
    from workbench.services.exports.cockatrice import export_cockatrice
    from workbench.services.exports.table import export_csv

    fusion = repo.game("fusion")
    cards = [dict(c.data, id=c.id) for c in repo.list_cards("fusion")]
    csv = export_csv(fusion, cards)
    assert "{2}，{T}：抽1张卡。" in csv.files[csv.main].decode("utf-8-sig")
    xml = export_cockatrice(fusion, cards, [])
    assert "{2}，{T}：抽1张卡。" in xml.files[xml.main].decode("utf-8")
