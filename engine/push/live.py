"""Live notification: in-process fan-out of room versions to open browser tabs.

A move is committed by a Streamlit script thread, which then calls
``notify(code, version)``.  Every tab showing that room holds one WebSocket on
``/events/<code>`` (served by ``websocket_endpoint`` on the Streamlit server's
own Starlette app); the endpoint pushes ``{"version": n}`` and the tab's
listener reruns the page.  No polling, and an idle socket costs nothing here:
it is one parked coroutine, with no timer of ours.

Wire protocol (server -> client, JSON text frames)::

    {"version": n, "boot": b}
                        on connect (n is null if this process knows no version
                        for the room yet; b names this server process: a page drawn by
                        another, which restarted or died, reloads), then once per newer version
    {"version": n, "sig": s, "spots": {name: html}}
                        the same, on a socket that named the fields its screen read and
                        its board: s signs those fields of the viewer's view at n
                        (``engine.push.glance``), and the spots are the screen's live spots
                        drawn from that view (``engine.push.spots``)
    {"spots": {name: html}, "at": n}
                        the live spots drawn again with no new version (a phone came or went)
    {"echo": {...}}     a public detail of a move ahead of its version (a stroke)
    {"pong": true}      answer to a client "ping" text frame (keep-alive)

Client -> server: ``"ping"``, and ``{"watch": [field, ...] | null, "board": id | null}`` after
each render of the screen.

Close codes: 4400 malformed room code, 1013 too many sockets (try later).

Threading: ``notify`` may be called from any thread; subscribers registered by
``subscribe`` are called in the notifying thread and must not block (the
WebSocket ones only do ``loop.call_soon_threadsafe``).

Moves committed by other processes reach this one through the store, not through here:
``tables.watch_other_processes`` hears them (PostgreSQL LISTEN/NOTIFY, or SQLite's
``PRAGMA data_version``) and calls ``notify``. ``set_bridge`` remains a seam for a
transport of another kind: a bridge's ``publish(code, version)`` is called by ``notify``,
and it delivers what others published with ``deliver(code, version)`` (local fan-out only).

Nothing here imports Streamlit.
"""

from __future__ import annotations

import asyncio
import json
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
    "echo",
    "forget",
    "latest",
    "refresh",
    "notify",
    "set_bridge",
    "socket_count",
    "stats",
    "stats_endpoint",
    "subscribe",
    "unsubscribe",
    "valid_code",
    "wait_for",
    "websocket_endpoint",
]

BOOT = secrets.token_hex(6)  # this server process: a page knows which one drew it, and reloads when it died

_LOG = logging.getLogger(__name__)

CODE_RE = re.compile(r"[A-Z0-9]{2,12}")
CLOSE_BAD_CODE = 4400
CLOSE_TRY_LATER = 1013
MAX_ECHOES = 200  # per socket between two sends
WATCH_MAX = 4096  # characters in a {"watch": [...]} frame (64 names of 40 at most); longer is not read
MAX_SOCKETS = 20_000  # per process; past it new sockets are refused (1013)
MAX_KNOWN_ROOMS = 50_000  # latest versions remembered (oldest forgotten first)
# A seat's own move reaches that seat's sockets this much later than the others. The tab that
# made the move renders the new version in the very run the tap started; a push arriving while
# that run is in flight made it run a second time. Late, the push only repairs a run that failed.
ACTOR_GRACE = 1.5

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
        self.seat = seat  # the seat whose tab holds this socket (its ticket says so), else None
        self.role = role  # a stage socket's viewer: "wall", "seat" or "member" (None: a push socket)

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
    bridge: Bridge | None


def _make_state() -> types.ModuleType:
    module = types.ModuleType(_STATE_MODULE, "Shared registry of engine.push.live")
    state = cast(_Registry, module)
    lock = threading.Lock()
    state.lock = lock
    state.cond = threading.Condition(lock)
    state.versions = {}
    state.subs = {}
    state.bridge = None
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


def notify(code: str, version: int, actor: int | None = None) -> None:
    """A room moved to ``version``: tell every local listener (and the bridge). ``actor``: the seat
    whose move it was; its own sockets hear it ``ACTOR_GRACE`` seconds later.

    Thread-safe; never blocks on I/O and never raises.  Versions are taken as
    monotonic per room: a version not newer than the latest known is ignored,
    so duplicate notifications are harmless.
    """
    try:
        if deliver(code, version, actor):
            bridge = _S.bridge
            if bridge is not None:
                try:
                    bridge.publish(code, version)
                except Exception:
                    _LOG.exception("live bridge publish failed for %s", code)
    except Exception:  # never let a notification break a committed move
        _LOG.exception("live.notify(%r, %r) failed", code, version)


def deliver(code: str, version: int, actor: int | None = None) -> bool:
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
        _S.cond.notify_all()
    for sub in subs:
        try:
            later = getattr(sub.callback, "later", None)
            if actor is not None and sub.seat == actor and later is not None:
                later(version, ACTOR_GRACE)
            else:
                sub.callback(code, version)
        except Exception:
            _LOG.exception("live subscriber %r failed", sub)
    return True


def forget(code: str) -> None:
    """Drop the remembered version of a room (e.g. it was deleted)."""
    with _S.lock:
        _S.versions.pop(code, None)


def echo(code: str, message: dict) -> None:
    """Pass a public detail of a move (a Pictomania stroke) to every open socket of the room at once,
    before its rerun: screens can draw it without waiting for Streamlit. Never blocks or raises;
    a socket that misses an echo is repaired by the version that follows."""
    if not valid_code(code):
        return
    with _S.lock:
        subs = tuple(_S.subs.get(code, ()))
    for sub in subs:
        target = getattr(sub.callback, "echo", None)
        if target is not None:
            try:
                target(message)
            except Exception:
                _LOG.exception("live echo to %r failed", sub)


def refresh(code: str, roles: tuple[str, ...] | None = None) -> None:
    """Every open socket of the room draws its live spots again (a phone came or went: news for the
    screens, but no move). `roles`: only the stage sockets of those viewers (and every push socket):
    a member's pick is news for the wall's count, not for three hundred other members. Never blocks
    or raises."""
    if not valid_code(code):
        return
    with _S.lock:
        subs = tuple(s for s in _S.subs.get(code, ()) if roles is None or s.role is None or s.role in roles)
    for sub in subs:
        target = getattr(sub.callback, "refresh", None)
        if target is not None:
            try:
                target()
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
    return sub


def unsubscribe(sub: Subscription) -> None:
    with _S.lock:
        subs = _S.subs.get(sub.code)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del _S.subs[sub.code]


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


# --- Starlette endpoints ----------------------------------------------------
class _Pending:
    """The newest version not yet sent to one socket, and echoes to pass on; set from any thread."""

    __slots__ = ("event", "loop", "version", "echoes", "watch", "board", "stale")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.event = asyncio.Event()
        self.version: int | None = None
        self.echoes: list[dict] = []
        self.watch: list[str] | None = None  # the fields the screen read at its last render
        self.board: str | None = None  # its live spots (engine.push.spots)
        self.stale = False  # its spots are to be drawn again with no new version

    def _refresh(self) -> None:  # on the loop
        self.stale = True
        self.event.set()

    def refresh(self) -> None:  # any thread
        try:
            self.loop.call_soon_threadsafe(self._refresh)
        except RuntimeError:
            pass

    def _echo(self, message: dict) -> None:  # on the loop
        if len(self.echoes) < MAX_ECHOES:  # a stalled socket drops echoes; the next version repairs
            self.echoes.append(message)
        self.event.set()

    def echo(self, message: dict) -> None:  # any thread
        try:
            self.loop.call_soon_threadsafe(self._echo, message)
        except RuntimeError:
            pass

    def _set(self, version: int) -> None:  # on the loop
        if self.version is None or version > self.version:
            self.version = version
        self.event.set()

    def __call__(self, _code: str, version: int) -> None:  # any thread
        try:
            self.loop.call_soon_threadsafe(self._set, version)
        except RuntimeError:  # loop closed: the socket is gone anyway
            pass

    def later(self, version: int, delay: float) -> None:  # any thread: this seat's own move
        try:
            self.loop.call_soon_threadsafe(self.loop.call_later, delay, self._set, version)
        except RuntimeError:
            pass


# (code, seat, the fields the screen read, its board id) -> {"version", "sig"?, "spots"?} or None.
Look = Callable[[str, "int | None", "list | None", "str | None"], "dict | None"]


async def websocket_endpoint(websocket: Any, seat: int | None = None, look: Look | None = None) -> None:
    """Starlette endpoint for ``WebSocketRoute("/events/{code}", ...)``; ``seat``: whose tab it is
    (None: a shared screen). ``look(code, seat, fields, board)`` says what goes with a version for
    this viewer (``tables.look``): blocking (it reads the room), run in a worker thread, and only
    for a socket that named its fields or its board."""
    from starlette.websockets import WebSocketDisconnect

    from engine.push.glance import valid_keys

    code = websocket.path_params.get("code", "")
    await websocket.accept()
    if not valid_code(code):
        await websocket.close(code=CLOSE_BAD_CODE, reason="malformed room code")
        return
    if socket_count() >= MAX_SOCKETS:
        await websocket.close(code=CLOSE_TRY_LATER, reason="too many sockets")
        return

    pending = _Pending(asyncio.get_running_loop())
    sub = subscribe(code, pending, kind="socket", seat=seat)
    send_lock = asyncio.Lock()

    async def send(payload: dict[str, Any]) -> None:
        async with send_lock:
            await websocket.send_json(payload)

    async def looked(watch: list[str] | None) -> dict[str, Any] | None:
        if look is None or (not watch and pending.board is None):
            return None
        try:
            return await asyncio.to_thread(look, code, seat, watch, pending.board)
        except Exception:
            _LOG.exception("live: look failed for %s", code)
            return None

    async def said(version: int) -> dict[str, Any]:
        seen = await looked(pending.watch)
        if seen is None or seen["version"] < version:
            return {"version": version}
        pending.version = max(pending.version or 0, seen["version"])
        return seen

    async def pump() -> None:
        sent = None
        try:
            while True:
                await pending.event.wait()
                pending.event.clear()
                echoes, pending.echoes = pending.echoes, []
                for message in echoes:
                    await send({"echo": message})
                if pending.version is not None and pending.version != sent:
                    pending.stale = False  # the version's message carries the spots
                    payload = await said(pending.version)
                    sent = payload["version"]
                    await send(payload)
                elif pending.stale:
                    pending.stale = False
                    seen = await looked(None)
                    if seen is not None and "spots" in seen:
                        await send({"spots": seen["spots"], "at": seen["version"]})
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the peer is gone; the receive loop sees the disconnect

    pusher: asyncio.Task[None] | None = None
    try:
        # Subscribed before reading `latest`, so nothing falls in between.
        await send({"version": latest(code), "boot": BOOT})
        pusher = asyncio.create_task(pump())
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text == "ping":
                await send({"pong": True})
            elif look is not None and text and text.startswith("{") and len(text) <= WATCH_MAX:
                try:
                    told = json.loads(text)
                except ValueError:
                    continue
                if isinstance(told, dict) and "watch" in told:
                    pending.watch = valid_keys(told["watch"])  # anything malformed: no watch, reruns
                    board = told.get("board")
                    pending.board = board if isinstance(board, str) and 0 < len(board) <= 40 else None
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        unsubscribe(sub)
        if pusher is not None:
            pusher.cancel()


async def stats_endpoint(request: Any) -> Any:
    """Optional ``Route("/live/stats", live.stats_endpoint)`` for benches."""
    from starlette.responses import JSONResponse

    return JSONResponse(stats())
