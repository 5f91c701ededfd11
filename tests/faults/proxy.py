"""A fault proxy between one phone and the server, on loopback (Toxiproxy's toxics, in asyncio).

The phone opens `proxy.url`; the proxy listens on `listen` (127.0.0.2 by default: a phone on the
network) and connects to the server from that same address, so the server sees the phone as a
client that is not the laptop. Its faults, each way, are set and lifted while it runs:

- `latency(ms, jitter)`: every chunk waits ms ± jitter (uniform), in order;
- `stall()` / `release()`: nothing moves either way until released (kept, then delivered);
- `reset()`: every open connection is cut with a TCP reset;
- `black_hole()` / `heal()`: nothing gets through either way, for as long as it lasts, and nobody
  is told: connections stay open (a half-open socket, which each end must notice by itself), new
  ones hang the same way. What was sent meanwhile arrives once it heals, as TCP retransmits it
  (a close too): bytes are never lost in the middle of a stream;
- `bandwidth(bytes_per_s)`: each direction sends at most that many bytes a second.

It runs its own event loop in a thread, so a synchronous test (Playwright's sync API) drives it.
"""

from __future__ import annotations

import asyncio
import random
import socket
import struct
import threading
import time


class Proxy:
    def __init__(self, upstream_port: int, listen: str = "127.0.0.2", upstream: str = "127.0.0.1", seed: int = 0):
        self.upstream = (upstream, upstream_port)
        self.listen = listen
        self.port = 0
        self.ms = 0.0
        self.jitter = 0.0
        self.rate: float | None = None
        self.rnd = random.Random(seed)
        self.cuts = 0
        self.connections: set[asyncio.StreamWriter] = set()
        self._flowing: asyncio.Event | None = None
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"fault-proxy-{listen}")
        self._thread.start()
        self._ready.wait(10)

    @property
    def url(self) -> str:
        return f"http://{self.listen}:{self.port}"

    # ---- the faults (called from the test's thread) ------------------------------------------
    def latency(self, ms: float, jitter: float = 0.0) -> None:
        self.ms, self.jitter = ms, jitter

    def bandwidth(self, bytes_per_s: float | None) -> None:
        self.rate = bytes_per_s

    def stall(self) -> None:
        self._call(self._flowing.clear)

    def release(self) -> None:
        self._call(self._flowing.set)

    def black_hole(self) -> None:
        self.stall()  # the same on the wire: what differs is how long, and who must notice

    def heal(self) -> None:
        self.release()

    def reset(self) -> None:
        """Cut every open connection with a reset (RST), as a dropped Wi-Fi association does."""
        self.cuts += 1
        self._call(self._reset_all)

    def close(self) -> None:
        self._call(self._close)
        self._thread.join(5)

    # ---- inside ---------------------------------------------------------------------------------
    def _call(self, fn) -> None:
        done = threading.Event()

        def run():
            try:
                fn()
            finally:
                done.set()

        self._loop.call_soon_threadsafe(run)
        done.wait(5)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server = self._loop.run_until_complete(asyncio.start_server(self._serve, self.listen, 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    def _close(self) -> None:
        self._server.close()
        self._reset_all()
        self._loop.call_later(0.1, self._loop.stop)

    def _reset_all(self) -> None:
        for writer in list(self.connections):
            sock = writer.get_extra_info("socket")
            try:
                if sock is not None:  # linger 0: close() sends RST, not FIN
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                writer.transport.abort()
            except OSError:
                pass
        self.connections.clear()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream, local_addr=(self.listen, 0))
        except OSError:
            writer.transport.abort()
            return
        self.connections.update((writer, up_writer))
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True)
        for w in (writer, up_writer):
            self.connections.discard(w)
            w.transport.abort() if w.transport.is_closing() else w.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Chunks in order, each after its own delay: a queue, so latency does not cut throughput."""
        queue: asyncio.Queue = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                if data is None:
                    break
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                await self._flowing.wait()
                if self.rate:
                    await asyncio.sleep(len(data) / self.rate)
                writer.write(data)
                await writer.drain()

        sender = asyncio.ensure_future(deliver())
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                delay = max(0.0, self.ms + self.rnd.uniform(-self.jitter, self.jitter)) / 1000
                queue.put_nowait((time.monotonic() + delay, data))
        finally:
            # A pipe still open when the proxy's loop closed is finalised later, by the garbage
            # collector, with no loop left to flush on: nothing to do (else a warning in whichever
            # test is running then).
            if sender.get_loop().is_closed():
                return  # noqa: B012  (ends the GeneratorExit, as close() expects)
            queue.put_nowait((0, None))
            try:
                await sender
            except (OSError, ConnectionError):
                pass
            if not writer.transport.is_closing():
                try:
                    writer.write_eof()
                except (OSError, RuntimeError):
                    writer.close()
