"""Dixit's start-page part: its pitch, the host's choices and the pace line's phase names. The
game's screens are the stage's (pages/games/dixit_family/screens.py); the rules are in the engine."""

from __future__ import annotations

import streamlit as st

from pages.decks import deck_choice
from pages.games.dixit_family.screens import PACE_NAMES  # noqa: F401  (the start page's pace line)
from pages.i18n import N_, _

PITCH = N_("Dixit — tell a story with a picture (3–6 players)")


def options() -> dict:
    """The host's choices on the start page (every option has a default in the engine)."""
    contando = st.toggle(
        _("Contando variant"),
        key="dixit-contando",  # a key: the same toggle in any language
        help=_("When exactly one player finds the storyteller's card, both score 4 instead of 3."),
    )
    return {"contando": contando, "deck": deck_choice("dixit")}
