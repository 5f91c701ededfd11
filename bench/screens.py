"""Screens without a browser, for the classroom and school benches.

A `Screen` is a thread that opens a real Streamlit session over `/_stcore/stream` (tests/stream.py:
Streamlit's own protobuf messages) from 127.0.0.2, a phone on the network, and runs the real page
script on the server. It reads the push listener's data from the page it was sent (the
`sobremesa_push` component: room, version, ticket, the fields the screen read and their signature,
its board of live spots), opens the page's push socket with that ticket, tells it the fields and the
board, and then does what pages/assets/push.js does: a version whose signature matches (and whose
spots came along, where the screen has spots) is shown in place, with no rerun; any other newer
version reruns the room's fragment, one run at a time. It renders nothing: what it costs the server
is all of a real tab's cost, what it costs a browser is left out.
"""

from __future__ import annotations

import json
import threading
import time

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from tests.stream import StreamSession, bound_socket


class Screen(threading.Thread):
    def __init__(self, port: int, page: str, query: str, source: str = "127.0.0.2") -> None:
        super().__init__(daemon=True)
        self.port, self.page, self.query, self.source = port, page, query, source
        self.shown: dict[int, float] = {}  # version -> time.time() when this screen first showed it
        self.reran: dict[int, float] = {}  # version -> time.time() when the rerun that showed it finished
        self.reruns = 0  # runs the pushes started (the first load is not one)
        self.in_place = 0  # versions shown by live spots alone
        self.ready = threading.Event()
        self.failed: BaseException | None = None
        self._stop = threading.Event()

    # --- the page ------------------------------------------------------------------------------
    def _listener(self, messages: list[ForwardMsg]) -> None:
        for msg in messages:
            if msg.WhichOneof("type") == "new_session":
                self.page_hash = msg.new_session.page_script_hash
            if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
                continue
            element = msg.delta.new_element
            if element.WhichOneof("type") != "bidi_component":
                continue
            if not element.bidi_component.component_name.endswith("sobremesa_push"):
                continue
            data = json.loads(element.bidi_component.json or "{}")
            if "code" in data and "version" in data:
                self.data, self.fragment = data, msg.delta.fragment_id

    def _run(self, fragment: str = "") -> None:
        back = BackMsg()
        back.rerun_script.query_string = self.query
        back.rerun_script.page_name = self.page
        if fragment:
            back.rerun_script.fragment_id = fragment
            back.rerun_script.page_script_hash = self.page_hash
        self.session.ws.send(back.SerializeToString())
        seen = []
        while True:
            msg = ForwardMsg()
            msg.ParseFromString(self.session.ws.recv(timeout=self.session.timeout))
            seen.append(msg)
            if msg.WhichOneof("type") == "script_finished":
                break
        self._listener(seen)
        self.rendered = int(self.data["version"])
        self.shown.setdefault(self.rendered, time.time())

    # --- the push socket -----------------------------------------------------------------------
    def _tell(self) -> None:
        watch = self.data.get("watch")
        said = json.dumps({"watch": watch["keys"] if watch else None, "board": self.data.get("board")})
        if said != getattr(self, "_said", None):
            self.events.send(said)
            self._said = said

    def _unchanged(self, msg: dict) -> bool:
        watch = self.data.get("watch")
        if not watch or msg.get("sig") != watch.get("sig"):
            return False
        return not self.data.get("board") or "spots" in msg

    def run(self) -> None:
        try:
            self.session = StreamSession(self.port, self.source, timeout=60)
            self._listener(self.session.run(query=self.query, page=self.page))
            self.rendered = int(self.data["version"])
            code, ticket = self.data["code"], self.data.get("ticket") or ""
            self.events = connect(
                f"ws://127.0.0.1:{self.port}/events/{code}?t={ticket}",
                sock=bound_socket(self.port, self.source),
                open_timeout=30,
            ).__enter__()
            self._tell()
            self.ready.set()
            latest = None
            while not self._stop.is_set():
                try:
                    msg = json.loads(self.events.recv(timeout=0.5))
                except TimeoutError:
                    continue
                if "version" not in msg or msg["version"] is None:
                    continue
                if latest is None or msg["version"] >= latest["version"]:
                    latest = msg
                if latest["version"] <= self.rendered:
                    continue
                if self._unchanged(latest):
                    self.rendered = latest["version"]
                    self.shown.setdefault(self.rendered, time.time())
                    self.in_place += 1
                    continue
                self.reruns += 1
                self._run(self.fragment)
                self.reran.setdefault(self.rendered, time.time())
                self._tell()
        except BaseException as exc:  # noqa: BLE001 - the bench reports it
            if not self._stop.is_set():
                self.failed = exc
            self.ready.set()

    def stop(self) -> None:
        self._stop.set()
        for sock in (getattr(self, "events", None), getattr(self, "session", None)):
            try:
                if sock is not None:
                    sock.close()
            except Exception:
                pass
