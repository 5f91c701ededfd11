"""The shared screen: the public table on the projector. It holds no secret of any seat."""

from __future__ import annotations

import streamlit as st

from engine import tables
from pages import host_console, ui
from pages.games import SETUPS
from pages.i18n import _
from pages.stage import wall_on_stage
from pages.stage.mount import mount
from pages.stage.reading import Reading, page_key

ui.style()
# The wall is read from the back of a room: on a projector-sized screen every rem is larger, so
# body text is 28 px and the smallest caption 24 px at 1920 x 1080.
# Less margin there too (at 28 px a rem the page's own padding took 140 px of the width), and the
# room's side column wide enough for the join link on one line.
st.html(
    "<style>@media (min-width: 1200px) { html { font-size: 28px !important; } "
    "[data-testid='stMainBlockContainer'] { padding: 1rem 1.2rem 2rem; } }</style>"
)
code = tables.normalise_code(st.query_params.get("room", ""))
token = ui.host_token(code)  # takes an old link's `host=` out of the address even with no room code

if not code:
    st.error(_("This page needs a room code: create a room on the start page."), icon="🚪")
    st.page_link("pages/home.py", label=_("Back to the start"), icon="🏠")
    st.stop()

host_console.recall(code, token)


def join_panel(view: dict, qr_width: int = 220) -> None:
    url = ui.link("play", room=code)  # the QR code holds the whole link
    st.html(ui.qr_svg(url, qr_width, _("QR code to join the game")))
    lobby = view["status"] == "lobby"
    # Read from the back of the room, on one line whatever the projector (the column is a share of it).
    size = "min(4.5rem, 5.2vw)" if lobby else "min(2.4rem, 2.6vw)"
    st.markdown(
        f"<div class='sm-code' style='font-size:{size};white-space:nowrap'>{ui.esc(code)}</div>", unsafe_allow_html=True
    )
    # Under it, what a person types: host and code on one line, as large as the column allows.
    typed = ui.short_link(code)
    fit = ui.fit_size(typed, "2.2rem" if lobby else "1.6rem")
    st.html(
        f"<div class='sm-join'><div class='sm-url' style='font-size:max(.86rem, {fit})'>{ui.esc(typed)}</div></div>"
    )


def lobby(view: dict, console: host_console.Console | None) -> tuple[bool, st.delta_generator.DeltaGenerator]:
    """Before the game: the join code fills the wall. (Whether the host's panel showed a refusal,
    the place for the stage, which draws who has joined and the audience from the room's socket.)"""
    # On a 1280 x 720 projector the QR code, the code and the names fit the height: no scrolling.
    st.html(
        "<style>.sm-qr { max-height: 46vh; width: auto !important; } "
        "@media (max-height: 800px) { .sm-lobby .sm-waiting { font-size: 1.05rem !important; } }</style>"
    )
    qr, names, side = st.columns([1.25, 1.5, 1] if console else [1.25, 2.2, 0.01], gap="large")
    with qr:
        join_panel(view, qr_width=480)
    with names:
        st.markdown("## " + _("Join {title}", title=ui.esc(view["title"])))
        fewest, most = view["seats_allowed"]
        how = _(
            "Scan the code with your phone's camera, or type the address under it in your phone's browser. "
            "Then type your name. {fewest} to {most} players.",
            fewest=fewest,
            most=most,
        )
        st.markdown(f"<div class='sm-big sm-lobby'><div class='sm-waiting'>{how}</div></div>", unsafe_allow_html=True)
        stage = st.container()
    with side:
        flashed = host_console.panel(view, console) if console else False
    return flashed, stage


@st.fragment
def screen() -> None:
    """The wall: the stage, drawn from the room's socket (its one socket: no move reruns this
    page), and around it the page's own part (the lobby's QR code; the host's controls), which
    reruns only when the fields of the view it read change (the socket says when)."""
    console = host_console.held(code)
    view = ui.load(code, host_token=console.host_token if console else None)
    if view is None:
        return
    seen = Reading(view)
    flashed, place = False, st.container()
    if view["status"] == "lobby":
        flashed, place = lobby(seen, console)
    elif not wall_on_stage(view["game"]):  # every game's wall is the stage's
        st.error(_("This game cannot be shown on the shared screen yet."))
        return
    elif console is not None and st.session_state.get("console-drew") != _controls_show(seen):
        st.rerun(scope="app")  # the host's controls, drawn by the page's full run, show something new
    else:
        seen.get("game_no")  # a new game, or back to the lobby: this page draws again
    fields = seen.fields()
    if console is not None:
        fields += ("host",)  # another tab took the host's controls over: this one closes its panel
    if flashed:
        fields += ("version",)  # a refusal is shown once: the next move draws the page again
    shown = {**view, "host": tables.host_mark(code)} if console is not None else view
    with place:
        if console is None:
            mount(code, "wall", page=(fields, page_key(shown, fields)))
        else:  # the host's wall takes N (Next) and H (Hold), as its controls' buttons do
            host_token = console.host_token

            def key(action: str) -> None:
                ui.attempt(tables.next_scene if action == "next" else tables.hold, code, host_token)

            mount(code, "wall", page=(fields, page_key(shown, fields)), keys={"n": "next", "h": "hold"}, on_key=key)


def hosting() -> None:
    """The host's controls over the stage, in the sidebar: drawn by every full run of the page (a tap
    in them, or the game's status, its number or a request to come back in changing). A fragment's
    own rerun is lost when another server process takes the tab over ("the fragment ... does not
    exist anymore"), and a fragment may write to the sidebar only where a full run wrote first."""
    console = host_console.held(code)
    if console is None:
        return
    view = ui.load(code, host_token=console.host_token)
    if view is None or view["status"] == "lobby" or not wall_on_stage(view["game"]):
        return
    st.session_state["console-drew"] = _controls_show(view)
    with st.sidebar:
        extra = getattr(SETUPS[view["game"]], "host_extra", None)
        if extra is not None:  # a game's own tools for the host, first (Pictomania's "Save the drawings")
            extra(view)
        host_console.panel(view, console, folded=False)


def _controls_show(view) -> tuple:
    """What the host's controls show that a move changes: the page's full run draws them again when
    it does. A game with tools of its own for the host (`host_extra`) shows them turn by turn."""
    own = view.get("history_length") if hasattr(SETUPS[view["game"]], "host_extra") else None
    return (view["status"], view["game_no"], tuple(view["asking"]), own)


hosting()
screen()
