"""Pictomania's Streamlit parts: the start page's (its pitch, the decks, the pace line), the drawer's
pad above the stage on a phone (`above_stage`), and the host's "Save the drawings" (`host_extra`).
The wall and the rest of a phone are the stage's (pages/games/pictomania/screens.py); the rules are in the
engine. Everyone draws at once, everyone guesses at once."""

from __future__ import annotations

import streamlit as st

from engine import tables
from pages import ui
from pages.games.pictomania import sketch
from pages.games.pictomania.results import CSS, save_drawings
from pages.i18n import N_, _

PITCH = N_("Pictomania — everyone draws at once (3–6 players)")

_RULES = tables.games()["pictomania"].content.constants
DECKS, SCORING_TOKENS, BLACK_TOKENS = _RULES["decks"], _RULES["scoring_tokens"], _RULES["black_tokens"]
# The deck ids stay ids (the options, the word files); people read these names.
# The start page's pace line (pages/clock.py): one deadline for drawing and guessing together.
PACE_NAMES = {"words": N_("Read the words"), "draw": N_("Draw and guess")}
DECK_NAMES = {"green": N_("Green"), "yellow": N_("Yellow"), "orange": N_("Orange"), "red": N_("Red")}


def deck_name(deck: str) -> str:
    return _(DECK_NAMES[deck]) if deck in DECK_NAMES else deck.capitalize()


def options() -> dict:
    """The host's choices on the start page (the room language is chosen there already)."""
    # A key, so that switching the language (a new label) keeps the host's choice.
    competitive = st.toggle(
        _("Competitive variant"),
        key="pm-competitive",
        help=_("One black token fewer than players: the round ends as soon as the last one is taken."),
    )
    st.caption(_("Word deck for each round (green is the easiest, red the hardest)"))
    columns = st.columns(4)
    decks = [
        col.selectbox(_("Round {round}", round=i + 1), DECKS, index=i, key=f"pm-deck-{i}", format_func=deck_name)
        for i, col in enumerate(columns)
    ]
    return {"competitive": competitive, "decks": decks}


def rules_tables() -> str:
    """The token tables as markdown, from the engine's own data (data/rules/pictomania.md holds a copy;
    a test keeps them equal). Not translated: it is the English rules document's text, and each
    language's rules document carries its own copy."""
    rows = [
        "| Players | Scoring tokens (each drawing, handed out in this order) | Black tokens in the middle |",
        "|---|---|---|",
    ]
    for n in sorted(SCORING_TOKENS):
        rows.append(f"| {n} | {', '.join(map(str, SCORING_TOKENS[n]))} | {', '.join(map(str, BLACK_TOKENS[n]))} |")
    return "\n".join(rows)


def _round_key(view) -> str:
    return sketch.fingerprint(view.get("code"), view["round"], *(c["id"] for c in view["cards"].values()))


def above_stage(view, act) -> None:
    """The drawer's own part of the phone, above the stage's screen: the word to draw and the pad
    (streamlit-drawable-canvas reruns this page on its own strokes, as it must). Drawn while this
    seat draws; the page reruns when that starts or stops, and for nobody else's stroke."""
    seat = view["you"]
    if view["phase"] != "draw" or seat not in view["participants"] or seat in view["frozen"]:
        return
    draw = _("Draw {code}: {word}", code=f"{view['letter']}{view['number']}", word=ui.esc(view["word"]))
    only = _("Only you see this. No letters, digits or arrows to a position: just a picture.")
    st.html(CSS + f"<div class='pm-secret' data-testid='pm-secret'>{draw}<small>{only}</small></div>")
    sketch.pad(view, act, key=f"pm-pad-{_round_key(view)}")
    st.caption(_("Your first guess freezes your drawing."))


def host_extra(view) -> None:
    """The host's own tools beside the controls over the stage: the last scored round's drawings to
    save (animated, and the contact sheet; the whole game's on the laptop)."""
    record = view.get("last_round")
    if record:
        save_drawings(view, record)
