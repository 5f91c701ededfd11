"""One process acts for a room: its computer players (and, where there is one, its clock) run on the
process that leads it. A lease in the store, taken and renewed in one statement, so that two server
processes on one database never both lead a room; when the leader dies, its lease runs out within
`SECONDS` and the next process that asks takes the room over. With one process, it leads every room.
"""

from __future__ import annotations

import os
import secrets
from datetime import UTC, datetime, timedelta

SECONDS = 3.0  # a lease's length: the leader renews it every second or so (engine/bots/runner.py)
PROCESS = f"{os.getpid()}-{secrets.token_hex(4)}"  # this server process, as leases and presence name it


def _at(now: datetime, seconds: float = 0.0) -> str:
    return (now + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def lead(code: str, process: str = PROCESS, now: datetime | None = None) -> bool:
    """Whether `process` leads the room now (taking or renewing its lease)."""
    from engine.store import store as opened

    now = now or datetime.now(UTC)
    store = opened()
    with store.transaction() as conn:
        return store.take_lease(conn, code, process, _at(now), _at(now, SECONDS))
