"""The state of a room: this process's copy, kept at the room's version, rebuilt from the last
snapshot and the moves logged since (a restart, another process).

Snapshots live in their own table, so a version bump rewrites a few bytes rather than the whole
state. One is written when a turn closes, on a host action, at the end, and otherwise once the moves
since the last one are many compared with its size (at least `SNAPSHOT_EVERY`; one per
`SNAPSHOT_CHARS_PER_MOVE` characters of state): neither a move's cost nor its share of snapshot
writing grows with the game. After a restart, or in another process, the snapshot plus the moves
since rebuild the state exactly. A failed move (refused, or a commit that fails) drops the copy."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from engine.core import (
    NotStarted,
    check,
    perform,
)
from engine.games import GAMES
from engine.tables.base import refusals_only, room_lock, room_row, store


@dataclass
class _Kept:
    version: int
    game_no: int
    state: dict
    saved_seq: int  # the last move the stored snapshot includes
    saved_size: int  # the stored snapshot's size, in characters


_states: OrderedDict[str, _Kept] = OrderedDict()


states_guard = threading.Lock()  # the table of rooms; each room's entry is its own lock's business


STATES_KEPT = 256


SNAPSHOT_EVERY = 32  # moves, at the least, between two snapshots


SNAPSHOT_CHARS_PER_MOVE = 2000  # ... and more for a big state: one move per 2,000 characters of it


def _kept(room: dict, conn=None) -> _Kept | None:
    """This process's copy of the room's state, loaded if it has none at the room's version.
    Call under the room's lock; never hand the state out uncopied."""
    code = room["code"]
    kept = _states.get(code)
    if kept is not None and (kept.version, kept.game_no) == (room["version"], room["game_no"]):
        return kept
    saved = store().snapshot(code, conn)
    if saved is None or saved["game_no"] != room["game_no"]:
        return None  # the lobby: no game yet
    state, game = saved["state"], GAMES[room["game"]]
    for entry in store().moves(code, room["game_no"], after=saved["seq"], conn=conn):
        perform(game, state, check(game, state, entry["move"]))
    kept = _Kept(room["version"], room["game_no"], state, saved["seq"], saved["size"])
    _keep(code, kept)
    return kept


def room_state(room: dict, conn=None) -> dict | None:
    kept = _kept(room, conn)
    return None if kept is None else kept.state


def under_way(room: dict, conn=None) -> _Kept:
    """This process's copy of a game under way (the room is past its lobby)."""
    kept = _kept(room, conn)
    if kept is None:
        raise NotStarted("The game has not started yet: wait for the host to start it.")
    return kept


def _keep(code: str, kept: _Kept) -> None:
    with states_guard:
        _states[code] = kept
        _states.move_to_end(code)
        while len(_states) > STATES_KEPT:
            _states.popitem(last=False)


def forget_all() -> None:
    """Every room's copy (tests switch databases)."""
    with states_guard:
        _states.clear()


def forget_state(code: str) -> None:
    with states_guard:
        _states.pop(code, None)


@refusals_only
def state_of(code: str) -> dict | None:
    """A copy of a room's full current state, secrets included: for tests and tools, never pages."""
    from engine.tables.views import as_json  # views import this module

    room = room_row(code)
    with room_lock(room["code"]):
        state = room_state(room)
        return None if state is None else as_json(state)  # as JSON would copy it, four times faster
