"""Runs the pace clock in this server process: `tables.tick()` every TICK seconds, for the rooms this
process leads (engine/leases.py). Deadlines live in the store, so a restart or another process
carries on where this one stopped; between ticks nothing runs but one small query."""

from __future__ import annotations

import logging
import os
import threading
import time

log = logging.getLogger(__name__)
TICK = 0.5

_started = threading.Event()


def start() -> None:
    """Start the clock's thread once per process (app.py), unless SOBREMESA_CLOCK=off."""
    if os.environ.get("SOBREMESA_CLOCK", "on") == "off" or _started.is_set():
        return
    _started.set()

    def run() -> None:
        from engine import tables

        while True:
            time.sleep(TICK)
            try:
                tables.tick()
            except Exception:  # logged by the service; the next tick tries again
                log.debug("clock tick failed", exc_info=True)

    threading.Thread(target=run, name="sobremesa-clock", daemon=True).start()
