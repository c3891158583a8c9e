"""Card sizes, paper and pixel sizes at 300 dpi."""

from __future__ import annotations

import pytest

from workbench.services.render.sizes import SizeError, check_bleed, parse_card_size, parse_paper


def test_poker_is_750_by_1050_at_300_dpi_and_825_by_1125_with_an_eighth_inch_bleed() -> None:
    poker = parse_card_size("poker")
    assert poker.pixels() == (750, 1050)
    assert poker.pixels(3.175) == (825, 1125)


@pytest.mark.parametrize("name,mm", [("bridge", (57.15, 88.9)), ("tarot", (70.0, 120.0)), ("mini", (44.0, 67.0))])
def test_named_sizes(name: str, mm: tuple[float, float]) -> None:
    size = parse_card_size(name)
    assert (size.width_mm, size.height_mm) == mm


def test_custom_size_in_mm() -> None:
    size = parse_card_size("60x90mm")
    assert (size.width_mm, size.height_mm, size.name) == (60.0, 90.0, "60x90mm")
    assert size.pixels() == (709, 1063)


@pytest.mark.parametrize("bad", ["huge", "10x10mm", "60x", "400x90mm"])
def test_bad_sizes_are_refused(bad: str) -> None:
    with pytest.raises(SizeError):
        parse_card_size(bad)


def test_paper_and_bleed_checks() -> None:
    assert parse_paper("A4") == ("a4", 210.0, 297.0)
    assert parse_paper("letter")[1:] == (215.9, 279.4)
    with pytest.raises(SizeError):
        parse_paper("a3")
    with pytest.raises(SizeError):
        check_bleed(12)
