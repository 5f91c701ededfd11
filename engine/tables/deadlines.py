"""The pace clock's deadlines, kept with the room (the `clocks` table), so that a restart or another
server process keeps them; the engine itself reads no clock.

A room's clock has a pace (`off`, `relaxed` or `brisk`: each phase's seconds are data on its `Game`;
or `host`: no deadline, and each reveal holds until the host's *Next*) and the quiet-player rule
(`skip_quiet`). After every change of a game's state, `settle` looks at
the moment the table is in: the phase, the turn, the seats it waits on, and anything the game says
starts a new deadline (`Clock.moment`). A new moment (a new phase, or a seat newly waited on) gets a
new deadline; a simultaneous phase whose seats act one by one keeps its one deadline. `pace.tick`
acts on the deadlines that passed.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from engine.core import BadOptions, Game
from engine.core.moves import is_whole
from engine.tables.base import store

PACES = ("off", "relaxed", "brisk", "host")
TIMED = ("relaxed", "brisk")  # the paces with deadlines: a phase's seconds are (relaxed, brisk)


QUIET_SECONDS = 30  # a seat waited on whose phone has been away this long is skipped (skip_quiet)


SETTINGS = ("pace", "skip_quiet")  # the room options the clock takes out of create_room's options


def settings(options: dict | None) -> tuple[dict, dict]:
    """A room's options split into the game's and the clock's: pace (default off) and skip_quiet
    (default: on when a pace is set). Wrong values are refused."""
    options = dict(options or {})
    pace = options.pop("pace", "off")
    if not isinstance(pace, str) or pace not in PACES:
        raise BadOptions("Choose a pace: no clock, relaxed, brisk or the host's.")
    quiet = options.pop("skip_quiet", pace in TIMED)
    if not isinstance(quiet, bool):
        raise BadOptions("Skipping quiet players is either on or off.")
    return options, {"pace": pace, "skip_quiet": quiet}


def new_clock(chosen: dict) -> dict:
    return {**chosen, "moment": None, "waiting": [], "since": None, "deadline": None, "paused": False, "left_ms": None}


def seconds_for(game: Game, pace: str, phase) -> int | None:
    """How long this phase may last at this pace; None: no deadline."""
    if pace not in TIMED or game.clock is None or phase not in game.clock.pace:
        return None
    return game.clock.pace[phase][TIMED.index(pace)]


def at(when: str) -> datetime:
    return datetime.fromisoformat(when.replace("Z", "+00:00"))


def later(now: str, seconds: float) -> str:
    return (at(now) + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def moment(game: Game, game_no: int, state: dict) -> str:
    """The moment a deadline belongs to (a seat newly waited on also starts a new one: `settle`)."""
    within = game.clock.moment(state) if game.clock else None
    return json.dumps([game_no, len(state["history"]), state.get("phase"), within])


def revealing(clock: dict | None, now: str) -> bool:
    """Whether the room holds a reveal now: the next turn's moves wait for its end (`Clock.reveal`
    seconds after the move that closed the turn), or for the host's *Next* while it is held."""
    if not clock:
        return False
    until = clock.get("reveal_until")
    return bool(clock.get("reveal_held") and clock.get("reveal_since")) or bool(until and until > now)


def settle(conn, code: str, game_no: int, game: Game, state: dict, now: str, closed: bool = False) -> None:
    """After a change of the game's state (in its transaction): the deadline of the moment it is in.
    A move that `closed` a turn starts the room's reveal (`Clock.reveal` seconds, or held until the
    host's *Next* at the host's pace): the next turn's moves wait for its end, and the next deadline
    starts then, so nobody's clock runs while the class watches it. The last turn has its reveal
    too, before the podium; a game the host ended has none (the podium at once), and a new game
    dealt during the last reveal ("Play again") starts at once. `reveal_since` is when the scene
    that plays in steps began: the reveal, or the podium of a game that ended without one."""
    clock = store().clock(code, conn)
    reveal = game.clock.reveal if game.clock else 0
    if clock is None:
        if not (closed and reveal) and game.outcome(state) is None:
            return
        clock = new_clock({"pace": "off", "skip_quiet": False})  # no pace, but the reveal's timing
    before = dict(clock)
    waiting = game.waiting_for(state) if game.outcome(state) is None else []
    key = moment(game, game_no, state)
    if closed and reveal and not state.get("ended_by_host"):  # the host's end: the podium at once
        held = clock["pace"] == "host"
        clock.update(reveal_until=None if held else later(now, reveal), reveal_since=now, reveal_held=held)
    elif closed or game.outcome(state) is not None or not state["history"]:
        # no turn to play again: a host's end, or a new game (play again)
        clock.update(reveal_until=None, reveal_held=False)
        if game.outcome(state) is not None and key != clock["moment"]:
            clock["reveal_since"] = now  # the podium, at once
    start = clock.get("reveal_until") if clock.get("reveal_until") and clock["reveal_until"] > now else now
    if key != clock["moment"] or not set(waiting) <= set(clock["waiting"]):
        seconds = seconds_for(game, clock["pace"], state.get("phase"))
        clock.update(moment=key, since=start, deadline=None, left_ms=None)
        if waiting and seconds is not None:
            if clock["paused"]:
                clock["left_ms"] = seconds * 1000
            else:
                clock["deadline"] = later(start, seconds)
    if not waiting:
        clock.update(deadline=None, left_ms=None)
    clock["waiting"] = waiting
    if clock != before:
        store().put_clock(conn, code, clock)


def header(code: str) -> dict:
    """What every view says of the clock: the deadline (ISO-8601 UTC, or None), whether it is
    paused and then the seconds left, the pace, whether quiet players are skipped, and the reveal:
    when its steps began (`reveal_since`), until when it holds (`reveal_until`), and whether the
    host holds it (`reveal_held`: until their *Next*). The screens compare them with the time."""
    clock = store().clock(code)
    if clock is None:
        return {
            "deadline": None,
            "paused": False,
            "left": None,
            "pace": "off",
            "skip_quiet": False,
            "reveal_until": None,
            "reveal_since": None,
            "reveal_held": False,
        }
    left = clock["left_ms"]
    return {
        "reveal_until": clock.get("reveal_until"),
        "reveal_since": clock.get("reveal_since"),
        "reveal_held": bool(clock.get("reveal_held")),
        "deadline": clock["deadline"],
        "paused": clock["paused"] and clock["pace"] != "off",
        "left": None if left is None or not clock["paused"] else int(left // 1000),
        "pace": clock["pace"],
        "skip_quiet": clock["skip_quiet"],
    }


def whole_seconds(seconds) -> int:
    if not is_whole(seconds) or not 1 <= seconds <= 600:
        raise BadOptions("Give from 1 to 600 seconds more.")
    return seconds
