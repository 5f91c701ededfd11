"""The shared screen: the public table on the projector, the stage and nothing else (issue 50). It
holds no secret of any seat, and no host control shows on it: the host runs the room from the
remote (pages/remote.py: a phone, a second window). A wall whose browser holds the host's key
takes the keys N, H, P and M, and Esc opens the host menu over a corner (`menu`): the remote's QR
for a phone, the address for the phones, the game's own tools and every control, for a teacher
with only the laptop."""

from __future__ import annotations

import streamlit as st

from engine import tables
from engine.core import SobremesaError
from pages import host_console, ui
from pages.games import SETUPS
from pages.i18n import _
from pages.stage import wall_on_stage
from pages.stage.mount import mount
from pages.stage.reading import page_key

ui.style()
# No sidebar and no toggle over the stage; the host menu sits over the top-right corner, shown only
# while the wall's Esc holds it open (pages/assets/stage.js toggles `sm-menu-open`).
st.html(
    "<style>[data-testid='stSidebar'], [data-testid='stSidebarCollapsedControl'], "
    "[data-testid='stExpandSidebarButton'], header[data-testid='stHeader'] { display: none !important; }"
    ".st-key-host-menu { position: fixed; top: .6rem; right: .6rem; z-index: 2000; width: min(26rem, 92vw);"
    " max-height: calc(100vh - 1.2rem); overflow: auto; padding: .8rem 1rem; border-radius: .8rem;"
    " background: #FBF5EC; box-shadow: 0 .4rem 1.6rem rgba(0,0,0,.45); font-size: 16px; }"
    "body:not(.sm-menu-open) .st-key-host-menu { display: none; }"
    ".sm-menu-hint { position: fixed; top: .3rem; right: .5rem; z-index: 1500; font-size: 13px; color: #C9BBAE;"
    " opacity: .8; } body.sm-menu-open .sm-menu-hint, body.sm-menu-open .sm-menu-flash { display: none; }"
    ".sm-menu-flash { position: fixed; left: 50%; transform: translateX(-50%); bottom: .6rem; z-index: 1500;"
    " padding: .3rem .9rem; border-radius: 1rem; background: #8E1F14; color: #fff; font-size: 18px; }</style>"
)
code = tables.normalise_code(st.query_params.get("room", ""))
token = ui.host_token(code)  # takes an old link's `host=` out of the address even with no room code

if not code:
    st.error(_("This page needs a room code: create a room on the start page."), icon="🚪")
    st.page_link("pages/home.py", label=_("Back to the start"), icon="🏠")
    st.stop()

host_console.recall(code, token)


def _menu_fields(view) -> tuple[str, ...]:
    """What the host menu shows that the room's news changes: the page's full run draws it again
    then. The seats only in the lobby (its start button counts them); the clock's pace and pause
    while playing (the teacher's remote changes them too, and a Wi-Fi outage pauses); the turn only for a
    game with tools of its own for the host (Pictomania's drawings to save, turn by turn)."""
    fields = ("status", "game_no", "asking", "joining")
    if view["status"] == "lobby":
        fields += ("names",)
    if view["status"] == "playing":
        fields += ("pace", "paused")
    if hasattr(SETUPS[view["game"]], "host_extra"):
        fields += ("history_length",)
    return fields


def _menu_shows(view) -> tuple:
    return tuple(repr(view.get(f)) for f in _menu_fields(view))


@st.fragment
def screen() -> None:
    """The wall: the stage, drawn from the room's socket (its one socket: no move reruns this
    page). A host's wall proves the key in the socket's first message, and its page reruns when
    the host menu has something new to show."""
    console = host_console.held(code)
    if console is None and st.session_state.pop("menu-drew", None) is not None:
        st.rerun(scope="app")  # the key was renewed elsewhere: the host menu goes with it
    if console is None:
        host_console.lost(code)
    view = ui.load(code, host_token=console.host_token if console else None)
    if view is None:
        return
    if view["status"] != "lobby" and not wall_on_stage(view["game"]):  # every game's wall is the stage's
        st.error(_("This game cannot be shown on the shared screen yet."))
        return
    if console is not None and st.session_state.get("menu-drew") != _menu_shows(view):
        st.rerun(scope="app")  # the menu, drawn by the page's full run, shows something new
    fields: tuple[str, ...] = ("game_no",)
    if console is not None:
        # another tab took the host's key over: this one drops it; the menu follows the room, and
        # only what it shows (no move of play reruns this page)
        fields = ("host", *_menu_fields(view))
    shown = {**view, "host": tables.host_mark(code)} if console is not None else view
    mount(code, "wall", page=(fields, page_key(shown, fields)), host=console.host_token if console else None)


def menu() -> None:
    """The host menu, opened and closed by Esc on the wall: drawn by the page's full run."""
    console = host_console.quiet_held(code)
    if console is None:
        return
    try:
        view = tables.view(code, host_token=console.host_token)
    except SobremesaError:
        return
    st.session_state["menu-drew"] = _menu_shows(view)
    st.html(f"<div class='sm-menu-hint' aria-hidden='true'>Esc · {ui.esc(_('Host menu'))}</div>")
    said = st.session_state.get("flash")
    if said:  # a refusal shows with the menu closed too, in a corner of the wall
        st.html(f"<div class='sm-menu-flash' role='alert'>{ui.esc(said)}</div>")
    with st.container(key="host-menu"):
        st.markdown("**🎛 " + _("Host menu") + "** · " + _("Esc closes it"))
        host_console.remote_links(view, console)
        extra = getattr(SETUPS[view["game"]], "host_extra", None)
        if extra is not None and view["status"] != "lobby":  # a game's own tools (Pictomania's "Save the drawings")
            extra(view)
        host_console.panel(view, console, folded=False)


menu()
screen()
