"""A player's own tab: join with a name, then hand, actions and waiting states. The link is the seat."""
from __future__ import annotations

import streamlit as st

from engine import tables
from engine.core import BadToken, SobremesaError
from pages import push, ui
from pages.screens import SCREENS

ui.style()
params = st.query_params
code = tables.normalise_code(params.get("room", ""))
token = params.get("token")


def join_form() -> None:
    st.title("🎴 Join the table")
    try:
        view = tables.view(code, device=ui.device())
    except SobremesaError as exc:
        st.error(ui.esc(exc), icon="🚪")
        st.page_link("pages/home.py", label="Type another code", icon="🏠")
        st.stop()
    st.caption(f"Room {code} · {view['title']} · "
               f"{len(view['names'])} joined: {ui.esc(', '.join(view['names'])) or 'nobody yet'}")
    with st.form("name"):
        name = st.text_input("Your name", max_chars=tables.NAME_MAX)
        if st.form_submit_button("Take a seat", type="primary", use_container_width=True):
            try:
                seat = tables.join(code, name)
            except SobremesaError as exc:
                st.error(ui.esc(exc))
            else:
                st.query_params.update({"room": code, "seat": str(seat.seat), "token": seat.token})
                st.rerun()


def resolve_seat() -> int:
    """The seat this link's token holds; a link whose seat moved (lobby removal) is mended."""
    try:
        seat = int(params.get("seat", "-1"))
    except ValueError:
        seat = -1
    try:
        tables.view(code, seat, token, device=ui.device())
        return seat
    except BadToken:
        found = tables.find_seat(code, token)  # raises BadToken with a clear message
        st.query_params["seat"] = str(found.seat)
        return found.seat


if not code:
    st.error("This link has no room code. Scan the QR code on the shared screen.", icon="🚪")
    st.page_link("pages/home.py", label="Type the room code instead", icon="🏠")
    st.stop()
if not token:
    join_form()
    st.stop()
try:
    seat = resolve_seat()
except SobremesaError as exc:
    st.error(ui.esc(exc), icon="🚪")
    st.page_link("pages/play.py", label="Join this room with a new seat", query_params={"room": code}, icon="🪑")
    st.stop()


def act(move: dict) -> bool:
    return ui.attempt(tables.submit, code, seat, token, move)


@st.fragment
def phone() -> None:
    view = ui.load(code, seat, token)
    if view is None:
        return
    try:
        score = view["scores"][seat] if view.get("scores") else 0
        st.markdown(f"**{ui.esc(view['names'][seat])}** · {score} points · room {ui.esc(code)}")
        ui.flash()
        if view["status"] == "lobby":  # the same wait for every game
            st.html(f"<div class='sm-phase'>You're in as {ui.esc(view['names'][seat])}.</div>"
                    f"<div class='sm-waiting'>The host starts the game when everyone has joined "
                    f"({len(view['names'])} so far).</div>")
        else:
            SCREENS[view["game"]].player(view, act)
    finally:  # mounted last: its render means the whole fragment has rendered this version
        ui.rendered_marker(view["version"])
        push.listen(code, view["version"], seat=seat, ticket=ui.ticket(code, seat, token))


phone()
