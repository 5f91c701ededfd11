"""A Streamlit session without a browser: a client of `/_stcore/stream` speaking Streamlit's own
protobuf messages, optionally from another loopback address (127.0.0.2 plays a phone on the
network: the server treats only 127.0.0.1 and ::1 as this computer).

    with StreamSession(port, source="127.0.0.2") as s:
        s.run(query="room=BCDFG", page="play")   # one script run, to its end
        s.session_id, s.texts                     # what it drew, as text
"""

from __future__ import annotations

import socket

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect


def bound_socket(port: int, source: str = "127.0.0.1", host: str = "127.0.0.1") -> socket.socket:
    """A TCP connection to host:port whose source address is `source` (any 127.x.y.z works on Linux)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.connect((host, port))
    return sock


class StreamSession:
    def __init__(self, port: int, source: str = "127.0.0.1", cookies: dict | None = None, timeout: float = 20) -> None:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in (cookies or {}).items())} if cookies else None
        self.ws = connect(
            f"ws://127.0.0.1:{port}/_stcore/stream",
            sock=bound_socket(port, source),
            subprotocols=["streamlit"],
            additional_headers=headers,
            open_timeout=timeout,
            max_size=None,
        ).__enter__()
        self.timeout = timeout
        self.session_id: str | None = None
        self.texts: list[str] = []

    def run(self, query: str = "", page: str = "") -> list[ForwardMsg]:
        """Ask for one script run and read until it finishes."""
        back = BackMsg()
        back.rerun_script.query_string = query
        back.rerun_script.page_name = page
        self.ws.send(back.SerializeToString())
        seen = []
        while True:
            msg = ForwardMsg()
            msg.ParseFromString(self.ws.recv(timeout=self.timeout))
            seen.append(msg)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                element = msg.delta.new_element
                body = getattr(element, element.WhichOneof("type") or "", None)
                for field in ("body", "label", "text"):
                    if body is not None and hasattr(body, field) and getattr(body, field):
                        self.texts.append(getattr(body, field))
            elif kind == "script_finished":
                return seen

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> StreamSession:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
