"""The shared screen: the public table on the projector. It holds no secret of any seat."""

from __future__ import annotations

import streamlit as st

from engine import tables
from engine.push.glance import Watched
from pages import audience, host_console, push, ui
from pages.i18n import _
from pages.screens import SCREENS
from pages.stage import wall_on_stage
from pages.stage.mount import mount

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


def seats_panel(view) -> None:
    """Who sits at the table: connected or not, whom the table waits on, the scores. A live spot:
    players coming and going and the waiting marks change with no rerun."""
    st.html(push.spot(view, "seats", _seats, tag="div"))


def _seats(view: dict) -> str:
    scores = view.get("scores") or [0] * len(view["names"])
    waiting = set(view.get("waiting_for", []))
    online = set(view["connected"])
    away = set(view.get("away", []))
    rows = []
    out = set(view.get("out", []))
    for seat, name in enumerate(view["names"]):
        state = "out" if seat in out else "on" if seat in online else "off"
        mark = " ⏳" if seat in waiting else " " + _("(left)") if seat in out else ""
        if seat in away and state == "off":  # skipped for a quiet phone two turns running
            mark += " 💤 " + _("away")
        score = "" if view["status"] == "lobby" else (scores[seat] if seat < len(scores) else 0)
        dot = _("connected") if state == "on" else _("not connected")
        rows.append(
            f"<div class='sm-seat {state}'><span class='sm-dot' title='{dot}'></span>"
            f"{ui.esc(name)}{mark}<span class='sm-score'>{score}</span></div>"
        )
    nobody = _("Nobody has joined yet.")  # outside an f-string, where the extractor reads it
    return "<div class='sm-big'>" + "".join(rows) + "</div>" if rows else f"<i>{nobody}</i>"


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
    st.html(f"<div class='sm-aside'>{audience.size_spot(view)}</div>")


def lobby(view: dict, console: host_console.Console | None) -> bool:
    """Before the game: the join code fills the wall. True if the host's panel showed a refusal."""
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
        seats_panel(view)
    with side:
        return host_console.panel(view, console) if console else False


@st.fragment
def screen() -> None:
    console = host_console.held(code)
    view = ui.load(code, host_token=console.host_token if console else None)
    if view is None:
        return
    seen = Watched(view)  # what this screen reads outside its live spots: a move that changes none of it reruns nothing
    drawn = flashed = False
    try:
        flashed = body(seen, console)
        drawn = True
    finally:  # mounted last: its render means the whole fragment has rendered this version
        # A refusal shown, or a screen that did not finish, reruns on every move.
        keys = seen.read() if drawn and not flashed else None
        push.listen(
            code,
            view["version"],
            ticket=ui.ticket(code),
            watch=None if keys is None else (keys, tables.signature(view, None, keys)),
            quiet=view["status"] != "lobby" and wall_on_stage(view["game"]),  # the stage reports the room
        )


def body(view: dict, console: host_console.Console | None) -> bool:
    if view["status"] == "lobby":
        return lobby(view, console)
    if wall_on_stage(view["game"]):
        # The stage draws the game from its socket; the host's controls open over it, on demand, in
        # the sidebar, drawn by the page's full run (`hosting`, below): a fragment's own rerun is lost
        # when another server process takes the tab over ("the fragment ... does not exist anymore").
        mount(code, "wall")
        view.get("game_no")  # a new game, or back to the lobby: this page draws again
        if console is not None:
            if st.session_state.get("console-drew") != _controls_show(view):
                st.rerun(scope="app")
        return False
    st.error(_("This game cannot be shown on the shared screen yet."))  # every game's wall is the stage's
    return False


def hosting() -> None:
    """The host's controls over the stage, in the sidebar: drawn by every full run of the page (a tap
    in them, or the game's status, its number or a request to come back in changing)."""
    console = host_console.held(code)
    if console is None:
        return
    view = ui.load(code, host_token=console.host_token)
    if view is None or view["status"] == "lobby" or not wall_on_stage(view["game"]):
        return
    st.session_state["console-drew"] = _controls_show(view)
    with st.sidebar:
        extra = getattr(SCREENS[view["game"]], "host_extra", None)
        if extra is not None:  # a game's own tools for the host, first (Pictomania's "Save the drawings")
            extra(view)
        host_console.panel(view, console, folded=False)


def _controls_show(view) -> tuple:
    """What the host's controls show that a move changes: the page's full run draws them again when
    it does. A game with tools of its own for the host (`host_extra`) shows them turn by turn."""
    own = view.get("history_length") if hasattr(SCREENS[view["game"]], "host_extra") else None
    return (view["status"], view["game_no"], tuple(view["asking"]), own)


hosting()
screen()
