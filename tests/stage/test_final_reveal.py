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
from pages.stage.serve import _wall_extra, reveal_extra
from tests import kit
from tests.helpers import submit

REVEALING = [name for name, game in GAMES.items() if game.clock and game.clock.reveal]


def scene(code: str) -> str:
    view = tables.view(code)
    drawn = stage_of(view["game"]).wall(view, "en", reveal_extra(view) | _wall_extra(code, view, None))
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
    assert scene(room.code) == "reveal"
    tables.next_scene(room.code, room.host_token)  # the reveal over (its time, or the host's)
    assert scene(room.code) == "end"
