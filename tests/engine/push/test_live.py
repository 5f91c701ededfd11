"""engine.push.live: in-process fan-out of room versions."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from engine.push import live


class FakeWebSocket:
    """Just what websocket_endpoint uses of starlette's WebSocket."""

    def __init__(self, code: str) -> None:
        self.path_params = {"code": code}
        self.sent: list[dict] = []
        self.accepted = False
        self.closed: int | None = None
        self.incoming: asyncio.Queue[dict] = asyncio.Queue()
        self.got = asyncio.Event()

    async def accept(self) -> None:
        self.accepted = True

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code

    async def send_json(self, data: dict) -> None:
        self.sent.append(data)
        self.got.set()

    async def receive(self) -> dict:
        return await self.incoming.get()

    async def next_sent(self, n: int, timeout: float = 2.0) -> list[dict]:
        async def until() -> None:
            while len(self.sent) < n:
                self.got.clear()
                await self.got.wait()

        await asyncio.wait_for(until(), timeout)
        return self.sent


def run(coro_fn) -> None:
    """asyncio.run in a thread of its own: another test's loop (Playwright's) may be live here."""
    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coro_fn())
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            errors.append(exc)

    t = threading.Thread(target=target)
    t.start()
    t.join(10)
    assert not t.is_alive(), "event loop did not finish"
    if errors:
        raise errors[0]


def test_valid_codes():
    assert live.valid_code("KQZP")
    assert live.valid_code("AB12")
    for bad in ("", "k", "kqzp", "KQ ZP", "KQZP/..", "A" * 40, None, 1234, "ÉTÉ"):
        assert not live.valid_code(bad), bad


def test_notify_from_threads_reaches_every_subscriber():
    code = "THRD"
    got: list[list[int]] = [[], [], []]
    lock = threading.Lock()

    def make(i):
        def cb(c, v):
            assert c == code
            with lock:
                got[i].append(v)

        return cb

    subs = [live.subscribe(code, make(i)) for i in range(3)]
    try:
        threads = [threading.Thread(target=live.notify, args=(code, v)) for v in range(1, 41)]
        for t in threads:
            t.start()
        assert live.wait_for(code, 40, timeout=5)
        for t in threads:
            t.join()
        assert live.latest(code) == 40
        for seen in got:
            assert 40 in seen  # the newest always arrives
            assert len(seen) == len(set(seen))  # never twice the same version
    finally:
        for s in subs:
            live.unsubscribe(s)


def test_wait_for_blocks_until_a_thread_notifies():
    code = "WAIT"
    assert not live.wait_for(code, 1, timeout=0.05)
    timer = threading.Timer(0.05, live.notify, args=(code, 3))
    timer.start()
    t0 = time.monotonic()
    assert live.wait_for(code, 2, timeout=5)
    assert time.monotonic() - t0 < 2
    timer.join()


def test_old_or_duplicate_versions_are_ignored():
    code = "DUPE"
    seen: list[int] = []
    sub = live.subscribe(code, lambda c, v: seen.append(v))
    try:
        for v in (1, 2, 2, 1, 3):
            live.notify(code, v)
        assert seen == [1, 2, 3]
    finally:
        live.unsubscribe(sub)


def test_notify_without_subscribers_is_a_noop():
    live.notify("LONE", 7)  # nothing listening: no error, just remembered
    assert live.latest("LONE") == 7
    assert "LONE" not in live.stats()["sockets"]


def test_malformed_input_is_refused_without_raising():
    with pytest.raises(ValueError):
        live.subscribe("bad code", lambda c, v: None)
    live.notify("bad code", 1)
    live.notify("OKAY", "1")  # type: ignore[arg-type]
    live.notify("OKAY", -1)
    live.notify("OKAY", True)  # type: ignore[arg-type]
    assert live.latest("bad code") is None
    assert live.latest("OKAY") is None


def test_a_failing_subscriber_does_not_break_notify():
    code = "FAIL"
    seen: list[int] = []

    def boom(c, v):
        raise RuntimeError("boom")

    subs = [live.subscribe(code, boom), live.subscribe(code, lambda c, v: seen.append(v))]
    try:
        live.notify(code, 1)
        assert seen == [1]
    finally:
        for s in subs:
            live.unsubscribe(s)


def test_bridge_gets_local_news_only():
    published: list[tuple[str, int]] = []

    class Bridge:
        def publish(self, code, version):
            published.append((code, version))

    live.set_bridge(Bridge())
    try:
        live.notify("BRDG", 1)
        live.notify("BRDG", 1)  # not news
        live.deliver("BRDG", 2)  # from another process: not re-published
        assert published == [("BRDG", 1)]
        assert live.latest("BRDG") == 2
    finally:
        live.set_bridge(None)


def test_endpoint_refuses_malformed_code():
    ws = FakeWebSocket("no-such")
    run(lambda: live.websocket_endpoint(ws))
    assert ws.closed == live.CLOSE_BAD_CODE
    assert ws.sent == []


def test_endpoint_sends_latest_then_versions_notified_from_threads():
    code = "SOCK"
    live.notify(code, 5)

    async def scenario():
        ws = FakeWebSocket(code)
        task = asyncio.create_task(live.websocket_endpoint(ws))
        assert await ws.next_sent(1) == [{"version": 5, "boot": live.BOOT}]
        assert live.stats()["sockets"] == {code: 1}

        t = threading.Thread(target=live.notify, args=(code, 6))
        t.start()
        t.join()
        assert (await ws.next_sent(2))[-1] == {"version": 6}

        await ws.incoming.put({"type": "websocket.receive", "text": "ping"})
        assert (await ws.next_sent(3))[-1] == {"pong": True}

        await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 2)
        assert code not in live.stats()["sockets"]

    run(scenario)


def test_unknown_room_says_null_on_connect():
    async def scenario():
        ws = FakeWebSocket("NEWR")
        task = asyncio.create_task(live.websocket_endpoint(ws))
        assert await ws.next_sent(1) == [{"version": None, "boot": live.BOOT}]
        await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 2)

    run(scenario)


def test_notify_after_loop_closed_does_not_raise():
    code = "GONE"

    async def connect_and_vanish():
        ws = FakeWebSocket(code)
        task = asyncio.create_task(live.websocket_endpoint(ws))
        await ws.next_sent(1)
        task.cancel()  # loop ends without a clean disconnect

    run(connect_and_vanish)
    live.notify(code, 1)  # must not raise even if a stale subscriber remained
    assert live.latest(code) == 1


def test_echo_reaches_socket_subscribers_only_and_never_raises():
    from engine.push import live

    class Socket:
        def __init__(self):
            self.echoes, self.versions = [], []

        def __call__(self, code, version):
            self.versions.append(version)

        def echo(self, message):
            self.echoes.append(message)

    socket, plain = Socket(), []
    subs = [live.subscribe("ECHO", socket), live.subscribe("ECHO", lambda c, v: plain.append(v))]
    try:
        live.echo("ECHO", {"kind": "drawing", "seat": 1, "strokes": 1})
        live.echo("not a code", {"kind": "drawing"})
        assert socket.echoes == [{"kind": "drawing", "seat": 1, "strokes": 1}]
        assert socket.versions == [] and plain == []
    finally:
        for sub in subs:
            live.unsubscribe(sub)


def test_a_seat_socket_that_names_its_fields_gets_their_signature_with_each_version():
    code = "SIGN"
    live.notify(code, 1)
    asked = []

    def look(room, seat, keys, board):
        asked.append((room, seat, keys, board))
        return {"version": 2, "sig": "s-" + ",".join(keys)}

    async def scenario():
        ws = FakeWebSocket(code)
        task = asyncio.create_task(live.websocket_endpoint(ws, 3, look=look))
        assert await ws.next_sent(1) == [{"version": 1, "boot": live.BOOT}]
        live.notify(code, 2)
        assert (await ws.next_sent(2))[-1] == {"version": 2}  # nothing named yet: a plain version

        await ws.incoming.put({"type": "websocket.receive", "text": '{"watch": ["phase", "hand", "hand"]}'})
        await asyncio.sleep(0.05)
        live.notify(code, 3)
        # the signature look gave (for version 2 here) never claims a version it was not made at
        assert (await ws.next_sent(3))[-1] == {"version": 3}

        def look_now(room, seat, keys, board):
            asked.append((room, seat, keys, board))
            return {"version": live.latest(room), "sig": "s-" + ",".join(keys)}

        ws2 = FakeWebSocket(code)
        task2 = asyncio.create_task(live.websocket_endpoint(ws2, 3, look=look_now))
        await ws2.next_sent(1)
        await ws2.incoming.put({"type": "websocket.receive", "text": '{"watch": ["phase", "hand"]}'})
        await asyncio.sleep(0.05)
        live.notify(code, 4)
        assert (await ws2.next_sent(2))[-1] == {"version": 4, "sig": "s-hand,phase"}
        assert (code, 3, ["hand", "phase"], None) in asked  # the seat the ticket names, the fields sorted once

        too_long = '{"watch": ["hand", "phase"], "pad": "' + "x" * 5000 + '"}'  # never parsed, not even as a watch
        await ws2.incoming.put({"type": "websocket.receive", "text": too_long})
        await asyncio.sleep(0.05)
        live.notify(code, 5)
        assert (await ws2.next_sent(3))[-1] == {"version": 5, "sig": "s-hand,phase"}  # the last good list stands
        for bad in ('{"watch": "hand"}', '{"watch": [1, 2]}', '{"watch": ["x"', '{"watch": null}'):
            await ws2.incoming.put({"type": "websocket.receive", "text": bad})
        await asyncio.sleep(0.05)
        live.notify(code, 6)
        assert (await ws2.next_sent(4))[-1] == {"version": 6}  # a malformed list is no list: reruns

        for w in (ws, ws2):
            await w.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(asyncio.gather(task, task2), 2)

    run(scenario)


def test_a_socket_that_names_its_board_gets_its_spots_with_each_version_and_on_a_refresh():
    """The wall's socket too: its live spots come drawn with each version, and again (with no new
    version) when a phone comes or goes. A board id that is not a short string is no board."""
    code = "SPOT"
    live.notify(code, 1)
    asked = []

    def look(room, seat, keys, board):
        asked.append((seat, keys, board))
        said = {"version": live.latest(room)}
        if keys:
            said["sig"] = "s"
        if board:
            said["spots"] = {"waiting": f"v{said['version']}"}
        return said

    async def scenario():
        ws = FakeWebSocket(code)
        task = asyncio.create_task(live.websocket_endpoint(ws, None, look=look))
        await ws.next_sent(1)
        await ws.incoming.put({"type": "websocket.receive", "text": '{"watch": ["phase"], "board": "b1"}'})
        await asyncio.sleep(0.05)
        live.notify(code, 2)
        assert (await ws.next_sent(2))[-1] == {"version": 2, "sig": "s", "spots": {"waiting": "v2"}}
        live.refresh(code)
        assert (await ws.next_sent(3))[-1] == {"spots": {"waiting": "v2"}, "at": 2}
        assert asked[-1] == (None, None, "b1")  # a refresh signs nothing
        await ws.incoming.put({"type": "websocket.receive", "text": '{"watch": ["phase"], "board": 7}'})
        await asyncio.sleep(0.05)
        live.notify(code, 3)
        assert (await ws.next_sent(4))[-1] == {"version": 3, "sig": "s"}
        live.refresh(code)  # no board: nothing to draw, nothing sent
        await asyncio.sleep(0.1)
        assert len(ws.sent) == 4
        await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 2)

    run(scenario)


def test_a_failing_look_gets_plain_versions():
    code = "SIGW"
    live.notify(code, 1)

    def broken(room, seat, keys, board):
        raise RuntimeError("database gone")

    async def scenario():
        seat_ws, wall_ws = FakeWebSocket(code), FakeWebSocket(code)
        tasks = [
            asyncio.create_task(live.websocket_endpoint(seat_ws, 0, look=broken)),
            asyncio.create_task(live.websocket_endpoint(wall_ws, None, look=broken)),
        ]
        await seat_ws.next_sent(1)
        await wall_ws.next_sent(1)
        for w in (seat_ws, wall_ws):
            await w.incoming.put({"type": "websocket.receive", "text": '{"watch": ["phase"], "board": "b"}'})
        await asyncio.sleep(0.05)
        live.notify(code, 2)
        assert (await seat_ws.next_sent(2))[-1] == {"version": 2}
        assert (await wall_ws.next_sent(2))[-1] == {"version": 2}
        for w in (seat_ws, wall_ws):
            await w.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(asyncio.gather(*tasks), 2)

    run(scenario)
