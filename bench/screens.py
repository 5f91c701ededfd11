"""Screens without a browser, for the classroom and school benches.

A `Screen` is a thread that opens a real Streamlit session over `/_stcore/stream` (tests/stream.py:
Streamlit's own protobuf messages) from 127.0.0.2, a phone on the network, and runs the real page
script on the server. It reads the push listener's data from what the page sent (the
`sobremesa_push` component: room, version, ticket, the fields the screen read and their signature,
its board of live spots), opens the page's push socket with that ticket, tells it the fields and
the board, and then does what pages/assets/push.js does: a version whose signature matches (and
whose spots came along, where the screen has spots) is shown in place with no rerun; any other
newer version reruns the room's fragment, one run at a time.

`act()` plays the seat's move as a tap would: the claim button, or the first cards its card grid
lets it pick, sent as the widget's trigger in a rerun of the fragment (the move runs in the
callback, before the page). The screen renders nothing: its cost to the server is all of a real
tab's, its cost to a browser is left out.
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time

from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.sync.client import connect

from tests.stream import StreamSession, bound_socket


class Screen(threading.Thread):
    def __init__(self, port: int, page: str, query: str, source: str = "127.0.0.2", device: str | None = None) -> None:
        super().__init__(daemon=True)
        self.port, self.page, self.query, self.source = port, page, query, source
        # The browser's device id (pages/guard.py): behind the proxy it picks the process, so each
        # screen has its own, as each phone would.
        self.device = device or secrets.token_urlsafe(18)
        self.pushed: dict[int, float] = {}  # version -> time.time() its push arrived
        self.shown: dict[int, float] = {}  # version -> time.time() this screen first showed it
        self.reruns = 0  # runs the pushes started (not the first load, not a tap's)
        self.in_place = 0  # versions shown by live spots alone
        self.acted: list[float] = []  # time.time() of each tap sent
        self.ready = threading.Event()
        self.failed: BaseException | None = None
        self._orders: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self.data: dict = {}
        self.fragment = ""
        self.page_hash = ""
        self.widgets: list = []  # (kind, id, data) of the last render's tappable widgets

    # --- the page ------------------------------------------------------------------------------
    def _read(self, messages: list[ForwardMsg]) -> None:
        widgets = []
        for msg in messages:
            if msg.WhichOneof("type") == "new_session":
                self.page_hash = msg.new_session.page_script_hash
            if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
                continue
            element = msg.delta.new_element
            kind = element.WhichOneof("type")
            if kind == "button":
                widgets.append(("button", element.button.id, element.button.label))
            if kind != "bidi_component":
                continue
            data = json.loads(element.bidi_component.json or "{}")
            name = element.bidi_component.component_name
            if name.endswith("sobremesa_push") and "code" in data:
                self.data, self.fragment = data, msg.delta.fragment_id
            elif name.endswith("cards") and data.get("pick"):
                widgets.append(("cards", element.bidi_component.id, data))
        self.widgets = widgets

    def _run(self, fragment: str = "", states: list | None = None) -> None:
        back = BackMsg()
        back.rerun_script.query_string = self.query
        back.rerun_script.page_name = self.page
        if fragment:
            back.rerun_script.fragment_id = fragment
            back.rerun_script.page_script_hash = self.page_hash
        for widget_id, field, value in states or ():
            state = back.rerun_script.widget_states.widgets.add()
            state.id = widget_id
            setattr(state, field, value)
        self.session.ws.send(back.SerializeToString())
        seen = []
        while True:
            msg = ForwardMsg()
            msg.ParseFromString(self.session.ws.recv(timeout=self.session.timeout))
            seen.append(msg)
            if msg.WhichOneof("type") == "script_finished":
                break
        self._read(seen)
        self.rendered = int(self.data["version"])
        self.shown.setdefault(self.rendered, time.time())

    def _tap(self) -> None:
        for kind, widget_id, data in self.widgets:
            if kind == "cards":
                free = [c["id"] for c in data["cards"] if not c.get("disabled")]
                picked = {"ids": free[: data["pick"]], "nonce": data.get("nonce", "")}
                payload = json.dumps([{"event": "picked", "value": picked}])
                self.acted.append(time.time())
                self._run(self.fragment, [(_make_trigger_id(widget_id, "events"), "json_trigger_value", payload)])
                return
        for kind, widget_id, label in self.widgets:
            if kind == "button" and "phrase" in label:  # "I have a phrase!"
                self.acted.append(time.time())
                self._run(self.fragment, [(widget_id, "trigger_value", True)])
                return

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
            self.session = StreamSession(self.port, self.source, cookies={"sobremesa_device": self.device}, timeout=60)
            self._read(self.session.run(query=self.query, page=self.page))
            self.rendered = int(self.data["version"])
            code, ticket = self.data["code"], self.data.get("ticket") or ""
            self.events = connect(
                f"ws://127.0.0.1:{self.port}/events/{code}?t={ticket}",
                sock=bound_socket(self.port, self.source),
                additional_headers={"Cookie": f"sobremesa_device={self.device}"},
                open_timeout=30,
            ).__enter__()
            self._tell()
            self.ready.set()
            latest = None
            while not self._stop.is_set():
                try:
                    order = self._orders.get_nowait()
                except queue.Empty:
                    order = None
                if order == "tap":
                    self._tap()
                    self._tell()
                try:
                    msg = json.loads(self.events.recv(timeout=0.1))
                except TimeoutError:
                    continue
                if msg.get("version") is None:
                    continue
                self.pushed.setdefault(msg["version"], time.time())
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
                self._tell()
        except BaseException as exc:  # noqa: BLE001 - the bench reports it
            if not self._stop.is_set():
                self.failed = exc
            self.ready.set()

    def tap(self) -> None:
        """Play this seat's move, as soon as the screen's thread is free."""
        self._orders.put("tap")

    def stop(self) -> None:
        self._stop.set()
        for sock in (getattr(self, "events", None), getattr(self, "session", None)):
            try:
                if sock is not None:
                    sock.close()
            except Exception:
                pass


def shown_at(screen_shown: dict[int, float], version: int) -> float | None:
    """When a screen first showed `version` or a later one (it may skip a version it was behind on)."""
    times = [at for v, at in screen_shown.items() if v >= version]
    return min(times) if times else None
