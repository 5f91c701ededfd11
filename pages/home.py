"""Home: join a room, host a new one, or get back to a running one."""
from __future__ import annotations

import streamlit as st

from engine import tables
from engine.core import SobremesaError
from pages import ui
from pages.screens import SCREENS

LANGUAGE_NAMES = {"en": "English", "es": "Español", "it": "Italiano"}

ui.style()
st.title("🎴 Sobremesa")
st.caption("Party games for one room: a shared screen on the wall, everyone's phone in hand.")
ui.flash()

join_col, host_col = st.columns([1, 1.4], gap="large")

with join_col:
    st.subheader("Join a game")
    with st.form("join"):
        code = st.text_input("Room code", max_chars=6, placeholder="e.g. KQZP",
                             help="The four letters on the shared screen.")
        if st.form_submit_button("Join", type="primary", use_container_width=True):
            try:
                tables.version(code, device=ui.device())
            except SobremesaError as exc:
                st.error(ui.esc(exc))
            else:
                st.switch_page("pages/play.py", query_params={"room": tables.normalise_code(code)})

with host_col:
    st.subheader("Host a game")
    game = st.selectbox("Game", list(SCREENS), format_func=lambda g: SCREENS[g].PITCH)
    language = st.radio("Language", list(LANGUAGE_NAMES), format_func=LANGUAGE_NAMES.get, horizontal=True)
    options = SCREENS[game].options()
    if st.button("Create the room", type="primary", use_container_width=True):
        try:
            room = tables.create_room(game, options=options, language=language)
        except SobremesaError as exc:
            st.error(ui.esc(exc))
        else:
            ui.keep_host(room.code, room.host_token)
            st.switch_page("pages/table.py", query_params={"room": room.code})

if ui.is_local_request():
    running = [r for r in tables.open_rooms() if r["status"] != "finished"]
    if running:
        st.subheader("Rooms on this computer")
        st.caption("Only this laptop sees this list. Opening a room here gives this tab its host controls.")
        for r in running:
            cols = st.columns([1, 2, 3, 2])
            cols[0].markdown(f"<span class='sm-code' style='font-size:1.3rem'>{ui.esc(r['code'])}</span>",
                             unsafe_allow_html=True)
            cols[1].write(ui.GAME_TITLES.get(r["game"], r["game"]))
            cols[2].write(ui.esc(", ".join(r["names"])) or "nobody yet")
            if cols[3].button("Open shared screen", key=f"reopen-{r['code']}"):
                ui.keep_host(r["code"], tables.renew_host_token(r["code"]))
                st.switch_page("pages/table.py", query_params={"room": r["code"]})

st.divider()
st.page_link("pages/rules.py", label="How to play", icon="📜")
st.page_link("pages/stats.py", label="Statistics", icon="📊")
