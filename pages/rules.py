"""How to play, for each game that can be played here, in the reader's language."""

from pathlib import Path

import streamlit as st

from pages import ui
from pages.i18n import _, lang

RULES = Path(__file__).resolve().parents[1] / "data" / "rules"


def rules_file(game: str):
    """data/rules/<lang>/<game>.md, or the English one (data/rules/<game>.md) until it is written."""
    translated = RULES / lang() / f"{game}.md"
    return translated if translated.is_file() else RULES / f"{game}.md"


ui.style()
# A readable line length on a wide screen: the rules are read, not glanced at from the back.
st.html("<style>[data-testid='stMainBlockContainer'] { max-width: 52rem !important; margin: 0 auto; }</style>")
st.title("📜 " + _("How to play"))
available = sorted(p.stem for p in RULES.glob("*.md"))
wanted = st.query_params.get("game", next(iter(ui.GAME_TITLES)))
game = st.selectbox(
    _("Game"),
    available,
    index=available.index(wanted) if wanted in available else 0,
    format_func=lambda g: ui.GAME_TITLES.get(g, g),
    key="rules-game",
)
st.markdown(rules_file(game).read_text(encoding="utf-8"))
st.page_link("pages/home.py", label=_("Back to the start"), icon="🏠")
