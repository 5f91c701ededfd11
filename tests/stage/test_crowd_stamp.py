"""The audience's stamp (`Serve.crowd_stamp`, `tables.members_stamp`): while it holds, the crowd
draws none of its members' screens (engine/push/stage.py's `_Crowd`), so it must move whenever any
member's screen could. Every game with an audience is played at random, its members picking what
they are offered and one of them in Spanish with a page of its own: at each step every member's
screen is drawn as its socket draws it, and a stamp that held must mean every member's screen is
the same, byte for byte. One member's pick moves only their own stamp."""

from __future__ import annotations

import random

import pytest

from engine import tables
from engine.games import GAMES
from engine.push.stage import Peer
from pages.stage.serve import SERVE
from tests.stage.audience_play import step

pytestmark = pytest.mark.usefixtures("plain_cards")
WATCHED = [name for name, game in GAMES.items() if game.audience is not None]
PEER = Peer("127.0.0.1", True)


@pytest.mark.parametrize("page", [["status"], ["waiting_for"]])
@pytest.mark.parametrize("name", WATCHED)
def test_a_stamp_that_held_means_no_members_screen_changed(name, page):
    """`page`: the fields a member's page reads (its key is sent with its screen). The waiting list
    moves at nearly every move: that stamp seldom holds, and must not hold when it moved."""
    game = GAMES[name]
    rnd = random.Random(7)
    room = tables.create_room(name, seed=7)
    seats = [tables.join(room.code, n) for n in ["Ana", "Bo", "Cy", "Di"][: max(game.min_players, 3)]]
    members = [tables.join_audience(room.code, n) for n in ["Lu", "Mo", "<i>Ny</i>", "Ot"]]
    hellos = [{"member": m.id, "token": m.token, "lang": "es" if i == 1 else "en"} for i, m in enumerate(members)]
    hellos[2]["page"] = page
    viewers = [SERVE.admit(room.code, h, PEER) for h in hellos]
    tables.start(room.code, room.host_token)
    shown: list = [None] * len(viewers)
    last = None
    held = changed = 0
    for _step in range(120):
        if tables.view(room.code)["status"] != "playing":
            break
        stamp = SERVE.crowd_stamp(room.code, viewers)
        now = []
        for viewer in viewers:
            drawn = SERVE.draw(room.code, viewer)
            now.append(None if drawn is None else (drawn.html(), drawn.page))  # its key names its reads too
        if stamp is not None and last is not None:
            for member, a, b, mine, before in zip(members, now, shown, stamp[1], last[1], strict=True):
                if mine == before:
                    assert a == b, (
                        f"{member.name}'s stamp held at version {stamp[0]} but their screen changed:\n{a}\n{b}"
                    )
                    held += 1
                elif a != b:
                    changed += 1
        shown, last = now, stamp
        if rnd.random() < 0.05:  # one more joins the audience (bumps no version): everyone's "of" moves
            tables.join_audience(room.code, f"Late {_step}")
            continue
        if not step(room, game, seats, members, viewers, rnd, pick_odds=0.5, reveal_odds=0.7):
            break
    if page == ["status"]:
        assert held > 0, "the stamp never held: the crowd would draw every member at every version"
    assert changed > 0
