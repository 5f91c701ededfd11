"""The pace clock acting: `tick` skips, for every room this process leads, the seats still waited
on when their deadline passed (marked as the clock's) or whose phone has been away `QUIET_SECONDS`
while the table waits on them (marked as the quiet-player rule's); and the host's controls.

A skip goes through the move log like the host's, so it replays and rescores, and the record lists
it in the turn's `clock_skips`. The deadline is looked at again under the room's lock, in the skip's
own transaction: two processes that both think they lead a room still skip a seat once.
"""

from __future__ import annotations

from engine import leases
from engine.core import SobremesaError, TableError
from engine.games import GAMES
from engine.tables.base import bump, changing, notify, refusals_only, room_row, store, time_now
from engine.tables.deadlines import (
    QUIET_SECONDS,
    at,
    later,
    moment,
    new_clock,
    revealing,
    settings,
    settle,
    whole_seconds,
)
from engine.tables.play import apply_in, locked
from engine.tables.state import under_way
from engine.tables.unit import Actor, Unit


@refusals_only
def tick() -> int:
    """Every skip due now, by `tables.clock` where it is set, in the rooms this process leads
    (`engine.leases`: with one process, every room). Returns how many seats it skipped."""
    made = 0
    for code in store().running_clocks():
        if not leases.lead(code):
            continue
        try:
            made += _expire(code)
        except SobremesaError:
            continue  # the room moved on meanwhile: the next tick looks again
    return made


@refusals_only
def clocks_running() -> bool:
    """Whether any room's clock may act now (a pace, quiet players skipped, a reveal to end): the
    clock's thread (engine/pacer.py) ticks often only while one does, else it waits for a move."""
    return bool(store().running_clocks())


def _expire(code: str) -> int:
    now = time_now()
    made, version, before = locked(code, lambda u: _expire_locked(u, now))
    if version != before:
        notify(code, version)
    return made


def _expire_locked(u: Unit, now: str) -> tuple[int, int, int]:
    """(seats skipped, the room's version after, its version before)."""
    conn, code, room = u.conn, u.code, u.room  # locked: another process's tick waits here, then finds nothing due
    clock = store().clock(code, conn)
    until = clock.get("reveal_until") if clock else None
    if clock and until and not clock["reveal_held"] and at(until) <= at(now):
        # The reveal is over: a new version tells every screen, page and computer player at once
        # (the next turn shows within a tick). The next scene (the podium, after the last turn's
        # reveal) began when it ended.
        store().put_clock(conn, code, {**clock, "reveal_until": None, "reveal_since": until})
        return 0, bump(conn, room), room["version"]
    if revealing(clock, now):  # held by the host: nobody is skipped while the room watches
        return 0, room["version"], room["version"]
    if room["status"] != "playing" or clock is None or not clock["waiting"] or clock["paused"]:
        return 0, room["version"], room["version"]
    game, game_no = GAMES[room["game"]], room["game_no"]
    state = under_way(room, conn).state
    bots = {b["seat"] for b in store().bots(code, conn)}  # computer players are never late
    waited = [s for s in game.host.skippable(state) if s in clock["waiting"] and s not in bots]
    due = clock["deadline"] is not None and at(clock["deadline"]) <= at(now)
    if due:
        targets = [(seat, "clock") for seat in waited]
        if not targets:  # nobody the clock may skip (a computer player thinking): no countdown
            store().put_clock(conn, code, {**clock, "deadline": None})
            return 0, bump(conn, room), room["version"]  # the screens stop counting down
    elif clock["skip_quiet"]:
        seen = store().last_seen(code, conn)
        targets = [(seat, "quiet") for seat in waited if _quiet(seen.get(seat), clock["since"], now)]
    else:
        targets = []
    made, version, key = 0, room["version"], clock["moment"]
    for seat, by in targets:
        if moment(game, game_no, state) != key or seat not in game.host.skippable(state):
            break  # the moment is over (the phase resolved): its deadline is not the next one's
        move = {"type": "skip", "seat": None, "target": seat, "by": by}
        version = apply_in(u, move, Actor.service(by))
        made += 1
    return made, version, room["version"]


def _quiet(last_seen: str | None, since: str | None, now: str) -> bool:
    """Away for QUIET_SECONDS: not connected now, and neither connected nor newly waited on since."""
    if last_seen is not None and at(last_seen) > at(now):
        return False  # a process holds its socket
    began = max((at(t) for t in (last_seen, since) if t is not None), default=None)
    return began is not None and (at(now) - began).total_seconds() >= QUIET_SECONDS


# ---- the host's controls ---------------------------------------------------------------------


def _clock(change) -> dict:
    clock = store().clock(change.code, change.conn)
    if clock is None or clock["pace"] == "off":
        raise TableError("There is no clock in this room: choose a pace first.")
    return clock


@refusals_only
def pause(code: str, host_token: str) -> int:
    with changing(code, host_token) as change:
        clock = _clock(change)
        if clock["paused"]:
            raise TableError("The clock is already paused.")
        left = None
        if clock["deadline"] is not None:
            left = max(0, int((at(clock["deadline"]) - at(time_now())).total_seconds() * 1000))
        store().put_clock(change.conn, change.code, {**clock, "paused": True, "deadline": None, "left_ms": left})
    return change.version


@refusals_only
def resume(code: str, host_token: str) -> int:
    with changing(code, host_token) as change:
        clock = _clock(change)
        if not clock["paused"]:
            raise TableError("The clock is already running.")
        left = clock["left_ms"]
        deadline = None if left is None else later(time_now(), left / 1000)
        store().put_clock(change.conn, change.code, {**clock, "paused": False, "deadline": deadline, "left_ms": None})
    return change.version


@refusals_only
def more_time(code: str, host_token: str, seconds: int = 30) -> int:
    seconds = whole_seconds(seconds)
    with changing(code, host_token) as change:
        clock = _clock(change)
        if clock["deadline"] is not None:
            clock["deadline"] = later(clock["deadline"], seconds)
        elif clock["paused"] and clock["left_ms"] is not None:
            clock["left_ms"] += seconds * 1000
        else:
            raise TableError("No countdown is running now.")
        store().put_clock(change.conn, change.code, clock)
    return change.version


@refusals_only
def next_scene(code: str, host_token: str) -> int:
    """The host's *Next*: the reveal on now ends (held, or before its time), and the next turn's
    clock starts now, with what it had left; at the podium, every place shows at once."""
    with changing(code, host_token) as change:
        clock = store().clock(change.code, change.conn)
        now = time_now()
        if revealing(clock, now):
            assert clock is not None
            until = clock.get("reveal_until")
            if clock["deadline"] is not None and until:
                clock["deadline"] = later(clock["deadline"], (at(now) - at(until)).total_seconds())
            clock.update(since=now, reveal_until=None, reveal_since=now, reveal_held=False)
        elif change.room["status"] == "finished" and clock is not None and clock.get("reveal_since"):
            clock["reveal_since"] = None  # the podium's steps: all shown
        else:
            raise TableError("There is no reveal to end now.")
        store().put_clock(change.conn, change.code, clock)
    return change.version


@refusals_only
def hold(code: str, host_token: str) -> int:
    """The host's *Hold*: the reveal on now stays until their *Next*, whatever the pace."""
    with changing(code, host_token) as change:
        clock = store().clock(change.code, change.conn)
        if not revealing(clock, time_now()):
            raise TableError("There is no reveal to hold now.")
        assert clock is not None
        if clock["reveal_held"]:
            raise TableError("The reveal is already held: Next ends it.")
        store().put_clock(change.conn, change.code, {**clock, "reveal_held": True})
    return change.version


@refusals_only
def set_pace(code: str, host_token: str, pace: str, skip_quiet: bool | None = None) -> int:
    """The host changes the pace (and the quiet-player rule): from the next phase on; a table with
    no countdown now gets one at once, and `off` stops the one running."""
    chosen = settings({"pace": pace} if skip_quiet is None else {"pace": pace, "skip_quiet": skip_quiet})[1]
    with changing(code, host_token) as change:
        conn, room = change.conn, change.room
        clock = store().clock(change.code, conn) or new_clock(chosen)
        clock.update(chosen)
        if pace == "off":
            clock.update(deadline=None, paused=False, left_ms=None)
        elif clock["deadline"] is None and not clock["paused"]:
            clock["moment"] = None  # a countdown starts now for the moment the table is in
        store().put_clock(conn, change.code, clock)
        if room["status"] == "playing":
            state = under_way(room, conn).state
            settle(conn, change.code, room["game_no"], GAMES[room["game"]], state, time_now())
    return change.version


# ---- the laptop's own outage (engine/outage.py) -----------------------------------------------------


def _outage(code: str) -> str:
    return f"outage:{code}"


@refusals_only
def outage_pause(code: str) -> bool:
    """Every phone dropped at once (the laptop's Wi-Fi): the room's running clock pauses with the
    time it had left, marked as the outage's, not the host's. False if there was none to pause."""
    code = room_row(code)["code"]
    clock = store().clock(code)
    if clock is None or clock["pace"] == "off" or clock["paused"] or room_row(code)["status"] != "playing":
        return False
    with changing(code) as change:
        clock = store().clock(change.code, change.conn)
        left = None
        if clock["deadline"] is not None:
            left = max(0, int((at(clock["deadline"]) - at(time_now())).total_seconds() * 1000))
        store().put_clock(change.conn, change.code, {**clock, "paused": True, "deadline": None, "left_ms": left})
        store().set_setting(change.conn, _outage(change.code), time_now())
    return True


def outage_paused(code: str) -> bool:
    return store().setting(_outage(room_row(code)["code"])) is not None


@refusals_only
def outage_resume(code: str) -> None:
    """The phones are back: the clock the outage paused runs again with the time it had left, and
    the quiet-player rule counts from now. A clock the host resumed meanwhile is left alone."""
    with changing(code) as change:
        clock = store().clock(change.code, change.conn)
        if store().setting(_outage(change.code)) is None:
            return
        store().set_setting(change.conn, _outage(change.code), None)
        if clock is None or not clock["paused"]:
            return
        left = clock["left_ms"]
        deadline = None if left is None else later(time_now(), left / 1000)
        store().put_clock(
            change.conn,
            change.code,
            {**clock, "paused": False, "deadline": deadline, "left_ms": None, "since": time_now()},
        )
