"""A Dixit table played by taps: the wall on the laptop (127.0.0.1, straight to the server) and each
phone in its own browser context through its own fault proxy (127.0.0.2, 127.0.0.3, ...). Used by tests/faults and
by bench/faults.py. The test's own process reads the server's database (`tables`), to know whose
turn it is and to check the record at the end; every move is a tap on a phone."""

from __future__ import annotations

import os
import time

from playwright.sync_api import Error as PlaywrightError

from engine import tables
from tests.browser.test_pictomania_round import PHONE_UA
from tests.faults.proxy import Proxy

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
SHOWN = "([c, v]) => (window.__sobremesaPushRooms?.[c]?.rendered ?? -1) >= v"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "user_agent": PHONE_UA}


def server_env() -> dict:
    """The server shares this process's database (the test's data folder) and has no computer
    players. A phone's page at 127.0.0.x is its own origin: the server takes its sockets."""
    return {
        "SOBREMESA_DATA": os.environ["SOBREMESA_DATA"],
        "SOBREMESA_COMPUTER_PLAYERS": "off",
    }


class Table:
    def __init__(self, srv, browser, proxies, players: int = 4, pace: str | None = None):
        self.srv = srv
        room = tables.create_room("dixit", seed=5, language="en")
        self.seats = [tables.join(room.code, n) for n in NAMES[:players]]
        tables.start(room.code, room.host_token)
        if pace:
            tables.set_pace(room.code, room.host_token, pace)
        self.code, self.host = room.code, room.host_token
        self.wall = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        self.wall.goto(f"{srv.url}/table?room={self.code}")
        self.proxies: list[Proxy] = []
        self.phones = []
        for seat in self.seats:
            proxy = proxies(srv)
            page = browser.new_context(**PHONE).new_page()
            page.goto(f"{proxy.url}/play?room={self.code}&seat={seat.seat}&token={seat.token}")
            self.proxies.append(proxy)
            self.phones.append(page)
        self.converged(30)

    def view(self) -> dict:
        return tables.view(self.code)

    def pages(self) -> list:
        return [self.wall, *self.phones]

    def converged(self, within: float, pages=None) -> float:
        """Every page shows the room's current version; the seconds it took."""
        start = time.monotonic()
        version = tables.version(self.code)
        for page in pages or self.pages():
            left = max(0.1, within - (time.monotonic() - start))
            page.wait_for_function(SHOWN, arg=[self.code, version], timeout=left * 1000, polling=100)
        return time.monotonic() - start

    # ---- taps ----------------------------------------------------------------------------------
    def tap(self, seat: int, phase: str, timeout: float = 15) -> None:
        """The seat's phone does what the phase asks of it (once: a lost tap is the phone's to retry)."""
        page = self.phones[seat]
        ms = timeout * 1000
        if os.environ.get("FAULTS_TRACE"):
            print(f"{time.monotonic():.2f} tap seat {seat} {phase}", flush=True)
        if phase == "claim":
            page.get_by_role("button", name="I have a phrase!").click(timeout=ms)
            return
        if phase == "tell":
            page.get_by_label("Your phrase").fill("The sea at night", timeout=ms)
        pick(page, ms, enabled_only=phase == "vote")

    def turn(self, timeout: float = 15, each=None) -> None:
        """One whole turn: every seat the table waits on taps, phase after phase, until it closes.
        `each(seat, phase)` runs before each tap (a fault set on that phone, say)."""
        turns = len(self.view()["history"])
        self.play_until(lambda view: len(view["history"]) != turns, "the turn to close", timeout=timeout, each=each)

    def play_until(self, done, what: str, without=(), timeout: float = 15, each=None) -> None:
        """Every seat the table waits on (but those `without`) taps, phase after phase, until
        `done(view)`. A seat's tap is left to its phone (which retries it) for 10 s before it is
        tapped again: tapped again while the first is on its way, the phone would be showing the
        move played by the time the second tap looks for its button."""
        deadline = time.monotonic() + 120
        tapped: dict[tuple, float] = {}
        while not done(self.view()):
            assert time.monotonic() < deadline, f"waited in vain for {what}: {self.view()['phase']}"
            view = self.view()
            for seat in self.acting(view, without):
                key = (view["phase"], seat)
                if time.monotonic() - tapped.get(key, -99) < 10:
                    continue
                tapped[key] = time.monotonic()
                if each:
                    each(seat, view["phase"])
                try:
                    self.tap(seat, view["phase"], timeout)
                except (PlaywrightError, AssertionError):
                    pass  # a tap that did not land (a cut mid-tap): the loop looks again
            self.settle(view["version"], 1)

    @staticmethod
    def acting(view: dict, without=()) -> list[int]:
        """The seats to tap: all the table waits on (but those `without`), but one claim (the first
        claim takes the turn)."""
        waiting = [s for s in view["waiting_for"] if s not in without]
        return waiting[:1] if view["phase"] == "claim" else waiting

    def until(self, phase: str) -> None:
        """Taps until the table is at `phase`."""
        deadline = time.monotonic() + 60
        while self.view()["phase"] != phase:
            assert time.monotonic() < deadline, f"never reached {phase}"
            view = self.view()
            for seat in self.acting(view):
                try:
                    self.tap(seat, view["phase"])
                except (PlaywrightError, AssertionError):
                    pass  # a tap that did not land: the loop looks again
            self.settle(view["version"], 10)

    def settle(self, version: int, within: float) -> None:
        """Until the room moves past `version` (or `within` s)."""
        deadline = time.monotonic() + within
        while tables.version(self.code) <= version and time.monotonic() < deadline:
            time.sleep(0.05)

    # ---- what happened -----------------------------------------------------------------------------
    def check_record(self) -> None:
        """Each move once: the record is the log's replay, one give and one vote per seat per turn."""
        if self.view()["status"] == "playing":
            tables.end(self.code, self.host)
        record, replayed = tables.record(self.code), tables.replay(self.code)
        assert [t["scores"] for t in record["turns"]] == [t["scores"] for t in replayed["history"]]
        assert record["final_scores"] == {str(s): p for s, p in enumerate(replayed["scores"])}
        for turn in replayed["history"]:
            others = len(self.seats) - 1
            assert len(turn["votes"]) == others, turn["votes"]
            assert len(turn["table"]) == len(self.seats), turn["table"]


def pick(page, ms: float, enabled_only: bool = False) -> None:
    """Pick cards until the grid's button may be pressed, then press it."""
    confirm = page.locator("[data-testid=confirm-pick]")
    confirm.wait_for(timeout=ms)
    free = page.locator(
        "[data-testid=card]:not(.off):not(.picked):visible"
        if enabled_only
        else "[data-testid=card]:not(.picked):visible"
    )
    for _ in range(10):
        if confirm.is_enabled():
            break
        if page.locator("[data-testid=card-zoom]").count():
            page.keyboard.press("Escape")  # a tap that enlarged a card instead of picking it
        free.first.click(timeout=ms)
        page.wait_for_timeout(100)
    if not confirm.is_enabled():
        raise AssertionError("the cards picked never let the button be pressed")
    confirm.click(timeout=ms)
