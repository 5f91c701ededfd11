"""Pictomania's audience on a member's phone: each drawing's number, from the word cards on the
shared screen (pages/audience.py)."""

from __future__ import annotations

import streamlit as st

from pages import ui
from pages.i18n import _
from pages.screens.kit import name_of


def member(view, offered: list[dict], mine: list[dict], act) -> None:
    st.markdown("### " + _("Which word is each drawing? Guess its number on the shared screen's cards."))
    guessed = {p["drawer"]: p["number"] for p in mine}
    drawers = sorted({p["drawer"] for p in offered})
    for drawer in drawers:
        numbers = [p["number"] for p in offered if p["drawer"] == drawer]
        key = f"member-draw-{view['history_length']}-{drawer}"

        def chosen(drawer=drawer, key=key) -> None:
            number = st.session_state.get(key)
            if number is not None:
                act({"type": "pick", "drawer": drawer, "number": number})

        st.segmented_control(
            ui.esc(_("{name}'s drawing", name=name_of(view, drawer))),
            numbers,
            default=guessed.get(drawer),
            key=key,
            on_change=chosen,
        )


def audience_line(counts: dict, view) -> str:
    parts = []
    for drawer, numbers in sorted(counts.items(), key=lambda kv: int(kv[0])):
        ranked = sorted(numbers.items(), key=lambda kv: -kv[1])
        picks = ", ".join(f"{n} ×{c}" for n, c in ranked)  # numbers only: the same in every language
        parts.append(f"{name_of(view, int(drawer))}: {picks}")
    return " · ".join(parts)
