"""A player's own tab: join with a name, then hand, actions and waiting states. The link is the seat."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import streamlit as st

from engine import tables
from engine.core import BadToken, SobremesaError
from pages import audience, ui
from pages.games import SETUPS
from pages.i18n import _, lang, language_menu, n_, room_language
from pages.stage import on_stage
from pages.stage.mount import mount
from pages.stage.reading import Reading, page_key
from pages.stage.serve import said_of

ui.style()
params = st.query_params
code = tables.normalise_code(params.get("room", ""))
token = params.get("token")


def join_form() -> None:
    try:
        view = tables.view(code, device=ui.asker(code))
    except SobremesaError as exc:
        st.title("🎴 " + _("Join the table"))
        st.error(ui.esc(ui.refusal(exc)), icon="🚪")
        st.page_link("pages/home.py", label=_("Type another code"), icon="🏠")
        st.stop()
    room_language(view["language"])
    st.title("🎴 " + _("Join the table"))
    if not st.session_state.get("asking"):
        ui.flash()  # the host's answer to a request to join
    joined = ui.esc(", ".join(view["names"])) or _("nobody yet")
    st.caption(
        _(
            "Room {code} · {title} · {count} joined: {names}",
            code=code,
            title=view["title"],
            count=len(view["names"]),
            names=joined,
        )
    )
    asking = st.session_state.get("asking")
    if view["status"] != "lobby" and asking and asking["code"] == code:
        rejoin_form()  # waiting for the host to let them back in
        return
    joining = st.session_state.get("joining")
    if joining and joining["code"] == code:
        waiting_to_join(joining)  # this phone's address has its seats: the host was asked
        return
    seats_left = view["status"] == "lobby" and len(view["names"]) < view["seats_allowed"][1]
    with st.form("name"):
        name = st.text_input(_("Your name"), max_chars=tables.NAME_MAX, key="join-name")
        if not seats_left:  # the seats are taken: the audience comes first
            audience.join_button(view, name, first=True)
        elif st.form_submit_button(_("Take a seat"), type="primary", use_container_width=True):
            try:
                seat = tables.join(code, name, device=ui.device())
            except tables.PhoneHasSeat:
                ask_to_join(name)
            except SobremesaError as exc:
                st.error(ui.esc(ui.refusal(exc)))
            else:
                st.query_params.update({"room": code, "seat": str(seat.seat), "token": seat.token})
                st.rerun()
        if seats_left:
            audience.join_button(view, name, first=False)
    if view["status"] != "lobby":
        with st.expander(_("Were you playing? Ask for your seat back"), expanded=True):
            rejoin_form()


def wait_on_the_room(view: dict, said: str, wait: str) -> None:
    """A phone waiting for the host's answer says so; the room's socket, drawing no screen, reruns
    this fragment at each new version of the room (the answer bumps it)."""
    st.html(f"<div class='sm-phase'>{said}</div><div class='sm-waiting'>{wait}</div>")
    fields = ("version",)
    mount(code, "wall", page=(fields, page_key(view, fields)), quiet=True)


def ask_to_join(name: str) -> None:
    """This phone's address holds its seats already (one phone once took every seat): the host is
    asked, and may let a shared tablet, or a class behind one address, in."""
    try:
        asked = tables.ask_to_join(code, name, device=ui.device())
    except SobremesaError as exc:
        st.error(ui.esc(ui.refusal(exc)))
        return
    st.session_state["joining"] = {"code": code, "token": asked.token, "name": asked.name}
    st.rerun()


@st.fragment
def waiting_to_join(joining: dict) -> None:
    view = ui.load(code)
    if view is None:
        return
    try:
        found = tables.find_seat(code, joining["token"])
    except SobremesaError:
        if view["status"] == "lobby" and tables.still_asking_to_join(code, joining["token"]):
            wait_on_the_room(
                view,
                _("This phone already has a seat at this table."),
                _("The host was asked to let you in as {name}: wait here.", name=ui.esc(joining["name"])),
            )
            return
        st.session_state.pop("joining", None)
        st.session_state["flash"] = _("The host did not let you in. Ask them, or join the audience.")
        st.rerun(scope="app")
        return
    st.session_state.pop("joining", None)
    st.query_params.update({"room": code, "seat": str(found.seat), "token": joining["token"]})
    st.rerun(scope="app")


def rejoin_form() -> None:
    """A game under way: someone who lost their link asks for their seat back; the host agrees."""
    asking = st.session_state.get("asking")
    if asking and asking["code"] == code:
        waiting_to_rejoin(asking)
        return
    ui.flash()
    st.info(
        _(
            "This game has already started. Were you playing? Type the name you joined with, and the "
            "host lets you back in from the shared screen."
        ),
        icon="🔑",
    )
    with st.form("rejoin"):
        name = st.text_input(_("The name you played under"), max_chars=tables.NAME_MAX, key="rejoin-name")
        if st.form_submit_button(_("Ask to come back in"), type="primary", use_container_width=True):
            try:
                seat = tables.ask_to_rejoin(code, name, device=ui.device())
            except SobremesaError as exc:
                st.error(ui.esc(ui.refusal(exc)))
            else:
                st.session_state["asking"] = {"code": code, "seat": seat.seat, "token": seat.token}
                st.rerun()


@st.fragment
def waiting_to_rejoin(asking: dict) -> None:
    view = ui.load(code)
    if view is None:
        return
    try:
        tables.view(code, asking["seat"], asking["token"])
    except BadToken:
        if not tables.still_asking(code, asking["token"]):
            st.session_state.pop("asking", None)
            st.session_state["flash"] = _("The host did not let you back in. Ask them, then try again.")
            st.rerun(scope="app")  # the form again, with the answer above it
        wait_on_the_room(
            view,
            _("Asked to come back in as {name}.", name=ui.esc(view["names"][asking["seat"]])),
            _("The host lets you in from the shared screen."),
        )
        return
    st.session_state.pop("asking", None)
    st.query_params.update({"room": code, "seat": str(asking["seat"]), "token": asking["token"]})
    st.rerun(scope="app")


def seat_view() -> dict | None:
    """This link's seat and its view. A seat that moved (someone before it was removed in the
    lobby) is followed without a reload; a link whose seat is gone says so in words."""
    try:
        seat = int(params.get("seat", "-1"))
    except ValueError:
        seat = -1
    try:
        try:
            view = tables.view(code, seat, token, device=ui.asker(code))
        except BadToken:
            found = tables.find_seat(code, token)  # raises BadToken when no seat has this token
            st.query_params["seat"] = str(found.seat)
            view = tables.view(code, found.seat, token)
    except BadToken as exc:
        if st.session_state.get("seated") == code:  # this tab had a seat here a moment ago
            st.warning(
                _(
                    "This phone no longer holds a seat at this table: the host removed it, let its "
                    "player back in on another phone, or the seat's other phone stopped sharing it. "
                    "Scan the room's QR code to join again."
                ),
                icon="🚪",
            )
        else:
            st.error(ui.esc(ui.refusal(exc)), icon="🚪")
        st.page_link("pages/play.py", label=_("Join this room with a new seat"), query_params={"room": code}, icon="🪑")
        return None
    except SobremesaError as exc:
        st.error(ui.esc(ui.refusal(exc)), icon="🚪")
        st.page_link("pages/home.py", label=_("Back to the start"), icon="🏠")
        return None
    st.session_state["seated"] = code
    return view


if not code:
    st.error(_("This link has no room code. Scan the QR code on the shared screen."), icon="🚪")
    st.page_link("pages/home.py", label=_("Type the room code instead"), icon="🏠")
    st.stop()
if not token:
    join_form()
    st.stop()
if params.get("member"):  # a member of the audience: their link is their identity, like a seat's
    st.fragment(audience.member_screen)(code, params["member"], token)
    language_menu()
    st.stop()


def other_phones(seat: int) -> int:
    """How many other phones showed this seat lately (engine/tables/sharing.py), asked at most every
    `SEEN_EVERY` seconds by this tab: a phase change reruns every phone of the room."""
    key, now = (code, seat, token), time.monotonic()
    kept = st.session_state.get("seat-seen")
    if kept and kept[0] == key and kept[1] > now:
        return kept[2]
    try:
        others = tables.seen_on_seat(code, seat, token, ui.device())
    except SobremesaError:
        others = 0
    st.session_state["seat-seen"] = (key, now + tables.SEEN_EVERY, others)
    return others


def share_seat(seat: int) -> None:
    """Two people, one seat: this phone shows its seat's link as a QR code (here only: the link is
    the seat), and another phone scanned from it plays for the same seat. Stop sharing gives the
    seat a new link: this phone keeps it, the others must ask to come back in."""
    others = other_phones(seat)
    if others:
        st.warning(
            n_("Another phone is playing this seat too.", "{n} other phones are playing this seat too.", others),
            icon="📱",
        )
    with st.expander("📱 " + _("Share this seat")):
        link = ui.link("play", room=code, seat=seat, token=token)
        st.html(ui.qr_svg(link, 220, _("QR code of this seat's link")))
        st.caption(_("Scan it with a second phone to play this seat together. Whoever taps first plays for the seat."))
        st.caption(
            _(
                "Stop sharing gives this seat a new link: this phone keeps it, and any other phone on it must ask to come back in."
            )
        )
        if st.button(_("Stop sharing"), key="stop-sharing", use_container_width=True):
            try:
                renewed = tables.stop_sharing(code, seat, token, ui.device())
            except SobremesaError as exc:
                st.session_state["flash"] = ui.refusal(exc)
            else:
                st.query_params["token"] = renewed
                st.session_state.pop("seat-seen", None)
            st.rerun(scope="app")  # the page reads the seat's new link from its address


def _act(seat: int, move: dict, rendered_at: str, move_id: str | None = None) -> bool:
    """A move; when it is refused because this seat's other phone played first (two phones share a
    seat), a note says so, not an error: the page shows what was played. With `move_id` (made on
    the phone) it is played once however often it is sent, as a stage tap is."""
    try:
        if move_id:
            tables.stage_move(code, tables.stage_who(code, token), token, move_id, move)
        else:
            tables.submit(code, seat, token, move)
        st.session_state["moved_at"] = datetime.now(UTC).isoformat(timespec="milliseconds")
        return True
    except SobremesaError as exc:
        since = max(rendered_at, st.session_state.get("moved_at", ""))  # not this tab's own move
        st.session_state["flash"] = said_of(lang(), exc, code, seat, token, since)
        return False


@st.fragment
def phone() -> None:
    view = seat_view()
    if view is None:
        return
    seat = view["you"]
    rendered_at = datetime.now(UTC).isoformat(timespec="milliseconds")
    if not on_stage(view["game"]):  # every game draws its screens on the stage (pages/stage)
        st.error(_("This game cannot be shown on a phone yet."))
        return
    # The stage draws this seat's screen from its socket, whatever happens in the room: this page
    # never reruns for a move. A link that no longer holds gets the stage's blank screen.
    room_language(view["language"])
    above = getattr(SETUPS[view["game"]], "above_stage", None)
    if above is None:
        mount(code, "seat", token=token)
        ui.flash()
        share_seat(seat)
        host_tab()
        return
    # A part of its own above the stage (Pictomania's drawing pad): this page reruns only when what
    # that part read changes (the pad coming or going: the stage's socket says when), and on the
    # pad's own strokes.
    seen = Reading(view)
    above(seen, lambda move, move_id=None: _act(seat, move, rendered_at, move_id))
    fields = seen.fields()
    mount(code, "seat", token=token, page=(fields, page_key(view, fields)))
    ui.flash()
    share_seat(seat)
    host_tab()


def host_tab() -> None:
    """A teacher who plays hosts from the same phone: when this browser holds the room's host key
    (the remote's QR gave it: pages/hostkey.py says so in a cookie, with no key in it), a Host tab
    opens the remote beside the seat."""
    try:
        hosts = st.context.cookies.get("sobremesa_hosts") or ""
    except Exception:  # outside a browser's session (AppTest)
        hosts = ""
    if code in hosts.split("."):
        label = ui.esc("🎛 " + _("Host controls (in a new tab)"))
        st.html(f"<a class='sm-host-tab' data-testid='host-tab' href='/remote?room={code}' target='_blank'>{label}</a>")


phone()
language_menu()
