"""How to play, for each game that can be played here."""
from pathlib import Path

import streamlit as st

from pages import ui

RULES = Path(__file__).resolve().parents[1] / "data" / "rules"

ui.style()
# A readable line length on a wide screen: the rules are read, not glanced at from the back.
st.html("<style>[data-testid='stMainBlockContainer'] { max-width: 52rem !important; margin: 0 auto; }</style>")
st.title("📜 How to play")
available = sorted(p.stem for p in RULES.glob("*.md"))
wanted = st.query_params.get("game", next(iter(ui.GAME_TITLES)))
game = st.selectbox("Game", available, index=available.index(wanted) if wanted in available else 0,
                    format_func=lambda g: ui.GAME_TITLES.get(g, g))
st.markdown((RULES / f"{game}.md").read_text(encoding="utf-8"))
st.page_link("pages/home.py", label="Back to the start", icon="🏠")
