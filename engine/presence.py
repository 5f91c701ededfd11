"""Who is connected: seats with at least one open push socket in this server process.

A seat coming or going is news for the shared screen, but it is not a move and must not bump the
room's version. So presence has a channel of its own in `live`, `<code>SEEN`, whose version is
a millisecond clock that only moves forward.
"""
from __future__ import annotations

import threading
import time
from collections import Counter

from engine import live

_lock = threading.Lock()
_open: Counter = Counter()  # (code, seat) -> open sockets
_versions: dict[str, int] = {}


def channel(code: str) -> str:
    return f"{code}SEEN"


def version(code: str) -> int:
    with _lock:
        return _versions.get(code, 0)


def _changed(code: str) -> None:
    with _lock:
        stamp = max(_versions.get(code, 0) + 1, int(time.time() * 1000))
        _versions[code] = stamp
    live.notify(channel(code), stamp)


def arrive(code: str, seat: int) -> None:
    with _lock:
        _open[(code, seat)] += 1
        first = _open[(code, seat)] == 1
    if first:
        _changed(code)


def leave(code: str, seat: int) -> None:
    with _lock:
        _open[(code, seat)] -= 1
        gone = _open[(code, seat)] <= 0
        if gone:
            del _open[(code, seat)]
    if gone:
        _changed(code)


def present(code: str) -> set[int]:
    with _lock:
        return {seat for (c, seat), n in _open.items() if c == code and n > 0}
