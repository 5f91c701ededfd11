"""The time every row is stamped with. The demo simulator sets a clock of its own for its thread
(`clock`), so its games spread over past weeks; other threads keep the real one."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from datetime import UTC, datetime

_clock = threading.local()


def now() -> str:
    """This thread's time, ISO-8601 with milliseconds, in UTC."""
    simulated = getattr(_clock, "now", None)
    return simulated() if simulated else datetime.now(UTC).isoformat(timespec="milliseconds")


@contextmanager
def clock(now):
    """Stamp this thread's rooms, moves and records with `now()` (ISO-8601) instead of the real time."""
    before = getattr(_clock, "now", None)
    _clock.now = now
    try:
        yield
    finally:
        _clock.now = before
