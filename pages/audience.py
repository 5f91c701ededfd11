"""The audience on the pages, the same for every game: joining it, a member's phone (their pick,
their points, and the public table), and the wall's audience lines. What a member picks is drawn by
the game's screens (`member` in pages/games/<folder>/screens.py, given the picks on offer); the
counts at a reveal by its `audience_line(counts, view)`. A game without them gets plain buttons."""

from __future__ import annotations

import streamlit as st

from engine import tables
from engine.core import SobremesaError
from pages import ui
from pages.i18n import N_, _
from pages.stage.mount import mount

WATCH = N_("Follow the game on the shared screen: there is nothing to pick in this one.")


def does(view) -> str:
    """One line under Join the audience: what members do in this game."""
    game = tables.games()[view["game"]]
    audience = game.audience.of(view["options"]) if game.audience else None
    return _(audience.does) if audience else _(WATCH)


def options() -> dict:
    """The audience chosen when a room is created: room options beside the game's."""
    open_ = st.checkbox(
        _("Audience"),
        value=True,
        key="host-audience",
        help=_("Past the seats, anyone can join the audience and pick along with the players for points of their own."),
    )
    if not open_:
        return {"audience": False}
    cap = st.number_input(
        _("Most people in the audience"),
        min_value=1,
        max_value=tables.AUDIENCE_MOST,
        value=tables.AUDIENCE_CAP,
        key="host-audience-max",
    )
    return {"audience": True, "audience_max": int(cap)}


def join_button(view, name: str, first: bool) -> bool:
    """The join page's Join the audience button (a form's), with its line; on a tap the member's
    link takes over the tab. Returns whether it was shown."""
    try:
        size = tables.audience_size(view["code"])
    except SobremesaError:
        return False
    if not size["open"]:
        st.caption(_("This room has no audience."))
        return False
    if size["full"]:
        st.caption(_("The audience is full ({count} people).", count=size["count"]))
        return False
    if st.form_submit_button(
        "👀 " + _("Join the audience"), type="primary" if first else "secondary", use_container_width=True
    ):
        try:
            member = tables.join_audience(view["code"], name, device=ui.device())
        except SobremesaError as exc:
            st.error(ui.esc(ui.refusal(exc)))
        else:
            st.query_params.update({"room": view["code"], "member": member.id, "token": member.token})
            st.rerun()
    st.caption(ui.esc(does(view)))
    return True


def member_screen(code: str, member: str, token: str) -> None:
    """A member's phone, in every game: drawn on the stage from its socket (pages/stage/member.py and
    the game's own `member` there), so no move reruns it. The page only checks the link first."""
    try:
        view = tables.audience_view(code, member, token, device=ui.asker(code))
        st.session_state.setdefault("_opened", set()).add(view["code"])  # not guessing: asked once
    except SobremesaError as exc:
        st.error(ui.esc(ui.refusal(exc)), icon="🚪")
        st.page_link("pages/play.py", label=_("Join this room again"), query_params={"room": code}, icon="👀")
        return
    ui.room_language(view["language"])
    mount(view["code"], "member", token=token, member=member)
