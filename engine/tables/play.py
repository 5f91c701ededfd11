"""The move path: a seat's legal moves and its move, the host's skip and end, under the room's lock
and in one transaction, then announced."""

from __future__ import annotations

import json

from engine.core import (
    NotStarted,
    UnknownMove,
    check,
    perform,
)
from engine.games import GAMES
from engine.tables import steps
from engine.tables.archive import _build_record, _save_stat_rows_soon, keep_devices
from engine.tables.base import (
    _after_commit,
    _bump,
    _host,
    _lock,
    _notify,
    _now,
    _pending,
    _room,
    _seat,
    refusals_only,
    store,
)
from engine.tables.state import SNAPSHOT_CHARS_PER_MOVE, SNAPSHOT_EVERY, _forget, _under_way
from engine.tables.steps import Moving


@refusals_only
def legal(code: str, seat: int, token: str) -> list[dict]:
    room = _room(code)
    _seat(room, seat, token)
    if room["status"] != "playing":
        return []
    with _lock(room["code"]):
        return json.loads(json.dumps(GAMES[room["game"]].legal(_under_way(room).state, seat)))


@refusals_only
def submit(code: str, seat: int, token: str, move: dict) -> int:
    """Apply a seat's move. Returns the room's new version; raises a MoveError and changes nothing."""
    if not isinstance(move, dict):
        raise UnknownMove()
    return _apply(code, {**move, "seat": seat}, actor=str(seat), seat=seat, token=token)


def _apply(code: str, move: dict, actor: str, seat=None, token=None, host_token=None) -> int:
    code = _room(code)["code"]
    version = _locked(code, lambda conn: _apply_locked(conn, code, move, actor, seat, token, host_token))
    _notify(code, version)
    return version


def _locked(code: str, work):
    """`work(conn)` under the room's lock and in one transaction; what it left for after the commit
    runs then (saving statistics rows)."""
    with _lock(code):
        _pending.actions = []
        try:
            with store().transaction() as conn:
                done = work(conn)
        except BaseException:
            _forget(code)  # whatever happened to this process's copy, the store has the truth
            raise
        finally:
            actions, _pending.actions = _pending.actions, []
    for action in actions:
        action()
    return done


def _apply_locked(conn, code: str, move: dict, actor: str, seat, token, host_token, trusted: bool = False) -> int:
    room = _room(code, conn)
    if trusted:
        pass  # the service's own pace clock (engine/tables/pace.py)
    elif host_token is not None:
        _host(room, host_token)
    else:
        _seat(room, seat, token, conn)
    if room["status"] == "lobby":
        raise NotStarted("The game has not started yet: wait for the host to start it.")
    game, game_no = GAMES[room["game"]], room["game_no"]
    kept = _under_way(room, conn)
    state = kept.state
    m = Moving(
        conn, code, game_no, game, state, check(game, state, move), _now(), len(state["history"]), state.get("phase")
    )
    for step in steps.BEFORE:
        step(m)
    checked, closed, now = m.move, m.closed, m.now
    perform(game, state, checked)
    seq = store().next_seq(conn, code, game_no)
    store().append_move(conn, code, game_no, seq, actor, checked, now)
    for step in steps.AFTER:
        step(m)
    finished = game.outcome(state) is not None
    due = seq - kept.saved_seq >= max(SNAPSHOT_EVERY, kept.saved_size // SNAPSHOT_CHARS_PER_MOVE)
    if due or finished or actor == "host" or len(state["history"]) > closed:
        kept.saved_seq, kept.saved_size = seq, store().save_snapshot(conn, code, game_no, seq, state)
    version = _bump(conn, room, status="finished" if finished else "playing")
    if finished:
        record = _build_record(conn, {**room, "state": state}, now)
        store().insert_record(conn, code, game_no, record)
        keep_devices(conn, code, game_no)
        _after_commit(lambda: _save_stat_rows_soon(record))
    kept.version = version
    return version


@refusals_only
def skip(code: str, host_token: str, target: int) -> int:
    return _apply(code, {"type": "skip", "seat": None, "target": target}, actor="host", host_token=host_token)


@refusals_only
def end(code: str, host_token: str) -> int:
    return _apply(code, {"type": "end", "seat": None}, actor="host", host_token=host_token)


def end_idle(code: str) -> int:
    """A game nobody touched for hours (`tables.rooms.IDLE_HOURS`) is ended as the host's End does:
    its scores as they stand, and saved. Running rooms no longer pile up for ever."""
    code = _room(code)["code"]
    end_move = {"type": "end", "seat": None}
    version = _locked(code, lambda conn: _apply_locked(conn, code, end_move, "host", None, None, None, True))
    _notify(code, version)
    return version


@refusals_only
def played_since(code: str, seat: int, token: str, since: str) -> bool:
    """Whether this seat made a move after `since` (ISO-8601): a phone whose move was refused asks,
    to tell "the seat's other phone played first" (two phones share a seat) from a real refusal."""
    room = _room(code)
    _seat(room, seat, token)
    return any(m["actor"] == str(seat) and m["at"] > since for m in store().moves(room["code"], room["game_no"]))
