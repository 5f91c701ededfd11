"""The pace clock's thread (engine/pacer.py) looks every TICK while a room's clock may act, and
otherwise waits for a move (`live.wait_any`): an idle server's thread woke twice a second for
nothing. A move made during a look is not missed (the mark is taken before it)."""

from __future__ import annotations

import random
import threading
import time

from engine import pacer, tables
from engine.games import GAMES
from engine.push import live
from tests.helpers import submit
from tests.kit import fill

NAMES = ["Ana", "Bo", "Cy", "Di"]


def _started_room():
    room = tables.create_room("dixit", seed=3)
    seats = [tables.join(room.code, n) for n in NAMES]
    tables.start(room.code, room.host_token)
    return room, seats


def _timed_beat() -> float:
    started = time.monotonic()
    pacer.beat()
    return time.monotonic() - started


def test_a_move_made_after_the_mark_is_never_missed():
    mark = live.moved()
    live.notify("PACER1", 1)  # between the look and the wait
    started = time.monotonic()
    assert live.wait_any(mark, 5.0) is True
    assert time.monotonic() - started < 1.0
    assert live.wait_any(live.moved(), 0.2) is False  # nothing since: the whole wait


def test_with_no_clock_running_the_clock_waits_for_a_move(monkeypatch):
    monkeypatch.setattr(pacer, "IDLE", 4.0)
    room, seats = _started_room()
    assert not tables.clocks_running()
    waited: list[float] = []
    thread = threading.Thread(target=lambda: waited.append(_timed_beat()))
    thread.start()
    time.sleep(1.0)
    assert thread.is_alive(), "the clock looked again with nothing running and nothing moved"
    teller = tables.view(room.code)["waiting_for"][0]
    move = fill(GAMES["dixit"], tables.legal(room.code, teller, seats[teller].token)[0], random.Random(1), None)
    move.pop("seat", None)
    submit(room.code, teller, seats[teller].token, move)
    thread.join(3.0)
    assert not thread.is_alive() and 1.0 <= waited[0] < 3.0, waited


def test_with_a_clock_running_the_clock_looks_every_tick(monkeypatch):
    monkeypatch.setattr(pacer, "IDLE", 30.0)
    room, _seats = _started_room()
    tables.set_pace(room.code, room.host_token, "brisk")
    assert tables.clocks_running()
    took = _timed_beat()
    assert pacer.TICK * 0.9 <= took < pacer.TICK + 1.0, took
