"""What a screen works out once for every screen that shows the same (`reading.kept`: a finished
turn's reveal, the same on every phone of a room) is what it would have worked out itself: every
game played at random, each seat's screen and the wall's drawn with it and without it are byte for
byte the same, and read the same fields of their views (a screen is kept by those)."""

from __future__ import annotations

import random

import pytest

from engine import tables
from engine.games import GAMES
from engine.push.stage import Peer, Screen
from pages.stage import reading, serve, stage_of
from pages.stage.reading import Reading
from pages.stage.serve import SERVE
from tests import kit
from tests.helpers import past_the_reveal, submit

pytestmark = pytest.mark.usefixtures("plain_cards")
PEER = Peer("127.0.0.1", True)


def screens(code: str, viewers) -> list:
    """Each viewer's screen now, as the stage draws it, and the fields of its view it read."""
    out = []
    for viewer in viewers:
        look = tables.stage_look(code, viewer.who)
        view = look["view"]
        extra = serve.reveal_extra(view)
        if viewer.screen == "wall":
            extra.update(serve._wall_extra(code, view, stage_of(view["game"]), viewer.port))
        seen = Reading(view)
        found = serve._screen(seen, None, viewer, stage_of(view["game"]), extra)
        out.append((str.__str__(found) if isinstance(found, Screen) else found, sorted(seen.read)))
    return out


def own(name, view, key, compute):
    return compute(view)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_kept_result_is_the_screens_own(name, monkeypatch):
    game = GAMES[name]
    rnd = random.Random(5)
    room = tables.create_room(name, seed=5)
    seats = [tables.join(room.code, n) for n in ["Ana", "Bo", "Cy", "Di", "Ed"][: max(game.min_players, 4)]]
    tables.start(room.code, room.host_token)
    langs = ["es", "en", "it", "es", "en"]
    viewers = [
        SERVE.admit(room.code, {"token": s.token, "lang": lang}, PEER) for s, lang in zip(seats, langs, strict=False)
    ]
    viewers.append(SERVE.admit(room.code, {"lang": "it"}, PEER))
    kept = reading.kept
    for _step in range(50):
        if tables.view(room.code)["status"] != "playing":
            break
        monkeypatch.setattr(reading, "kept", kept)
        ours = screens(room.code, viewers)
        monkeypatch.setattr(reading, "kept", own)
        theirs = screens(room.code, viewers)
        assert ours == theirs
        move = kit.random_move(game, tables.state_of(room.code), rnd)
        if move is None:
            break
        seat = move.pop("seat")
        try:
            submit(room.code, seat, seats[seat].token, move)
        except tables.SobremesaError:
            pass
        if rnd.random() < 0.7:  # else the next screens are drawn while the reveal holds
            past_the_reveal(room.code)


def test_the_phones_of_a_room_work_out_a_turns_reveal_once(monkeypatch):
    room = tables.create_room("dixit", seed=6)
    seats = [tables.join(room.code, n) for n in ["Ana", "Bo", "Cy", "Di", "Ed"]]
    tables.start(room.code, room.host_token)
    rnd = random.Random(6)
    while not tables.view(room.code)["history"]:
        move = kit.random_move(GAMES["dixit"], tables.state_of(room.code), rnd)
        seat = move.pop("seat")
        submit(room.code, seat, seats[seat].token, move)
    past_the_reveal(room.code)
    viewers = [SERVE.admit(room.code, {"token": s.token, "lang": "en"}, PEER) for s in seats]
    from pages.games.dixit_family import screens as dixit

    worked = []
    real = dixit.revealed
    monkeypatch.setattr(dixit, "revealed", lambda *a: worked.append(1) or real(*a))
    drawn = screens(room.code, viewers)
    assert len(worked) == 1  # five phones, one turn: once
    assert all("storyteller" in html for html, _reads in drawn)
