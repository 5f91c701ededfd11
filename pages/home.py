"""Home: join a room, host a new one, or get back to a running one."""

from __future__ import annotations

import streamlit as st

from engine import i18n, laptop, tables
from engine.core import SobremesaError
from pages import audience, clock, hostkey, ui
from pages.games import SETUPS
from pages.i18n import _, lang, language_menu

ui.style()
language_menu()
st.title("🎴 Sobremesa")
st.caption(_("Party games for one room: a shared screen on the wall, everyone's phone in hand."))
ui.flash()

join_col, host_col = st.columns([1, 1.4], gap="large")

with join_col:
    st.subheader(_("Join a game"))
    with st.form("join"):
        code = st.text_input(
            _("Room code"),
            max_chars=6,
            placeholder=_("e.g. KQZPB"),
            key="join-code",
            help=_("The five letters on the shared screen."),
        )
        if st.form_submit_button(_("Join"), type="primary", use_container_width=True):
            try:
                tables.version(code, device=ui.device())
            except SobremesaError as exc:
                st.error(ui.esc(ui.refusal(exc)))
            else:
                st.switch_page("pages/play.py", query_params={"room": tables.normalise_code(code)})

with host_col:
    st.subheader(_("Host a game"))
    game = st.selectbox(_("Game"), list(SETUPS), format_func=lambda g: _(SETUPS[g].PITCH), key="host-game")
    # The room's language: its shared screen and its players' phones start in it.
    language = st.radio(
        _("Language of the room"),
        list(i18n.NAMES),
        format_func=i18n.NAMES.get,
        horizontal=True,
        index=list(i18n.NAMES).index(lang()),
        key="host-language",
    )
    chosen = SETUPS[game].options()
    options = {**chosen, **clock.options(game, chosen), **audience.options()}
    if st.button(_("Create the room"), type="primary", use_container_width=True, key="create-room"):
        try:
            room = tables.create_room(game, options=options, language=language, device=ui.device())
        except SobremesaError as exc:
            st.error(ui.esc(ui.refusal(exc)))
        else:
            ui.keep_host(room.code, room.host_token)
            st.switch_page("pages/table.py", query_params={"room": room.code})

ROOMS_SHOWN = 10  # rooms listed at first, and how many more each "Show more" adds

if ui.is_local_request():
    shown = st.session_state.get("rooms-shown", ROOMS_SHOWN)
    running = tables.open_rooms(limit=shown + 1)
    if running:
        st.subheader(_("Rooms on this computer"))
        st.caption(
            _("Only this laptop sees this list, newest first. Opening a room here gives this tab its host controls.")
        )
        for r in running[:shown]:
            cols = st.columns([1, 2, 3, 2])
            cols[0].markdown(
                f"<span class='sm-code' style='font-size:1.3rem'>{ui.esc(r['code'])}</span>", unsafe_allow_html=True
            )
            made = _("created on this computer") if r["here"] else _("created on another device")
            cols[1].markdown(f"{ui.esc(ui.GAME_TITLES.get(r['game'], r['game']))}  \n:gray[{made}]")
            cols[2].write(ui.esc(", ".join(r["names"])) or _("nobody yet"))
            if cols[3].button(_("Open shared screen"), key=f"reopen-{r['code']}"):
                ui.keep_host(r["code"], tables.renew_host_token(r["code"]))
                st.switch_page("pages/table.py", query_params={"room": r["code"]})
        if len(running) > shown and st.button(_("Show more rooms"), key="rooms-more"):
            st.session_state["rooms-shown"] = shown + ROOMS_SHOWN
            st.rerun()
    with st.expander("🔑 " + _("This computer")):
        st.caption(
            _(
                "This browser is this laptop's: it lists the rooms here, takes uploads and sees the whole "
                "archive. Signing every other browser out renews the laptop's key: only this browser keeps it."
            )
        )
        if st.button(_("Sign out every other browser"), key="rotate-laptop-key"):
            laptop.rotate()
            ui.go(laptop.one_time_link(""))  # this browser takes the new key through a link of its own

else:
    if ui.unproven_laptop():
        st.caption(
            _(
                "Hosting from this laptop? Open the link shown in the window where Sobremesa runs: this "
                "browser then lists the rooms on this computer and takes uploads."
            )
        )
    # Behind a proxy nobody is "this computer": the rooms listed are those whose host key this
    # browser keeps (pages/hostkey.py), still valid.
    yours = []
    for held_code, key in sorted(hostkey.sync(ask=True).items()):
        try:
            tables.check_host(held_code, key)
        except SobremesaError:
            continue
        yours.append((held_code, key))
    if yours:
        st.subheader(_("Your rooms"))
        st.caption(_("Rooms this browser hosts. Opening one here gives this tab its host controls."))
        for held_code, key in yours[:ROOMS_SHOWN]:
            cols = st.columns([1, 3, 2])
            cols[0].markdown(
                f"<span class='sm-code' style='font-size:1.3rem'>{ui.esc(held_code)}</span>", unsafe_allow_html=True
            )
            view = tables.view(held_code, host_token=key)
            cols[1].write(ui.esc(f"{view['title']} · " + (", ".join(view["names"]) or _("nobody yet"))))
            if cols[2].button(_("Open shared screen"), key=f"reopen-{held_code}"):
                ui.keep_host(held_code, key)
                st.switch_page("pages/table.py", query_params={"room": held_code})

st.divider()
st.page_link("pages/rules.py", label=_("How to play"), icon="📜")
st.page_link("pages/stats.py", label=_("Statistics"), icon="📊")
