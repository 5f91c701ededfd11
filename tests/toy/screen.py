"""Pebbles' screens, built from the shared screen kit alone (tests/toy: a game outside the app)."""

from __future__ import annotations

import streamlit as st

from pages import ui
from pages.screens import kit as reveal

PITCH = "Pebbles: drop a pebble nobody else matches."
PACE_NAMES = {"drop": "Drop a pebble"}  # the start page's pace line (pages/clock.py)


def options() -> dict:
    return {}


def table(view) -> None:
    reveal.wall_status(view, f"{view['round']} / {view['rounds']}", reveal.waiting_line(view))
    reveal.scoreboard({**view, "history": [{**t, "turn": t["round"]} for t in view.get("history") or []]})


def player(view, act) -> None:
    st.html(f"<div class='sm-waiting'>{ui.esc(reveal.waiting_line(view))}</div>")
    if view.get("mine"):
        st.markdown(ui.esc(view["mine"]))
    if not view.get("waiting_on_you"):
        return
    if view["phase"] == "call":
        st.button("🫙", key="empty", on_click=act, args=({"type": "empty"},))
        return
    for pebble in view.get("hand", []):
        st.button(pebble, key=f"drop-{pebble}", on_click=act, args=({"type": "drop", "pebble": pebble},))


STAGE = "tests.toy.stage"  # its screens on the stage (pages/stage): drawn from the socket
