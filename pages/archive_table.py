"""Statistics' archive of games as a plain HTML table: the first thing the page shows.

Streamlit's interactive grid (`st.dataframe`) made most of the page's first render in a browser:
about 1.2 MB of JavaScript (Arrow and the grid) fetched and compiled, then a canvas laid out, some
0.5 s on the demo's 30 games (bench/stats_page.py). This table needs none of it: the page sends it
as text, like a caption. The CSV buttons below it carry every game and every column.
"""

from __future__ import annotations

from html import escape

ROWS = 300  # the most recent games of the selection, as the replay offers: the filters reach older ones

# The theme's colours (.streamlit/config.toml; tests/pages/test_contrast.py checks every pair).
CSS = """<style>
  .sm-archive { max-height: 460px; overflow: auto; border: 1px solid #E6D9C9; border-radius: .5rem; }
  /* On a phone it scrolls sideways, as the grid did, rather than wrap every name onto its own line. */
  .sm-archive table { border-collapse: collapse; width: 100%; min-width: 44rem; font-size: .95rem; line-height: 1.35; }
  .sm-archive td:first-child { white-space: nowrap; }
  .sm-archive th { position: sticky; top: 0; text-align: left; font-weight: 600; padding: .45rem .7rem;
    background: #F1E4D3; color: #2A1F1A; }
  .sm-archive td { padding: .35rem .7rem; border-top: 1px solid #E6D9C9; vertical-align: top; }
  .sm-archive .sm-num { text-align: right; font-variant-numeric: tabular-nums; }
</style>"""


def html(headings: list[str], rows: list[list[str]], numeric: set[int], label: str) -> str:
    """The table; every heading and cell is text (player names among them), escaped here. Numeric
    columns are right-aligned. The scrolling box takes the keyboard's focus, named by `label`."""

    def cell(tag: str, i: int, text: str) -> str:
        kind = ' class="sm-num"' if i in numeric else ""
        scope = ' scope="col"' if tag == "th" else ""
        return f"<{tag}{kind}{scope}>{escape(text)}</{tag}>"

    head = "".join(cell("th", i, h) for i, h in enumerate(headings))
    body = "".join("<tr>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>" for row in rows)
    return (
        f'{CSS}<div class="sm-archive" role="region" tabindex="0" aria-label="{escape(label)}">'
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )
