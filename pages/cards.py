"""A grid of picture cards: look at them, tap to enlarge, or pick k of them and confirm.

One `st.components.v2` component serves the hand, the table and the vote on every screen size. Its
text is never under .86rem: 24 px on the shared screen, whose rem is 28 px.
Player names and labels are set with textContent in the browser, never as HTML.
"""

from __future__ import annotations

import streamlit as st

from pages import ui
from pages.i18n import _

_HTML = '<div class="deck"></div>'

_CSS = """
.deck { --min: 150px; }
.grid { display: grid; gap: 10px; grid-template-columns: repeat(auto-fill, minmax(var(--min), 1fr)); }
figure { position: relative; margin: 0; border-radius: 12px; overflow: hidden; cursor: pointer;
  background: #2a1f1a; box-shadow: 0 2px 6px rgba(0,0,0,.25); outline: 4px solid transparent;
  transition: outline-color .12s, transform .12s; }
figure.picked { outline-color: #B03A2E; transform: translateY(-4px); }
figure.off { opacity: .45; cursor: default; }
figure.glow { outline-color: #E0A93B; }
img { display: block; width: 100%; aspect-ratio: 2 / 3; object-fit: cover; }
.label { position: absolute; top: 6px; left: 6px; min-width: 1.6em; padding: 2px 8px; border-radius: 999px;
  background: rgba(251,245,236,.92); color: #2A1F1A;
  font: 700 max(calc(var(--min) / 7), .86rem) "Source Sans", system-ui, sans-serif;
  text-align: center; }
.badge { position: absolute; bottom: 0; left: 0; right: 0; padding: 4px 8px; background: rgba(42,31,26,.82);
  color: #FBF5EC; font: 600 max(calc(var(--min) / 8), .86rem) "Source Sans", system-ui, sans-serif;
  white-space: normal; }
.zoom { position: absolute; top: 4px; right: 4px; width: var(--lens); height: var(--lens); border: 0; border-radius: 50%;
  background: rgba(251,245,236,.85); font-size: max(18px, .86rem); line-height: var(--lens); cursor: zoom-in;
  --lens: max(34px, 1.5rem); }
.confirm { margin-top: 12px; width: 100%; min-height: 48px; border: 0; border-radius: 10px; background: #B03A2E;
  color: white; font: inherit; font-size: 18px; font-weight: 700; }
.confirm:disabled { background: #b9aaa0; }
"""

_JS = ui.module("cards.js")  # pages/assets/cards.js, fetched once per browser, cached

_grid = st.components.v2.component("sobremesa.cards", html=_HTML, css=_CSS, js=_JS)


def card_src(card_id: str) -> str:
    return f"/cards/{card_id}"


def card_grid(
    cards: list[dict], *, key: str, pick: int = 0, button: str = "", min_width: int = 150, nonce: str = "", on_pick=None
) -> None:
    """cards: [{"id", "label"?, "badge"?, "disabled"?, "glow"?, "alt"?}], their texts already in the
    reader's language, like `button`. `on_pick(ids)` runs as a callback before the rerun, so the page
    that follows already shows the move's result."""

    def picked():
        value = (st.session_state.get(key) or {}).get("picked")
        if on_pick and value and value.get("nonce") == nonce:
            on_pick(list(value["ids"]))

    # The picture's alt text in the reader's language (cards.js only falls back to English).
    alt = _("picture card")
    shown = [{"alt": alt, **c, "src": card_src(c["id"])} for c in cards]
    _grid(
        key=key,
        data={
            "cards": shown,
            "pick": pick,
            "button": button,
            "min_width": min_width,
            "nonce": nonce,
            "enlarge": _("Enlarge"),
        },
        on_picked_change=picked,
    )
