"""A member's screen is drawn once for their class (the members whose `me` is the same but for who
they are) and their name put in (pages/stage/serve.py, `SHARED_MEMBERS`). For every game with an
audience, played at random in three languages with names that look like markup, quotes, emoji and
one that looks like the stand-in: each member's screen, and each of its fragments, is byte for byte
the one drawn with the member's own name, and the members of one class share one render."""

from __future__ import annotations

import random

import pytest

from engine import tables
from engine.games import GAMES
from engine.push.stage import Peer, Screen
from pages.stage import fragments, serve
from pages.stage.serve import SERVE
from tests import kit
from tests.helpers import submit
from tests.stage.audience_play import step

pytestmark = pytest.mark.usefixtures("plain_cards")
WATCHED = [name for name, game in GAMES.items() if game.audience is not None]
NAMES = ["<b>Zoë</b>", 'Ann "Q" O\'Neil & co', "😀 Lu", "nm0011223344556677", "Mo"]
PEER = Peer("127.0.0.1", True)


def parts(found) -> tuple:
    """What a socket sends of a screen: its HTML, and each fragment's HTML and parent."""
    if isinstance(found, Screen):
        return (str.__str__(found), {n: (h, p) for n, (_k, h, p) in found.frags.items()})
    return (found, {})


def drawn(code, viewers, shared: bool, monkeypatch) -> list:
    monkeypatch.setattr(serve, "SHARED_MEMBERS", shared)
    out = []
    for viewer in viewers:
        found = SERVE.draw(code, viewer)
        out.append(None if found is None else (found.key, parts(found.html())))
    return out


@pytest.mark.parametrize("name", WATCHED)
def test_every_members_screen_is_their_own_with_their_name_put_in(name, monkeypatch):
    game = GAMES[name]
    rnd = random.Random(3)
    room = tables.create_room(name, seed=3)
    seats = [tables.join(room.code, n) for n in ["Ana", "Bo", "Cy", "Di"][: max(game.min_players, 3)]]
    members = [tables.join_audience(room.code, n) for n in NAMES]
    langs = ["en", "es", "it", "en", "en"]
    viewers = [
        SERVE.admit(room.code, {"member": m.id, "token": m.token, "lang": lang}, PEER)
        for m, lang in zip(members, langs, strict=True)
    ]
    tables.start(room.code, room.host_token)
    shared_renders = 0
    for _step in range(60):
        if tables.view(room.code)["status"] != "playing":
            break
        before = dict(fragments.renders)
        ours = drawn(room.code, viewers, True, monkeypatch)
        shared_renders += sum(fragments.renders.values()) - sum(before.values())
        theirs = drawn(room.code, viewers, False, monkeypatch)
        for member, lang, a, b in zip(NAMES, langs, ours, theirs, strict=True):
            assert (a is None) == (b is None)
            if a is not None:
                assert a[1] == b[1], f"{member}'s {lang} screen differs from the one drawn with their name"
        keys = [a[0] for a in ours if a is not None]
        assert len(set(keys)) == len(keys), "two members' screens under one key: a socket would keep another's"
        if not step(room, game, seats, members, viewers, rnd, pick_odds=0.4):
            break


def test_members_of_one_class_share_one_render(monkeypatch):
    """Forty members of a Dixit room at its vote, none has picked: one render of their screen in
    English, not forty. Then at the reveal, whose screen reads other fields than the vote's did:
    the first member's draw serves the other thirty-nine, whose last screens read the vote's."""
    room = tables.create_room("dixit", seed=4)
    seats = [tables.join(room.code, n) for n in ["Ana", "Bo", "Cy"]]
    members = [tables.join_audience(room.code, f"Member {i}") for i in range(40)]
    tables.start(room.code, room.host_token)
    rnd = random.Random(4)
    while tables.view(room.code)["phase"] != "vote":
        move = kit.random_move(GAMES["dixit"], tables.state_of(room.code), rnd)
        seat = move.pop("seat")
        submit(room.code, seat, seats[seat].token, move)
    viewers = [SERVE.admit(room.code, {"member": m.id, "token": m.token, "lang": "en"}, PEER) for m in members]
    monkeypatch.setattr(serve, "SHARED_MEMBERS", True)
    before = sum(fragments.renders.values())
    screens = [SERVE.draw(room.code, v).html() for v in viewers]
    assert sum(fragments.renders.values()) - before <= 4  # one class: its fragments, once
    for m, screen in zip(members, screens, strict=True):
        assert f"<b>{m.name}</b>" in screen
    assert len(set(map(str, screens))) == 40
    while tables.view(room.code)["phase"] == "vote":
        move = kit.random_move(GAMES["dixit"], tables.state_of(room.code), rnd)
        seat = move.pop("seat")
        submit(room.code, seat, seats[seat].token, move)
    real, screens_drawn = serve._screen, []
    monkeypatch.setattr(serve, "_screen", lambda *a: screens_drawn.append(1) or real(*a))
    revealed = [SERVE.draw(room.code, v).html() for v in viewers]
    assert len(screens_drawn) == 1  # one class again, not forty
    assert revealed[0] != screens[0]
    assert all(f"<b>{m.name}</b>" in screen for m, screen in zip(members, revealed, strict=True))
