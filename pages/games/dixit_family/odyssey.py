"""Dixit Odyssey's start-page part (base, Party, Team): its pitch, the host's choices and the pace
line's phase names. The game's screens are the stage's (pages/games/dixit_family/screens.py); the rules are
in the engine."""

from __future__ import annotations

import streamlit as st

from pages.decks import deck_choice
from pages.games.dixit_family.screens import PACE_NAMES  # noqa: F401  (the start page's pace line)
from pages.i18n import N_, _

PITCH = N_("Dixit Odyssey — 3 to 12 players, with Party and Team variants")

# A variant's name is the radio's label and its text the caption under it: two messages, so no
# translation has to keep a separator the code splits on. Marked here, translated where shown.
VARIANT_NAMES = {"base": N_("Base"), "party": N_("Party"), "team": N_("Team")}
VARIANTS = {
    "base": N_("3 to 12 players, first to 30 points. With 7 or more, you may vote for one or two cards."),
    "party": N_("6 to 12: the phrase comes first, everyone votes, score with the crowd; dodge the red card."),
    "team": N_("6, 8, 10 or 12 in pairs sitting opposite: one of you gives your team's card, the other votes."),
}
MAX_LAPS = 5


def variant_name(variant: str) -> str:
    return _(VARIANT_NAMES[variant]) if variant in VARIANT_NAMES else variant.capitalize()


def options() -> dict:
    """The host's choices on the start page (every option has a default in the engine)."""
    variant = st.radio(
        _("Variant"),
        list(VARIANTS),
        key="odyssey-variant",
        format_func=variant_name,
        captions=[_(text) for text in VARIANTS.values()],
    )
    chosen = {"variant": variant}
    if variant != "base":
        chosen["laps"] = st.slider(_("Laps: how many times each player tells"), 1, MAX_LAPS, 1, key="odyssey-laps")
    chosen["deck"] = deck_choice("odyssey")
    return chosen
