"""Every chart the Statistics page draws is a valid Vega-Lite spec: the page sends them without
Altair's validation (pages/stats_charts/common.unvalidated: 0.6 s at 10,000 games), so this checks."""

import altair as alt

from engine import demo, stats, tables
from pages.games import charts as family_tab
from pages.stats_charts import common


def test_every_chart_of_the_page_validates_and_the_page_skips_only_the_validation():
    demo.simulate(games=7, seed=5)
    records = tables.records()
    archive = stats.prepare(records, {})
    ids = stats.select(archive)
    figures = common.player_figures(stats.player_summary(archive, ids))
    for name, family in stats.summaries(archive, ids).items():
        figures += family_tab(name).charts(family)
    history = stats.score_history(records[-1], archive.names_of(len(records) - 1))
    charts = [f.chart for f in figures] + [common.style(common.score_lines(history, "Turn", 1), 320)]
    assert len(charts) >= 10
    for chart in charts:
        checked = type(chart).to_dict(chart, validate=True)  # raises on an invalid spec
        assert common.unvalidated(chart).to_dict() == checked
    broken = alt.Chart(alt.Data(values=[{"a": 1}])).mark_bar().encode(x=alt.X("a:Q", bin="sideways"))
    try:
        type(broken).to_dict(broken, validate=True)
    except Exception:
        pass
    else:
        raise AssertionError("validation cannot fail, so this test proves nothing")
