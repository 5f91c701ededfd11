"""The last turn of a game played to its end holds the wall as every turn does: its reveal (the
storyteller's card, the drawings replayed), then the podium once the reveal is over. Every game of
`GAMES` with a reveal."""

from __future__ import annotations

import random
import re

import pytest

from engine import tables
from engine.games import GAMES
from pages.stage import stage_of
from pages.stage.kit import phone_extra, standings
from pages.stage.render import Speaker
from pages.stage.serve import _wall_extra, reveal_extra
from tests import kit
from tests.helpers import submit

REVEALING = [name for name, game in GAMES.items() if game.clock and game.clock.reveal]


def scene(code: str, seat=None) -> str:
    """The scene the wall plays, or a seat's phone (`seat`: its Seat)."""
    if seat is None:
        view = tables.view(code)
        drawn = stage_of(view["game"]).wall(view, "en", reveal_extra(view) | _wall_extra(code, view, None))
    else:
        view = tables.view(code, seat.seat, seat.token)
        drawn = stage_of(view["game"]).phone(view, "en", reveal_extra(view))
    return re.search(r'data-scene="?([a-z]+)', drawn).group(1)


@pytest.mark.parametrize("name", REVEALING)
def test_the_last_turn_is_revealed_before_the_podium(name):
    room = tables.create_room(name, seed=2, language="en")
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    tables.start(room.code, room.host_token)
    rnd = random.Random(2)
    for _ in range(20000):
        if tables.view(room.code)["status"] != "playing":
            break
        state = tables.state_of(room.code)
        move = kit.random_move(GAMES[name], state, rnd)
        seat = move.pop("seat")
        submit(room.code, seat, seats[seat].token, move)
    assert tables.view(room.code)["status"] == "finished"
    assert scene(room.code) == "reveal" and all(scene(room.code, s) == "reveal" for s in seats)
    tables.next_scene(room.code, room.host_token)  # the reveal over (its time, or the host's)
    assert scene(room.code) == "end" and all(scene(room.code, s) == "end" for s in seats)


def test_the_podium_shares_places_and_the_tied_read_it():
    """Ties share a place, 1, 2, 2, 4 (RULES.md section 6); the podium shows 3rd, 2nd, 1st (the two
    2nd together), then the whole ranking; the phones of the tied read "tied 2nd"."""
    placed = standings(["Ana", "Bo", "Cy", "Di"], [5, 3, 3, 1])
    assert [(p["name"], p["place"], p["step"]) for p in placed] == [
        ("Ana", 1, "first"),
        ("Bo", 2, "second"),
        ("Cy", 2, "second"),
        ("Di", 4, "ranking"),
    ]
    t = Speaker("en")
    view = {"you": 2, "names": ["Ana", "Bo", "Cy", "Di"], "scores": [5, 3, 3, 1], "status": "finished", "phase": "end"}
    assert phone_extra(view, {}, t)["my_place"] == "tied 2nd of 4"
    assert phone_extra({**view, "you": 3}, {}, t)["my_place"] == "4th of 4"
    assert Speaker("es").place(2, 4, True) and Speaker("es").place(2, 4, True) != t.place(2, 4, True)
