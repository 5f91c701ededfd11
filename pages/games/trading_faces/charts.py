"""Trading Faces: who reads faces best, whose faces are read, and which emotions are read."""

from __future__ import annotations

import altair as alt

from pages import ui
from pages.games.trading_faces.trading_faces import face_img, word
from pages.i18n import N_, _, n_
from pages.stats_charts.common import Figure, bar_figure, player_shares, share_bars

FAMILY = "trading_faces"
TAB = "🎭 Trading Faces"
VARIANTS = {"Classic": N_("Classic"), "Memory": N_("Memory")}  # as engine/stats names them
# The download buttons under the tab, one per table of the family's summary (its key in engine.stats).
CSV_LABELS = {"readers": N_("Face readers"), "makers": N_("Face makers"), "emotions": N_("Emotions")}


def charts(summary: dict) -> list[Figure]:
    out = []
    readers = summary["readers"]
    if not readers.empty:
        extra = [alt.Tooltip("right:Q", title=_("Guessed right")), alt.Tooltip("guesses:Q", title=_("Guesses made"))]
        out.append(
            bar_figure(
                "readers",
                _("Who reads faces best"),
                _("Right guesses over guesses, on other players' faces."),
                player_shares(readers, "accuracy", _("Guessed right"), extra, short=_("Right")),
            )
        )
    makers = summary["makers"]
    if not makers.empty:
        extra = [alt.Tooltip("read:Q", title=_("Faces read")), alt.Tooltip("faces:Q", title=_("Faces made"))]
        out.append(
            bar_figure(
                "makers",
                _("Whose faces are read"),
                _("Faces someone guessed right, over the faces a player made."),
                player_shares(makers, "rate", _("Faces read"), extra, "#1e88e5", short=_("Read")),
            )
        )
    emotions = summary["emotions"]
    if not emotions.empty:
        shown = emotions.assign(
            emotion=emotions["emotion"].map(word), taken_for=emotions["taken_for"].map(lambda e: word(e) if e else "–")
        )
        tip = [
            alt.Tooltip("emotion:N", title=_("Emotion")),
            alt.Tooltip("faces:Q", title=_("Faces made")),
            alt.Tooltip("read:Q", title=_("Faces read")),
            alt.Tooltip("rate:Q", title=_("Read"), format=".0%"),
            alt.Tooltip("taken_for:N", title=_("Most often taken for")),
        ]
        out.append(
            bar_figure(
                "emotions",
                _("Which emotions are read"),
                _(
                    "Faces of each emotion that someone guessed right. Hover a bar to see what it was "
                    "most often taken for."
                ),
                share_bars(shown, "rate", _("Faces read"), tip, "#8E2C2C", category="emotion"),
            )
        )
    return out


def show(summary: dict) -> None:
    from pages.stats_charts.render import show_family

    # TRANSLATORS: {faces} is "12 faces", {guesses} is "30 guesses".
    counts = _(
        "{faces}, {guesses} in the selected games (the memory variant has no faces to read).",
        faces=n_("{n} face", "{n} faces", summary["faces_count"]),
        guesses=n_("{n} guess made", "{n} guesses made", summary["guesses_count"]),
    )
    show_family(counts, charts(summary))


def show_turn(record: dict, index: int, names: list[str]) -> None:
    """One turn of a replay: the face, its emotion and every guess; or a memory turn's peek and flip."""
    import streamlit as st

    turn = record["turns"][index]
    name = lambda s: ui.esc(names[s]) if s is not None and 0 <= s < len(names) else "?"
    points = ", ".join(f"{name(int(s))} {p:+d}" for s, p in turn.get("scores", {}).items() if p)
    if "face_maker" not in turn:  # the memory variant
        flip, who = turn.get("flip"), name(turn["active"])
        if flip is None:
            st.markdown(_("**{name}** ended the turn after the peek.", name=who))
        elif flip["match"]:
            st.markdown(_("**{name}** flipped a matching pair.", name=who))
        else:
            st.markdown(_("**{name}** flipped two cards that did not match.", name=who))
    else:
        guesses = " · ".join(
            f"{name(g['guesser'])}: {ui.esc(word(g['emotion']))} " + ("✔" if g["emotion"] == turn["emotion"] else "✖")
            for g in turn.get("guesses", ())
        ) or _("no guesses made")
        made = _(
            "{name} made a face: {emotion}",
            name=f"<b>{name(turn['face_maker'])}</b>",
            emotion=f"<b>{ui.esc(word(turn['emotion']))}</b>",
        )
        seen = _("Guesses made: {guesses}", guesses=guesses)
        st.html(
            f"<div style='display:flex;gap:1rem;align-items:center'><div style='width:7rem'>"
            f"{face_img(turn['emotion'])}</div><div style='font-size:1.1rem;line-height:1.5'>"
            f"{made}<br>{seen}</div></div>"
        )
    if points:
        st.caption(_("Points: {points}", points=points))
