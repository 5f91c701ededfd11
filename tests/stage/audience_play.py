"""One random step of a game with an audience, for the tests that draw members' screens at each
step (test_crowd_stamp.py, test_member_classes.py): a member picks what they are offered (bumps no
version), or a seat plays a random move and the reveal ends (most of the time)."""

from __future__ import annotations

from engine import tables
from tests import kit
from tests.helpers import past_the_reveal, submit


def step(room, game, seats, members, viewers, rnd, pick_odds: float, reveal_odds: float = 1.0) -> bool:
    """Play one step; False when the table has no move left."""
    if rnd.random() < pick_odds:
        i = rnd.randrange(len(members))
        look = tables.stage_look(room.code, viewers[i].who)
        may = look["me"]["may_pick"] if look else []
        if may:
            pick = dict(rnd.choice(may))
            for k, v in pick.items():
                if v is None or k in (game.audience.text or {}):
                    pick[k] = "zzqv"  # a free answer: wrong, but an answer
            try:
                tables.audience_submit(room.code, members[i].id, members[i].token, pick)
            except tables.SobremesaError:
                pass
            return True
    move = kit.random_move(game, tables.state_of(room.code), rnd)
    if move is None:
        return False
    seat = move.pop("seat")
    try:
        submit(room.code, seat, seats[seat].token, move)
    except tables.SobremesaError:  # the reveal holds the table: it ends
        past_the_reveal(room.code)
    if rnd.random() < reveal_odds:  # else the next steps are drawn while the reveal holds
        past_the_reveal(room.code)
    return True
