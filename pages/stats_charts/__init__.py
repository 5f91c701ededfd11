"""Charts of the statistics page, one module per game family (named as in engine.stats), plus
`common` for what every game shares. A family module has `charts(summary) -> [Figure]` (Altair
only, so the bench can build them without a browser), `show(summary)` (the tab: its figures and
anything else, e.g. card thumbnails) and `show_turn(record, index, names)` (one turn of a replay).
"""
from __future__ import annotations

from pages.stats_charts import dixit_family, pictomania

CHARTS = {module.FAMILY: module for module in (dixit_family, pictomania)}
