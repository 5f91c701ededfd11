"""engine.push.live: in-process fan-out of room versions; and the stage's socket it wakes."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from engine.push import live
from engine.push.stage import Drawn
from tests.helpers import run


class FakeWebSocket:
    """Just what the stage's endpoint uses of starlette's WebSocket."""

    def __init__(self, code: str) -> None:
        self.path_params = {"code": code}
        self.client = None
        self.headers: dict = {}
        self.sent: list[dict] = []
        self.accepted = False
        self.closed: int | None = None
        self.incoming: asyncio.Queue[dict] = asyncio.Queue()
        self.got = asyncio.Event()

    async def accept(self) -> None:
        self.accepted = True

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = code

    async def send_text(self, data: str) -> None:
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


class FakeStage:
    """A `Stage` whose screen is its room's version and a page key the test sets."""

    def __init__(self) -> None:
        self.page = "p1"
        self.version = 5
        self.moves: list = []

    def admit(self, code, hello, peer):
        return object() if hello.get("token") != "wrong" else None

    def draw(self, code, viewer):
        return Drawn(self.version, f"k{self.version}", lambda: f"<p>{self.version}</p>", page=self.page)

    def move(self, code, viewer, move_id, move, at=None):
        self.moves.append(move)
        return {"ack": move_id, "version": self.version}

    def watch(self, viewer, fields):
        pass

    def slow_down(self, viewer):
        return "slow"

    def removed(self, viewer, code):
        return "gone"

    def gone(self, code, viewer):
        pass

    def connected(self, code, phone, opened):
        pass


def _said(ws) -> list[dict]:
    import json

    return [json.loads(m) for m in ws.sent]


def test_the_stage_endpoint_refuses_a_malformed_code_and_a_hello_that_proves_nothing():
    from engine.push.stage import CLOSE_REFUSED, endpoint

    ws = FakeWebSocket("no-such")
    run(lambda: endpoint(ws, FakeStage()))
    assert ws.closed == live.CLOSE_BAD_CODE and ws.sent == []

    async def wrong():
        sock = FakeWebSocket("WRNG")
        await sock.incoming.put({"type": "websocket.receive", "text": '{"hello": {"token": "wrong"}}'})
        await endpoint(sock, FakeStage())
        assert sock.closed == CLOSE_REFUSED and sock.sent == []

    run(wrong)


def test_the_stage_socket_sends_each_new_screen_and_its_pages_key_once():
    """A version notified from another thread draws the screen again; a screen unchanged sends the
    version alone; a page key that moved is sent even when the screen did not."""
    from engine.push.stage import endpoint

    code, stage = "SOCK", FakeStage()

    async def scenario():
        ws = FakeWebSocket(code)
        await ws.incoming.put({"type": "websocket.receive", "text": '{"hello": {"lang": "en"}}'})
        task = asyncio.create_task(endpoint(ws, stage))
        await ws.next_sent(2)
        assert _said(ws)[0] == {"boot": live.BOOT, "ping": 3}
        assert {k: v for k, v in _said(ws)[1].items() if k != "now"} == {"version": 5, "html": "<p>5</p>", "page": "p1"}
        assert live.stats()["sockets"] == {code: 1}
        stage.version = 6
        t = threading.Thread(target=live.notify, args=(code, 6))
        t.start()
        t.join()
        await ws.next_sent(3)
        assert _said(ws)[2]["html"] == "<p>6</p>"
        stage.page = "p2"
        live.refresh(code)  # no new version: the page's key alone moved
        await ws.next_sent(4)
        assert _said(ws)[3] == {"version": 6, "page": "p2"}
        await ws.incoming.put({"type": "websocket.receive", "text": "ping"})
        await ws.next_sent(5)
        assert _said(ws)[4] == {"pong": True}
        await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 2)
        assert code not in live.stats()["sockets"]

    run(scenario)


def test_notify_after_loop_closed_does_not_raise():
    from engine.push.stage import endpoint

    code = "GONE"

    async def connect_and_vanish():
        ws = FakeWebSocket(code)
        await ws.incoming.put({"type": "websocket.receive", "text": '{"hello": {"lang": "en"}}'})
        task = asyncio.create_task(endpoint(ws, FakeStage()))
        await ws.next_sent(2)
        task.cancel()  # the loop ends without a clean disconnect

    run(connect_and_vanish)
    live.notify(code, 7)  # must not raise even if a stale subscriber remained
    assert live.latest(code) == 7


def test_paced_refreshes_are_drawn_a_few_at_a_time():
    """A hall's picks: each one asks the wall to count again, with a pace. Ten asks spread over
    0.3 s are drawn two or three times, the last one included; with no pace, each is drawn."""
    from engine.push.stage import endpoint

    code, stage = "PACE", FakeStage()
    draws = []
    drawn = stage.draw
    stage.draw = lambda c, v: draws.append(time.monotonic()) or drawn(c, v)

    async def scenario():
        ws = FakeWebSocket(code)
        await ws.incoming.put({"type": "websocket.receive", "text": '{"hello": {"lang": "en"}}'})
        task = asyncio.create_task(endpoint(ws, stage))
        await ws.next_sent(2)
        for paced in (True, False):
            began = time.monotonic()
            for _ in range(10):
                live.refresh(code, pace=0.2 if paced else 0.0)
                await asyncio.sleep(0.03)
            last = time.monotonic()
            await asyncio.sleep(0.4)
            after = [t for t in draws if t > began]
            if paced:
                assert 1 <= len(after) <= 3 and after[-1] > last - 0.03, after
            else:
                assert len(after) >= 8, after  # a draw takes no time here: each ask is one
        await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 2)

    run(scenario)


class Member:
    role = "member"


def test_an_audience_is_drawn_in_one_job_and_told_only_what_it_shows():
    """Twenty members and a wall. A version the members' screen does not show: the wall is told
    its number, the members nothing, and their twenty draws are one job of the room's batch. A
    version that changes their screen: each member gets it."""
    from engine.push import stage as stage_socket

    code, stage = "CRWD", FakeStage()
    shown = {"member": "m1"}
    plain = stage.draw

    def draw(c, viewer):
        if isinstance(viewer, Member):
            return Drawn(stage.version, shown["member"], lambda: f"<p>{shown['member']}</p>")
        return plain(c, viewer)

    stage.draw = draw
    stage.admit = lambda c, hello, peer: Member() if hello.get("member") else object()
    jobs = []
    submit = stage_socket._Batch.submit

    def counted(self, compute):
        jobs.append(compute)
        return submit(self, compute)

    async def scenario():
        stage_socket._Batch.submit = counted
        try:
            wall = FakeWebSocket(code)
            await wall.incoming.put({"type": "websocket.receive", "text": '{"hello": {}}'})
            members = [FakeWebSocket(code) for _ in range(20)]
            for ws in members:
                await ws.incoming.put({"type": "websocket.receive", "text": '{"hello": {"member": "x"}}'})
            tasks = [asyncio.create_task(stage_socket.endpoint(ws, stage)) for ws in (wall, *members)]
            for ws in (wall, *members):
                await ws.next_sent(2)
            jobs.clear()
            stage.version = 6  # the wall's screen moves, the members' does not
            threading.Thread(target=live.notify, args=(code, 6)).start()
            await wall.next_sent(3)
            await asyncio.sleep(0.2)
            assert all(len(ws.sent) == 2 for ws in members)  # told nothing
            assert len(jobs) <= 2  # the wall's draw and the crowd's, not twenty-one
            shown["member"] = "m2"
            stage.version = 7
            threading.Thread(target=live.notify, args=(code, 7)).start()
            for ws in members:
                await ws.next_sent(3)
                assert _said(ws)[2]["html"] == "<p>m2</p>" and _said(ws)[2]["version"] == 7
            for ws in (wall, *members):
                await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
            await asyncio.wait_for(asyncio.gather(*tasks), 2)
        finally:
            stage_socket._Batch.submit = submit

    run(scenario)


def test_a_tap_that_changes_the_tabs_screen_gets_its_answer_in_the_screens_message():
    """A tap played: the acting tab's new screen and the tap's answer are one message (a hall's
    three hundred picks are three hundred taps). A tap that leaves the tab's screen as it was gets
    its answer alone."""
    from engine.push.stage import endpoint

    code, stage = "TAPS", FakeStage()
    played = stage.move

    def move(c, viewer, move_id, move, at=None):
        if move.get("changes"):
            stage.version += 1
        return played(c, viewer, move_id, move, at)

    stage.move = move

    async def scenario():
        ws = FakeWebSocket(code)
        await ws.incoming.put({"type": "websocket.receive", "text": '{"hello": {"lang": "en"}}'})
        task = asyncio.create_task(endpoint(ws, stage))
        await ws.next_sent(2)
        await ws.incoming.put({"type": "websocket.receive", "text": '{"id": "t1", "move": {"changes": true}}'})
        await ws.next_sent(3)
        said = _said(ws)[2]
        assert said["ack"] == "t1" and said["html"] == "<p>6</p>" and said["version"] == 6
        await ws.incoming.put({"type": "websocket.receive", "text": '{"id": "t2", "move": {}}'})
        await ws.next_sent(4)
        assert _said(ws)[3] == {"ack": "t2", "version": 6}
        await asyncio.sleep(0.05)
        assert len(ws.sent) == 4  # nothing more: the screen went once
        await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 2)

    run(scenario)


def test_the_acting_tab_is_drawn_once_for_its_own_move():
    """A tap that moves the room: the room's news reaches the acting tab's socket while its own draw
    (with the answer) holds the tab, and finds that version drawn once it may draw: no second draw
    (it was one in eight of the bench's draws). A version newer than the one drawn is still drawn."""
    from engine.push.stage import endpoint

    code, stage = "ONCE", FakeStage()
    draws: list[int] = []
    plain_draw, played = stage.draw, stage.move

    def draw(c, viewer):
        draws.append(stage.version)
        return plain_draw(c, viewer)

    def move(c, viewer, move_id, move, at=None):
        stage.version += 1
        live.notify(code, stage.version)  # as the service does when the move commits
        time.sleep(0.05)  # the news is on the loop before this tab's own draw is done
        return played(c, viewer, move_id, move, at)

    stage.draw, stage.move = draw, move

    async def scenario():
        ws = FakeWebSocket(code)
        await ws.incoming.put({"type": "websocket.receive", "text": '{"hello": {"lang": "en"}}'})
        task = asyncio.create_task(endpoint(ws, stage))
        await ws.next_sent(2, timeout=10)
        assert draws == [5]
        await ws.incoming.put({"type": "websocket.receive", "text": '{"id": "t1", "move": {}}'})
        await ws.next_sent(3, timeout=10)
        await asyncio.sleep(0.3)  # the news of version 6, if still to come, finds it drawn
        assert draws == [5, 6], draws  # the tap's own draw alone
        stage.version = 7
        live.notify(code, 7)  # another tab's move
        await ws.next_sent(4, timeout=10)
        assert draws == [5, 6, 7] and _said(ws)[3]["version"] == 7
        await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 2)

    run(scenario)


def test_an_audience_whose_stamp_held_is_not_drawn_and_learns_the_version_from_its_pongs():
    """The stage's `crowd_stamp` names what the members' screens are drawn from: a version at which
    it held draws none of them (the wall is drawn), and a member's pong tells the new version. A
    stamp that moved draws them all."""
    from engine.push import stage as stage_socket

    code, stage = "STMP", FakeStage()
    stamp = {"now": "s1"}
    member_draws = []
    plain = stage.draw

    def draw(c, viewer):
        if isinstance(viewer, Member):
            member_draws.append(stage.version)
            return Drawn(stage.version, stamp["now"], lambda: f"<p>{stamp['now']}</p>")
        return plain(c, viewer)

    stage.draw = draw
    stage.admit = lambda c, hello, peer: Member() if hello.get("member") else object()
    stage.crowd_stamp = lambda c, viewers: (stage.version, [stamp["now"]] * len(viewers))

    async def scenario():
        wall = FakeWebSocket(code)
        await wall.incoming.put({"type": "websocket.receive", "text": '{"hello": {}}'})
        members = [FakeWebSocket(code) for _ in range(5)]
        for ws in members:
            await ws.incoming.put({"type": "websocket.receive", "text": '{"hello": {"member": "x"}}'})
        tasks = [asyncio.create_task(stage_socket.endpoint(ws, stage)) for ws in (wall, *members)]
        for ws in (wall, *members):
            await ws.next_sent(2)
        stage.version = 6
        threading.Thread(target=live.notify, args=(code, 6)).start()  # a drawing: the crowd drew all
        await asyncio.sleep(0.2)
        member_draws.clear()
        stage.version = 7  # the stamp held: no member is drawn
        threading.Thread(target=live.notify, args=(code, 7)).start()
        await wall.next_sent(4)
        await asyncio.sleep(0.2)
        assert member_draws == []
        assert all(len(ws.sent) == 2 for ws in members)
        await members[0].incoming.put({"type": "websocket.receive", "text": "ping"})
        await members[0].next_sent(3)
        assert _said(members[0])[2] == {"pong": True, "version": 7}
        stamp["now"] = "s2"
        stage.version = 8
        threading.Thread(target=live.notify, args=(code, 8)).start()
        for ws in members[1:]:
            await ws.next_sent(3)
            assert _said(ws)[2]["html"] == "<p>s2</p>" and _said(ws)[2]["version"] == 8
        assert sorted(member_draws) == [8] * 5
        for ws in (wall, *members):
            await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(asyncio.gather(*tasks), 2)

    run(scenario)


def test_a_members_tab_pings_less_often_and_is_dropped_only_after_three_of_its_pings(monkeypatch):
    """The boot message tells each tab its cadence: a seat's or the wall's every PING_SECONDS, an
    audience member's every MEMBER_PING_SECONDS (a hall's pings were a fifth of its messages). A
    socket silent for three of its pings is dropped as half-open, a member's after three of its own."""
    from engine.push import stage as stage_socket

    monkeypatch.setattr(stage_socket, "PING_SECONDS", 0.05)
    monkeypatch.setattr(stage_socket, "MEMBER_PING_SECONDS", 0.3)
    code, stage = "PNGS", FakeStage()
    stage.admit = lambda c, hello, peer: Member() if hello.get("member") else object()

    async def closed(ws) -> None:  # its close takes a few turns of the loop once its timer fires
        for _ in range(100):
            if ws.closed is not None:
                break
            await asyncio.sleep(0.01)
        assert ws.closed == stage_socket.CLOSE_SILENT

    async def scenario():
        wall, member = FakeWebSocket(code), FakeWebSocket(code)
        await wall.incoming.put({"type": "websocket.receive", "text": '{"hello": {}}'})
        await member.incoming.put({"type": "websocket.receive", "text": '{"hello": {"member": "x"}}'})
        tasks = [asyncio.create_task(stage_socket.endpoint(ws, stage)) for ws in (wall, member)]
        await wall.next_sent(2)
        await member.next_sent(2)
        assert _said(wall)[0]["ping"] == 0.05 and _said(member)[0]["ping"] == 0.3
        await asyncio.sleep(0.3)  # the wall's three pings are past, the member's are not
        assert member.closed is None
        await closed(wall)
        await member.incoming.put({"type": "websocket.receive", "text": "ping"})
        await member.next_sent(3)
        assert _said(member)[2]["pong"] is True
        await asyncio.sleep(0.4)
        assert member.closed is None
        await asyncio.sleep(0.5)  # 0.9 s since its ping: three of its pings
        await closed(member)
        await asyncio.wait_for(asyncio.gather(*tasks), 2)

    run(scenario)
