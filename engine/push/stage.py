"""The stage socket: a viewer's game screen drawn on the server and sent over its room's socket; the
taps on it come back as moves (the LiveView model). Nothing here imports Streamlit or the service:
what a screen is, and what a move does, are injected (`Stage`), as `look` is for the push socket.

Wire protocol (JSON text frames):

    client -> {"hello": {"token"?, "member"?, "lang", "version"?}}   first, within HELLO_SECONDS
    server -> {"boot": "..."}                   first: this server process (a page drawn by another,
                                        one that died or restarted, reloads: its Streamlit
                                        session is gone with that process)
              {"version": n, "html": "...", "now": ms}   the viewer's screen, whenever it changed
              {"version": n}            nothing its screen shows changed: nothing is rendered, and
                                        the tab counts the version as shown
    client -> {"id": "...", "move": {...}, "at": n}   a tap (made on version n); at most MOVES_PER_10S per socket
    server -> {"ack": id, "version": n}         once the move is committed
              {"refused": id, "message": "..."} in the tab's language; nothing changed
              {"removed": "..."}                the viewer's seat or membership is gone: the page
                                                replaces everything with this, then the socket closes
    client -> "ping" every 3 s; server -> {"pong": true}. A socket silent for SILENT_SECONDS is
              dropped (its seat shows as not connected); a tab that hears nothing for 7 s
              drops its socket and opens a new one.

Close codes: 4401 a hello that proves nothing (the same whatever was wrong), 4403 a foreign origin,
4400 a malformed room code, 4408 no hello in time, 4409 silent too long, 4413 a message too large,
1013 too many sockets.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine import gate
from engine.push import live

_LOG = logging.getLogger(__name__)

HELLO_SECONDS = 10
SILENT_SECONDS = 9  # a tab pings every 3 s (pages/assets/stage.js): one silent this long is gone (half-open)
MESSAGE_MAX = 8192  # characters in one message from a tab
MOVES_PER_10S = 30  # taps per socket in 10 s: a person taps far less
CLOSE_REFUSED, CLOSE_ORIGIN, CLOSE_SLOW, CLOSE_TOO_BIG, CLOSE_SILENT = 4401, 4403, 4408, 4413, 4409


@dataclass
class Drawn:
    """A viewer's screen at a version: `key` changes when and only when what it shows changes;
    `until` (time.time()) asks for a new draw then, news or not (a reveal that ends)."""

    version: int
    key: str
    html: Callable[[], str]
    until: float | None = None


class Stage(Protocol):
    def admit(self, code: str, hello: dict) -> Any | None:
        """Who the hello proves this socket is (blocking), or None."""

    def draw(self, code: str, viewer: Any) -> Drawn | None:
        """The viewer's screen now (blocking), or None: its seat or membership is gone."""

    def move(self, code: str, viewer: Any, move_id: Any, move: Any, at: Any = None) -> dict:
        """Play a tap as the tab sent it (blocking): {"ack", "version"} or {"refused", "message"}.
        `at`: the version the tab showed when tapped."""

    def slow_down(self, viewer: Any) -> str:
        """The message for a socket that sends more taps than a person makes."""

    def removed(self, viewer: Any) -> str:
        """The blank screen of a viewer who was removed, in its language."""

    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        """Whether a socket from this page's origin may open."""

    def gone(self, code: str, viewer: Any) -> None:
        """The socket closed (blocking): the seat may no longer be connected."""

    def connected(self, code: str, phone: bool, opened: bool) -> None:
        """A socket opened or closed (blocking); `phone`: not from the laptop itself (engine/outage)."""


class _Batch:
    """The draws of one room's sockets, in one worker thread at a time: after a move every socket of
    the room draws its screen, and seven threads at once (or three hundred) fight over the GIL, each
    draw then waiting on all the others. In one thread they run one after the other, and each
    socket gets its screen as soon as it is drawn."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: list[tuple[Callable[[], Any], asyncio.Future]] = []
        self.task: asyncio.Task | None = None
        self.sockets = 0

    def submit(self, compute: Callable[[], Any]) -> asyncio.Future:
        future = self.loop.create_future()
        self.queue.append((compute, future))
        if self.task is None:
            self.task = self.loop.create_task(self._run())
        return future

    async def _run(self) -> None:
        await asyncio.sleep(0)  # the room's other sockets, woken by the same version, join this batch
        while self.queue:
            jobs, self.queue = self.queue, []
            await asyncio.to_thread(self._work, jobs)
        self.task = None

    def _work(self, jobs: list) -> None:
        for compute, future in jobs:
            try:
                result, error = compute(), None
            except BaseException as exc:  # handed to the socket's own task
                result, error = None, exc
            self.loop.call_soon_threadsafe(_settle, future, result, error)


def _settle(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


_batches: dict[str, _Batch] = {}


async def endpoint(websocket: Any, stage: Stage) -> None:
    from starlette.websockets import WebSocketDisconnect

    code = websocket.path_params.get("code", "")
    if not stage.origin_ok(websocket.headers.get("origin"), websocket.headers.get("host")):
        await websocket.close(code=CLOSE_ORIGIN)
        return
    await websocket.accept()
    if not live.valid_code(code):
        await websocket.close(code=live.CLOSE_BAD_CODE)
        return
    if live._socket_count() >= live.MAX_SOCKETS:
        await websocket.close(code=live.CLOSE_TRY_LATER)
        return
    try:
        first = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
    except TimeoutError:
        await websocket.close(code=CLOSE_SLOW)
        return
    except (WebSocketDisconnect, RuntimeError, KeyError):
        return
    hello = _parsed(first)
    hello = hello.get("hello") if isinstance(hello, dict) else None
    viewer = await asyncio.to_thread(stage.admit, code, hello) if isinstance(hello, dict) else None
    if viewer is None:
        await websocket.close(code=CLOSE_REFUSED)
        return

    forwarded = websocket.headers.get("x-forwarded-for")
    phone = not gate.where(websocket.client.host if websocket.client else None, forwarded)[1]
    await asyncio.to_thread(stage.connected, code, phone, True)
    pending = live._Pending(asyncio.get_running_loop())
    sub = live.subscribe(
        code, pending, kind="socket", seat=getattr(viewer, "seat", None), role=getattr(viewer, "role", None)
    )
    send_lock = asyncio.Lock()
    state: dict[str, Any] = {"key": None, "timer": None, "closed": False}

    async def send(payload: dict) -> None:
        async with send_lock:
            await websocket.send_text(json.dumps(payload, separators=(",", ":"), ensure_ascii=False))

    def drawn_now() -> tuple[Drawn | None, str | None]:
        """The viewer's screen, and its HTML when it shows something new: one trip to a worker thread."""
        drawn = stage.draw(code, viewer)
        if drawn is None or drawn.key == state["key"]:
            return drawn, None
        return drawn, drawn.html()

    draw_lock = asyncio.Lock()  # one draw at a time per socket: a tap's and a push's
    batch = _batches.get(code)
    if batch is None or batch.loop is not asyncio.get_running_loop():
        batch = _batches[code] = _Batch(asyncio.get_running_loop())
    batch.sockets += 1

    async def draw_now(alone: bool = False) -> None:
        """`alone`: in a thread of its own (the acting tab's result, ahead of the room's batch)."""
        async with draw_lock:
            await draw_locked(alone)

    async def draw_locked(alone: bool) -> None:
        drawn, html = await (asyncio.to_thread(drawn_now) if alone else batch.submit(drawn_now))
        if drawn is None:
            await send({"removed": stage.removed(viewer)})
            state["closed"] = True
            await websocket.close(code=CLOSE_REFUSED)
            return
        if drawn.until is not None:
            if state["timer"] is not None:
                state["timer"].cancel()
            delay = max(0.0, drawn.until - time.time()) + 0.05
            state["timer"] = asyncio.get_running_loop().call_later(delay, pending._refresh)
        if drawn.key == state["key"]:
            if drawn.version != state.get("version"):  # nothing it shows changed: the number alone
                state["version"] = drawn.version
                await send({"version": drawn.version})
            return
        state["version"] = drawn.version
        state["key"] = drawn.key
        if html == state.get("html"):  # what it read moved, the screen did not: a few bytes
            await send({"version": drawn.version})
            return
        state["html"] = html
        await send({"version": drawn.version, "html": html, "now": int(time.time() * 1000)})

    async def pump() -> None:
        try:
            while not state["closed"]:
                await pending.event.wait()
                pending.event.clear()
                pending.echoes.clear()  # the stage draws strokes from the view
                pending.stale = False
                await draw_now()
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        except Exception:
            _LOG.exception("stage: drawing failed for %s", code)

    taps: list[float] = []

    async def play(told: dict) -> None:
        move_id, move = told.get("id"), told.get("move")
        now = time.monotonic()
        taps[:] = [t for t in taps if now - t < 10] + [now]
        if len(taps) > MOVES_PER_10S:
            await send({"refused": move_id, "message": stage.slow_down(viewer), "slow": True})
            return
        answer = await asyncio.to_thread(stage.move, code, viewer, move_id, move, told.get("at"))
        if "ack" in answer:
            await draw_now(alone=True)  # the acting tab's own result first, with its answer, before the others'
        await send(answer)

    pusher = None
    playing: set[asyncio.Task] = set()
    try:
        await send({"boot": live.BOOT})
        await draw_now()
        if state["closed"]:
            return
        pusher = asyncio.create_task(pump())
        while True:
            try:
                message = await asyncio.wait_for(websocket.receive(), SILENT_SECONDS)
            except TimeoutError:  # half-open: the phone's Wi-Fi dropped without a goodbye
                state["closed"] = True
                try:
                    await asyncio.wait_for(websocket.close(code=CLOSE_SILENT), 1)
                except (TimeoutError, WebSocketDisconnect, RuntimeError, OSError):
                    pass
                break
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text") or ""
            if text == "ping":
                await send({"pong": True})
                continue
            if len(text) > MESSAGE_MAX:
                await websocket.close(code=CLOSE_TOO_BIG)
                break
            told = _parsed(text)
            if isinstance(told, dict) and "move" in told:
                # Answers in order of commit while the socket keeps reading. The loop keeps only a weak
                # reference to a task: without ours a tap's answer could be collected before it is sent.
                task = asyncio.create_task(play(told))
                playing.add(task)
                task.add_done_callback(playing.discard)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        batch.sockets -= 1
        if batch.sockets <= 0 and _batches.get(code) is batch and batch.task is None:
            del _batches[code]
        live.unsubscribe(sub)
        await asyncio.to_thread(stage.gone, code, viewer)
        await asyncio.to_thread(stage.connected, code, phone, False)
        if pusher is not None:
            pusher.cancel()
        if state["timer"] is not None:
            state["timer"].cancel()


def _parsed(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return None
