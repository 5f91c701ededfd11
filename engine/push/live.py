"""Live notification: in-process fan-out of room versions to the open stage sockets.

A change is committed by a thread of the service, which then calls ``notify(code, version)``;
every stage socket of that room (engine/push/stage.py) subscribed with ``subscribe`` is woken, and
draws its viewer's screen again. ``refresh(code)`` wakes them with no new version (a phone came or
went, a member picked): they draw again, and send only what changed.

Threading: ``notify`` may be called from any thread; subscribers are called in the notifying thread
and must not block (the stage's only do ``loop.call_soon_threadsafe``).

Moves committed by other processes reach this one through the store, not through here:
``tables.watch_other_processes`` hears them (PostgreSQL LISTEN/NOTIFY, or SQLite's
``PRAGMA data_version``) and calls ``notify``. ``set_bridge`` remains a seam for a transport of
another kind: a bridge's ``publish(code, version)`` is called by ``notify``, and it delivers what
others published with ``deliver(code, version)`` (local fan-out only).

Nothing here imports Streamlit.
"""

from __future__ import annotations

import logging
import re
import secrets
import sys
import threading
import types
from collections.abc import Callable
from typing import Any, Protocol, cast

__all__ = [
    "Bridge",
    "Subscription",
    "deliver",
    "latest",
    "refresh",
    "notify",
    "set_bridge",
    "socket_count",
    "stats",
    "subscribe",
    "unsubscribe",
    "moved",
    "valid_code",
    "wait_any",
    "wait_for",
]

BOOT = secrets.token_hex(6)  # this server process: a page knows which one drew it, and reloads when it died

_LOG = logging.getLogger(__name__)

CODE_RE = re.compile(r"[A-Z0-9]{2,12}")
CLOSE_BAD_CODE = 4400
CLOSE_TRY_LATER = 1013
MAX_SOCKETS = 20_000  # per process; past it new sockets are refused (1013)
COUNT_PACE = 0.25  # seconds: a count on the screens (picks made, people in the audience) moves this often at most
MAX_KNOWN_ROOMS = 50_000  # latest versions remembered (oldest forgotten first)

Callback = Callable[[str, int], None]


class Bridge(Protocol):
    """A seam for another cross-process transport (the store already carries moves between processes)."""

    def publish(self, code: str, version: int) -> None:
        """Tell the other processes; must not block (queue it)."""


class Subscription:
    """Handle returned by ``subscribe``; pass it to ``unsubscribe``."""

    __slots__ = ("callback", "code", "kind", "role", "seat")

    def __init__(
        self, code: str, callback: Callback, kind: str, seat: int | None = None, role: str | None = None
    ) -> None:
        self.code = code
        self.callback = callback
        self.kind = kind  # "socket" (counted by stats) or "local"
        self.seat = seat  # the seat whose tab holds this socket, else None
        self.role = role  # a stage socket's viewer: "wall", "seat" or "member"

    def __repr__(self) -> str:
        return f"Subscription({self.code!r}, {self.kind})"


# --- state ------------------------------------------------------------------
# Kept in a synthetic module so it survives Streamlit's module reloading: when a
# watched source file changes, Streamlit drops the module from sys.modules and
# the next script run imports a fresh copy, while the WebSocket endpoint still
# runs the old one.  Both copies must share one registry.
_STATE_MODULE = "_sobremesa_live_state"


class _Registry(Protocol):
    """What the synthetic module holds (for the type checker: at run time it is a plain module)."""

    lock: threading.Lock
    cond: threading.Condition
    versions: dict[str, int]  # code -> latest version (insertion order ~ age)
    subs: dict[str, set[Subscription]]  # code -> its subscriptions
    roles: dict[tuple[str, str | None], set[Subscription]]  # (code, role) -> those subscriptions
    bridge: Bridge | None
    moved: int  # versions made or heard of (`wait_any`'s mark)


def _make_state() -> types.ModuleType:
    module = types.ModuleType(_STATE_MODULE, "Shared registry of engine.push.live")
    state = cast(_Registry, module)
    lock = threading.Lock()
    state.lock = lock
    state.cond = threading.Condition(lock)
    state.versions = {}
    state.subs = {}
    state.roles = {}
    state.bridge = None
    state.moved = 0
    return module


_S = cast(_Registry, sys.modules.get(_STATE_MODULE) or sys.modules.setdefault(_STATE_MODULE, _make_state()))


# --- API --------------------------------------------------------------------
def valid_code(code: object) -> bool:
    """True for a short uppercase room code such as ``"KQZP"``."""
    return isinstance(code, str) and CODE_RE.fullmatch(code) is not None


def _valid_version(version: object) -> bool:
    return isinstance(version, int) and not isinstance(version, bool) and version >= 0


def latest(code: str) -> int | None:
    """Latest version this process has seen for ``code``, or None."""
    with _S.lock:
        return _S.versions.get(code)


def notify(code: str, version: int) -> None:
    """A room moved to ``version``: tell every local listener (and the bridge).

    Thread-safe; never blocks on I/O and never raises.  Versions are taken as
    monotonic per room: a version not newer than the latest known is ignored,
    so duplicate notifications are harmless.
    """
    try:
        if deliver(code, version):
            bridge = _S.bridge
            if bridge is not None:
                try:
                    bridge.publish(code, version)
                except Exception:
                    _LOG.exception("live bridge publish failed for %s", code)
    except Exception:  # never let a notification break a committed move
        _LOG.exception("live.notify(%r, %r) failed", code, version)


def deliver(code: str, version: int) -> bool:
    """Local fan-out only (what a bridge calls). Returns True if it was news."""
    if not valid_code(code) or not _valid_version(version):
        _LOG.warning("live: ignoring notify(%r, %r)", code, version)
        return False
    with _S.lock:
        known = _S.versions.get(code)
        if known is not None and version <= known:
            return False
        if known is not None:
            del _S.versions[code]  # re-insert: keeps the dict ordered by age
        _S.versions[code] = version
        if len(_S.versions) > MAX_KNOWN_ROOMS:
            oldest = next(iter(_S.versions))
            if oldest != code:
                del _S.versions[oldest]
        subs = tuple(_S.subs.get(code, ()))
        _S.moved += 1
        _S.cond.notify_all()
    for sub in subs:
        try:
            sub.callback(code, version)
        except Exception:
            _LOG.exception("live subscriber %r failed", sub)
    return True


def refresh(code: str, roles: tuple[str, ...] | None = None, pace: float = 0.0) -> None:
    """Every open socket of the room draws its screen again (a phone came or went: news for the
    screens, but no move). `roles`: only the sockets of those viewers: a member's pick is news for
    the wall's count, not for three hundred other members. `pace`: seconds a socket may wait to
    draw it, the refreshes asked meanwhile drawn with it (a hall's three hundred picks in a
    burst are a few counts on the wall, not three hundred draws). Never blocks or raises."""
    if not valid_code(code):
        return
    with _S.lock:  # by role: a hall's picks each refresh its wall, not a scan of 300 members
        if roles is None:
            subs = tuple(_S.subs.get(code, ()))
        else:
            subs = tuple(s for role in roles for s in _S.roles.get((code, role), ()))
    for sub in subs:
        target = getattr(sub.callback, "refresh", None)
        if target is not None:
            try:
                target(pace) if pace else target()
            except Exception:
                _LOG.exception("live refresh of %r failed", sub)


def subscribe(
    code: str, callback: Callback, *, kind: str = "local", seat: int | None = None, role: str | None = None
) -> Subscription:
    """Call ``callback(code, version)`` (in the notifying thread) on each new version."""
    if not valid_code(code):
        raise ValueError(f"malformed room code: {code!r}")
    sub = Subscription(code, callback, kind, seat, role)
    with _S.lock:
        _S.subs.setdefault(code, set()).add(sub)
        _S.roles.setdefault((code, role), set()).add(sub)
    return sub


def unsubscribe(sub: Subscription) -> None:
    with _S.lock:
        subs = _S.subs.get(sub.code)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del _S.subs[sub.code]
        same = _S.roles.get((sub.code, sub.role))
        if same is not None:
            same.discard(sub)
            if not same:
                del _S.roles[(sub.code, sub.role)]


def moved() -> int:
    """How many versions this process has made or heard of: `wait_any`'s mark."""
    with _S.lock:
        return _S.moved


def wait_any(since: int, timeout: float) -> bool:
    """Block until a room moved after the mark `since` (`moved()`: a version this process made or
    heard of, through its watcher or its bridge), or `timeout` s pass; True when one did. Taken
    before a look, the mark misses no move made during it. For the threads that look often only
    while something runs (the pace clock, the computer players): an idle server's threads slept."""
    with _S.cond:
        return _S.cond.wait_for(lambda: _S.moved != since, timeout)


def wait_for(code: str, version: int, timeout: float | None = None) -> bool:
    """Block until this process has seen ``version`` (or newer) for ``code``."""
    with _S.cond:
        return _S.cond.wait_for(lambda: (_S.versions.get(code) or -1) >= version, timeout)


def set_bridge(bridge: Bridge | None) -> None:
    """Install (or remove) the cross-process bridge.  See the module docstring."""
    _S.bridge = bridge


def stats() -> dict[str, Any]:
    """``{"sockets": {code: open sockets}, "total": n, "rooms_known": n}``."""
    with _S.lock:
        sockets = {code: n for code, subs in _S.subs.items() if (n := sum(1 for s in subs if s.kind == "socket"))}
        known = len(_S.versions)
    return {"sockets": sockets, "total": sum(sockets.values()), "rooms_known": known}


def socket_count() -> int:
    """Open sockets of this process (the push's and the stage's)."""
    with _S.lock:
        return sum(1 for subs in _S.subs.values() for s in subs if s.kind == "socket")
