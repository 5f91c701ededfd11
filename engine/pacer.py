"""Runs the pace clock in this server process: `tables.tick()` every TICK seconds while a room's
clock may act, for the rooms this process leads (engine/leases.py). Deadlines live in the store, so a
restart or another process carries on where this one stopped; between ticks nothing runs but one
small query. While no clock may act, the thread waits for a move (`live.wait_any`: a move is what
starts a countdown or a reveal, here or on another process its watcher hears), or IDLE seconds: each
wake of an idle server's thread cost it about 0.3 ms of CPU, twice a second."""

from __future__ import annotations

import logging
import os
import threading
import time

log = logging.getLogger(__name__)
TICK = 0.5
IDLE = 5.0  # seconds between two looks while no clock runs and nothing moves (a lease taken over)

_started = threading.Event()


def beat() -> None:
    """One look of the clock's thread: the skips due now, then the wait before the next look."""
    from engine import tables
    from engine.push import live

    mark, started = live.moved(), time.monotonic()
    try:
        tables.tick()
        running = tables.clocks_running()
    except Exception:  # logged by the service; the next tick tries again
        log.debug("clock tick failed", exc_info=True)
        running = True
    if not running:
        live.wait_any(mark, IDLE)
    time.sleep(max(0.0, TICK - (time.monotonic() - started)))  # at most one look a TICK


def start() -> None:
    """Start the clock's thread once per process (app.py), unless SOBREMESA_CLOCK=off."""
    if os.environ.get("SOBREMESA_CLOCK", "on") == "off" or _started.is_set():
        return
    _started.set()

    def run() -> None:
        while True:
            beat()

    threading.Thread(target=run, name="sobremesa-clock", daemon=True).start()
