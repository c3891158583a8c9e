"""Card faces: sizes, bleed, per-game looks, kinds at a glance, everything a player needs, CJK."""

from __future__ import annotations

import re

import pytest
from PIL import ImageChops

from workbench.services.render import fonts
from workbench.services.render.faces import hex_rgb, plan_face, render_back, render_face, template_for
from workbench.services.render.service import render_problems
from workbench.services.render.sizes import mm_to_px, parse_card_size


def _close(pixel, color, tolerance=6) -> bool:  # type: ignore[no-untyped-def]
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, color))


@pytest.mark.parametrize("size,expected", [("poker", (750, 1050)), ("bridge", (675, 1050)),
                                           ("tarot", (827, 1417)), ("mini", (520, 791)),
                                           ("60x90mm", (709, 1063))])
def test_face_pixel_size_is_the_trim_at_300_dpi(definitions, warzone_card, size, expected) -> None:
    face = render_face(definitions["warzone"], warzone_card, parse_card_size(size))
    assert face.image.size == expected
    assert face.overflow_lines == 0


@pytest.mark.parametrize("size", ["20x20mm", "20x300mm", "300x20mm"])
def test_every_allowed_card_size_renders_fronts_and_backs(definitions, warzone_card, seth_card,
                                                          fusion_card, size) -> None:
    """The smallest and most lopsided sizes the size rule allows (20-300 mm) still draw: a
    panel the size leaves no room for is left out (a 20 mm card was a 500 from the print form)."""
    card_size = parse_card_size(size)
    for game, card in (("warzone", warzone_card), ("seth", seth_card), ("fusion", fusion_card)):
        for bleed in (0.0, 3.0):
            face = render_face(definitions[game], card, card_size, bleed)
            assert face.image.size == card_size.pixels(bleed, 300)
            assert render_back(definitions[game], card_size, bleed).size == card_size.pixels(bleed, 300)


def test_bleed_extends_the_background_and_nothing_else(definitions, warzone_card, poker) -> None:
    plain = render_face(definitions["warzone"], warzone_card, poker).image
    bled = render_face(definitions["warzone"], warzone_card, poker, bleed_mm=3.175).image
    assert bled.size == (825, 1125)
    b = mm_to_px(3.175)
    frame = hex_rgb(definitions["warzone"].raw["style"]["frame"])
    # The bleed ring is plain background colour: no text, symbol or panel reaches into it.
    ring = [bled.getpixel((x, y)) for x in range(0, bled.width, 7) for y in (0, b // 2, b - 1)]
    ring += [bled.getpixel((x, y)) for y in range(0, bled.height, 7) for x in (0, b // 2, bled.width - b // 2)]
    assert all(pixel == frame for pixel in ring)
    # Inside the trim the two faces are the same picture.
    inner = bled.crop((b, b, b + 740, b + 1040))
    diff = ImageChops.difference(inner, plain.crop((0, 0, 740, 1040)))
    assert max(diff.convert("L").getextrema()) < 40
    assert sum(diff.convert("L").point(lambda v: 255 if v > 40 else 0).histogram()[255:]) == 0


def test_each_game_has_its_own_look(definitions, warzone_card, seth_card, fusion_card, poker) -> None:
    faces = {
        "warzone": render_face(definitions["warzone"], warzone_card, poker).image,
        "seth": render_face(definitions["seth"], seth_card, poker).image,
        "fusion": render_face(definitions["fusion"], fusion_card, poker).image,
    }
    for game, image in faces.items():
        assert _close(image.getpixel((5, 5)), hex_rgb(definitions[game].raw["style"]["frame"])), game
    corners = {game: image.getpixel((30, 30)) for game, image in faces.items()}
    assert len(set(corners.values())) == 3


def test_kinds_are_told_apart_by_frame_colour(definitions, poker) -> None:
    definition = definitions["warzone"]
    template = template_for(definition, poker)
    x, y = template.P(template.f + 0.6), 525  # inside the kind panel, beside the art
    seen = {}
    for kind in ("creature", "spell", "trap", "area"):
        card = {"name": f"A {kind}", "kind": kind, "text": "Draw a card."}
        if kind == "creature":
            card.update({"class": 1, "degree": 1, "strength": 500, "resilience": 400})
        image = render_face(definition, card, poker).image
        seen[kind] = image.getpixel((x, y))
        assert _close(seen[kind], hex_rgb(definition.kinds[kind].color)), kind
    assert len(set(seen.values())) == 4


def test_the_face_carries_what_a_player_needs(definitions, warzone_card, seth_card, fusion_card, poker) -> None:
    wz = plan_face(definitions["warzone"], warzone_card, poker)
    assert wz.values["badge"] == ("3", "DEGREE")
    assert "Class 2 (mid range)" in wz.values["type"]
    assert wz.values["stats"] == [("STR", "900"), ("RES", "650")]
    body = " ".join(line.text for line in wz.body.lines)
    assert "When recruited" in body and "Drawn for the render tests." in body

    seth = plan_face(definitions["seth"], seth_card, poker)
    assert seth.values["badge"] == ("5", "POWER")
    assert "Dragon" in seth.values["type"] and "Fire" in seth.values["type"]
    body = " ".join(line.text for line in seth.body.lines)
    assert "Resists Fire" in body and "Vulnerable to Poison" in body and "Flight" in body
    assert seth.values["stats"] == [("DMG", "6"), ("HP", "9")]

    fusion = plan_face(definitions["fusion"], fusion_card, poker)
    assert fusion.values["badge"][0] == "4"
    assert "魔法师" in fusion.values["type"]
    assert fusion.values["stats"] == [("ATK", "5"), ("DEF", "3")]
    assert [item.text for item in fusion.items][0] == "测试魔导师"


def test_cjk_text_uses_a_real_cjk_font_not_tofu(definitions, fusion_card, poker) -> None:
    text = fusion_card["name"] + fusion_card["text"] + "【魔法师／生物】"
    assert fonts.face_for("sans", text) == "cjk"
    assert fonts.face_for("bold", fusion_card["name"]) == "cjk-bold"
    assert all(fonts.covers("cjk", ch) for ch in text)
    assert fonts.missing_glyphs(text) == []
    # The check really detects tofu: DejaVu has no Han glyphs.
    assert not fonts.covers("sans", "融")
    plan = plan_face(definitions["fusion"], fusion_card, poker)
    assert plan.missing == []
    assert {line.font_key for line in plan.body.lines} <= {"cjk", "italic", "sans"}


def test_card_back_uses_the_back_colour(definitions, poker) -> None:
    back = render_back(definitions["seth"], poker)
    assert back.size == (750, 1050)
    assert back.getpixel((5, 5)) == hex_rgb(definitions["seth"].raw["style"]["back"])


def test_overflowing_text_is_a_validation_warning_naming_the_lines(definitions, warzone_card) -> None:
    warzone_card["text"] = "When recruited, draw a card and deal 300 damage to a creature. " * 9
    problems = render_problems(definitions["warzone"], warzone_card)
    overflow = [p for p in problems if p.code == "card.text_overflow"]
    assert len(overflow) == 1
    problem = overflow[0]
    assert problem.severity == "warning" and problem.field == "text" and problem.card == "test-sentry"
    assert re.match(r"effect text overflows by (\d+) lines? at the smallest size", problem.message)
    assert int(problem.message.split()[4]) == problem.actual >= 1


def test_a_longer_text_overflows_by_more_lines(definitions, warzone_card) -> None:
    counts = []
    for repeat in (9, 14):
        warzone_card["text"] = "Deal 300 damage to a creature, then draw a card. " * repeat
        counts.append(render_problems(definitions["warzone"], warzone_card)[0].actual)
    assert counts[1] > counts[0] >= 1


def test_text_that_fits_has_no_problems(definitions, warzone_card, seth_card, fusion_card) -> None:
    assert render_problems(definitions["warzone"], warzone_card) == []
    assert render_problems(definitions["seth"], seth_card) == []
    assert render_problems(definitions["fusion"], fusion_card) == []


def test_characters_no_font_has_are_reported(definitions, seth_card) -> None:
    seth_card["text"] = "Roars \U0001F9EA loudly."
    codes = {p.code: p for p in render_problems(definitions["seth"], seth_card)}
    assert "card.missing_glyphs" in codes
    assert "\U0001F9EA" in codes["card.missing_glyphs"].message


def test_a_game_without_its_own_template_gets_a_neutral_face(poker) -> None:
    from workbench.domain.gamedef import parse_definition

    definition = parse_definition({
        "id": "pebbles", "name": "Pebble Toss",
        "fields": {"name": {"type": "string"}, "text": {"type": "text"}},
        "kinds": {"pebble": {"label": "Pebble", "color": "#336699",
                             "fields": {"weight": {"type": "integer", "label": "Weight"},
                                        "colour": {"type": "string", "label": "Colour"}}}},
        "zones": {"bag": {"kinds": ["pebble"]}},
    })
    card = {"name": "Grey Pebble", "kind": "pebble", "weight": 3, "colour": "grey", "text": "Roll once more."}
    plan = plan_face(definition, card, poker)
    body = " ".join(line.text for line in plan.body.lines)
    assert "Weight: 3" in body and "Colour: grey" in body and "Roll once more." in body
    image = render_face(definition, card, poker).image
    assert image.size == (750, 1050)
    assert render_back(definition, poker).size == (750, 1050)


def test_validation_reports_overflow_through_the_checks_service(definitions, warzone_card) -> None:
    from workbench.services.checks import card_problems

    warzone_card["text"] = "Deal 300 damage to a creature, then draw a card. " * 11  # under max_length 600
    codes = [p.code for p in card_problems(definitions["warzone"], warzone_card, "test-sentry")]
    assert "card.text_overflow" in codes


def test_missing_fonts_are_a_clear_error_and_a_validation_warning(definitions, warzone_card, monkeypatch,
                                                                  tmp_path) -> None:
    from workbench.services.render.service import _PROBLEMS

    monkeypatch.setattr(fonts, "FONT_DIRS", [tmp_path])
    monkeypatch.delenv("WORKBENCH_FONT_DIRS", raising=False)
    fonts._index_fonts.cache_clear()
    fonts._pil_font.cache_clear()
    _PROBLEMS.clear()
    try:
        with pytest.raises(fonts.FontMissing, match="fonts-dejavu-core"):
            fonts.font_path("sans")
        assert any("fonts-noto-cjk" in message for message in fonts.check_fonts())
        warzone_card["text"] = "A text not seen before, so nothing is memoised."
        problems = render_problems(definitions["warzone"], warzone_card)
        assert [p.code for p in problems] == ["card.render_unavailable"]
    finally:
        monkeypatch.undo()
        fonts._index_fonts.cache_clear()
        fonts._pil_font.cache_clear()
        _PROBLEMS.clear()


def test_a_font_installed_while_the_server_runs_is_found_without_a_restart(monkeypatch, tmp_path) -> None:
    """The font folders are indexed once; a missing font looks again (at most every
    RESCAN_AFTER_S seconds), so installing the package is enough."""
    real, face = fonts.font_path("pdf-cjk")
    monkeypatch.setattr(fonts, "FONT_DIRS", [tmp_path])
    monkeypatch.delenv("WORKBENCH_FONT_DIRS", raising=False)
    monkeypatch.setattr(fonts, "RESCAN_AFTER_S", 0.0)
    fonts._index_fonts.cache_clear()
    try:
        with pytest.raises(fonts.FontMissing, match="fonts-wqy-zenhei"):
            fonts.font_path("pdf-cjk")
        (tmp_path / real.name).symlink_to(real)  # the package is installed
        assert fonts.font_path("pdf-cjk") == (tmp_path / real.name, face)
        monkeypatch.setattr(fonts, "RESCAN_AFTER_S", 3600.0)
        (tmp_path / real.name).unlink()
        fonts._index_fonts.cache_clear()
        with pytest.raises(fonts.FontMissing):
            fonts.font_path("pdf-cjk")  # indexed afresh: still missing
        (tmp_path / real.name).symlink_to(real)
        with pytest.raises(fonts.FontMissing):
            fonts.font_path("pdf-cjk")  # ... but not on every request
    finally:
        monkeypatch.undo()
        fonts._index_fonts.cache_clear()


@pytest.mark.parametrize("label", ["费 MANA", "法力 MANA", "COST"])
def test_the_cost_label_stays_inside_the_coin(definitions, fusion_card, poker, monkeypatch, label) -> None:
    """The bilingual label under the cost used to touch the coin's rim; it is fitted to the chord."""
    from workbench.services.render.faces import FusionTemplate

    monkeypatch.setattr(FusionTemplate, "badge_label", label)
    template = template_for(definitions["fusion"], poker)
    image = render_face(definitions["fusion"], fusion_card, poker).image.convert("L")
    cx = template.bleed_px + template.P(template.W - template.c - 3.6)
    cy = template.bleed_px + template.P(template.geometry({})["name"][1] + 3.5)
    radius = template.P(4.3)
    # A band just inside the rim's outline: only the coin's gold may show there, no glyph ink.
    inner, outer = radius - template.P(0.75), radius - template.P(0.45)
    darkest = min(
        image.getpixel((x, y))
        for x in range(cx - radius, cx + radius + 1)
        for y in range(cy, cy + radius + 1)  # the lower half, where the label is
        if inner ** 2 <= (x - cx) ** 2 + (y - cy) ** 2 <= outer ** 2
    )
    assert darkest > 150, f"glyph ink ({darkest}) reaches the coin's rim"
