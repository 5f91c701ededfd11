"""The emoji the pages use ship in our own font (pages/assets/emoji.woff2), so they show on a host
laptop with no emoji font. A page that starts using another emoji fails here until the font is
rebuilt (`python -m engine.pictures.glyphs`)."""

from __future__ import annotations

from engine.pictures import glyphs

# Symbols that ordinary text fonts carry (Source Sans, DejaVu): they need no emoji font.
TEXT_SYMBOLS = {"←", "→", "↔", "●", "•", "↻"}


def test_every_emoji_the_pages_use_is_in_our_font():
    covered = {int(part.strip()[2:], 16) for part in glyphs.COVERED.read_text().split(",")}
    missing = [chr(p) for p in glyphs.used_code_points() if p not in covered and chr(p) not in TEXT_SYMBOLS]
    assert missing == [], f"rebuild pages/assets/emoji.woff2 for {missing}"


def test_the_font_is_small_and_served_under_a_versioned_address():
    from pages import ui

    assert glyphs.FONT.stat().st_size < 60_000
    assert "/assets/emoji.woff2?v=" in ui.CSS and "unicode-range: U+" in ui.CSS
