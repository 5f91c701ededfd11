"""Trading Faces' start-page part (its pitch, the variant, the pace line's phase names) and the
emotions' pictures and words for Statistics. The game's screens are the stage's
(pages/games/trading_faces/screens.py); the rules are in engine/games/trading_faces.py."""

from __future__ import annotations

import streamlit as st

from engine import tables
from pages.i18n import N_, _

PITCH = N_("Trading Faces — pass cards, collect three, make the face (2–5 players)")
EMOTIONS = tables.games()["trading_faces"].content.constants["emotions"]
# The start page's pace line (pages/clock.py), for the variant chosen: each guesser of a face
# has their own deadline.
VARIANT_PACE_NAMES = {
    "classic": {"pass": N_("Pass a card"), "face": N_("Guess the face (each)")},
    "memory": {"peek": N_("Lift a card"), "decide": N_("Flip or end the turn")},
}


def pace_names(options: dict) -> dict:
    return VARIANT_PACE_NAMES["memory" if options.get("variant") == "memory" else "classic"]


# The card words, marked where the stage defines them (no Streamlit there), translated where shown.
from pages.games.trading_faces.screens import WORDS, face_src  # noqa: E402


def face_img(emotion: str) -> str:
    """An <img> of the emotion's picture (the stage's address for it)."""
    return f"<img src='{face_src(emotion)}' alt=''>"


def word(emotion: str) -> str:
    return _(WORDS[emotion])


def options() -> dict:
    variant = st.radio(
        _("Variant"),
        ("classic", "memory"),
        key="tf-variant",
        horizontal=True,
        format_func=lambda v: _("Passing cards (3–5 players)") if v == "classic" else _("Memory (2–4 players)"),
    )
    return {"variant": variant}
