"""The pace clock on the screens, the same for every game: the countdown (a live spot that the
browser counts down itself, pages/assets/push.js, so no second costs a rerun), the line that says
whom the clock skipped and why, the host's controls and the pace chosen at creation."""

from __future__ import annotations

from datetime import UTC, datetime

import streamlit as st

from engine import tables
from pages import push, ui
from pages.i18n import N_, _
from pages.screens import SCREENS

PACES = {"off": N_("No clock"), "relaxed": N_("Relaxed"), "brisk": N_("Brisk")}
HURRY = 10  # the last seconds, said plainly


def _left_ms(view) -> int | None:
    """Milliseconds left, or None with no countdown."""
    if view.get("paused"):
        return None if view.get("left") is None else int(view["left"]) * 1000
    if not view.get("deadline"):
        return None
    deadline = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    return max(0, int((deadline - datetime.now(UTC)).total_seconds() * 1000))


def shown(ms: int) -> str:
    """What the countdown reads with `ms` left (push.js writes the same as it counts)."""
    seconds = -(-ms // 1000)
    if seconds <= 0:
        return _("Time's up")
    if seconds <= HURRY:
        return _("{n} s left!", n=seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


def countdown(view) -> str:
    """The countdown, for a live spot: on the wall whenever one runs; on a phone only while the
    table waits on it. Empty otherwise. Paused, it says so and holds still."""
    mine = view.get("you") is None or view.get("waiting_on_you")
    ms = _left_ms(view)
    if not mine or ms is None or view.get("status") != "playing":
        return ""
    if view.get("paused"):
        paused = _("Paused")  # outside the f-string, where the extractor reads it
        return f"<span class='sm-clock'>⏸ {ui.esc(paused)} · {ui.esc(shown(ms))}</span>"
    hurry = " sm-hurry" if ms <= HURRY * 1000 else ""
    said = {"hurry": _("{n} s left!"), "up": _("Time's up")}  # what push.js writes as it counts down
    return (
        f"<span class='sm-clock{hurry}' data-sm-left='{ms}' data-sm-hurry='{ui.esc(said['hurry'])}' "
        f"data-sm-up='{ui.esc(said['up'])}'>⏱ {ui.esc(shown(ms))}</span>"
    )


def why(view) -> str:
    """Whom the clock skipped in this turn (else the one just closed), and why: plain words for
    the wall. The quiet-player rule's skips say the phone was away."""
    skips = view.get("clock_skips") or []
    lines = []
    late = [s["seat"] for s in skips if s.get("by") == "clock"]
    quiet = [s["seat"] for s in skips if s.get("by") == "quiet"]
    if late:
        lines.append("⏱ " + _("Time ran out for {names}: the table went on.", names=ui.names_of(view, late)))
    if quiet:
        lines.append("📵 " + _("{names}: phone away for 30 s, skipped.", names=ui.names_of(view, quiet)))
    return "<br>".join(ui.esc(line) for line in lines)


def wall(view) -> None:
    """The wall's clock: the countdown and the skips' reasons, both live."""
    st.html(
        f"<div class='sm-big sm-clockbox'>{push.spot(view, 'clock', countdown, tag='div')}"
        f"<div class='sm-aside'>{push.spot(view, 'clock-why', why)}</div></div>"
    )


def phone(view) -> None:
    """A phone's countdown, while the table waits on it."""
    st.html(f"<div class='sm-clockbox'>{push.spot(view, 'clock', countdown, tag='div')}</div>")


def skipped_here(view, seat: int) -> str | None:
    """What a seat the clock skipped reads instead of "the host skipped you"; None otherwise."""
    by = {s["seat"]: s.get("by") for s in view.get("clock_skips") or []}.get(seat)
    rounds = view.get("turn_word") == "round"
    if by == "clock":
        if rounds:
            return _("Time ran out, so the table went on without you. You are back in next round.")
        return _("Time ran out, so the table went on without you. You are back in next turn.")
    if by == "quiet":
        if rounds:
            return _("Your phone was away, so the table went on without you. You are back in next round.")
        return _("Your phone was away, so the table went on without you. You are back in next turn.")
    return None


def lengths(game: str, pace: str, options: dict) -> str:
    """Each timed phase's seconds at `pace`, in the game's own words and play order, for the game
    and `options` chosen: "Tell: 90 s · Give a card: 60 s · Vote: 45 s". Empty with no clock."""
    clock = tables.games()[game].clock
    seconds = clock.pace if clock else {}
    if pace not in PACES or pace == "off" or not seconds:
        return ""
    screen = SCREENS[game]
    names = screen.pace_names(options) if hasattr(screen, "pace_names") else getattr(screen, "PACE_NAMES", {})
    at = list(PACES).index(pace) - 1  # (relaxed, brisk), as Clock.pace keeps them
    return " · ".join(
        _("{phase}: {n} s", phase=_(name), n=seconds[phase][at]) for phase, name in names.items() if phase in seconds
    )


def options(game: str, chosen: dict) -> dict:
    """The pace chosen when a room is created: room options beside the game's (`chosen`), with
    how long each phase lasts at that pace."""
    pace = st.segmented_control(
        _("Pace"),
        list(PACES),
        default="off",
        format_func=lambda p: _(PACES[p]),
        key="host-pace",
        help=_("With a clock, each phase has a time limit: whoever has not played when it runs out is skipped."),
    )
    pace = pace or "off"
    if pace == "off":
        return {"pace": "off"}
    st.caption(ui.esc(lengths(game, pace, chosen)))
    quiet = st.checkbox(
        _("Skip quiet players"),
        value=True,
        key="host-skip-quiet",
        help=_("A player whose phone has been away for 30 s while the table waits on them is skipped."),
    )
    return {"pace": pace, "skip_quiet": quiet}


def host_controls(view, code: str, host_token: str) -> None:
    """Pause and resume, 30 seconds more, and the pace from the next phase on."""
    if view["status"] != "playing":
        return
    st.markdown("**" + _("Clock") + "**")
    if view.get("reveal_until") and view["reveal_until"] > datetime.now(UTC).isoformat():
        # The wall plays the turn just closed; the next deadline starts when it ends, or now.
        st.button(
            "⏭ " + _("End the reveal"),
            key="end-reveal",
            use_container_width=True,
            on_click=ui.attempt,
            args=(tables.end_reveal, code, host_token),
        )
    if view.get("pace", "off") != "off":
        stop, more = st.columns(2)
        if view.get("paused"):
            stop.button(
                "▶ " + _("Resume"),
                key="clock-resume",
                use_container_width=True,
                on_click=ui.attempt,
                args=(tables.resume, code, host_token),
            )
        else:
            stop.button(
                "⏸ " + _("Pause"),
                key="clock-pause",
                use_container_width=True,
                on_click=ui.attempt,
                args=(tables.pause, code, host_token),
            )
        more.button(
            _("+30 s"),
            key="clock-more",
            use_container_width=True,
            disabled=not (view.get("deadline") or view.get("paused")),
            on_click=ui.attempt,
            args=(tables.more_time, code, host_token, 30),
        )

    def change() -> None:
        chosen = st.session_state.get("clock-pace") or view.get("pace", "off")
        ui.attempt(tables.set_pace, code, host_token, chosen)

    st.segmented_control(
        _("Pace"),
        list(PACES),
        default=view.get("pace", "off"),
        format_func=lambda p: _(PACES[p]),
        key="clock-pace",
        on_change=change,
    )
