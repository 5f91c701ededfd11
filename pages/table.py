"""The shared screen: the public table on the projector. It holds no secret of any seat."""

from __future__ import annotations

import streamlit as st

from engine import tables
from engine.push.glance import Watched
from engine.core import SobremesaError
from pages import audience, clock, hostkey, push, ui
from pages.i18n import N_, _, language_menu, n_
from pages.screens import SCREENS

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
host_token = ui.host_token(code)

if not code:
    st.error(_("This page needs a room code: create a room on the start page."), icon="🚪")
    st.page_link("pages/home.py", label=_("Back to the start"), icon="🏠")
    st.stop()


def recall_host() -> None:
    """The host key this browser keeps for the room (pages/hostkey.py): a tab whose server process
    died comes back on another with a new session, and takes its controls back from there."""
    global host_token
    stale = st.session_state.pop("_stale_host_keys", [])
    stored = hostkey.sync(keep={code: host_token} if host_token else None, forget=stale, ask=not host_token)
    kept = stored.get(code)
    if not host_token and kept:
        try:
            tables.check_host(code, kept)
        except SobremesaError:  # renewed by another tab since, or the room is gone: dropped next run
            st.session_state["_stale_host_keys"] = [code]
            st.session_state.get("_stored_host_keys", {}).pop(code, None)
            return
        ui.keep_host(code, kept)
        host_token = kept


def still_host() -> bool:
    """Whether this tab holds the room's host key now. Asked on every run of the room's fragment:
    when another tab takes the controls over (the start page on the laptop renews the key), this
    one's panel closes at its next run, and it says why."""
    global host_token
    if not host_token:
        return False
    try:
        tables.check_host(code, host_token)
        return True
    except SobremesaError:
        host_token = None
        ui.forget_host(code)
        st.warning(
            _(
                "This screen no longer has the host controls: open the room again from the start page "
                "on the laptop that runs Sobremesa."
            )
        )
        return False


recall_host()
is_host = bool(host_token)


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
    size = "4.5rem" if lobby else "2.4rem"  # read from the back of the room
    st.markdown(f"<div class='sm-code' style='font-size:{size}'>{ui.esc(code)}</div>", unsafe_allow_html=True)
    # Under it, what a person types: host and code on one line, as large as the column allows.
    typed = ui.short_link(code)
    fit = ui.fit_size(typed, "2.2rem" if lobby else "1.6rem")
    st.html(
        f"<div class='sm-join'><div class='sm-url' style='font-size:max(.86rem, {fit})'>{ui.esc(typed)}</div></div>"
    )
    st.html(f"<div class='sm-aside'>{audience.size_spot(view)}</div>")


def lobby(view: dict) -> None:
    """Before the game: the join code fills the wall."""
    qr, names, side = st.columns([1.25, 1.2, 1], gap="large")
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
        st.markdown(f"<div class='sm-big'><div class='sm-waiting'>{how}</div></div>", unsafe_allow_html=True)
        seats_panel(view)
    with side:
        if is_host:
            host_panel(view)


def confirm(key: str, label: str, yes: str, disabled: bool, consequence: str, action, *args) -> None:
    """A host action that discards play asks once more, in a popover, before it acts."""
    with st.popover(label + "…", disabled=disabled, use_container_width=True, key=f"ask-{key}"):
        st.markdown(consequence)
        st.button(yes, type="primary", key=f"yes-{key}", on_click=ui.attempt, args=(action, code, host_token, *args))


def choose_player(label: str, seats: list, names: list, key: str) -> tuple[int | None, str]:
    """A player for a host action, none chosen at first: (their seat, their name escaped) or (None, "")."""
    seat = st.selectbox(
        label, seats, format_func=lambda s: names[s], index=None, placeholder=_("Choose a player"), key=key
    )
    return seat, ui.esc(names[seat]) if seat is not None else ""


# What the host sees of a device asking to come back in (`gate.device_kind`); brand names stay as they are.
KINDS = {
    "Android phone": N_("Android phone"),
    "Android tablet": N_("Android tablet"),
    "Windows computer": N_("Windows computer"),
    "Linux computer": N_("Linux computer"),
}
BRANDS = ("iPhone", "iPad", "Mac", "Chromebook")


def ago(seconds: int) -> str:
    if seconds < 60:
        return n_("{n} second ago", "{n} seconds ago", seconds)
    if seconds < 3600:
        return n_("{n} minute ago", "{n} minutes ago", seconds // 60)
    return n_("{n} hour ago", "{n} hours ago", seconds // 3600)


def rejoin_requests(view: dict) -> None:
    """Someone lost their link: the host lets them back into their seat (their old link stops). Every
    request for a seat is shown, newest first, with the kind of device and its age: the host lets in
    the person they saw ask, and the others for that seat are dropped."""
    if not view.get("asking"):
        return
    try:
        requests = tables.rejoin_requests(code, host_token)
    except SobremesaError:
        return
    for seat in view["asking"]:
        mine = [r for r in requests if r["seat"] == seat]
        if not mine:
            continue
        with st.container(border=True):
            st.markdown(
                n_(
                    "**{name}** asks to come back in on another phone. Is that really them?",
                    "{n} phones ask to come back in as **{name}**. Which one is really them?",
                    len(mine),
                    name=ui.esc(view["names"][seat]),
                )
            )
            for r in mine:
                label = KINDS.get(r["kind"])
                kind = _(label) if label else r["kind"] if r["kind"] in BRANDS else _("a device")
                st.caption(_("{device} · asked {ago}", device=kind, ago=ago(r["seconds"])))
                yes, no = st.columns(2)
                yes.button(
                    _("Let them in"),
                    key=f"let-{r['id']}",
                    type="primary",
                    use_container_width=True,
                    on_click=ui.attempt,
                    args=(tables.let_back_in, code, host_token, seat, True, r["id"]),
                )
                no.button(
                    _("No"),
                    key=f"deny-{r['id']}",
                    use_container_width=True,
                    on_click=ui.attempt,
                    args=(tables.let_back_in, code, host_token, seat, False, r["id"]),
                )


LEVELS = {"normal": N_("Normal"), "easy": N_("Easy")}


def computer_players(view: dict) -> None:
    """Seat computer players in the lobby; hand a seat to one when its player went home, and back."""
    game = tables.games()[view["game"]]
    if game.bot is None or view["status"] == "finished":
        return
    if game.bot_ready is not None and not game.bot_ready(view["options"]):
        st.caption(_("Computer players play only with a deck whose pictures are described, like Dreams."))
        return
    names = view["names"]
    level = (
        st.segmented_control(
            _("Computer players"), list(LEVELS), default="normal", key="bot-level", format_func=lambda k: _(LEVELS[k])
        )
        or "normal"
    )
    if view["status"] == "lobby":
        full = len(names) >= view["seats_allowed"][1]
        st.button(
            "🤖 " + _("Add a computer player"),
            use_container_width=True,
            key="add-bot",
            disabled=full,
            on_click=ui.attempt,
            args=(tables.add_bot, code, host_token, level),
        )
        return
    people = [s for s in range(len(names)) if s not in view.get("out", []) and s not in view.get("bots", [])]
    if people:
        who = st.selectbox(
            _("Hand a seat to a computer player"),
            people,
            format_func=lambda s: names[s],
            index=None,
            placeholder=_("Choose a player"),
            key="hand-bot",
        )
        st.button(
            _("A computer player plays for {name}", name=ui.esc(names[who]))
            if who is not None
            else _("Choose a player first"),
            use_container_width=True,
            key="hand-bot-go",
            disabled=who is None,
            on_click=ui.attempt,
            args=(tables.hand_to_bot, code, host_token, who, level),
        )
    for seat in view.get("handed", []):
        st.button(
            _("Give {name} their seat back", name=ui.esc(names[seat])),
            use_container_width=True,
            key=f"take-back-{seat}",
            on_click=ui.attempt,
            args=(tables.take_back, code, host_token, seat),
        )


def audience_controls(view: dict) -> None:
    """Close or reopen the audience, and remove a member (one phone filled it once)."""
    watched = tables.games()[view["game"]].audience
    if view["status"] == "finished" or watched is None or watched.of(view["options"]) is None:
        return
    size = tables.audience_size(code)
    members = tables.audience_members(code, host_token) if size["count"] else []
    if not size["open"] and not members:
        st.button(
            _("Open the audience"),
            key="audience-open",
            on_click=ui.attempt,
            args=(tables.open_audience, code, host_token, True),
        )
        return
    st.markdown(n_("**Audience:** {n} person", "**Audience:** {n} people", len(members)))
    if size["open"]:
        st.button(
            _("Close the audience to newcomers"),
            key="audience-close",
            on_click=ui.attempt,
            args=(tables.open_audience, code, host_token, False),
        )
    else:
        st.button(
            _("Open the audience again"),
            key="audience-open",
            on_click=ui.attempt,
            args=(tables.open_audience, code, host_token, True),
        )
    if members:
        names = [m["name"] for m in members]
        chosen = st.selectbox(
            _("Remove someone from the audience"),
            range(len(members)),
            format_func=lambda i: names[i],
            index=None,
            placeholder=_("Choose someone"),
            key="audience-remove",
        )
        name = ui.esc(names[chosen]) if chosen is not None else ""
        confirm(
            "remove-member",
            _("Remove {name}", name=name) if name else _("Remove"),
            _("Yes: remove {name}", name=name),
            chosen is None,
            _("Their audience link stops working, and their points in this game go with them."),
            tables.remove_member,
            members[chosen]["id"] if chosen is not None else None,
        )


def address_picker() -> None:
    """On the laptop, when it is on several networks: which of its addresses the QR code and the
    link show (a setting of the server: every room's, kept across a restart)."""
    if not ui.is_local_request():
        return
    choices = tables.join_choices()
    found = choices["addresses"]
    if choices["fixed_by"] or len(found) < 2:
        return

    def pick() -> None:
        chosen = st.session_state.get("join-address")
        ui.attempt(tables.set_join_address, code, host_token, None if chosen == found[0] else chosen)

    shown = found.index(choices["shown"]) if choices["shown"] in found else 0  # the network changed just now
    st.radio(
        _("Address for the phones"),
        found,
        index=shown,
        key="join-address",
        on_change=pick,
        format_func=lambda a: _("{address} (usual)", address=a) if a == found[0] else a,
        help=_(
            "This laptop is on several networks. If phones cannot open the link, choose the address of "
            "the network they are on: the QR code and the link change at once."
        ),
    )


def host_panel(view: dict) -> None:
    global flashed
    rejoin_requests(view)
    flashed = ui.flash()  # a refusal is shown even with the panel folded (the rejoin buttons sit outside it)
    # Drawn only while open: folded during play, the controls were still drawn on every move by this
    # tab, the laptop's own (bench/rerun_cost.py). The key follows the status, so the panel is open in
    # the lobby and at the end (to play again), and folds when the game starts.
    panel = st.expander(
        _("Host controls"),
        expanded=view["status"] in ("lobby", "finished"),
        key=f"host-controls-{view['status']}",
        on_change="rerun",
    )
    if not panel.open:
        return
    with panel:
        names = view["names"]
        if view["status"] == "lobby":
            fewest, most = view["seats_allowed"]
            st.button(
                n_("Start the game with {n} player", "Start the game with {n} players", len(names)),
                type="primary",
                use_container_width=True,
                key="start",
                disabled=len(names) not in view.get("seat_counts", range(fewest, most + 1)),
                on_click=ui.attempt,
                args=(tables.start, code, host_token),
            )
            if len(names) < fewest:
                st.caption(
                    n_(
                        "{fewest} to {most} players for this game: waiting for {n} more.",
                        "{fewest} to {most} players for this game: waiting for {n} more.",
                        fewest - len(names),
                        fewest=fewest,
                        most=most,
                    )
                )
            elif len(names) not in view.get("seat_counts", [len(names)]):  # Team plays in pairs
                st.caption(
                    _(
                        "This variant plays with {counts} players.",
                        counts=", ".join(str(n) for n in view["seat_counts"]),
                    )
                )
        if view["status"] == "playing":
            skippable = view["skippable"]
            if skippable:
                who, name = choose_player(_("Skip a player who went away"), skippable, names, "skip")
                confirm(
                    "skip",
                    _("Skip {name}", name=name) if name else _("Skip"),
                    _("Yes: skip {name}", name=name),
                    who is None,
                    _("{name} sits out what is left of this round and is back in the next one.", name=name)
                    if view["turn_word"] == "round"
                    else _("{name} sits out what is left of this turn and is back in the next one.", name=name),
                    tables.skip,
                    who,
                )
            clock.host_controls(view, code, host_token)
            confirm(
                "end",
                _("End the game now"),
                _("Yes: end the game now"),
                False,
                _("The game ends with the scores as they stand, and is saved."),
                tables.end,
            )
        computer_players(view)
        audience_controls(view)
        if view["status"] == "finished":
            st.button(
                _("Play again with the same players"),
                type="primary",
                key="again",
                on_click=ui.attempt,
                args=(tables.play_again, code, host_token),
            )
        still_in = [s for s in range(len(names)) if s not in view.get("out", [])]
        if still_in and view["status"] != "finished":
            gone, name = choose_player(_("Remove a player"), still_in, names, "kick")
            confirm(
                "kick",
                _("Remove {name}", name=name) if name else _("Remove"),
                _("Yes: remove {name}", name=name),
                gone is None,
                _("They leave the room; someone else can take the seat.")
                if view["status"] == "lobby"
                else _("They leave this game for good. Their points stay on the scoreboard."),
                tables.kick,
                gone,
            )
        st.caption(
            _(
                "Only this tab has the host controls. Closed it? Open the room again from the start "
                "page on the laptop that runs Sobremesa."
            )
        )
        address_picker()
        language_menu(key="wall-language")


flashed = False  # this run showed a refusal (host_panel)


@st.fragment
def screen() -> None:
    global is_host, flashed
    is_host, flashed = still_host(), False
    view = ui.load(code, host_token=host_token if is_host else None)
    if view is None:
        return
    seen = Watched(view)  # what this screen reads outside its live spots: a move that changes none of it reruns nothing
    drawn = False
    try:
        body(seen)
        drawn = True
    finally:  # mounted last: its render means the whole fragment has rendered this version
        # A refusal shown, or a screen that did not finish, reruns on every move.
        keys = seen.read() if drawn and not flashed else None
        push.listen(
            code,
            view["version"],
            ticket=ui.ticket(code),
            watch=None if keys is None else (keys, tables.signature(view, None, keys)),
        )


def body(view: dict) -> None:
    if view["status"] == "lobby":
        lobby(view)
        return
    render = SCREENS[view["game"]]
    main, side = st.columns([2.6, 1], gap="medium")  # main: about 1,300 px at 1920, 840 px at 1280
    with main:
        render.table(view)
    with side:
        clock.wall(view)
        shown = audience.top_line(view) if view["status"] == "finished" and view.get("audience_top") else ""
        shown = shown or audience.reveal_line(view)
        if shown:
            st.html(f"<div class='sm-big'><div class='sm-aside'>{shown}</div></div>")
        join_panel(view)
        seats_panel(view)
        if is_host:
            host_panel(view)


screen()
