"""Charts of the statistics page, one module per game family (named as in engine.stats), plus
`common` for what every game shares. A family module has `charts(summary) -> [Figure]` (Altair
only, so the bench can build them without a browser), `show(summary)` (the tab: its figures and
anything else, e.g. card thumbnails) and `show_turn(record, index, names)` (one turn of a replay).
"""

from __future__ import annotations

import importlib

from engine import stats

# One module per statistics family, named after it (engine/stats/registry.py lists the families).
CHARTS = {name: importlib.import_module(f"pages.stats_charts.{name}") for name in stats.FAMILIES}
