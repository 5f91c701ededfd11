"""What a push carries besides a version: the live spots of a screen (engine/push/spots.py), drawn
from that socket's own viewer's view, and only from the view's header and the fields the game
calls live. For every game and variant, at moments of random play, what a spot can see of one
viewer's view holds no other seat's secret, and stays the same when another seat's secrets change."""

from __future__ import annotations

import random

import pytest

from engine import tables
from engine.core import SHARED, table_view
from engine.games import GAMES
from engine.push import spots
from tests import kit

CASES = kit.cases()


@pytest.mark.parametrize("case", CASES, ids=[kit.case_id(c) for c in CASES])
def test_what_a_spot_sees_holds_no_secret_of_another_seat(case):
    name, variant, seats = case
    game = GAMES[name]
    rnd = random.Random(f"spots/{kit.case_id(case)}")
    looked = [0]

    def each(state):
        if rnd.random() > 0.3:
            return
        viewers = [SHARED, *range(state["players"])]
        live = {v: spots.live_view(table_view(game, state, v), game.live.fields, lambda: [0]) for v in viewers}
        # One counterfactual per seat, seen by every other viewer (one per viewer and seat was two
        # thirds of this test's time, for the same check).
        others = {seat: game.alternative(state, seat, rnd) for seat in range(state["players"])}
        for viewer, seen in live.items():
            assert set(seen) <= set(spots.HEADER) | set(game.live.fields)
            strings = kit.strings_in(seen)
            for seat in range(state["players"]):
                if seat == viewer:
                    continue
                leaked = game.secrets(state, seat) & strings
                assert not leaked, f"a spot of viewer {viewer} sees seat {seat}'s secret {sorted(leaked)[:3]}"
                other = others[seat]
                if other is not None:
                    assert spots.live_view(table_view(game, other, viewer), game.live.fields, lambda: [0]) == seen
        looked[0] += 1

    kit.random_game(name, variant, seats, 1, each=each)
    assert looked[0] > 0


def test_a_socket_draws_its_spots_from_its_own_viewers_view(data_dir):
    room = tables.create_room("dixit", seed=3)
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    tables.start(room.code, room.host_token)
    drawn = []
    board = spots.Board(room.code, None, lambda view: drawn.append(view) or {"waiting": "x"})

    said = tables.look(room.code, None, ["phase"], board)
    assert said["spots"] == {"waiting": "x"} and said["version"] == tables.version(room.code)
    assert drawn[-1] == tables.view(room.code)  # the shared screen's view: no hand in it
    assert "hand" not in drawn[-1]

    said = tables.look(room.code, 1, ["phase"], board)
    assert drawn[-1] == tables.view(room.code, 1, seats[1].token)  # the seat's own view
    assert "sig" in said

    spots.keep("b-wall", board)
    assert spots.find("b-wall", room.code, None) is board
    assert spots.find("b-wall", room.code, 1) is None  # a seat's socket cannot take the wall's board
    assert spots.find("b-wall", "ZZZZZ", None) is None
    assert spots.find(["b-wall"], room.code, None) is None
    assert tables.look("ZZZZZ", None, ["phase"], board) is None
