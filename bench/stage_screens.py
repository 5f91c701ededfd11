"""Stage screens without a browser, for the classroom and hall benches.

A `StageScreen` is a thread holding one stage socket (`/stage/<code>`, engine/push/stage.py) from
an address of its own (127.0.0.2, 127.0.0.3, ...: phones on the network, each with its own, as on a
Wi-Fi; one address holds only a few sockets, engine/connections.py), proving who it is as a phone does (a seat's token, a member's id
and token, or nothing for the wall). It notes when each version's screen arrived (`shown`), and
`tap()` plays what a player's thumb would: the screen's first button that sends a move as it is
(the claim), or the first cards its card grid lets it pick and the confirm button under them, sent
as `{id, move}` over the socket. It renders nothing: its cost to the server is all of a real
phone's, its cost to a browser is left out.
"""

from __future__ import annotations

import html
import json
import re
import secrets
import threading
import time
from collections import deque

from websockets.sync.client import connect

from tests.stream import bound_socket

_MOVE = re.compile(r'<button[^>]*data-move="([^"]*)"[^>]*>')
_GRID = re.compile(
    r'<div class="sm-cards[^"]*"[^>]*data-pick="(\d+)" data-pick-min="(\d+)"(.*?)</div>\s*<button[^>]*data-move="([^"]*)"',
    re.S,
)
_CARD = re.compile(r'<figure[^>]*class="([^"]*)"[^>]*data-value="([^"]*)"')


_phones = iter(range(1 << 16))


def phone_address() -> str:
    """The next phone's address, 127.0.0.2 on (every 127.x.y.z is this machine on Linux)."""
    n = next(_phones)
    return f"127.{n // 62500}.{n // 250 % 250}.{n % 250 + 2}"


class StageScreen(threading.Thread):
    def __init__(self, port: int, code: str, hello: dict, source: str | None = None) -> None:
        super().__init__(daemon=True)
        source = source or phone_address()
        self.port, self.code, self.hello, self.source = port, code, hello, source
        self.ready = threading.Event()
        self.failed: BaseException | None = None
        self.shown: dict[int, float] = {}  # version -> when its screen (or its "unchanged") arrived
        self.pushed: dict[int, float] = self.shown  # the same moment: the screen comes with the push
        self.reruns = 0  # a stage screen never reruns
        self.acted: list[dict] = []
        self.said: deque[dict] = deque(maxlen=8)  # the last the server said that is no screen (pongs, refusals)
        self.html = ""
        self.bytes = 0  # the screens' messages, as sent (before any compression)
        self.messages = 0  # every message the server sent, pongs and answers included
        self._ws = None
        self._stop = threading.Event()
        self._lock = threading.Lock()

    def run(self) -> None:
        try:
            sock = bound_socket(self.port, self.source)
            self._ws = connect(f"ws://127.0.0.1:{self.port}/stage/{self.code}", sock=sock, open_timeout=30)
            self._ws.send(json.dumps({"hello": self.hello}))
            pinged, every = time.monotonic(), 3.0
            while not self._stop.is_set():
                if time.monotonic() - pinged >= every:  # as a tab does, at the cadence the server said
                    with self._lock:
                        self._ws.send("ping")
                    pinged = time.monotonic()
                try:
                    text = self._ws.recv(timeout=1)
                except TimeoutError:
                    continue
                msg = json.loads(text)
                self.messages += 1
                if "version" in msg:
                    now = time.time()
                    if "html" in msg:
                        self.html = msg["html"]
                    elif "frags" in msg:
                        self.html = patched(self.html, msg["frags"])
                    self.bytes += len(text) if "html" in msg or "frags" in msg else 0
                    self.shown.setdefault(msg["version"], now)
                    self.ready.set()
                else:
                    if msg.get("ping"):  # the boot message: how often this tab pings
                        every = float(msg["ping"])
                    self.said.append(msg)
        except Exception as exc:  # the bench raises it
            if not self._stop.is_set():
                self.failed = exc
                self.ready.set()

    def offering(self, timeout: float = 30) -> None:
        """Wait until the screen offers a move: the reveal's end (`next_scene`) redraws a screen at
        the version it had, so a screen at the newest version may still show the reveal."""
        deadline = time.monotonic() + timeout
        while self._move() is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the screen offered no move in {timeout} s")
            time.sleep(0.005)

    def tap(self) -> None:
        """The move a thumb makes on this screen now (nothing if it offers none)."""
        move = self._move()
        if move is None:
            return
        self.acted.append(move)
        with self._lock:
            self._ws.send(json.dumps({"id": secrets.token_hex(8), "move": move}))

    def _move(self) -> dict | None:
        grid = _GRID.search(self.html)
        if grid is not None:
            pick_min = int(grid.group(2)) or int(grid.group(1))
            values = [
                json.loads(html.unescape(v)) for classes, v in _CARD.findall(grid.group(3)) if "off" not in classes
            ]
            chosen = values[:pick_min]
            move = json.loads(html.unescape(grid.group(4)))
        else:
            found = _MOVE.search(self.html)
            if found is None:
                return None
            chosen, move = [], json.loads(html.unescape(found.group(1)))
        for key, value in move.items():
            if value == "$picked":
                move[key] = chosen
            elif value == "$one":
                move[key] = chosen[0] if chosen else None
            elif isinstance(value, str) and value.startswith("$text:"):
                move[key] = "a phrase"
        return move

    def stop(self) -> None:
        self._stop.set()
        if self._ws is not None:
            try:
                self._ws.close()
            except Exception:
                pass


def patched(html_text: str, frags: dict[str, str]) -> str:
    """A screen with its changed fragments in place, as the tab's morph leaves it: each one's HTML
    replaces what its holder (`data-frag="<name>"`) held, outer ones first."""
    for name, inner in frags.items():
        start = re.search(r'<(\w+)[^>]*\bdata-frag="' + re.escape(name) + r'"[^>]*>', html_text)
        if start is None:
            continue
        tag, depth, at = start.group(1), 1, start.end()
        tags = re.compile(rf"<(/?){tag}\b[^>]*>")
        while depth:
            found = tags.search(html_text, at)
            if found is None:
                break
            depth += -1 if found.group(1) else 1
            at = found.end()
        end = at - len(f"</{tag}>")
        html_text = html_text[: start.end()] + inner + html_text[end:]
    return html_text


def start_all(screens: list) -> None:
    """Open the screens' sockets one after another, each ready before the next (a class does not
    open its tabs in the same millisecond); raise the first one's failure."""
    for screen in screens:
        screen.start()
        screen.ready.wait(60)
        if screen.failed:
            raise screen.failed


def shown_at(screen_shown: dict[int, float], version: int) -> float | None:
    """When a screen first showed `version` or a later one (it may skip a version it was behind on)."""
    times = [at for v, at in screen_shown.items() if v >= version]
    return min(times) if times else None
