"""The move path: a seat's legal moves and its move, the host's skip and end, under the room's lock
and in one transaction, then announced."""

from __future__ import annotations

import json

from engine.core import (
    NotStarted,
    RevealOn,
    UnknownMove,
    check,
    perform,
)
from engine.games import GAMES
from engine.tables import deadlines, steps
from engine.tables.archive import build_record, keep_devices, save_stat_rows_soon
from engine.tables.base import (
    after_commit,
    bump,
    normalise_code,
    notify,
    refusals_only,
    room_lock,
    room_row,
    seat_row,
    store,
    take_after_commit,
    time_now,
)
from engine.tables.state import SNAPSHOT_CHARS_PER_MOVE, SNAPSHOT_EVERY, forget_state, under_way
from engine.tables.steps import Moving
from engine.tables.unit import Actor, Unit

# The host's moves a reveal lets through: ending the game, and taking a seat out of it.
PASS_THE_REVEAL = ("end", "kick")


@refusals_only
def legal(code: str, seat: int, token: str) -> list[dict]:
    """The seat's moves now: none while the room holds a reveal (the next turn waits for its end)."""
    room = room_row(code)
    seat_row(room, seat, token)
    if room["status"] != "playing" or deadlines.revealing(store().clock(room["code"]), time_now()):
        return []
    with room_lock(room["code"]):
        return json.loads(json.dumps(GAMES[room["game"]].legal(under_way(room).state, seat)))


@refusals_only
def submit(code: str, seat: int, token: str, move: dict) -> int:
    """Apply a seat's move. Returns the room's new version; raises a MoveError and changes nothing."""
    if not isinstance(move, dict):
        raise UnknownMove()
    return apply_move(code, {**move, "seat": seat}, Actor.seat_token(seat, token))


def apply_move(code: str, move: dict, actor: Actor) -> int:
    code = normalise_code(code)
    version = locked(code, lambda u: apply_in(u, move, actor))
    notify(code, version)
    return version


def locked(code: str, work, on=None):
    """`work(unit)` under the room's lock and in one transaction, on the store `on` (this process's
    by default): the unit reads the room's row and its seats once (engine/tables/unit.py). What it
    left for after the commit runs then (saving statistics rows)."""
    opened = on if on is not None else store()
    with room_lock(code):
        take_after_commit()
        try:
            with opened.transaction() as conn:
                done = work(Unit(opened, code, conn))
        except BaseException:
            forget_state(code)  # whatever happened to this process's copy, the store has the truth
            raise
        finally:
            actions = take_after_commit()
    for action in actions:
        action()
    return done


def apply_in(u: Unit, move: dict, actor: Actor) -> int:
    """A move, in its unit of work: its actor checked once, the game's checks, the pipeline's
    steps, the log, a snapshot now and then, the version bumped (and the record saved at the end)."""
    u.check(actor)
    room, code, conn = u.room, u.code, u.conn
    if room["status"] == "lobby":
        raise NotStarted("The game has not started yet: wait for the host to start it.")
    game, game_no = GAMES[room["game"]], room["game_no"]
    if actor.kind != "service" and move.get("type") not in PASS_THE_REVEAL:
        if deadlines.revealing(u.store.clock(code, conn), time_now()):
            raise RevealOn(move=move.get("type"))
    kept = under_way(room, conn)
    state = kept.state
    m = Moving(
        conn,
        code,
        game_no,
        game,
        state,
        check(game, state, move),
        time_now(),
        len(state["history"]),
        state.get("phase"),
    )
    for step in steps.BEFORE:
        step(m)
    checked, closed, now = m.move, m.closed, m.now
    perform(game, state, checked)
    seq = u.store.next_seq(conn, code, game_no)
    u.store.append_move(conn, code, game_no, seq, actor.logged, checked, now)
    for step in steps.AFTER:
        step(m)
    finished = game.outcome(state) is not None
    due = seq - kept.saved_seq >= max(SNAPSHOT_EVERY, kept.saved_size // SNAPSHOT_CHARS_PER_MOVE)
    if due or finished or actor.logged == "host" or len(state["history"]) > closed:
        kept.saved_seq, kept.saved_size = seq, u.store.save_snapshot(conn, code, game_no, seq, state)
    status = "finished" if finished else "playing"
    version = bump(conn, room, status=status)
    u.room = {**room, "version": version, "status": status}
    if finished:
        record = build_record(conn, {**room, "state": state}, now)
        store().insert_record(conn, code, game_no, record)
        keep_devices(conn, code, game_no)
        after_commit(lambda: save_stat_rows_soon(record))
    kept.version = version
    return version


@refusals_only
def skip(code: str, host_token: str, target: int) -> int:
    return apply_move(code, {"type": "skip", "seat": None, "target": target}, Actor.host(host_token))


@refusals_only
def end(code: str, host_token: str) -> int:
    return apply_move(code, {"type": "end", "seat": None}, Actor.host(host_token))


def end_idle(code: str) -> int:
    """A game nobody touched for hours (`tables.rooms.IDLE_HOURS`) is ended as the host's End does:
    its scores as they stand, and saved (logged as the host's). Running rooms no longer pile up."""
    return apply_move(code, {"type": "end", "seat": None}, Actor.service("host"))


@refusals_only
def played_since(code: str, seat: int, token: str, since: str) -> bool:
    """Whether this seat made a move after `since` (ISO-8601): a phone whose move was refused asks,
    to tell "the seat's other phone played first" (two phones share a seat) from a real refusal."""
    room = room_row(code)
    seat_row(room, seat, token)
    return any(m["actor"] == str(seat) and m["at"] > since for m in store().moves(room["code"], room["game_no"]))
