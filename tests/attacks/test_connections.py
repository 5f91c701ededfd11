"""One phone against the laptop's open files (issue 47, item 6): the server runs with a laptop's
usual 1,024 open files (`ulimit -n 1024`). One phone opens a thousand wall sockets with only the
room code, then another holds two hundred requests half sent (slowloris). Sockets are counted per
address from the moment they are accepted, and a request's headers must arrive in time: the health
check, the wall and another phone go on working."""

from __future__ import annotations

import socket
import time
import urllib.request

from engine import tables
from tests.attacks.conftest import RawSocket, attacked, bound, wall_hello, ws


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=5) as reply:
            return reply.status == 200
    except OSError:
        return False


def shown(client, within: float = 20) -> bool:
    ends = time.monotonic() + within
    try:
        while time.monotonic() < ends:
            if '"html"' in client.recv(timeout=max(0.1, ends - time.monotonic())):
                return True
    except Exception:
        return False
    return False


def closed_by_server(sock) -> bool:
    """Whether the server has closed this connection (an end of file or a reset is waiting)."""
    try:
        return sock.recv(65536, socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_one_phone_cannot_use_up_the_laptops_open_files(tmp_path, monkeypatch):
    srv = attacked(tmp_path / "data", prefix=["prlimit", "--nofile=1024:1024", "--"])
    try:
        monkeypatch.setenv("SOBREMESA_DATA", str(srv.data))
        tables.reset()
        code = tables.create_room("dixit", language="en").code
        walls, refused = [], 0
        for _ in range(1010):  # more than the process may open
            try:
                s = RawSocket(srv.port, f"/stage/{code}", "127.0.0.2", rcvbuf=None)
            except OSError:
                refused += 1
                continue
            if s.status != 101:
                refused += 1
                s.close()
                continue
            try:
                s.send_text(wall_hello())
            except OSError:
                refused += 1
                continue
            walls.append(s)
        still = [w for w in walls if not closed_by_server(w.sock)]
        assert healthy(srv.port), "the health check timed out"
        with ws(srv.port, f"/stage/{code}", "127.0.0.1") as laptop_wall:
            laptop_wall.send(wall_hello())
            assert shown(laptop_wall), "the laptop's wall got no screen"
        with ws(srv.port, f"/stage/{code}", "127.0.0.3") as other_phone:
            other_phone.send(wall_hello())
            assert shown(other_phone), "another phone got no screen"
        assert len(still) <= 64, f"one phone holds {len(still)} sockets ({refused} refused)"
        for w in walls:
            w.close()

        slow = []
        for _ in range(200):
            try:
                sock = bound(srv.port, "127.0.0.4")
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never the rest
                slow.append(sock)
            except OSError:
                pass
        ends = time.monotonic() + 16  # a request's headers have 10 s
        held = slow
        while held and time.monotonic() < ends:
            time.sleep(0.5)
            held = [s for s in held if not closed_by_server(s)]
        assert healthy(srv.port)
        assert not held, f"{len(held)} half-sent requests are still held after 16 s"
        for s in slow:
            s.close()
    finally:
        srv.stop()


def test_a_tab_of_a_phone_still_opens_every_socket_it_needs(server):
    """The cap leaves a phone what it needs: Streamlit's socket and the stage's for a few tabs, and
    its pages' requests."""
    code = tables.create_room("dixit", language="en").code
    opened = []
    try:
        for _ in range(6):  # six tabs of one phone
            stage = ws(server.port, f"/stage/{code}", "127.0.0.9")
            stage.send(wall_hello())
            assert shown(stage)
            stream = ws(server.port, "/_stcore/stream", "127.0.0.9")
            opened += [stage, stream]
    finally:
        for c in opened:
            c.close()
