"""Every colour pair the theme uses meets WCAG AA: 4.5:1 for text, 3:1 for a chart's marks (WCAG 1.4.3,
1.4.11). The theme is .streamlit/config.toml, the colours Streamlit derives from it, and the CSS every
page injects (pages/ui.py); tests/browser/test_accessibility.py runs axe-core over the pages themselves."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from pages import archive_table, ui
from pages.stats_charts import common

ROOT = Path(__file__).resolve().parents[2]
THEME = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))["theme"]
TEXT, MARK = 4.5, 3.0


def rgba(colour: str) -> tuple[float, float, float, float]:
    """#rgb, #rrggbb or rgba(r, g, b, a) as (r, g, b, alpha), channels 0-255."""
    colour = colour.strip()
    if colour.startswith("rgb"):
        parts = [float(p) for p in re.findall(r"[\d.]+", colour)]
        return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)  # type: ignore[return-value]
    hexes = colour.lstrip("#")
    if len(hexes) == 3:
        hexes = "".join(c * 2 for c in hexes)
    return (*(float(int(hexes[i : i + 2], 16)) for i in (0, 2, 4)), 1.0)  # type: ignore[return-value]


def over(colour: str, background: str, alpha: float | None = None) -> str:
    """`colour` laid over an opaque `background` (at `alpha`, or at the colour's own alpha)."""
    *fg, own = rgba(colour)
    bg = rgba(background)[:3]
    a = own if alpha is None else alpha
    return "#" + "".join(f"{round(a * f + (1 - a) * b):02x}" for f, b in zip(fg, bg, strict=True))


def luminance(colour: str) -> float:
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b, _alpha = rgba(colour)
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(foreground: str, background: str) -> float:
    """WCAG's contrast ratio of a colour on an opaque background (a translucent colour laid over it)."""
    high, low = sorted((luminance(over(foreground, background)), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


PAPER, PANEL = THEME["backgroundColor"], THEME["secondaryBackgroundColor"]
INK, RED, GREY = THEME["textColor"], THEME["primaryColor"], THEME["grayTextColor"]

# The pairs Streamlit makes of the theme's colours, as axe-core reads them in the page.
STREAMLIT_PAIRS = {
    "text on the paper": (INK, PAPER, TEXT),
    "text in a widget (secondary background)": (INK, PANEL, TEXT),
    "a primary button's label": ("#ffffff", RED, TEXT),
    "the open tab's label": (RED, PAPER, TEXT),
    # The selected option of a segmented control or pills: the red on a tenth of itself over the paper.
    "the selected segmented control": (RED, over(RED, PAPER, 0.1), TEXT),
    ":gray[] text on the paper": (GREY, PAPER, TEXT),
    ":gray[] text in a widget": (GREY, PANEL, TEXT),
    "a chart's axis labels": (common.INK, PAPER, TEXT),
    "a chart's bars": (common.ACCENT, PAPER, MARK),
}


def test_the_ratio_is_wcag_s():
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#fff", "#fff") == pytest.approx(1)
    # What axe-core reported on the old theme: the caption grey and the selected segmented control.
    assert contrast("#7e756e", "#fbf5ec") == pytest.approx(4.16, abs=0.005)
    assert contrast("#C4473A", over("#C4473A", "#FBF5EC", 0.1)) == pytest.approx(3.95, abs=0.01)
    assert over("rgba(0, 0, 0, .5)", "#ffffff") == "#808080"


@pytest.mark.parametrize("pair", STREAMLIT_PAIRS)
def test_every_pair_of_the_theme_meets_wcag_aa(pair):
    foreground, background, least = STREAMLIT_PAIRS[pair]
    assert contrast(foreground, background) >= least, (pair, foreground, background)


def css_rules(css: str) -> list[tuple[str, dict[str, str]]]:
    """(selector, {property: value}) of every innermost rule of a stylesheet (an @media's included)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    rules = []
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        props = dict(
            (name.strip().lower(), value.strip())
            for name, _colon, value in (p.partition(":") for p in body.split(";"))
            if value
        )
        rules.append((selector.strip(), props))
    return rules


# Every page's CSS (pages/ui.py) and Statistics' archive table (pages/archive_table.py).
PAGE_COLOURS = [
    (sel, props) for css in (ui.CSS, archive_table.CSS) for sel, props in css_rules(css) if "color" in props
]


def test_the_pages_css_declares_colours():
    assert len(PAGE_COLOURS) >= 8  # the parser finds them: a test over nothing would pass


@pytest.mark.parametrize("selector, props", PAGE_COLOURS, ids=[sel for sel, _props in PAGE_COLOURS])
def test_every_colour_of_the_pages_css_reads_on_its_background(selector, props):
    """Text the pages' CSS colours, on its own background if the rule gives one (over the paper),
    else on the paper: at 4.5:1, large or not, so a size change cannot break it."""
    background = over(props["background"], PAPER) if "background" in props else PAPER
    assert contrast(props["color"], background) >= TEXT, (selector, props["color"], background)


def test_captions_are_not_faded_below_aa():
    """Streamlit fades a caption to 60 % opacity: too pale on this paper, so the pages' CSS sets it."""
    faded = over(INK, PAPER, 0.6)
    assert contrast(faded, PAPER) < TEXT  # why the rule exists
    caption = [props for sel, props in css_rules(ui.CSS) if "stCaptionContainer" in sel]
    assert caption and caption[0].get("opacity") == "1", caption
    assert contrast(caption[0]["color"], PAPER) >= TEXT
    assert contrast(caption[0]["color"], PANEL) >= TEXT
