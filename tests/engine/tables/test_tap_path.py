"""One tap's path is one unit of work (engine/tables/unit.py): the room's row read once, its seats
once, and the token checked once, by the hash the socket's hello proved (never hashed again). A
computer player's token is checked by the same hash."""

from __future__ import annotations

import pytest

from engine import tables
from engine.tables import play, unit

pytestmark = pytest.mark.usefixtures("plain_cards")


def counted(monkeypatch, store, name: str, tally: dict) -> None:
    real = getattr(store, name)

    def counting(*args, **kwargs):
        tally[name] = tally.get(name, 0) + 1
        return real(*args, **kwargs)

    monkeypatch.setattr(store, name, counting)


def test_one_tap_reads_the_room_and_its_seats_once_and_checks_its_token_once(monkeypatch):
    room = tables.create_room("dixit", seed=3)
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    tables.start(room.code, room.host_token)
    who = tables.stage_who(room.code, seats[2].token)  # the socket's hello: the token proved here
    tables.view(room.code, 2, seats[2].token)  # the process's copy of the state, as a live room has it
    tally: dict = {}
    store = tables.store()
    for name in ("room", "seats", "bots"):
        counted(monkeypatch, store, name, tally)
    hashed = []
    monkeypatch.setattr(unit, "hash_token", lambda token: hashed.append(token) or "x")
    units: list = []

    class Watched(unit.Unit):
        def __init__(self, *args):
            super().__init__(*args)
            units.append(self)

    monkeypatch.setattr(play, "Unit", Watched)
    answer = tables.stage_move(room.code, who, seats[2].token, "tap-1", {"type": "claim"})
    assert answer["ack"] == "tap-1"
    assert tally.get("room") == 1 and tally.get("seats") == 1, tally
    assert hashed == [] and len(units) == 1 and units[0].checks == 1


def test_a_computer_players_token_is_checked_by_the_same_hash():
    room = tables.create_room("dixit", seed=3)
    for n in ("Ana", "Bo"):
        tables.join(room.code, n)
    tables.add_bot(room.code, room.host_token, "easy")
    tables.start(room.code, room.host_token)
    [(seat, token)] = [(b["seat"], b["token"]) for b in tables.bot_seats(room.code)]
    before = tables.version(room.code)
    tables.submit(room.code, seat, token, {"type": "claim"})
    assert tables.version(room.code) == before + 1
    with pytest.raises(tables.SobremesaError):
        tables.submit(room.code, seat, token[:-1] + ("A" if token[-1] != "A" else "B"), {"type": "claim"})
