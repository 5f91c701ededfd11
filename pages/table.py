"""The shared screen: the public table on the projector. It holds no secret of any seat."""
from __future__ import annotations

import streamlit as st

from engine import presence, tables
from engine.core import SobremesaError
from pages import push, ui
from pages.screens import SCREENS

ui.style()
code = tables.normalise_code(st.query_params.get("room", ""))
host_token = ui.host_token(code)

if not code:
    st.error("This page needs a room code: create a room on the start page.", icon="🚪")
    st.page_link("pages/home.py", label="Back to the start", icon="🏠")
    st.stop()

try:
    if host_token:
        tables.check_host(code, host_token)
    is_host = bool(host_token)
except SobremesaError:
    is_host = False
    ui.forget_host(code)
    st.warning("This screen no longer has the host controls: open the room again from the start page "
               "on the laptop that runs Sobremesa.")


def seats_panel(view: dict) -> None:
    scores = view.get("scores") or [0] * len(view["names"])
    waiting = set(view.get("waiting_for", []))
    online = presence.present(code)
    rows = []
    for seat, name in enumerate(view["names"]):
        state = "on" if seat in online else "off"
        mark = " ⏳" if seat in waiting else ""
        score = "" if view["status"] == "lobby" else (scores[seat] if seat < len(scores) else 0)
        rows.append(f"<div class='sm-seat {state}'><span class='sm-dot' title='{'connected' if state == 'on' else 'not connected'}'></span>"
                    f"{ui.esc(name)}{mark}<span class='sm-score'>{score}</span></div>")
    st.html("<div class='sm-big'>" + "".join(rows) + "</div>" if rows else "<i>Nobody has joined yet.</i>")


def join_panel(view: dict, qr_width: int = 220) -> None:
    url = ui.link("play", room=code)
    st.html(ui.qr_svg(url, qr_width))
    size = "4.5rem" if view["status"] == "lobby" else "2.4rem"  # read from the back of the room
    st.markdown(f"<div class='sm-code' style='font-size:{size}'>{ui.esc(code)}</div>", unsafe_allow_html=True)
    st.caption(url)


def lobby(view: dict) -> None:
    """Before the game: the join code fills the wall."""
    qr, names, side = st.columns([1.25, 1.2, 1], gap="large")
    with qr:
        join_panel(view, qr_width=480)
    with names:
        st.markdown(f"## Join {ui.esc(view['title'])}")
        fewest, most = view["seats_allowed"]
        st.markdown("<div class='sm-big'><div class='sm-waiting'>Scan the code with your phone's camera, "
                    "or open the link and type the code. Then type your name. "
                    f"{fewest} to {most} players.</div></div>", unsafe_allow_html=True)
        seats_panel(view)
    with side:
        if is_host:
            host_panel(view)


def host_panel(view: dict) -> None:
    with st.expander("Host controls", expanded=view["status"] == "lobby"):
        ui.flash()
        names = view["names"]
        if view["status"] == "lobby":
            fewest, most = view["seats_allowed"]
            st.button(f"Start the game with {len(names)} players", type="primary", use_container_width=True,
                      on_click=ui.attempt, args=(tables.start, code, host_token), disabled=len(names) < fewest)
            if len(names) < fewest:
                st.caption(f"{fewest} to {most} players for this game: waiting for {fewest - len(names)} more.")
        if view["status"] == "playing":
            skippable = view["skippable"]
            if skippable:
                who = st.selectbox("Skip a player who went away", skippable, format_func=lambda s: names[s])
                st.button("Skip them for now", on_click=ui.attempt, args=(tables.skip, code, host_token, who))
            st.button("End the game now (scores as they stand)", on_click=ui.attempt, args=(tables.end, code, host_token))
        if view["status"] == "finished":
            st.button("Play again with the same players", type="primary",
                      on_click=ui.attempt, args=(tables.play_again, code, host_token))
        if names and view["status"] != "finished":
            gone = st.selectbox("Remove a player", range(len(names)), format_func=lambda s: names[s], key="kick")
            st.button("Remove", on_click=ui.attempt, args=(tables.kick, code, host_token, gone))
        st.caption("Only this tab has the host controls. Closed it? Open the room again from the start "
                   "page on the laptop that runs Sobremesa.")


@st.fragment
def screen() -> None:
    view = ui.load(code)
    if view is None:
        return
    try:
        body(view)
    finally:  # mounted last: its render means the whole fragment has rendered this version
        ui.rendered_marker(view["version"])
        push.listen(code, view["version"], ticket=ui.ticket(code))
        seen = presence.channel(code)
        push.listen(seen, presence.version(code), key="presence", ticket=ui.ticket(code, channel=seen))


def body(view: dict) -> None:
    if view["status"] == "lobby":
        lobby(view)
        return
    render = SCREENS[view["game"]]
    main, side = st.columns([3.2, 1], gap="large")
    with main:
        render.table(view)
    with side:
        join_panel(view)
        seats_panel(view)
        if is_host:
            host_panel(view)


screen()
