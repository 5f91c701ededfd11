"""What one phone can send over the app's own sockets (issue 47, items 4, 7, 10 and 13): a hello
that inflates to hundreds of megabytes, taps sent by a socket that never reads its answers, a tap
flood spread over many sockets, and a hello nested a hundred thousand deep. Each is answered with a
close code, memory stays bounded, and the laptop goes on answering."""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path

from engine import tables
from tests.attacks.conftest import RawSocket, closed_with, rss_mb, wall_hello, ws

BOMB = 200 * 1024 * 1024  # inflated bytes in one hello (deflated: about 200 KB)


class Peak:
    """The server's resident memory at its highest while the attack runs: the kernel's own mark
    (VmHWM, set back to the present first), and a sample every 50 ms where that cannot be reset."""

    def __init__(self, srv) -> None:
        try:
            Path(f"/proc/{srv.pid}/clear_refs").write_text("5")  # VmHWM := VmRSS
            self.marked = True
        except OSError:
            self.marked = False
        self.srv, self.before, self.most = srv, srv.rss(), srv.rss()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(0.05):
            try:
                self.most = max(self.most, self.srv.rss())
            except (OSError, AssertionError):
                return

    def grown(self) -> float:
        self._stop.set()
        self._thread.join()
        if self.marked:
            self.most = max(self.most, rss_mb(self.srv.pid, "VmHWM:"))
        return self.most - self.before


def test_a_hello_that_inflates_is_refused_before_it_fills_memory(server):
    """Three sockets each offer deflate and send a hello of 200 MB to a room that does not exist,
    with no token: each is closed as too big (1009) before it is read whole. The server declines
    deflate (.streamlit/config.toml), so the hello travels raw and the client is cut off while it
    still sends (it sees its connection drop, 1006); were deflate on, engine/connections.py would
    close it at 64 KB inflated, as before."""
    peak = Peak(server)
    hello = '{"hello": {"lang": "' + " " * BOMB + '"}}'
    codes: list = []
    deflated: list[bool] = []

    def bomb() -> None:
        client = ws(server.port, "/stage/BCDFG", "127.0.0.2", compression="deflate")
        deflated.append(bool(client.protocol.extensions))
        try:
            client.send(hello)
        except Exception:  # closed while sending: the server gave up on it
            pass
        codes.append(closed_with(client))

    threads = [threading.Thread(target=bomb) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    grown = peak.grown()
    print(f"3 hellos of {BOMB // 2**20} MB inflated: closed {codes}; the server grew by {grown:.0f} MB")
    assert deflated == [False] * 3, "the server negotiated deflate"
    assert len(codes) == 3 and all(code in (1009, 1006) for code in codes), codes  # closed, or cut off mid-send
    assert grown < 80, f"the server grew by {grown:.0f} MB"
    with ws(server.port, "/stage/BCDFG", "127.0.0.3") as fine:  # and it still answers
        fine.send(wall_hello())
        assert closed_with(fine) == 4401  # no such room: the same answer as a wrong token


def started_dixit() -> tuple[str, list]:
    room = tables.create_room("dixit", seed=3, language="en")
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    tables.start(room.code, room.host_token)
    return room.code, seats


def test_a_socket_that_never_reads_its_answers_cannot_grow_the_server(server):
    """A seat's socket sends taps as fast as it can and never reads: the server stops reading it
    (a bounded number of taps in flight) and drops it when its answers are not read, instead of
    queueing every answer."""
    code, seats = started_dixit()
    flood = RawSocket(server.port, f"/stage/{code}", "127.0.0.4")
    assert flood.status == 101
    flood.send_text(json.dumps({"hello": {"token": seats[1].token, "lang": "en"}}))
    peak = Peak(server)
    taps = [
        json.dumps({"id": uuid.uuid4().hex, "move": {"type": "vote", "card": "dream-001"}, "at": 1})
        for _ in range(2000)
    ]
    burst = b"".join(flood.frame(t) for t in taps)  # as fast as a socket writes
    sent, ends = 0, time.monotonic() + 25
    try:
        while time.monotonic() < ends:
            flood.sock.sendall(burst)
            sent += len(taps)
    except OSError:  # the server stopped reading (the send blocked past its timeout) or dropped it
        pass
    grown = peak.grown()
    flood.close()
    print(f"{sent} taps sent; the server grew by {grown:.0f} MB")
    assert sent > 100, sent
    assert grown < 64, f"the server grew by {grown:.0f} MB over {sent} taps"
    with ws(server.port, f"/stage/{code}", "127.0.0.5") as wall:  # the room still answers
        wall.send(wall_hello())
        assert "html" in json.loads(_first_screen(wall))


def _first_screen(client, within: float = 20) -> str:
    ends = time.monotonic() + within
    while True:
        message = client.recv(timeout=max(0.1, ends - time.monotonic()))
        if '"html"' in message:
            return message


def test_a_tap_flood_over_many_sockets_is_refused_by_the_address(server):
    """Twelve sockets from one phone, thirty taps each within a second: past the address's taps a
    tap is refused as too many at once (`slow`), so a flood spread over sockets does not reach the
    service and delay the class's moves."""
    code, _seats = started_dixit()
    clients = [ws(server.port, f"/stage/{code}", "127.0.0.6") for _ in range(12)]
    for c in clients:
        c.send(wall_hello())
        _first_screen(c)
    for c in clients:
        for _ in range(30):
            c.send(json.dumps({"id": uuid.uuid4().hex, "move": {"type": "vote", "card": "dream-001"}, "at": 1}))
    answers = []
    for c in clients:
        while len([a for a in answers if a["socket"] is c]) < 30:
            told = json.loads(c.recv(timeout=30))
            if "refused" in told:
                answers.append({"socket": c, "slow": bool(told.get("slow"))})
        c.close()
    slow = sum(a["slow"] for a in answers)
    assert len(answers) == 360
    assert slow >= 360 - 60, f"only {slow} of 360 taps were refused as a flood"


def test_a_hello_nested_a_hundred_thousand_deep_gets_a_close_code(server):
    """Today's JSON parser recursed out of its depth: a traceback in the log and no close frame.
    A deep hello, and a deep tap after a good hello, each get a close code."""
    before = server.whole_log().count("Traceback")
    with ws(server.port, "/stage/BCDFG", "127.0.0.7") as deep:
        deep.send("[" * 100_000 + "]" * 100_000)
        first = closed_with(deep)
    code, _ = started_dixit()
    with ws(server.port, f"/stage/{code}", "127.0.0.7") as later:
        later.send(wall_hello())
        _first_screen(later)
        later.send("[" * 3_000 + "]" * 3_000)  # under the message limit, past the parser's depth
        second = closed_with(later)
    assert first in (1009, 4400, 4413), first  # 1009: too large to inflate (engine/connections.py)
    assert second == 4400, second
    time.sleep(0.5)
    assert server.whole_log().count("Traceback") == before, server.whole_log()[-3000:]
