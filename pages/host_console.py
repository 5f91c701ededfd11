"""The host's console: what the host's controls draw on the shared screen (start, skip, end,
remove, the clock, computer players, the audience, requests to come back in, the address for the
phones), and which tab holds them. It keeps no module state: the wall (pages/table.py) passes the
`Console` it holds on each run, and the panel says whether it showed a refusal."""

from __future__ import annotations

import html
from dataclasses import dataclass

import streamlit as st

from engine import tables
from engine.core import SobremesaError
from pages import clock, hostkey, ui
from pages.i18n import N_, _, lang, language_menu, n_
from pages.stage import remote as remote_screen
from pages.stage.render import Speaker


@dataclass(frozen=True)
class Console:
    """The room and this tab's host key, checked with the room on this run."""

    code: str
    host_token: str


def recall(code: str, token: str | None) -> None:
    """The host key this browser keeps for the room (pages/hostkey.py): a tab whose server process
    died comes back on another with a new session, and takes its controls back from there. A key
    the room takes goes into the tab's session, where `held` finds it."""
    stale = st.session_state.pop("_stale_host_keys", [])
    stored = hostkey.sync(keep={code: token} if token else None, forget=stale, ask=not token)
    kept = stored.get(code)
    if not token and kept:
        try:
            tables.check_host(code, kept)
        except SobremesaError:  # renewed by another tab since, or the room is gone: dropped next run
            st.session_state["_stale_host_keys"] = [code]
            st.session_state.get("_stored_host_keys", {}).pop(code, None)
            return
        ui.keep_host(code, kept)


def held(code: str) -> Console | None:
    """This tab's console if it holds the room's host key now. Asked on every run of the room's
    fragment: when another tab takes the controls over (the start page on the laptop renews the
    key), this one's panel closes at its next run, and it says why. The key is read from the tab's
    session each time (`ui.host_token`), so a key dropped here stays dropped on the next run."""
    token = ui.host_token(code)
    if not token:
        return None
    try:
        tables.check_host(code, token)
        return Console(code, token)
    except SobremesaError:
        ui.forget_host(code)
        st.session_state["host-lost"] = code  # the page says so (`lost`)
        return None


def lost(code: str) -> None:
    """Say so once this tab's key was renewed elsewhere (it stays said while the tab shows the room)."""
    if st.session_state.get("host-lost") == code:
        st.warning(
            _(
                "This screen no longer has the host controls: open the room again from the start page "
                "on the laptop that runs Sobremesa."
            )
        )


def quiet_held(code: str) -> Console | None:
    """This tab's console if it holds the room's host key now, saying nothing when it does not
    (`held`, run by the same page, says why)."""
    token = ui.host_token(code)
    if not token:
        return None
    try:
        tables.check_host(code, token)
    except SobremesaError:
        return None
    return Console(code, token)


def remote_links(view: dict, console: Console) -> None:
    """The ways to the remote: a second window on this laptop (an extended display), or the
    teacher's phone through a one-time QR that this laptop must allow (pages/remote.py)."""
    st.link_button(
        "🪟 " + _("Open the remote in a new window"), f"/remote?room={console.code}", use_container_width=True
    )
    pairing(console)


def pairing(console: Console) -> None:
    """ "Host from your phone": a QR that works once, for 60 s; the phone that scans it asks, and
    only a click here gives it the key (the laptop's screen is the projector's: anyone may scan)."""
    offer = st.session_state.get("pair-offer")
    pending = None
    if offer and offer.get("code") == console.code:
        try:
            pending = tables.pair_request(console.code, console.host_token)
        except SobremesaError:
            pending = None
    if offer and pending is None:
        st.session_state.pop("pair-offer", None)
        if offer.get("asked"):
            st.success(_("Your phone has the host controls now."))

    @st.fragment(run_every=1.0 if pending else None)
    def box() -> None:
        now = None
        if st.session_state.get("pair-offer"):
            try:
                now = tables.pair_request(console.code, console.host_token)
            except SobremesaError:
                now = None
        if (now is None) != (pending is None):  # offered just now, claimed, or its time ran out
            st.rerun(scope="app")
        if not now:
            st.button(
                "📱 " + _("Host from your phone"),
                key="pair-offer-go",
                use_container_width=True,
                on_click=_offer,
                args=(console,),
            )
            return
        if now["state"] == "asked":
            st.session_state["pair-offer"]["asked"] = True
            st.warning(_("A phone wants to host this room: allow? ({device})", device=_device(now.get("kind", ""))))
            yes, no = st.columns(2)
            yes.button(
                _("Allow"),
                type="primary",
                key="pair-allow",
                use_container_width=True,
                on_click=ui.attempt,
                args=(tables.pair_answer, console.code, console.host_token, True),
            )
            no.button(
                _("No"),
                key="pair-deny",
                use_container_width=True,
                on_click=ui.attempt,
                args=(tables.pair_answer, console.code, console.host_token, False),
            )
            return
        url = ui.link("remote", room=console.code, pair=st.session_state["pair-offer"]["nonce"])
        qr = ui.qr_svg(url, 220, _("QR code to host from your phone"))
        st.html(f"<a class='sm-pair-link' href='{html.escape(url, quote=True)}' target='_blank'>{qr}</a>")
        st.caption(_("Scan it with your phone: it works once, for one minute, and this laptop asks you first."))
        st.button(
            _("Cancel"),
            key="pair-cancel",
            on_click=ui.attempt,
            args=(tables.pair_cancel, console.code, console.host_token),
        )

    box()


def _offer(console: Console) -> None:
    try:
        offer = tables.pair_offer(console.code, console.host_token)
    except SobremesaError as exc:
        st.session_state["flash"] = ui.refusal(exc)
        return
    st.session_state["pair-offer"] = {**offer, "code": console.code}


def _device(kind: str) -> str:
    return remote_screen.device(kind, Speaker(lang()))


def confirm(console: Console, key: str, label: str, yes: str, disabled: bool, consequence: str, action, *args) -> None:
    """A host action that discards play asks once more, in a popover, before it acts."""
    with st.popover(label + "…", disabled=disabled, use_container_width=True, key=f"ask-{key}"):
        st.markdown(consequence)
        st.button(
            yes,
            type="primary",
            key=f"yes-{key}",
            on_click=ui.attempt,
            args=(action, console.code, console.host_token, *args),
        )


def choose_player(label: str, seats: list, names: list, key: str) -> tuple[int | None, str]:
    """A player for a host action, none chosen at first: (their seat, their name escaped) or (None, "")."""
    seat = st.selectbox(
        label, seats, format_func=lambda s: names[s], index=None, placeholder=_("Choose a player"), key=key
    )
    return seat, ui.esc(names[seat]) if seat is not None else ""


def ago(seconds: int) -> str:
    return remote_screen.ago(seconds, Speaker(lang()))


def rejoin_requests(view: dict, console: Console) -> None:
    """Someone lost their link: the host lets them back into their seat (their old link stops). Every
    request for a seat is shown, newest first, with the kind of device and its age: the host lets in
    the person they saw ask, and the others for that seat are dropped."""
    if not view.get("asking"):
        return
    try:
        requests = tables.rejoin_requests(console.code, console.host_token)
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
                said = lambda allow, r=r, s=seat: (
                    tables.let_back_in,
                    console.code,
                    console.host_token,
                    s,
                    allow,
                    r["id"],
                )
                answer(r, "let", said, stacked=False)


def join_requests(view: dict, console: Console) -> None:
    """A phone whose address already holds its seats asked to take one more (a shared tablet, or a
    class behind one address): the host lets it in, or not."""
    if not view.get("joining"):
        return
    try:
        requests = tables.join_requests(console.code, console.host_token)
    except SobremesaError:
        return
    for r in requests:
        with st.container(border=True):
            st.markdown(_("**{name}** asks for a seat from a phone that has one here already.", name=ui.esc(r["name"])))
            # One above the other: the lobby's side column is narrow on a projector.
            said = lambda allow, r=r: (tables.let_join, console.code, console.host_token, r["id"], allow)
            answer(r, "let-join", said, stacked=True)


def answer(request: dict, key: str, said, stacked: bool) -> None:
    """A request's device and age, and the host's two answers: `said(allow)` is the call to make
    (`ui.attempt`'s arguments). `stacked`: one above the other, for a narrow column."""
    kind = _device(request["kind"])
    st.caption(_("{device} · asked {ago}", device=kind, ago=ago(request["seconds"])))
    yes, no = (st.container(), st.container()) if stacked else st.columns(2)
    rid = request["id"]
    yes.button(
        _("Let them in"),
        key=f"{key}-{rid}",
        type="primary",
        use_container_width=True,
        on_click=ui.attempt,
        args=said(True),
    )
    no.button(_("No"), key=f"deny-{key}-{rid}", use_container_width=True, on_click=ui.attempt, args=said(False))


LEVELS = {"normal": N_("Normal"), "easy": N_("Easy")}


def computer_players(view: dict, console: Console) -> None:
    """Seat computer players in the lobby; hand a seat to one when its player went home, and back."""
    game = tables.games()[view["game"]]
    if game.bots is None or view["status"] == "finished":
        return
    if game.bots.ready is not None and not game.bots.ready(view["options"]):
        st.caption(_("Computer players play only with a deck whose pictures are described, like Dreams."))
        return
    code, host_token, names = console.code, console.host_token, view["names"]
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


def audience_controls(view: dict, console: Console) -> None:
    """Close or reopen the audience, and remove a member (one phone filled it once)."""
    watched = tables.games()[view["game"]].audience
    if view["status"] == "finished" or watched is None or watched.of(view["options"]) is None:
        return
    code, host_token = console.code, console.host_token
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
            console,
            "remove-member",
            _("Remove {name}", name=name) if name else _("Remove"),
            _("Yes: remove {name}", name=name),
            chosen is None,
            _("Their audience link stops working, and their points in this game go with them."),
            tables.remove_member,
            members[chosen]["id"] if chosen is not None else None,
        )


def address_picker(console: Console) -> None:
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
        ui.attempt(tables.set_join_address, console.code, console.host_token, None if chosen == found[0] else chosen)

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


def panel(view: dict, console: Console, folded: bool = True) -> bool:
    """The host's controls beside the wall; True if this run showed a refusal (the wall then names
    no fields to watch, so it reruns on the next move and the message goes). `folded=False`: in the
    sidebar over the stage, which is itself what the host opens on demand, and which only the page's
    full run draws (no move reruns it)."""
    rejoin_requests(view, console)
    join_requests(view, console)
    clock.reveal_controls(view, console.code, console.host_token)  # outside the folded panel: the host paces the class
    flashed = ui.flash()  # a refusal is shown even with the panel folded (the rejoin buttons sit outside it)
    if not folded:
        st.subheader(_("Host controls"))
        box = st.container()
    else:
        # Drawn only while open: folded during play, the controls were still drawn on every move by
        # this tab, the laptop's own (bench/rerun_cost.py). The key follows the status, so the panel
        # is open in the lobby and at the end (to play again), and folds when the game starts.
        box = st.expander(
            _("Host controls"),
            expanded=view["status"] in ("lobby", "finished"),
            key=f"host-controls-{view['status']}",
            on_change="rerun",
        )
        if not box.open:
            return flashed
    with box:
        code, host_token = console.code, console.host_token
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
                    console,
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
                console,
                "end",
                _("End the game now"),
                _("Yes: end the game now"),
                False,
                _("The game ends with the scores as they stand, and is saved."),
                tables.end,
            )
        computer_players(view, console)
        audience_controls(view, console)
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
                console,
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
        address_picker(console)
        language_menu(key="wall-language")
    return flashed
