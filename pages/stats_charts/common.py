"""What every chart shares: a style that reads on a projector and on a phone, the figure type,
and the charts every game has (scores over one game, results across games). Altair only."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import altair as alt
import pandas as pd

from pages.i18n import _

INK, PAPER, ACCENT = "#2A1F1A", "#FBF5EC", "#B03A2E"  # the theme's (.streamlit/config.toml)
WARM = ["#FBF5EC", "#F3D9B1", "#E8A968", "#D8703F", "#C4473A", "#8E2C2C"]
MAX_ROWS = 20  # bars per chart: more would not read on a phone

# Altair checks every piece of a chart against the Vega-Lite schema as it is made (its "debug
# mode"): a third of the charts' time at 10,000 games. The page sends its charts unchecked
# (`unvalidated` below) and tests/pages/test_stats_charts.py checks each whole chart the page draws, so
# the pieces are not checked one by one either. Only these modules draw with Altair.
alt.utils.schemapi.disable_debug_mode()


@dataclass
class Figure:
    key: str  # stable id (widget keys, file names)
    title: str
    caption: str
    chart: alt.TopLevelMixin


def style(chart, height: int | None = None):
    """Large type (a projector at the back of a room), no chart title (the page writes it above,
    where it wraps on a phone), transparent background on the page's paper colour.
    Set on the chart it is given (always one just built), in one step: `.configure_*()` copies the
    chart each time, and copying a layered chart rebuilds its layers (five copies per chart were a
    third of the charts' time at 10,000 games, bench/stats_build.py)."""
    if height is not None:
        chart.height = height
    chart.config = alt.Config(
        background="transparent",
        font="sans-serif",
        axis=alt.AxisConfig(
            labelFontSize=14, titleFontSize=15, labelColor=INK, titleColor=INK, labelLimit=160, gridColor="#e6d9c7"
        ),
        legend=alt.LegendConfig(labelFontSize=14, titleFontSize=14, orient="bottom", columns=4, labelLimit=160),
        view=alt.ViewConfig(strokeWidth=0),
    )
    return chart


def unvalidated(chart):
    """The chart, serialised without Altair's JSON-schema validation when Streamlit sends it: that
    validation was 0.6 s of the 1.4 s the page spent on its 13 charts at 10,000 games (profiled with
    bench/stats_build.py). tests/pages/test_stats_charts.py validates every chart the page draws instead."""
    object.__setattr__(chart, "to_dict", functools.partial(type(chart).to_dict, chart, validate=False))
    return chart


def bars(chart) -> alt.TopLevelMixin:
    """Bars styled, each its own 30 px: a fixed height counts the axes too, and squashed a chart of
    one or two players' bars to a few pixels each."""
    return style(chart, alt.Step(30))


def hbar(
    data: pd.DataFrame,
    value: str,
    label: str,
    tooltip: list,
    fmt: str = "",
    scale=None,
    colour: str = ACCENT,
    order="-x",
    category: str = "player",
) -> alt.Chart:
    """Horizontal bars, one per `category` value, longest first (order="x": shortest first; or a
    list, that order), value printed at each bar's end."""
    data = data.head(MAX_ROWS)
    # Without a format the value is a count: whole-number ticks only.
    axis = alt.Axis(format=fmt) if fmt else alt.Axis(format="d", tickMinStep=1)
    x = alt.X(f"{value}:Q", title=label, axis=axis, scale=scale or alt.Undefined)
    y = alt.Y(f"{category}:N", sort=order, title=None)
    # The data on the layer, not on each mark: layering two charts that each hold it has Altair
    # hash both (printing the frame) to hoist it to the layer anyway.
    bars = alt.Chart().mark_bar(color=colour, cornerRadiusEnd=4).encode(x=x, y=y, tooltip=tooltip)
    text = (
        alt.Chart()
        .mark_text(align="left", dx=4, fontSize=14, color=INK)
        .encode(x=x, y=y, text=alt.Text(f"{value}:Q", format=fmt or ".0f"))
    )
    return alt.layer(bars, text, data=data)


def bar_figure(key: str, title: str, caption: str, chart) -> Figure:
    """A figure of bars (`hbar`, `share_bars` or any bar chart), styled by `bars`."""
    return Figure(key, title, caption, bars(chart))


def share_bars(data: pd.DataFrame, value: str, label: str, tooltip: list, colour: str = ACCENT, **how) -> alt.Chart:
    """`hbar` of a share of something, on a 0–100 % axis."""
    return hbar(data, value, label, tooltip, ".0%", alt.Scale(domain=[0, 1]), colour, **how)


def player_shares(
    data: pd.DataFrame, value: str, label: str, extra: list, colour: str = ACCENT, short: str | None = None
) -> alt.LayerChart:
    """Each player's share of something as bars; the tooltip names the player, the share
    (as `short`, else `label`) and then `extra`."""
    tip = [
        alt.Tooltip("player:N", title=_("Player")),
        alt.Tooltip(f"{value}:Q", title=short or label, format=".0%"),
        *extra,
    ]
    return share_bars(data, value, label, tip, colour)


def score_lines(history: pd.DataFrame, turn_word: str | None = None, upto: int | None = None) -> alt.Chart:
    """Cumulative score per player after each turn of one game; a rule marks the replayed turn.
    `turn_word` is the x axis's title, already in the reader's language ("Turn" if not given)."""
    turn_word = turn_word or _("Turn")
    lines = (
        alt.Chart(history)
        .mark_line(point=alt.OverlayMarkDef(size=60), strokeWidth=3)
        .encode(
            x=alt.X("turn:Q", title=turn_word, axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("score:Q", title=_("Score")),
            color=alt.Color("player:N", title=None, scale=alt.Scale(scheme="dark2")),
            tooltip=[
                alt.Tooltip("player:N", title=_("Player")),
                alt.Tooltip("turn:Q", title=turn_word),
                alt.Tooltip("points:Q", title=_("Points this turn")),
                alt.Tooltip("score:Q", title=_("Score")),
            ],
        )
    )
    if upto is None:
        return lines
    rule = (
        alt.Chart(pd.DataFrame({"turn": [upto]})).mark_rule(color=ACCENT, strokeDash=[6, 4], size=2).encode(x="turn:Q")
    )
    return lines + rule


def player_figures(summary: pd.DataFrame) -> list[Figure]:
    """Across the selected games: wins, average score, average placement per player."""
    if summary.empty:
        return []
    tip = [
        alt.Tooltip("player:N", title=_("Player")),
        alt.Tooltip("games:Q", title=_("Games")),
        alt.Tooltip("wins:Q", title=_("Wins")),
        alt.Tooltip("win_rate:Q", title=_("Win rate"), format=".0%"),
        alt.Tooltip("avg_score:Q", title=_("Average score")),
        alt.Tooltip("avg_placement:Q", title=_("Average placement")),
    ]
    played = summary.sort_values("games", ascending=False).head(MAX_ROWS)
    return [
        bar_figure(
            "wins",
            _("Wins"),
            _("Games won (a shared first place counts for everyone in it)."),
            hbar(played, "wins", _("Wins"), tip),
        ),
        bar_figure(
            "avg_score",
            _("Average final score"),
            _("Scores of different games are on different scales: filter by game to compare like with like."),
            hbar(played, "avg_score", _("Average score"), tip, ".1f", colour="#D8703F"),
        ),
        bar_figure(
            "avg_placement",
            _("Average placement"),
            _("1 = first place. Shorter is better."),
            hbar(
                played.sort_values("avg_placement"),
                "avg_placement",
                _("Average placement"),
                tip,
                ".2f",
                colour="#8E6C4A",
                order="x",
            ),
        ),
    ]
