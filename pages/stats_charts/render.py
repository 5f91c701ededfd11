"""Putting a figure on the page: its title, caption and chart with Streamlit's chart toolbar
(full screen, "Download as PNG", show data), plus an SVG download where vl-convert is installed."""

from __future__ import annotations

import streamlit as st

from pages.i18n import _
from pages.stats_charts.common import Figure, unvalidated

try:  # optional: `pip install vl-convert-python` adds SVG downloads
    import vl_convert
except ImportError:  # pragma: no cover - depends on the machine
    vl_convert = None


def figure(fig: Figure, key: str = "") -> None:
    st.markdown(f"#### {fig.title}")
    if fig.caption:
        st.caption(fig.caption)
    st.altair_chart(unvalidated(fig.chart), width="stretch", key=f"chart-{key}{fig.key}")
    if vl_convert is not None:
        spec = fig.chart.to_json()
        # TRANSLATORS: a button that downloads the chart above as an SVG picture.
        st.download_button(
            _("SVG"),
            data=lambda: vl_convert.vegalite_to_svg(spec),
            file_name=f"{fig.key}.svg",
            mime="image/svg+xml",
            key=f"svg-{key}{fig.key}",
            icon=":material/download:",
            type="tertiary",
            on_click="ignore",
        )


def figures_in_pairs(figures: list[Figure]) -> None:
    """A family tab's figures, two side by side (one column each on a phone)."""
    for pair in (figures[i : i + 2] for i in range(0, len(figures), 2)):
        for column, fig in zip(st.columns(2, gap="large"), pair, strict=False):
            with column:
                figure(fig)


def counted(first: str, second: str) -> str:
    """The line of counts over a family's figures: "12 rounds, 80 guesses in the selected games."."""
    # TRANSLATORS: {first} and {second} are counts, such as "12 rounds" and "80 guesses".
    return _("{first}, {second} in the selected games.", first=first, second=second)


def show_family(counts: str, figures: list[Figure]) -> None:
    """A family tab: what the selected games hold (a line of counts), then its figures in pairs."""
    st.caption(counts)
    figures_in_pairs(figures)
