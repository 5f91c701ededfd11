"""The laptop's Wi-Fi drops (engine/outage.py): when every phone's socket drops within 5 s, the
clocks of their rooms pause with the time they had left, and run again once a phone is back; people
leaving one by one, or the laptop's own tabs closing, pause nothing."""

from __future__ import annotations

import pytest

from engine import outage, tables
from tests.engine.tables.test_pace import Clock, clock_skips

NAMES = ["Ana", "Bo", "Cy", "Di"]


@pytest.fixture
def clock(monkeypatch):
    monkeypatch.setattr(outage, "GRACE", 0)
    outage.reset()
    now = Clock()
    with tables.clock(now):
        yield now
    outage.reset()


def room_at_tell():
    room = tables.create_room("dixit", seed=3)
    seats = [tables.join(room.code, n) for n in NAMES]
    tables.start(room.code, room.host_token)
    tables.set_pace(room.code, room.host_token, "brisk")
    tables.submit(room.code, 0, seats[0].token, {"type": "claim"})
    return room


def deadline(code: str) -> str | None:
    return tables.store().clock(code)["deadline"]


def test_every_phone_dropping_at_once_pauses_the_clock_until_they_are_back(clock):
    room = room_at_tell()
    code = room.code
    for _ in NAMES:
        outage.socket(code, True, True)
    outage.socket(code, False, True)  # the wall, on the laptop: it stays
    clock.wait(10)
    before = tables.store().clock(code)
    for _ in NAMES:
        clock.wait(1)
        outage.socket(code, True, False)
    paused = tables.store().clock(code)
    assert paused["paused"] and tables.outage_paused(code)
    assert paused["left_ms"] == pytest.approx(
        (tables.deadlines.at(before["deadline"]) - tables.deadlines.at(clock())).total_seconds() * 1000, abs=1
    )
    clock.wait(60)  # the outage: far past the deadline the clock had
    assert tables.tick() == 0
    outage.socket(code, True, True)  # a phone is back: the clock runs with the time it had left
    running = tables.store().clock(code)
    assert not running["paused"] and not tables.outage_paused(code)
    assert (tables.deadlines.at(running["deadline"]) - tables.deadlines.at(clock())).total_seconds() * 1000 == (
        pytest.approx(paused["left_ms"], abs=1)
    )
    assert clock_skips(code) == []


def test_phones_leaving_one_by_one_pause_nothing(clock):
    code = room_at_tell().code
    for _ in NAMES:
        outage.socket(code, True, True)
    for _ in NAMES:
        clock.wait(1)
        outage.socket(code, True, False)
        outage._drops[:] = [(t - 10, c) for t, c in outage._drops]  # each drop 10 s after the last
    assert not tables.store().clock(code)["paused"] and not tables.outage_paused(code)


def test_a_clock_the_host_paused_is_the_hosts(clock):
    room = room_at_tell()
    tables.pause(room.code, room.host_token)
    for _ in NAMES:
        outage.socket(room.code, True, True)
    for _ in NAMES:
        outage.socket(room.code, True, False)
    assert not tables.outage_paused(room.code)
    outage.socket(room.code, True, True)
    assert tables.store().clock(room.code)["paused"]  # still the host's to resume
