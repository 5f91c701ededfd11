"""The laptop's own Wi-Fi drops: every phone's socket goes at once, and the pace clock must not skip
the seats it cut off. When every phone's stage socket on this process (every socket not from the
laptop itself, `gate.where`) has dropped within `WINDOW` s, the clocks of the rooms they were in
pause (`tables.outage_pause`), and each resumes `GRACE` s after a phone of its room is back (the
others reconnect within their back-off), with the time that was left.

The pause is kept in the store (`tables.outage_pause`), so a phone that comes back to another
process, or to this one restarted, resumes it too. Nothing here imports Streamlit.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter

WINDOW = 5.0  # seconds within which every phone's socket dropped: an outage, not people leaving
GRACE = 5.0  # seconds after the first phone is back before the clock runs again
_LOG = logging.getLogger(__name__)

_lock = threading.Lock()
_open: Counter = Counter()  # code -> phone sockets open here
_drops: list[tuple[float, str]] = []  # (when, code) of the phone sockets that closed lately
_before = 0  # phone sockets open here before the first of those drops
_resuming: set[str] = set()


def socket(code: str, phone: bool, opened: bool) -> None:
    """A stage socket of room `code` opened or closed (blocking: it may pause or resume a clock)."""
    if not phone:
        return  # the laptop's own tabs (the wall) stay up through its Wi-Fi's outage
    global _before
    now = time.monotonic()
    with _lock:
        if opened:
            _open[code] += 1
        else:
            _open[code] = max(0, _open[code] - 1)
            _drops[:] = [d for d in _drops if now - d[0] <= WINDOW]
            if not _drops:
                _before = sum(_open.values()) + 1
            _drops.append((now, code))
        cut = not opened and sum(_open.values()) == 0 and len(_drops) >= max(2, _before)
        rooms = {c for _, c in _drops} if cut else set()
        if cut:
            _drops.clear()
    if opened:
        _back(code)
    for room in sorted(rooms):
        _pause(room)


def _pause(code: str) -> None:
    from engine import tables

    try:
        if tables.outage_pause(code):
            _LOG.warning("every phone dropped at once: %s's clock paused until they are back", code)
    except tables.SobremesaError:
        pass  # the room is gone or finished


def _back(code: str) -> None:
    from engine import tables

    with _lock:
        if code in _resuming:
            return
    try:
        if not tables.outage_paused(code):
            return
    except tables.SobremesaError:
        return
    with _lock:
        _resuming.add(code)

    def resume() -> None:
        try:
            tables.outage_resume(code)
        except tables.SobremesaError:
            pass
        finally:
            with _lock:
                _resuming.discard(code)

    if GRACE <= 0:  # (tests: at once, in the caller's thread and clock)
        resume()
        return
    timer = threading.Timer(GRACE, resume)
    timer.daemon = True
    timer.start()


def reset() -> None:
    """Forget this process's sockets (tests)."""
    global _before
    with _lock:
        _open.clear()
        _drops.clear()
        _resuming.clear()
        _before = 0
