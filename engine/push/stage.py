"""The stage socket: a viewer's game screen drawn on the server and sent over its room's socket; the
taps on it come back as moves (the LiveView model). Nothing here imports Streamlit or the service:
what a screen is, and what a move does, are injected (`Stage`), as `look` is for the push socket.

Wire protocol (JSON text frames):

    client -> {"hello": {"token"?, "member"?, "lang", "page"?: [field, ...], "quiet"?: true}}
              first, within HELLO_SECONDS. `page`: the fields of its view the page's own Streamlit
              part read; `quiet`: a page that only waits on the room (no screen is drawn)
    server -> {"boot": "...", "ping": s}        first: this server process (a page drawn by another,
                                        one that died or restarted, reloads: its Streamlit
                                        session is gone with that process), and how often the
                                        tab pings (`PING_SECONDS`, an audience member's
                                        `MEMBER_PING_SECONDS`)
              {"version": n, "html": "...", "now": ms, "page"?: k}   the viewer's screen, whenever
                                        it changed; `page`: what the page's fields are now (the page
                                        reruns when it differs from the key it was drawn with)
              {"version": n, "frags": {name: "..."}, "now": ms, "page"?: k}   only the fragments of
                                        its screen that changed (`Screen`), outer ones first: the tab
                                        morphs each in place; the rest of the screen is as it was
              {"version": n, "page"?: k}   nothing its screen shows changed: nothing is rendered, and
                                        the tab counts the version as shown (not sent to an
                                        audience member's tab: `_Crowd`)
    client -> {"page": [field, ...]}   the page's own part reads these fields now (its next screen
              message carries their key)
    client -> {"again": true}          a fragment had no place in the tab's screen: the whole one
    client -> {"id": "...", "move": {...}, "at": n}   a tap (made on version n); at most MOVES_PER_10S per
              socket and `gate.per_address().taps` per address, IN_FLIGHT at once
    server -> {"ack": id, "version": n}         once the move is committed (in the screen's message
                                                when the tap changed the tab's own screen)
              {"refused": id, "message": "...", "slow"?: true} in the tab's language; nothing changed
              {"removed": "..."}                the viewer's seat or membership is gone: the page
                                                replaces everything with this, then the socket closes
    client -> "ping" every `ping` s; server -> {"pong": true, "version"?: n} (a member's tab is sent no
              version its screen shows nothing of: it learns the number here). A socket silent for
              SILENT_PINGS pings is dropped (its seat shows as not connected); a tab that hears
              nothing for two pings and a second drops its socket and opens a new one.

Every message, the hello too, is at most MESSAGE_MAX characters (and engine/connections.py caps it at
64 KB inflated before it is read). Close codes: 4401 a hello that proves nothing (the same whatever
was wrong: a wrong code, a wrong token, too many wrong codes from this phone), 4403 a foreign origin
(pages/guard.py), 4400 a malformed room code or message, 4408 no hello in time, 4409 silent too
long, 4413 a message too large, 1009 a message too large to inflate, 1013 too many sockets.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn, Protocol

from starlette.websockets import WebSocketDisconnect

from engine import gate
from engine.push import live

_LOG = logging.getLogger(__name__)

HELLO_SECONDS = 10
# How often a tab pings (pages/assets/stage.js). The tab looks every 3 s: each cadence is a multiple of 3.
PING_SECONDS = 3
# An audience member's tab pings half as often: a hall's 300 members pinged 100 times a second, and
# a ping and its pong were a fifth of the messages of a hall's turn. A member's phone whose Wi-Fi
# dropped is noticed a few seconds later; no seat waits on a member.
MEMBER_PING_SECONDS = 6
SILENT_PINGS = 3  # a socket silent for this many pings is gone (half-open)
MESSAGE_MAX = 8192  # characters in one message from a tab
MOVES_PER_10S = 30  # taps per socket in 10 s: a person taps far less (and per address: gate.per_address)
IN_FLIGHT = 4  # taps played at once per socket; past that the socket is not read until one is answered
CLOSE_MALFORMED, CLOSE_REFUSED, CLOSE_ORIGIN, CLOSE_SLOW, CLOSE_TOO_BIG, CLOSE_SILENT = (
    4400,
    4401,
    4403,
    4408,
    4413,
    4409,
)


@dataclass
class Drawn:
    """A viewer's screen at a version: `key` changes when and only when what it shows changes;
    `until` (time.time()) asks for a new draw then, news or not (a reveal that ends); `page` is what
    the fields its page's own Streamlit part read are now (the page reruns when it moved)."""

    version: int
    key: str
    html: Callable[[], str]
    until: float | None = None
    page: str | None = None


class Screen(str):
    """A screen in fragments (pages/stage/fragments.py): its whole HTML (it is that string), the key
    of what is around its fragments (`shell`), and each fragment's key, HTML and the fragment it sits
    in ("" for none), in document order. A socket that has the same shell is sent only the fragments
    whose keys moved."""

    shell: str
    frags: dict[str, tuple[str, str, str]]

    def __new__(cls, html: str, shell: str, frags: dict[str, tuple[str, str, str]]) -> Screen:
        made = super().__new__(cls, html)
        made.shell, made.frags = shell, frags
        return made

    @property
    def html(self) -> str:
        return str.__str__(self)


class Stage(Protocol):
    def admit(self, code: str, hello: dict, peer: Peer) -> Any | None:
        """Who the hello proves this socket is (blocking), or None. A hello naming a wrong room counts
        against the peer's address and device as a page's wrong code does."""

    def draw(self, code: str, viewer: Any) -> Drawn | None:
        """The viewer's screen now (blocking), or None: its seat or membership is gone."""

    def move(self, code: str, viewer: Any, move_id: Any, move: Any, at: Any = None) -> dict:
        """Play a tap as the tab sent it (blocking): {"ack", "version"} or {"refused", "message"}.
        `at`: the version the tab showed when tapped."""

    def watch(self, viewer: Any, fields: Any) -> None:
        """The page's own part now reads these fields of its view (a `{"page": [...]}` message)."""

    # Optional: crowd_stamp(code, viewers) -> (version, [stamp of each viewer]) | None. What each
    # of an audience's screens is drawn from now: while one holds, the crowd does not draw it.

    def slow_down(self, viewer: Any) -> str:
        """The message for a socket that sends more taps than a person makes."""

    def removed(self, viewer: Any, code: str) -> str:
        """The blank screen of a viewer who was removed (or whose game was erased), in its language."""

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
        self.crowd = _Crowd(self)

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


class _Crowd:
    """A room's audience: its members' sockets, drawn together. A new version wakes the crowd once,
    not each of its sockets (three hundred in a hall: three hundred wake-ups, thread hops and
    answers for screens that mostly did not change); one job draws them all in the room's batch,
    and only a socket whose screen changed is sent anything. What one socket asks for itself (its
    reveal's end, the whole screen again, a pick's answer) it still draws alone."""

    def __init__(self, batch: _Batch) -> None:
        self.batch, self.loop = batch, batch.loop
        self.sockets: set[_Socket] = set()
        self.lock = threading.Lock()  # `heard` and `asking`, set from the notifying threads
        self.heard = -1  # the newest version notified
        self.asking = False  # a refresh on its way to the loop
        self.drawn = -1  # the newest version drawn for the crowd
        self.asked = False  # a redraw asked with no new version
        self.later: asyncio.TimerHandle | None = None  # a paced refresh, due
        self.task: asyncio.Task | None = None

    @property
    def idle(self) -> bool:
        return self.task is None and not self.sockets

    def __call__(self, _code: str, version: int) -> None:  # live's subscriber, once per member socket
        with self.lock:
            if version <= self.heard:
                return
            self.heard = version
        self._to_loop(self._start)

    def refresh(self, pace: float = 0.0) -> None:  # live.refresh, once per member socket
        with self.lock:
            if self.asking:
                return
            self.asking = True
        self._to_loop(self._ask, pace)

    def _to_loop(self, callback, *args) -> None:
        try:
            self.loop.call_soon_threadsafe(callback, *args)
        except RuntimeError:  # the loop is closed: its sockets are gone
            pass

    def _ask(self, pace: float) -> None:
        with self.lock:
            self.asking = False
        if not pace:
            self.asked = True
            self._start()
        elif self.later is None:
            self.later = self.loop.call_later(pace, self._due)

    def _due(self) -> None:
        self.later = None
        self.asked = True
        self._start()

    def _start(self) -> None:
        if self.task is None:
            self.task = self.loop.create_task(self._run())

    async def _run(self) -> None:
        try:
            while self.heard > self.drawn or self.asked:
                self.asked, version = False, self.heard
                ready = []
                for sock in self.sockets:
                    if sock.closed:
                        continue
                    if sock.draw_lock.locked():  # drawing for itself: it draws again once done
                        sock.waker.refresh()
                    else:
                        ready.append((sock, sock.settled))
                drawn, stamped, held = await self.batch.submit(functools.partial(_draw_all, ready))
                self.drawn = max(self.drawn, version)
                for (sock, settled, found, html, stamp), kept in zip(drawn, held, strict=True):
                    if sock.closed:
                        continue
                    if found is None or sock.settled != settled or sock.draw_lock.locked():
                        sock.waker.refresh()  # gone, or stale: the socket draws for itself (and says so)
                        continue
                    if found is _SAME:  # what its screen is drawn from held: nothing to draw or send
                        sock.settled += 1
                        sock.version = max(sock.version or 0, stamped)
                        continue
                    try:
                        message = sock.settle(found, html)
                    except Exception:  # this socket draws for itself; the others are not held up
                        _LOG.exception("stage: a member's screen failed")
                        sock.key = sock.html = sock.shell = None
                        sock.waker.refresh()
                        continue
                    sock.stamp = stamp if kept else None
                    if message is not None:
                        sock.send_soon(message)
        except Exception:
            _LOG.exception("stage: drawing an audience failed")
        finally:
            self.task = None
        if self.heard > self.drawn or self.asked:  # news came as it finished
            self._start()


_SAME: Any = object()  # a member's screen whose stamp held: not drawn


def _draw_all(
    ready: list[tuple[_Socket, int]],
) -> tuple[list[tuple[_Socket, int, Any, str | None, str | None]], int, list[bool]]:
    """Every ready member's screen, but those drawn from what their stamp says as it is now
    (`_SAME`); the stamps' version, and whether each stamp held through the draws: a screen whose
    stamp moved meanwhile is not kept under it (one drawn from the newer room must not pass for the
    older stamp's)."""
    stamps = _stamp(ready)
    drawn: list[tuple[_Socket, int, Any, str | None, str | None]] = []
    for i, (sock, settled) in enumerate(ready):
        stamp = stamps[1][i] if stamps is not None else None
        if stamp is not None and sock.stamp == stamp:
            drawn.append((sock, settled, _SAME, None, stamp))
            continue
        try:
            drawn.append((sock, settled, *sock.drawn_now(), stamp))
        except Exception:  # the socket draws for itself, and logs it
            drawn.append((sock, settled, None, None, None))
    after = _stamp(ready) if stamps is not None and any(d[2] is not _SAME for d in drawn) else stamps
    held = [after is not None and stamps is not None and after[1][i] == stamps[1][i] for i in range(len(drawn))]
    return drawn, stamps[0] if stamps is not None else -1, held


def _stamp(ready: list[tuple[_Socket, int]]) -> tuple[int, list[str]] | None:
    if not ready:
        return None
    sock = ready[0][0]
    take = getattr(sock.stage, "crowd_stamp", None)
    if take is None:
        return None
    try:
        return take(sock.code, [s.viewer for s, _ in ready])
    except Exception:  # every member is drawn, as with no stamp
        _LOG.exception("stage: an audience's stamp failed")
        return None


def _settle(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


_batches: dict[str, _Batch] = {}


@dataclass(frozen=True)
class Peer:
    """Who is at the other end of a socket, as the guard sees it: its address (`gate.where`: behind a
    trusted proxy, the forwarded one), whether it is the laptop, the headers it came with, and the
    server's port it reached."""

    address: str
    laptop: bool
    headers: Any = None
    port: int = 8501  # the server's, as the socket reached it

    @classmethod
    def of(cls, websocket: Any) -> Peer:
        client = websocket.client.host if websocket.client else None
        address, here = gate.where(client, websocket.headers.get("x-forwarded-for"))
        server = (getattr(websocket, "scope", None) or {}).get("server") or (None, 8501)
        return cls(address, here, websocket.headers, int(server[1] or 8501))


class _Taps:
    """Taps per address in the last `gate.TAP_SECONDS`: a flood spread over many sockets is refused
    on the event loop, with no trip to a worker thread."""

    def __init__(self) -> None:
        self._seen: dict[str, deque] = {}

    def allows(self, address: str, now: float) -> bool:
        recent = self._seen.get(address)
        if recent is None:
            if len(self._seen) > 10_000:  # a flood of addresses: forget the quiet ones
                self._seen = {a: d for a, d in self._seen.items() if d and now - d[-1] < gate.TAP_SECONDS}
            recent = self._seen[address] = deque()
        while recent and now - recent[0] >= gate.TAP_SECONDS:
            recent.popleft()
        if len(recent) >= gate.per_address().taps:
            return False
        recent.append(now)
        return True


_TAPS = _Taps()


class _Waker:
    """A version to draw, or a redraw asked for (a reveal ending, a phone coming or going): set from
    any thread, waited on by the socket's pump. The newest version heard is kept, so a version the
    socket drew already (the acting tab's own, drawn with its answer) is not drawn again."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.event = asyncio.Event()
        self.version = -1  # the newest version notified
        self.asked = False  # a redraw asked for with no new version
        self.later: asyncio.TimerHandle | None = None  # a paced redraw, due
        # A paced redraw asked and not yet drawn: the refreshes asked meanwhile are drawn with it,
        # and do not each wake the loop (a hall's picks: one thread hop per pick, per wall).
        self.paced = False

    def _wake(self, version: int | None) -> None:  # on the loop
        if version is None:
            self.asked = True
        else:
            self.version = max(self.version, version)
        self.event.set()

    def refresh(self, pace: float = 0.0) -> None:  # any thread (live.refresh, and the reveal's timer)
        try:
            if pace:
                if self.paced:
                    return
                self.paced = True
                self.loop.call_soon_threadsafe(self._paced, pace)
            else:
                self.loop.call_soon_threadsafe(self._wake, None)
        except RuntimeError:  # the loop is closed: the socket is gone anyway
            pass

    def _paced(self, pace: float) -> None:  # on the loop: one redraw for every refresh asked until then
        if self.later is None:
            self.later = self.loop.call_later(pace, self._due)

    def _due(self) -> None:
        self.later, self.paced = None, False
        self._wake(None)

    def cancel(self) -> None:
        if self.later is not None:
            self.later.cancel()
        self.later, self.paced = None, False

    def __call__(self, _code: str, version: int) -> None:  # live's subscriber: a new version
        try:
            self.loop.call_soon_threadsafe(self._wake, version)
        except RuntimeError:
            pass


class _Closed(Exception):
    """The socket is closed (by us, with a code): its loop ends."""


class _Socket:
    """One tab's stage socket, from its hello to its close."""

    def __init__(self, websocket: Any, stage: Stage, code: str, peer: Peer) -> None:
        self.ws, self.stage, self.code, self.peer = websocket, stage, code, peer
        self.viewer: Any = None
        self.key: str | None = None  # the screen last sent, by what it shows
        self.html: str | None = None
        self.shell: str | None = None  # the shell last sent, and each of its fragments' keys
        self.frag_keys: dict[str, str] = {}
        self.version: int | None = None
        self.page: str | None = None  # the page's key last sent
        self.timer: asyncio.TimerHandle | None = None
        self.closed = False
        self.pings = PING_SECONDS  # how often its tab pings (a member's: less often)
        self.send_lock = asyncio.Lock()
        self.draw_lock = asyncio.Lock()  # one draw at a time: a tap's and a push's
        self.taps: deque = deque()
        self.playing: set[asyncio.Task] = set()
        self.sending: set[asyncio.Task] = set()  # the crowd's messages to this tab (`send_soon`)
        self.waker = _Waker(asyncio.get_running_loop())
        self.batch: _Batch | None = None  # the room's, once the hello proved the socket
        self.crowd: _Crowd | None = None  # the room's audience, when this is a member's socket
        self.settled = 0  # screens taken (`settle`): a crowd's draw made before another is stale
        self.stamp: str | None = None  # the crowd's stamp its screen was drawn from (`_draw_all`)

    async def close(self, code: int) -> NoReturn:
        """Close with `code`, and end the socket's loop (`_Closed`)."""
        self.closed = True
        try:
            await asyncio.wait_for(self.ws.close(code=code), 1)
        except (TimeoutError, RuntimeError, OSError):
            pass
        raise _Closed()

    async def send(self, payload: dict) -> None:
        async with self.send_lock:
            await self.ws.send_text(json.dumps(payload, separators=(",", ":"), ensure_ascii=False))

    def send_soon(self, payload: dict) -> None:
        """Send in a task of its own: a phone slow to read holds up no other socket's message."""

        async def sending() -> None:
            try:
                await self.send(payload)
            except (WebSocketDisconnect, RuntimeError, OSError):
                pass

        task = asyncio.get_running_loop().create_task(sending())
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def read(self, seconds: float) -> str | None:
        """The next text message, or None when the tab said goodbye. Too large or not JSON: closed."""
        async with asyncio.timeout(seconds):  # no task per message, as `wait_for` makes (3.11)
            message = await self.ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text") or ""
        if len(text) > MESSAGE_MAX:
            await self.close(CLOSE_TOO_BIG)
        return text

    async def hello(self) -> bool:
        try:
            first = await self.read(HELLO_SECONDS)
        except TimeoutError:
            await self.close(CLOSE_SLOW)
        if first is None:
            return False
        told = _parsed(first)
        if told is _MALFORMED:
            await self.close(CLOSE_MALFORMED)
        hello = told.get("hello") if isinstance(told, dict) else None
        if isinstance(hello, dict):
            self.viewer = await asyncio.to_thread(self.stage.admit, self.code, hello, self.peer)
        if self.viewer is None:
            await self.close(CLOSE_REFUSED)
        return True

    def drawn_now(self) -> tuple[Drawn | None, str | None]:
        """The viewer's screen, and its HTML when it shows something new: one trip to a worker thread."""
        drawn = self.stage.draw(self.code, self.viewer)
        if drawn is None or drawn.key == self.key:
            return drawn, None
        return drawn, drawn.html()

    async def draw(self, unless_drawn: bool = False) -> None:
        """The tab's screen now, drawn in the room's batch (`_Batch`). `unless_drawn`: not when the
        tab shows the newest version heard already, once the lock is taken (a tap's own draw held
        it, and drew that version with its answer: a second draw was one in eight of a move's)."""
        async with self.draw_lock:
            if unless_drawn and self.version is not None and self.waker.version <= self.version:
                return
            if self.batch is None:
                drawn, html = await asyncio.to_thread(self.drawn_now)
            else:
                drawn, html = await self.batch.submit(self.drawn_now)
            await self.show(drawn, html)

    async def show(self, drawn: Drawn | None, html: str | None, answer: dict | None = None) -> bool:
        """Send the tab what a draw found (its draw lock held): the changes, or its blank screen.
        A tap's `answer` goes in the same message when the screen changed: whether it went."""
        if drawn is None:
            await self.send({"removed": self.stage.removed(self.viewer, self.code)})
            await self.close(CLOSE_REFUSED)
        message = self.settle(drawn, html)
        if message is None:
            return False
        if answer is None or ("html" not in message and "frags" not in message):
            await self.send(message)
            return False
        await self.send({**message, "ack": answer["ack"]})
        return True

    def settle(self, drawn: Drawn, html: str | None) -> dict | None:
        """Take a drawn screen as the tab's: what to send it, or None. On the loop, with no await:
        the crowd's draws (`_Crowd`) are taken here too, between a socket's own."""
        self.settled += 1
        self.stamp = None  # the crowd sets it again when it drew this one
        if drawn.until is not None:
            if self.timer is not None:
                self.timer.cancel()
            delay = max(0.0, drawn.until - time.time()) + 0.05
            self.timer = asyncio.get_running_loop().call_later(delay, self.waker.refresh)
        page = {"page": drawn.page} if drawn.page is not None else {}
        if drawn.key == self.key or html is None or html == self.html:  # nothing it shows changed: the number alone
            self.key = drawn.key
            # a member's tab is not told a version it shows nothing of (three hundred in a hall):
            # it taps with no version (`at` is a seat's), and its page's key is sent when it moves
            told = drawn.version != self.version and self.crowd is None
            moved = told or drawn.page != self.page
            self.version, self.page = drawn.version, drawn.page
            return {"version": drawn.version, **page} if moved else None
        self.version, self.key, self.page = drawn.version, drawn.key, drawn.page
        message = self.changes(html)
        if message.get("frags") == {}:  # what it read moved, and none of what it shows: the number alone
            return {"version": drawn.version, **page}
        return {"version": drawn.version, **message, "now": int(time.time() * 1000), **page}

    def changes(self, html: str) -> dict:
        """What the tab is sent of a new screen: the fragments whose keys moved, when it has the same
        shell and all the others (a fragment inside one sent goes with it); else the whole screen."""
        screen = html if isinstance(html, Screen) else None
        previous, self.html = self.shell, html
        self.shell = screen.shell if screen is not None else None
        known, self.frag_keys = self.frag_keys, ({n: f[0] for n, f in screen.frags.items()} if screen else {})
        if screen is None or previous != screen.shell:
            return {"html": str.__str__(html)}
        moved = {n for n, (key, _h, _p) in screen.frags.items() if known.get(n) != key}

        def carried(name: str) -> bool:  # inside a fragment that is sent
            parent = screen.frags[name][2]
            return bool(parent) and (parent in moved or carried(parent))

        sent = {}
        for name in moved:
            if carried(name):
                continue
            if name not in known and not screen.frags[name][2]:
                return {"html": str.__str__(html)}  # a fragment the shell did not hold: cannot be
            sent[name] = screen.frags[name][1]
        ordered = {n: sent[n] for n in screen.frags if n in sent}  # outer ones first
        return {"frags": ordered}

    async def pump(self) -> None:
        waker = self.waker
        try:
            while not self.closed:
                await waker.event.wait()
                waker.event.clear()
                if not waker.asked and self.version is not None and waker.version <= self.version:
                    continue  # drawn already: the acting tab's own move, drawn with its answer
                asked, waker.asked = waker.asked, False
                await self.draw(unless_drawn=not asked)
        except (_Closed, WebSocketDisconnect, RuntimeError, OSError):
            pass
        except Exception:
            _LOG.exception("stage: drawing failed for %s", self.code)

    async def play(self, told: dict) -> None:
        try:
            await self._play(told)
        except (_Closed, WebSocketDisconnect, RuntimeError, OSError):
            pass  # the socket went while the tap was played: its next socket asks again, and plays it once

    def _counted(self, now: float) -> bool:
        """One more message that makes the server work (a tap, a page's new fields): whether this
        socket may still send one, MOVES_PER_10S in 10 s."""
        while self.taps and now - self.taps[0] >= 10:
            self.taps.popleft()
        self.taps.append(now)
        return len(self.taps) <= MOVES_PER_10S

    async def _play(self, told: dict) -> None:
        move_id, move = told.get("id"), told.get("move")
        now = time.monotonic()
        if not self._counted(now) or not (self.peer.laptop or _TAPS.allows(self.peer.address, now)):
            await self.send({"refused": move_id, "message": self.stage.slow_down(self.viewer), "slow": True})
            return
        async with self.draw_lock:  # the acting tab's own result first, with its answer, before the others'
            work = functools.partial(self._move_and_draw, move_id, move, told.get("at"))
            # in the room's batch: a burst of taps (a hall's picks) shares its trips to a worker thread
            played: tuple[dict, tuple[Drawn | None, str | None] | None] = await (
                self.batch.submit(work) if self.batch is not None else asyncio.to_thread(work)
            )
            answer, drawn = played
            if drawn is not None and await self.show(*drawn, answer=answer):
                return  # the answer went with the screen: one message (a hall's picks are 300 taps)
        await self.send(answer)

    def _move_and_draw(self, move_id, move, at) -> tuple[dict, tuple[Drawn | None, str | None] | None]:
        """A tap played and, once it holds, the tab's screen drawn after it: one trip to a worker
        thread (a hall's three hundred picks are as many taps)."""
        answer = self.stage.move(self.code, self.viewer, move_id, move, at)
        return answer, (self.drawn_now() if "ack" in answer else None)

    async def listen(self) -> None:
        """Pings and taps until the tab goes. At most `IN_FLIGHT` taps are played at once: past
        that the socket is not read (a tab that sends taps and reads no answer waits on itself)."""
        while True:
            if len(self.playing) >= IN_FLIGHT:
                await asyncio.wait(self.playing, return_when=asyncio.FIRST_COMPLETED)
            try:
                text = await self.read(self.pings * SILENT_PINGS)
            except TimeoutError:  # half-open: the phone's Wi-Fi dropped without a goodbye
                await self.close(CLOSE_SILENT)
            if text is None:
                return
            if text == "ping":  # a member's tab learns here the versions it was not told (`settle`)
                told = {}
                if self.crowd is not None and self.version is not None and not self.sending:  # after its screen
                    told = {"version": self.version}
                await self.send({"pong": True, **told})
                continue
            told = _parsed(text)
            if told is _MALFORMED:
                await self.close(CLOSE_MALFORMED)
            if isinstance(told, dict) and told.get("again") is True:  # the tab lost track: the whole screen
                if self._counted(time.monotonic()):
                    self.key = self.html = self.shell = None
                    self.waker.refresh()
                continue
            if isinstance(told, dict) and "page" in told:  # the page's own part reads other fields now
                if self._counted(time.monotonic()):  # as often as taps, at most: each one draws
                    self.stage.watch(self.viewer, told["page"])
                    self.waker.refresh()
                continue
            if isinstance(told, dict) and "move" in told:
                # Answers in order of commit while the socket keeps reading. The loop keeps only a weak
                # reference to a task: without ours a tap's answer could be collected before it is sent.
                task = asyncio.create_task(self.play(told))
                self.playing.add(task)
                task.add_done_callback(self.playing.discard)

    async def run(self) -> None:
        if not await self.hello():
            return
        loop = asyncio.get_running_loop()
        batch = _batches.get(self.code)
        if batch is None or batch.loop is not loop:
            batch = _batches[self.code] = _Batch(loop)
        self.batch = batch
        role = getattr(self.viewer, "role", None)
        await asyncio.to_thread(self.stage.connected, self.code, not self.peer.laptop, True)
        if role == "member":
            self.crowd = batch.crowd
            self.crowd.sockets.add(self)  # before its first draw: a version heard meanwhile is drawn too
        sub = live.subscribe(
            self.code,
            self.crowd or self.waker,
            kind="socket",
            seat=getattr(self.viewer, "seat", None),
            role=role,
        )
        batch.sockets += 1
        pusher = None
        try:
            self.pings = MEMBER_PING_SECONDS if role == "member" else PING_SECONDS
            await self.send({"boot": live.BOOT, "ping": self.pings})
            await self.draw()
            pusher = asyncio.create_task(self.pump())
            await self.listen()
        finally:
            self.closed = True
            if self.crowd is not None:
                self.crowd.sockets.discard(self)
            batch.sockets -= 1
            if batch.sockets <= 0 and _batches.get(self.code) is batch and batch.task is None and batch.crowd.idle:
                del _batches[self.code]
            live.unsubscribe(sub)
            for task in (pusher, *self.playing, *self.sending):
                if task is not None:
                    task.cancel()
            if self.timer is not None:
                self.timer.cancel()
            self.waker.cancel()
            await asyncio.to_thread(self.stage.gone, self.code, self.viewer)
            await asyncio.to_thread(self.stage.connected, self.code, not self.peer.laptop, False)


async def endpoint(websocket: Any, stage: Stage) -> None:
    """The `/stage/<code>` route. The guard (pages/guard.py) has refused a foreign origin and an
    address with too many sockets before this runs."""
    code = websocket.path_params.get("code", "")
    await websocket.accept()
    if not live.valid_code(code):
        await websocket.close(code=live.CLOSE_BAD_CODE)
        return
    if live.socket_count() >= live.MAX_SOCKETS:
        await websocket.close(code=live.CLOSE_TRY_LATER)
        return
    try:
        await _Socket(websocket, stage, code, Peer.of(websocket)).run()
    except (_Closed, WebSocketDisconnect, RuntimeError, OSError):
        pass


_MALFORMED = object()


def _parsed(text: str):
    """The message as JSON; None if it is not JSON, `_MALFORMED` if it nests past the parser's depth
    (a 100,000-deep array raised RecursionError, out of the loop)."""
    try:
        return json.loads(text)
    except ValueError:
        return None
    except RecursionError:
        return _MALFORMED
