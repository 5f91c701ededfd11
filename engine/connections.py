"""The server's connections, below Streamlit and the app: counted from the moment one is accepted,
capped per address and in all, a request's headers timed, a socket's messages capped in inflated
bytes, and a socket whose peer reads nothing dropped.

Why here: one phone on the network could use up the laptop. A thousand sockets from one address
took every open file (the usual 1,024), and the health check, the wall and the other phones timed
out; two hundred requests sent half-way were held for ever (uvicorn has no timeout on a request's
headers); a hello deflated to 88 KB inflated to hundreds of megabytes (Streamlit lets a message be
200 MB); a socket that sent taps and read nothing piled its answers up in memory. Streamlit builds
uvicorn's configuration itself with fixed settings, so none of this can be set: `install()` (app.py
calls it when uvicorn imports the app) wraps the protocol classes of the server's configuration as
the server starts (`Server.startup`). tests/attacks checks each of these against a real server, so a
Streamlit or uvicorn upgrade that undoes the wrapper fails there.

The limits per address are `gate.per_address()`'s, the same rule as the seats' and the taps':
the laptop (a loopback address) and trusted proxies are not capped by address (behind a proxy the
guard counts the forwarded address), and the whole process keeps `RESERVE` open files for the
laptop and its own files whatever the phones do.

Nothing here imports Streamlit.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter

from engine import gate

_LOG = logging.getLogger(__name__)

HEADER_SECONDS = 10  # a request's headers must have arrived by then (slowloris)
SEND_SECONDS = 15  # a socket whose peer has not read what it was sent by then is dropped
APP_SOCKET_BYTES = 64 * 1024  # one message on the app's own sockets, inflated (a tap is under 1 KB)
STREAM_BYTES = 4 * 1024 * 1024  # one message on Streamlit's socket (a drawing pad's strokes: a few hundred KB)
APP_PATHS = ("/stage/", "/events/")
LOOPBACK = ("127.0.0.1", "::1")


def open_files() -> int:
    """The process's soft limit on open files (a laptop's is often 1,024; Windows has none)."""
    try:
        import resource
    except ImportError:
        return 8192
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 16


def raise_open_files(wanted: int = 1 << 16) -> int:
    """Raise the soft limit on open files towards the hard one, where the OS allows it (the start
    command does, before the server starts): a hall needs more than 1,024 sockets. Returns the limit."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):
        pass
    return open_files()


def _reserve(files: int) -> int:
    return max(100, files // 8)


class Book:
    """The open connections by address. `phones_most`: all connections from addresses other than
    the laptop's; `laptop_most`: all connections, the laptop's included (the health check and the
    wall always get in below it)."""

    def __init__(self, files: int | None = None) -> None:
        files = open_files() if files is None else files
        self.phones_most = max(16, files - _reserve(files))
        self.laptop_most = max(self.phones_most, files - 32)
        self._open: dict[int, str] = {}
        self._by: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._exempt = gate.trusted_networks()

    def admit(self, transport) -> bool:
        peer = transport.get_extra_info("peername")
        address = _address(peer)
        with self._lock:
            total = len(self._open)
            if address is None or address in LOOPBACK or gate.within(address, self._exempt):
                if total >= self.laptop_most:
                    return False
            elif total >= self.phones_most or self._by[address] >= gate.per_address().connections:
                return False
            self._open[id(transport)] = address or ""
            self._by[address or ""] += 1
        return True

    def release(self, transport) -> None:
        with self._lock:
            address = self._open.pop(id(transport), None)
            if address is not None:
                self._by[address] -= 1
                if self._by[address] <= 0:
                    del self._by[address]

    def count(self, address: str | None = None) -> int:
        with self._lock:
            return len(self._open) if address is None else self._by.get(address, 0)


def _address(peer) -> str | None:
    if not isinstance(peer, tuple) or not peer:
        return None  # a Unix socket: a proxy on this computer
    host = str(peer[0])
    return host[7:] if host.startswith("::ffff:") else host


BOOK: Book | None = None


def _guarded_http(base: type) -> type:
    class Guarded(base):  # type: ignore[misc, valid-type]
        """An HTTP connection counted from accept, and its request's headers timed."""

        _sm_refused = False
        _sm_timer: asyncio.TimerHandle | None = None
        _sm_waiting: object = None

        def connection_made(self, transport) -> None:
            if BOOK is not None and not BOOK.admit(transport):
                self._sm_refused = True
                transport.abort()  # its file is freed at once
                return
            super().connection_made(transport)
            self._sm_arm()

        def connection_lost(self, exc) -> None:
            if self._sm_refused:
                return
            if self._sm_timer is not None:
                self._sm_timer.cancel()
            if BOOK is not None:
                BOOK.release(self.transport)
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            cycle = getattr(self, "cycle", None)
            if self._sm_timer is None and (cycle is None or getattr(cycle, "response_complete", True)):
                self._sm_arm()  # the first bytes of a request on a kept-alive connection
            super().data_received(data)

        def _sm_arm(self) -> None:
            self._sm_waiting = getattr(self, "cycle", None)
            self._sm_timer = asyncio.get_event_loop().call_later(HEADER_SECONDS, self._sm_late)

        def _sm_late(self) -> None:
            self._sm_timer = None
            transport = self.transport
            if transport is None or transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a WebSocket now
            if getattr(self, "cycle", None) is self._sm_waiting:  # no request's headers came in time
                transport.abort()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    Guarded.sobremesa = True  # type: ignore[attr-defined]
    return Guarded


def _guarded_ws(base: type) -> type:
    class Guarded(base):  # type: ignore[misc, valid-type]
        """A WebSocket whose messages are capped in inflated bytes, and dropped when its peer reads
        nothing. Its connection was counted as HTTP, before the upgrade."""

        def handle_connect(self, event) -> None:
            path = str(getattr(event, "path", "")).split("?", 1)[0]
            _cap(self.conn, APP_SOCKET_BYTES if path.startswith(APP_PATHS) else STREAM_BYTES)
            super().handle_connect(event)

        def connection_lost(self, exc) -> None:
            if BOOK is not None:
                BOOK.release(self.transport)
            super().connection_lost(exc)

        async def send(self, message) -> None:
            if not self.writable.is_set() and not self.disconnected:
                try:
                    await asyncio.wait_for(self.writable.wait(), SEND_SECONDS)
                except TimeoutError:
                    self.transport.abort()  # its peer reads nothing: stop reading it, and free it
            await super().send(message)

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    Guarded.sobremesa = True  # type: ignore[attr-defined]
    return Guarded


def _cap(conn, most: int) -> None:
    """websockets' limit on one incoming message (applied as it inflates): `max_message_size` since
    websockets 14, `max_size` before."""
    for name in ("max_message_size", "max_size"):
        if isinstance(getattr(conn, name, None), int):
            setattr(conn, name, most)
            return


def install() -> None:
    """Wrap the protocol classes of every uvicorn server started from now on, this one included:
    Streamlit hands uvicorn the app as "app:app", so this runs while uvicorn's `Config.load` imports
    it, after the classes were picked and before `Server.startup` makes the listening socket's
    protocol factory. Idempotent."""
    global BOOK
    try:
        from uvicorn import server
    except ImportError:  # not served by uvicorn (a test of the pages alone)
        return
    if getattr(server.Server.startup, "sobremesa", False):
        return
    BOOK = Book()
    original = server.Server.startup

    async def startup(self, sockets=None) -> None:
        _wrap(self.config)
        await original(self, sockets=sockets)

    startup.sobremesa = True  # type: ignore[attr-defined]
    server.Server.startup = startup  # type: ignore[method-assign]


def _wrap(config) -> None:
    if not config.loaded:
        config.load()
    http = config.http_protocol_class
    if not getattr(http, "sobremesa", False):
        config.http_protocol_class = _guarded_http(http)
    ws = config.ws_protocol_class
    if ws is not None and not getattr(ws, "sobremesa", False):
        if hasattr(ws, "handle_connect"):
            config.ws_protocol_class = _guarded_ws(ws)  # uvicorn's websockets-sansio, Streamlit's choice
        else:
            _LOG.warning("connections: %s is not the WebSocket protocol this caps", ws)
