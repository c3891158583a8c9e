"""Inline symbols in HTML: labelled badges, everything else escaped, colours from kinds.css."""

from __future__ import annotations


def test_text_with_symbols_escapes_and_labels(app) -> None:  # type: ignore[no-untyped-def]
    from workbench.web.ui import text_with_symbols

    with app.test_request_context():
        html = str(text_with_symbols("{2}，{T}：<b>draw</b>", "fusion"))
        assert '<span class="sym sym-circle sym-tap" role="img" aria-label="横置 Tap" title="{T}">横</span>' in html
        assert 'aria-label="法力 Mana 2"' in html and "&lt;b&gt;draw&lt;/b&gt;" in html
        assert str(text_with_symbols("{T} plain", "seth")) == "{T} plain"
        assert str(text_with_symbols("{T}" + "x" * 200, "fusion", 10)).endswith("xxxxxxxxx…")


def test_symbol_colours_are_served_with_the_kind_colours(client) -> None:  # type: ignore[no-untyped-def]
    css = client.get("/games/fusion/kinds.css").get_data(as_text=True)
    assert ".sym-tap { background: #7a4b1e; color: #ffffff; }" in css
