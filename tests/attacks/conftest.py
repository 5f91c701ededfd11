"""The attack tests' server and clients: a real server (`streamlit run app.py`) with a probe in it
(tests/attacks/probe: it notes every host name looked up and every keepsake built), shared by a
module's tests; each attack comes from a phone of its own, a client bound to 127.0.0.x (x >= 2),
which the server does not take for the laptop. Nothing leaves the loopback range. They run beside
the other tests: a server's memory is read from the kernel's peak mark (`Peak`), which other
processes do not move; only the test timed in a network namespace runs alone (tests/conftest.py)."""

from __future__ import annotations

import json
import os
import socket
import time
from pathlib import Path

import pytest

from engine import tables
from tests.browser.conftest import StreamlitServer, browser, close_pages  # noqa: F401  (shared fixtures)

PROBE = Path(__file__).resolve().parent / "probe"


def rss_mb(pid: int, field: str = "VmRSS:") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no {field}")


class Attacked(StreamlitServer):
    """A server whose probe log can be read (`probed()`), sharing its database with this process."""

    @property
    def data(self) -> Path:
        return Path(self.env["SOBREMESA_DATA"])

    def probed(self) -> list[dict]:
        path = Path(self.env["SOBREMESA_PROBE"])
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def rss(self) -> float:
        return rss_mb(self.pid)

    def whole_log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path and self.log_path.exists() else ""


def attacked(data: Path, env: dict | None = None, prefix=()) -> Attacked:
    data.mkdir(parents=True, exist_ok=True)
    full = {
        **os.environ,
        "SOBREMESA_DATA": str(data),
        "SOBREMESA_COMPUTER_PLAYERS": "off",
        "SOBREMESA_CLOCK": "off",
        "SOBREMESA_PROBE": str(data / "probe.log"),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROBE), os.environ.get("PYTHONPATH", "")])),
        **(env or {}),
    }
    return Attacked("app.py", full, log_path=data / "server.log", prefix=prefix).start()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = attacked(tmp_path_factory.mktemp("attacked"))
    yield srv
    srv.stop()


@pytest.fixture(autouse=True)
def same_store(request, monkeypatch):
    """This process plays the rooms in the server's own database (`tables`)."""
    if "server" in request.fixturenames:
        srv = request.getfixturevalue("server")
        monkeypatch.setenv("SOBREMESA_DATA", str(srv.data))
        tables.reset()
    yield


def bound(port: int, source: str, host: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    """A TCP connection to host:port from `source` (any 127.x.y.z works on Linux): a phone."""
    sock = socket.socket()
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect((host, port))
    return sock


def ws(port: int, path: str, source: str, origin: str | None = None, compression=None, cookies: dict | None = None):
    """A WebSocket client (websockets' sync client) from `source`, as a phone's browser opens one."""
    from websockets.sync.client import connect

    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else None
    return connect(  # entered here: the connection is used bare as well as in a `with`
        f"ws://127.0.0.1:{port}{path}",
        sock=bound(port, source),
        origin=origin,
        compression=compression,
        additional_headers=headers,
        subprotocols=["streamlit"] if path.startswith("/_stcore/") else None,
        max_size=None,
        open_timeout=20,
        close_timeout=2,
    ).__enter__()


def closed_with(client, within: float = 20) -> int | None:
    """Read until the server closes the socket: its close code (None if it never did)."""
    from websockets.exceptions import ConnectionClosed

    deadline = time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            client.recv(timeout=max(0.1, deadline - time.monotonic()))
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else 1006
    except TimeoutError:
        return None
    return None


def wall_hello() -> str:
    return json.dumps({"hello": {"lang": "en"}})


class RawSocket:
    """A WebSocket client written by hand on a plain socket, for what a browser never does: send
    without ever reading (its receive buffer kept small), or send a handshake and nothing more."""

    def __init__(self, port: int, path: str, source: str, rcvbuf: int | None = 4096, origin: str | None = None):
        import base64
        import secrets

        self.sock = socket.socket()
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *([f"Origin: {origin}"] if origin else []),
        ]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                break
            head += chunk
        self.status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1") else 0

    @staticmethod
    def frame(text: str) -> bytes:
        from websockets.frames import Frame, Opcode

        return Frame(Opcode.TEXT, text.encode()).serialize(mask=True, extensions=[])

    def send_text(self, text: str) -> None:
        self.sock.sendall(self.frame(text))

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass
