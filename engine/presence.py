"""Who is connected: seats with at least one open push socket, on any server process.

A seat coming or going is news for the shared screen, but it is not a move and must not bump the
room's version. So presence has a channel of its own in `live`, `<code>SEEN`, whose version is
a millisecond clock that only moves forward.

This process knows its own sockets at once. So that a phone connected to another process shows as
connected on this one's wall, each process writes the seats it holds into the store (`presence`
rows with an expiry it renews every `RENEW` s while the socket stays open), and `watch()` looks every
`LOOK` s at the rooms whose presence this process shows: a change there is news on their channel.
A process that dies stops renewing; its seats are gone within `EXPIRE` s.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from datetime import datetime, timedelta

from engine.leases import PROCESS
from engine.push import live

EXPIRE = 30.0  # seconds a process's word that it holds a seat's socket lasts
RENEW = 10.0
LOOK = 2.0
_LOG = logging.getLogger(__name__)

_lock = threading.Lock()
_open: Counter = Counter()  # (code, seat) -> open sockets here
_versions: dict[str, int] = {}
_seen: dict[str, set[int]] = {}  # code -> the seats present last time `watch` looked


def channel(code: str) -> str:
    return f"{code}SEEN"


def version(code: str) -> int:
    with _lock:
        return _versions.get(code, 0)


def _changed(code: str) -> None:
    with _lock:
        _asked.pop(code, None)
        stamp = max(_versions.get(code, 0) + 1, int(time.time() * 1000))
        _versions[code] = stamp
    live.notify(channel(code), stamp)
    live.refresh(code)  # the screens show who is connected


def _at(seconds: float = 0.0) -> str:
    """Now plus `seconds`, by the tables' clock (a test's injected one; the pace clock compares)."""
    from engine.store import now

    return (datetime.fromisoformat(now()) + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def _write(code: str, seat: int, here: bool) -> None:
    """Tell the other processes (through the store); never lets a socket fail over it."""
    try:
        from engine.store import store as opened

        store = opened()
        with store.transaction() as conn:
            store.mark_present(conn, code, seat, PROCESS, _at(EXPIRE if here else 0.0))
    except Exception:
        _LOG.warning("presence of %s/%s not written", code, seat, exc_info=True)


def arrive(code: str, seat: int) -> None:
    with _lock:
        _open[(code, seat)] += 1
        first = _open[(code, seat)] == 1
    if first:
        _write(code, seat, True)
        _changed(code)


def leave(code: str, seat: int) -> None:
    with _lock:
        _open[(code, seat)] -= 1
        gone = _open[(code, seat)] <= 0
        if gone:
            del _open[(code, seat)]
    if gone:
        _write(code, seat, False)
        _changed(code)


def _here(code: str) -> set[int]:
    with _lock:
        return {seat for (c, seat), n in _open.items() if c == code and n > 0}


_asked: dict[str, tuple[float, set[int]]] = {}  # code -> (when the store was last asked, the answer)
RECENT = 0.5  # seconds an answer serves: every open screen of a room asks at every version


def present(code: str) -> set[int]:
    """Seats connected to this process or, as the store says, to another."""
    seats = _here(code)
    try:
        from engine.store import store as opened

        elsewhere = opened().present(code, _at())
    except Exception:  # the store is away: what this process knows
        elsewhere = set()
    seats |= elsewhere
    with _lock:
        _seen[code] = set(seats)
        _asked[code] = (time.monotonic(), set(elsewhere))
        while len(_asked) > 4096:
            _asked.pop(next(iter(_asked)))
    return seats


def recent(code: str) -> set[int]:
    """`present`, with the store's part at most `RECENT` s old: for the walls' dots, which
    every wall of a room draws at every version. A change on this process is seen at once;
    another process's within `LOOK` s anyway (`watch`)."""
    with _lock:
        kept = _asked.get(code)
    if kept is not None and time.monotonic() - kept[0] < RECENT:
        return _here(code) | kept[1]
    return present(code)


def look_once(renew: bool) -> None:
    """Renew this process's seats; news on the channels of rooms whose presence moved elsewhere."""
    with _lock:
        held = list(_open)
        watched = list(_seen)
    if renew:
        for code, seat in held:
            _write(code, seat, True)
    for code in watched:
        before = _seen.get(code)
        if present(code) != before:
            _changed(code)


_watching = threading.Event()


def watch() -> None:
    """Look at other processes' presence every `LOOK` s (renewing this one's every `RENEW` s), in
    the thread of the watcher of other processes' changes (`tables.beside_the_watch`): a thread of
    its own woke an idle server every 2 s. Idempotent."""
    if _watching.is_set():
        return
    _watching.set()
    from engine import tables

    last = {"look": time.monotonic(), "renew": time.monotonic()}

    def step() -> None:
        now = time.monotonic()
        if now - last["look"] < LOOK:
            return
        last["look"] = now
        renew = now - last["renew"] >= RENEW
        if renew:
            last["renew"] = now
        try:
            look_once(renew)
        except Exception:
            _LOG.warning("presence look failed", exc_info=True)

    tables.beside_the_watch(step)
    tables.watch_other_processes()
