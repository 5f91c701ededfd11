"""The move pipeline's steps: the service's work for a game's optional parts (engine/core/parts.py),
one step each, so that a new part adds a step here and `play.apply_in` stays as it is.

`BEFORE` runs on the checked move, before the game performs it: a step may refuse it (nothing is
changed yet) or complete it (the service's own fields). `AFTER` runs once the move is performed and
logged, in the move's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.core import IllegalMove, check
from engine.core.game import Game
from engine.tables import audience, deadlines
from engine.tables.base import store


@dataclass
class Moving:
    """One move on its way through the pipeline."""

    conn: Any
    code: str
    game_no: int
    game: Game
    state: dict
    move: dict
    now: str
    closed: int  # the history's length before the move: turns from here on closed with it
    phase: Any  # the phase before the move

    @property
    def closed_turns(self) -> range:
        return range(self.closed, len(self.state["history"]))


# When the current phase of each room's turn began (code -> (game_no, turn, phase, time)), for
# `Game.timed` moves. After a restart it is taken from the move log: the last "ready" move
# (the one that dealt Pictomania's letters; a skip that dealt is missed, and the round starts later).
phase_began: dict[str, tuple] = {}


def timed(m: Moving) -> None:
    """`Game.timed`: the service's clock, never the client's (the move is checked again: in range)."""
    phase = m.game.timed.get(m.move["type"])
    if phase is not None:
        m.move = check(m.game, m.state, {**m.move, "t": _since_phase_began(m, phase)})


def _since_phase_began(m: Moving, phase: str) -> int | None:
    if m.state.get("phase") != phase:
        return None
    key = (m.game_no, len(m.state["history"]), phase)
    began = phase_began.get(m.code)
    if began is None or began[:3] != key:
        log = store().moves(m.code, m.game_no, conn=m.conn)
        readies = [e["at"] for e in log if e["move"].get("type") == "ready"]  # the last one began it
        phase_began[m.code] = began = (*key, readies[-1] if readies else m.now)
    ms = (datetime.fromisoformat(m.now) - datetime.fromisoformat(began[3])).total_seconds() * 1000
    return max(0, int(ms))


def typed_for_bots(m: Moving) -> None:
    """Bots.text: with computer players at the table, what a person says aloud must be typed too."""
    needed = m.game.bots.text.get(m.move["type"]) if m.game.bots else None
    if needed and not m.move.get(needed) and store().bots(m.code, m.conn):
        raise IllegalMove(
            "Type your phrase: the computer players read it, since they cannot hear you.",
            move=m.move["type"],
            field=needed,
        )


def phase_begins(m: Moving) -> None:
    """`Game.timed`'s reference: a new phase or turn begins now."""
    if m.state.get("phase") != m.phase or m.closed_turns:
        phase_began[m.code] = (m.game_no, len(m.state["history"]), m.state.get("phase"), m.now)


def turn_ends(m: Moving) -> None:
    """Every turn closed is stamped as it closes, never replayed (the record's turn times)."""
    for turn in m.closed_turns:
        store().add_turn_end(m.conn, m.code, m.game_no, turn, m.now)


def clock(m: Moving) -> None:
    """Clock: the deadline of the moment the game is in now."""
    deadlines.settle(m.conn, m.code, m.game_no, m.game, m.state, m.now, closed=bool(m.closed_turns))


def reveal(m: Moving) -> None:
    """Audience: the members' picks of every turn the move closed are scored."""
    if m.closed_turns:
        audience.reveal(m.conn, m.code, m.game_no, m.game, m.state, m.closed)


BEFORE = (timed, typed_for_bots)
AFTER = (phase_begins, turn_ends, clock, reveal)
