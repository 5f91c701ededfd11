"""What the Statistics page's charts share (`common`: styles, bars, shares; `render`: a tab drawn
from a family's figures). Each statistics family's own tab is `charts.py` in its game folder
(pages/games/<family>/charts.py, `games.charts(family)`): `charts(summary) -> [Figure]` (Altair
only, so the bench can build them without a browser), `show(summary)` (the tab: its figures and
anything else, e.g. card thumbnails) and `show_turn(record, index, names)` (one turn of a replay).
"""
