"""Runs the computer players of every room in this server process.

A computer player is a client like any phone: it reads its own seat's view and legal moves through
`tables` with its own token and submits a move through `tables.submit`. Nothing else reaches it.

The runner is one daemon thread. Every TICK it looks at the rooms that have computer players and
that this process leads (`engine.leases`: with several server processes on one database, exactly
one plays a room's computer players, and another takes over within seconds if it dies); a
seat with something to do gets a human-like delay (1–4 s; 5–9 s to claim the first phrase, so that
people at the table get the first chance), and when that delay is over and the room has not moved
on, it plays. State lives in the store (the `bots` table), so after a restart the thread finds the
same seats and plays any pending turn. `play_pending` does the same at once, for tests and benches.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time

from engine import leases, tables
from engine.core import SobremesaError
from engine.push import live

log = logging.getLogger(__name__)
TICK = 0.25
DELAY = (1.0, 4.0)
CLAIM_DELAY = (5.0, 9.0)
ROOMS_EVERY = 1.0  # seconds between looks for rooms that gained computer players (and lease renewals)
ROOMS_IDLE = 5.0  # seconds between looks for such rooms while none has one and nothing moves
RETRY = 2.0  # seconds before trying again after a failure

_started = False
_start_lock = threading.Lock()


def decide(code: str, bot: dict, rnd: random.Random) -> dict | None:
    """What this computer player does now, from its own view and legal moves (None: nothing)."""
    view = tables.view(code, bot["seat"], bot["token"])
    if view["status"] != "playing":
        return None
    legal = tables.legal(code, bot["seat"], bot["token"])
    if not legal:
        return None
    game = tables.games()[view["game"]]
    return game.bots.play(view, legal, rnd, bot["level"]) if game.bots else None


def play_pending(code: str, rnd: random.Random | None = None, most: int = 1000) -> int:
    """Every move the room's computer players have to make now, at once; returns how many."""
    rnd = rnd or random.Random()
    made = 0
    for _ in range(most):
        moved = False
        for bot in tables.bot_seats(code):
            move = decide(code, bot, rnd)
            if move is not None:
                tables.submit(code, bot["seat"], bot["token"], move)
                made += 1
                moved = True
        if not moved:
            return made
    return made


class Runner:
    def __init__(self, rnd: random.Random | None = None, process: str = leases.PROCESS):
        self.rnd = rnd or random.Random()
        self.process = process
        self.due: dict[tuple[str, int], tuple[int, float | None]] = {}  # (room, seat) -> (version, when to play)
        self.rooms: list[str] = []
        self.looked: dict[str, int] = {}  # room -> the version every seat was last looked at
        self.rooms_at = float("-inf")

    def tick(self, now: float) -> None:
        if now - self.rooms_at >= ROOMS_EVERY:
            self.rooms = [code for code in tables.rooms_with_bots() if leases.lead(code, self.process)]
            self.rooms_at = now
            playing = set(self.rooms)  # a room that ended leaves nothing behind in memory
            self.due = {key: due for key, due in self.due.items() if key[0] in playing}
            self.looked = {code: seen for code, seen in self.looked.items() if code in playing}
        for code in self.rooms:
            try:
                self._room(code, now)
            except Exception as exc:  # the room moved on, the store hiccupped, a bug: look again soon
                if not isinstance(exc, SobremesaError):
                    log.exception("computer player in %s failed", code)
                self.looked.pop(code, None)
                for key, (seen, _when) in list(self.due.items()):
                    if key[0] == code:
                        self.due[key] = (seen, now + RETRY)

    def _room(self, code: str, now: float) -> None:
        version = tables.version(code)
        waiting = [when for key, (seen, when) in self.due.items() if key[0] == code and seen == version]
        if self.looked.get(code) == version and not any(when is not None and now >= when for when in waiting):
            return  # nothing new in the room, and no delay over: one small read per tick
        for bot in tables.bot_seats(code):
            key = (code, bot["seat"])
            seen = self.due.get(key)
            if seen is None or seen[0] != version:
                move = decide(code, bot, self.rnd)
                when = (
                    None
                    if move is None
                    else now + self.rnd.uniform(*(CLAIM_DELAY if move["type"] == "claim" else DELAY))
                )
                self.due[key] = (version, when)  # None: nothing to do at this version
                continue
            if seen[1] is not None and now >= seen[1]:
                move = decide(code, bot, self.rnd)  # decided again: the same view, fresh choices
                if move is not None:
                    tables.submit(code, bot["seat"], bot["token"], move)  # on failure: tried again later
                self.due[key] = (version, None)
                return  # the room's version moved: the next tick looks at every seat again
        self.looked[code] = version  # only once every seat has been looked at

    def run(self) -> None:
        while True:
            mark, started = live.moved(), time.monotonic()
            self.tick(started)
            if not self.rooms:
                # No room with a computer player: nothing to do until a room moves (a computer
                # player is added by a move, here or on another process this one hears), or the
                # next look for one (an idle server's thread woke every second for nothing).
                live.wait_any(mark, ROOMS_IDLE)
                self.rooms_at = float("-inf")  # look for rooms at the next tick
                # at most one look for rooms a second, as before: a busy room with no computer
                # player wakes this thread at each of its moves
                time.sleep(max(0.0, ROOMS_EVERY - (time.monotonic() - started)))
                continue
            time.sleep(max(0.0, TICK - (time.monotonic() - started)))


def start() -> None:
    """Start the runner thread once per process (app.py calls it when the server starts), unless
    SOBREMESA_COMPUTER_PLAYERS=off (the tests: they play computer players with `play_pending`)."""
    global _started
    if os.environ.get("SOBREMESA_COMPUTER_PLAYERS", "on") == "off":
        return
    with _start_lock:
        if _started:
            return
        _started = True
    threading.Thread(target=Runner().run, name="sobremesa-computer-players", daemon=True).start()
