"""A screen in fragments (pages/stage/fragments.py): a move that changes one seat's score draws and
sends only the fragments that show it; no seat's token reaches another viewer's messages; every
fragment has its holder; a macro reads only its arguments (a free variable would be read outside
any fragment's inputs, and a fragment kept with a stale value)."""

from __future__ import annotations

import copy
import glob
import json
import random
from types import SimpleNamespace

import jinja2
import pytest
from jinja2 import nodes

from bench.stage_screens import patched
from engine import tables
from engine.games import GAMES
from engine.push.stage import Peer, Screen, _Socket
from pages.stage import fragments, stage_of
from pages.stage.serve import SERVE
from tests import kit
from tests.helpers import submit

pytestmark = pytest.mark.usefixtures("plain_cards")
TEMPLATES = sorted(glob.glob("pages/stage/templates/*.html") + glob.glob("pages/games/*/templates/*.html"))
CONSTANT = {"_", "n_", "_h", "points", "lang", "cards_html", "card_em", "card_style", "loop", "caller", "range"}


def tab() -> SimpleNamespace:
    """A socket's memory of what its tab was sent (`_Socket.changes` reads and writes it)."""
    return SimpleNamespace(shell=None, frag_keys={}, html=None)


def drawn_since(before: dict) -> set[str]:
    return {name for (_t, name), n in fragments.renders.items() if n > before.get((_t, name), 0)}


def give_phase():
    """A Dixit room of four in its give phase (the wall's main shows the phrase, not the scores)."""
    room = tables.create_room("dixit", seed=11)
    seats = [tables.join(room.code, n) for n in ["Ana", "Bo", "Cy", "Di"]]
    tables.start(room.code, room.host_token)
    submit(room.code, 0, seats[0].token, {"type": "claim"})
    hand = tables.view(room.code, 0, seats[0].token)["hand"]
    submit(room.code, 0, seats[0].token, {"type": "tell", "card": hand[0], "phrase": "rain"})
    assert tables.view(room.code)["phase"] == "give"
    return room, seats


def as_viewer(who, draw):
    """A screen drawn as the socket of `who` draws it (pages/stage/serve.py names each viewer: its
    fragments are looked up first with the inputs they read at its last draw)."""
    token = fragments.viewer.set(f"test:{who}")
    try:
        return draw()
    finally:
        fragments.viewer.reset(token)


def test_a_score_that_moves_draws_and_sends_only_the_fragments_that_show_it():
    room, seats = give_phase()
    stage = stage_of("dixit")
    wall = tables.view(room.code)
    phones = {s.seat: tables.view(room.code, s.seat, s.token) for s in seats}
    sockets = {who: tab() for who in ["wall", *phones]}
    first = {"wall": as_viewer("wall", lambda: stage.wall(wall, "en", {}))}
    first |= {s: as_viewer(s, lambda v=v: stage.phone(v, "en", {})) for s, v in phones.items()}
    for who, screen in first.items():
        assert isinstance(screen, Screen) and "html" in _Socket.changes(sockets[who], screen)

    def scored(view):  # Cy's score moves, and nothing else
        view = copy.deepcopy(view)
        view["scores"][2] += 3
        view["version"] += 1
        return view

    before = dict(fragments.renders)
    second = as_viewer("wall", lambda: stage.wall(scored(wall), "en", {}))
    assert drawn_since(before) == {"f_side"}, "only the seats show the scores in the give phase"
    sent = _Socket.changes(sockets["wall"], second)
    assert list(sent) == ["frags"] and list(sent["frags"]) == ["f_side"]
    assert '<span class="sm-score">3</span>' in sent["frags"]["f_side"]
    assert '<span class="sm-score">3</span>' not in first["wall"].frags["f_side"][1]

    before = dict(fragments.renders)
    cy = as_viewer(2, lambda: stage.phone(scored(phones[2]), "en", {}))
    assert drawn_since(before) == {"f_head"}, "Cy's phone shows Cy's points in its head"
    assert list(_Socket.changes(sockets[2], cy)["frags"]) == ["f_head"]
    for seat in (0, 1, 3):  # the others' phones show no other seat's score: nothing drawn, nothing sent
        before = dict(fragments.renders)
        again = as_viewer(seat, lambda seat=seat: stage.phone(scored(phones[seat]), "en", {}))
        assert drawn_since(before) == set()
        assert _Socket.changes(sockets[seat], again) == {"frags": {}}


def test_a_fragment_is_shared_only_by_viewers_whose_inputs_are_the_same():
    room, seats = give_phase()
    stage = stage_of("dixit")
    hand = tables.view(room.code, 1, seats[1].token)["hand"]
    submit(room.code, 1, seats[1].token, {"type": "give", "cards": hand[:1]})
    before = dict(fragments.renders)
    ana = stage.phone(tables.view(room.code, 0, seats[0].token), "en", {})
    bo = stage.phone(tables.view(room.code, 1, seats[1].token), "en", {})
    assert ana.frags["f_waiting"][0] == bo.frags["f_waiting"][0], "the same line for both"
    assert (
        fragments.renders[("dixit_family_phone.html", "f_waiting")]
        - before.get(("dixit_family_phone.html", "f_waiting"), 0)
        <= 1
    ), "drawn once for both"
    assert ana.frags["f_body"][0] != bo.frags["f_body"][0], "each one's hand is its own"
    assert ana.frags["f_head"][0] != bo.frags["f_head"][0]


def play(name: str):
    """A game of three to its end through the service, with a member watching."""
    variant: dict = {}
    game = GAMES[name]
    room = tables.create_room(name, options=variant, seed=11)
    seats = [tables.join(room.code, n) for n in ["Ana", "Bo", "Cy"]]
    member = tables.join_audience(room.code, "Lu")
    tables.start(room.code, room.host_token)
    rnd = random.Random(3)
    yield room, seats, member
    for _ in range(kit.MAX_MOVES):
        if tables.view(room.code)["status"] != "playing":
            return
        move = kit.random_move(game, tables.state_of(room.code), rnd)
        seat = move.pop("seat")
        submit(room.code, seat, seats[seat].token, move)
        yield room, seats, member
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_no_seats_token_reaches_another_viewers_messages_and_fragments_rebuild_the_screen(name):
    peer = Peer("127.0.0.1", True)
    viewers, sent = None, None
    for room, seats, member in play(name):
        if viewers is None:
            hellos = {"wall": {"lang": "en"}, "member": {"member": member.id, "token": member.token, "lang": "en"}}
            hellos |= {s.seat: {"token": s.token, "lang": "en"} for s in seats}
            viewers = {who: SERVE.admit(room.code, hello, peer) for who, hello in hellos.items()}
            sockets = {who: tab() for who in viewers}
            sent = {who: [] for who in viewers}
            followed = {who: "" for who in viewers}
        for who, viewer in viewers.items():
            screen = SERVE.draw(room.code, viewer).html()
            message = _Socket.changes(sockets[who], screen)
            sent[who].append(json.dumps(message, ensure_ascii=False))
            # A tab that follows the fragments holds the screen a new tab gets whole, byte for byte.
            followed[who] = message["html"] if "html" in message else patched(followed[who], message["frags"])
            assert followed[who] == str(screen)
            # ... and a new socket, drawn in full (no fragment kept for it, no variables remembered).
            fresh = SERVE.draw(room.code, SERVE.admit(room.code, hellos[who], peer)).html()
            assert str(fresh) == followed[who], f"{who}: a new tab's screen differs from the followed one"
    assert tables.view(room.code)["status"] == "finished"
    for s in seats:
        if name == "pictomania":
            assert any(s.token in m for m in sent[s.seat]), "the seat's own keepsake link holds its token"
        for who, messages in sent.items():
            if who != s.seat:
                assert not any(s.token in m for m in messages), f"seat {s.seat}'s token reached {who}"
    assert any('"frags"' in m for m in sent[0]), "the game was followed in fragments"


@pytest.mark.parametrize("path", TEMPLATES)
def test_every_fragment_has_its_holder_and_every_macro_reads_only_its_arguments(path):
    source = open(path, encoding="utf-8").read()
    ast = jinja2.Environment().parse(source)
    for block in ast.find_all(nodes.Block):
        if block.name.startswith("f_"):
            held = f'data-frag="{block.name}">{{% block {block.name} %}}' in source
            called = f"self.{block.name}()" in "".join(open(p, encoding="utf-8").read() for p in TEMPLATES)
            assert held or called, f"{block.name} is not inside an element marked data-frag"
    for macro in ast.find_all(nodes.Macro):
        own = {a.name for a in macro.args} | {n.name for n in macro.find_all(nodes.Name) if n.ctx in ("store", "param")}
        macros = {m.name for m in ast.find_all(nodes.Macro)}
        free = {n.name for n in macro.find_all(nodes.Name) if n.ctx == "load"} - own - macros - CONSTANT - {"kit", "pm"}
        assert not free, f"macro {macro.name} reads {sorted(free)} from its caller's variables: pass them"


def test_a_variable_that_comes_or_goes_or_empties_draws_its_fragment_again():
    from pages.stage.render import render

    assert "sm-sound-setting" not in render("wall_corner.html", "en", sound=None, waiting=0)
    on = render("wall_corner.html", "en", sound={"muted": True, "volume": 0.5}, waiting=0)
    assert 'data-muted="1"' in on
    assert "sm-sound-setting" not in render("wall_corner.html", "en", sound={}, waiting=0)
    assert 'data-muted="0"' in render("wall_corner.html", "en", sound={"muted": False, "volume": 0.5}, waiting=0)


def test_a_field_that_is_none_is_not_a_field_that_is_missing():
    from pages.stage.render import render

    ticking = render("wall_corner.html", "en", sound={"muted": None, "volume": 1}, waiting=0)
    gone = render("wall_corner.html", "en", sound={"volume": 1}, waiting=0)
    assert ticking.frags["f_corner"][0] != gone.frags["f_corner"][0]
