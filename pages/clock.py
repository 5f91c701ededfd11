"""The pace clock's Streamlit parts, the same for every game: the host's controls and the pace chosen
at creation (the countdown and whom the clock skipped are the stage's: pages/stage/kit.py, counted
down in the browser by pages/assets/stage.js)."""

from __future__ import annotations

from datetime import UTC, datetime

import streamlit as st

from engine import tables
from pages import ui
from pages.games import SETUPS
from pages.i18n import N_, _

PACES = {"off": N_("No clock"), "relaxed": N_("Relaxed"), "brisk": N_("Brisk"), "host": N_("Host's Next")}
TIMED = ("relaxed", "brisk")  # as Clock.pace keeps each phase's seconds


def lengths(game: str, pace: str, options: dict) -> str:
    """Each timed phase's seconds at `pace`, in the game's own words and play order, for the game
    and `options` chosen: "Tell: 90 s · Give a card: 60 s · Vote: 45 s". Empty with no clock."""
    if pace == "host":
        return _("No time limit: each reveal stays on the shared screen until the host taps Next.")
    clock = tables.games()[game].clock
    seconds = clock.pace if clock else {}
    if pace not in TIMED or not seconds:
        return ""
    screen = SETUPS[game]
    names = screen.pace_names(options) if hasattr(screen, "pace_names") else getattr(screen, "PACE_NAMES", {})
    at = TIMED.index(pace)
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
    if pace == "host":  # nobody is skipped by a clock: the host skips
        return {"pace": "host", "skip_quiet": False}
    quiet = st.checkbox(
        _("Skip quiet players"),
        value=True,
        key="host-skip-quiet",
        help=_("A player whose phone has been away for 30 s while the table waits on them is skipped."),
    )
    return {"pace": pace, "skip_quiet": quiet}


def revealing(view) -> bool:
    """Whether the room holds a reveal now (engine/tables/deadlines.py `revealing`, read from a view)."""
    until = view.get("reveal_until")
    held = bool(view.get("reveal_held") and view.get("reveal_since"))
    return held or bool(until and until > datetime.now(UTC).isoformat())


def reveal_controls(view, code: str, host_token: str) -> None:
    """*Next* and *Hold* all through the game (the wall's keys N and H do the same; a tap with no
    reveal on says so), and *Next* at the podium while its places come one by one. They stay put
    rather than come and go with each reveal: that would draw the host's page again twice a turn."""
    if view["status"] == "finished" and (revealing(view) or view.get("reveal_since")):
        _next_button(code, host_token)
    elif view["status"] == "playing":  # the next turn waits for the reveal's end, or this Next
        go, hold = st.columns(2)
        with go:
            _next_button(code, host_token)
        hold.button(
            "✋ " + _("Hold"),
            key="hold-reveal",
            use_container_width=True,
            help=_("Keep this reveal on the shared screen until you tap Next (key H on the shared screen)."),
            on_click=ui.attempt,
            args=(tables.hold, code, host_token),
        )


def host_controls(view, code: str, host_token: str) -> None:
    """Pause and resume, 30 seconds more, and the pace from the next phase on."""
    if view["status"] != "playing":
        return
    st.markdown("**" + _("Clock") + "**")
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

    # The pace the control shows is the room's: set elsewhere (the teacher's remote), it is put in the
    # control before it is drawn. A `default` applies only to a control drawn anew, so the menu kept
    # showing the old pace, and a tap on it could set that one back.
    pace = view.get("pace", "off")
    if st.session_state.get("clock-pace-of") != pace or "clock-pace" not in st.session_state:
        st.session_state["clock-pace"] = st.session_state["clock-pace-of"] = pace
    st.segmented_control(
        _("Pace"),
        list(PACES),
        format_func=lambda p: _(PACES[p]),
        key="clock-pace",
        on_change=change,
    )


def _next_button(code: str, host_token: str) -> None:
    st.button(
        "⏭ " + _("Next"),
        key="next-scene",
        type="primary",
        use_container_width=True,
        help=_("End this reveal and go on (key N on the shared screen)."),
        on_click=ui.attempt,
        args=(tables.next_scene, code, host_token),
    )
