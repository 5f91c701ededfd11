"""Trading Faces' audience on a member's phone: the emotion of the face being made (pages/audience.py)."""

from __future__ import annotations

import streamlit as st

from pages import ui
from pages.i18n import _


def member(view, offered: list[dict], mine: list[dict], act, label, name_of) -> None:
    maker = view["face"]["maker"]
    st.markdown("### " + ui.esc(_("What is {maker} feeling?", maker=name_of(view, maker))))
    picked = mine[-1]["emotion"] if mine else None
    if picked:
        st.success(_("Your pick: {emotion}. You can change it until the face is revealed.", emotion=label(picked)))
    key = f"member-face-{view['history_length']}"
    choice = st.pills(_("Your guess"), [p["emotion"] for p in offered], format_func=label, key=key)
    st.button(
        _("Guess: {emotion}", emotion=label(choice)) if choice else _("Choose an emotion first"),
        type="primary",
        use_container_width=True,
        disabled=not choice,
        key=f"{key}-go",
        on_click=act,
        args=({"type": "pick", "emotion": choice},),
    )


def audience_line(counts: dict, view, label) -> str:
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    return " · ".join(f"{label(emotion)}: {count}" for emotion, count in ranked)
