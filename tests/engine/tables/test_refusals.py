"""Refusals through the table service, as an adversarial user would try them: each defect the game
kit's issue found is a test here, and a fuzz of every game's service checks that a refused call
leaves the version, the state, the log and every view as they were, and that only a
SobremesaError with a player's message ever comes out."""

import json
import random

import pytest

from engine import tables
from engine.core import BadOptions, BadToken, InternalError, NotHost, SobremesaError, UnknownMove
from engine.games import GAMES
from tests import kit
from tests.helpers import past_the_reveal

pytestmark = pytest.mark.usefixtures("plain_cards")

INTERNAL = kit.NOT_FOR_PLAYERS


def room_of(game: str, seats: int, options=None):
    room = tables.create_room(game, options=options or {}, seed=5)
    players = [tables.join(room.code, f"P{i}") for i in range(seats)]
    tables.start(room.code, room.host_token)
    return room, players


def snapshot(code: str) -> str:
    room = tables.store().room(code)
    return json.dumps(
        [room["version"], tables.state_of(code), tables.store().moves(code, room["game_no"])], sort_keys=True
    )


def views_of(code: str, players) -> str:
    return json.dumps([tables.view(code)] + [tables.view(code, p.seat, p.token) for p in players], sort_keys=True)


def refused(code: str, players, action, *args) -> SobremesaError:
    """The call is refused with a player's message and changes nothing at all."""
    before, seen = snapshot(code), views_of(code, players)
    with pytest.raises(SobremesaError) as caught:
        action(*args)
    assert not isinstance(caught.value, InternalError), caught.value.__cause__
    assert snapshot(code) == before and views_of(code, players) == seen
    assert not INTERNAL.search(str(caught.value)), f"not written for a player: {caught.value}"
    return caught.value


def move_to(code: str, players, phase: str) -> None:
    """Play the first legal move of the first waited seat until the table is in `phase`."""
    for _ in range(50):
        view = tables.view(code)
        if view["phase"] == phase:
            return
        p = players[view["waiting_for"][0]]
        tables.submit(code, p.seat, p.token, tables.legal(code, p.seat, p.token)[0])
    raise AssertionError(f"never reached {phase}")


def test_a_bool_seat_is_not_seat_one_and_the_room_stays_alive():
    room, players = room_of("dixit", 4)
    move_to(room.code, players, "give")
    one = players[1]
    give = tables.legal(room.code, 1, one.token)[0]
    refused(room.code, players, tables.submit, room.code, True, one.token, give)
    refused(room.code, players, tables.submit, room.code, 1.0, one.token, give)
    refused(room.code, players, tables.view, room.code, True, one.token)
    tables.submit(room.code, 1, one.token, give)
    assert "1" in tables.state_of(room.code)["given"]
    assert tables.view(room.code, 1, one.token)["my_given"] == give["cards"]


def test_odyssey_nested_or_float_positions_are_refused_cleanly():
    room, players = room_of("odyssey", 4)
    move_to(room.code, players, "vote")
    voter = players[tables.view(room.code)["waiting_for"][0]]
    for positions in ([[1]], [1.0], [True], ["1"], [None], 1, None):
        error = refused(
            room.code,
            players,
            tables.submit,
            room.code,
            voter.seat,
            voter.token,
            {"type": "vote", "positions": positions},
        )
        assert isinstance(error, UnknownMove)


def test_host_targets_are_typed():
    room, players = room_of("dixit", 4)
    move_to(room.code, players, "give")
    for target in (1.0, True, False, "1", None, -1, 4, [1]):
        refused(room.code, players, tables.skip, room.code, room.host_token, target)
        refused(room.code, players, tables.kick, room.code, room.host_token, target)
    assert tables.view(room.code)["out"] == []
    lobby = tables.create_room("dixit")
    seated = [tables.join(lobby.code, name) for name in ("Ana", "Bo")]
    for target in (False, 0.0, "0"):
        with pytest.raises(SobremesaError):
            tables.kick(lobby.code, lobby.host_token, target)
    assert tables.view(lobby.code)["names"] == [p.name for p in seated]


def test_a_huge_phrase_is_refused_and_nothing_is_stored():
    room, players = room_of("dixit", 4)
    move_to(room.code, players, "claim")
    teller = players[0]
    tables.submit(room.code, 0, teller.token, {"type": "claim"})
    card = tables.legal(room.code, 0, teller.token)[0]["card"]
    error = refused(
        room.code,
        players,
        tables.submit,
        room.code,
        0,
        teller.token,
        {"type": "tell", "card": card, "phrase": "x" * 10_000_000},
    )
    assert "140" in str(error)
    tables.submit(room.code, 0, teller.token, {"type": "tell", "card": card, "phrase": "  the   long\tway  "})
    log = tables.store().moves(room.code, 1)
    assert log[-1]["move"] == {"type": "tell", "seat": 0, "card": card, "phrase": "the long way"}


def test_the_log_keeps_the_checked_move_never_the_raw_input():
    room, players = room_of("pictomania", 3)
    for p in players:
        tables.submit(room.code, p.seat, p.token, {"type": "ready"})
    p = players[0]
    tables.submit(
        room.code,
        0,
        p.token,
        {"type": "stroke", "points": [[0.4, 749.6], [10, 10.2]], "width": 2.6, "color": "#ABCDEF"},
    )
    stored = tables.store().moves(room.code, 1)[-1]["move"]
    assert isinstance(stored.pop("t"), int)  # stamped by the service: ms since the drawing began
    assert stored == {"type": "stroke", "seat": 0, "points": [[0, 750], [10, 10]], "width": 3, "color": "#abcdef"}
    refused(
        room.code,
        players,
        tables.submit,
        room.code,
        0,
        p.token,
        {"type": "stroke", "points": [[1, 1]], "width": 3, "color": "#000000", "note": "x" * 1000},
    )


def test_odd_tokens_and_codes_are_plain_refusals():
    room, players = room_of("dixit", 3)
    for token in ("\ud800", None, 5, "x" * 10_000, ["t"]):
        assert isinstance(refused(room.code, players, tables.submit, room.code, 0, token, {"type": "claim"}), BadToken)
        refused(room.code, players, tables.view, room.code, 0, token)
        refused(room.code, players, tables.skip, room.code, token, 0)
    for code in ("\ud800", None, 5, "ZZZZ", "", "![A](/x)", "a" * 1000, ["ABCD"]):
        refused(room.code, players, tables.view, code)
        refused(room.code, players, tables.join, code, "Eve")
    for name in ("\ud800", "a\u202eb", "\u200b", "a\x00b", None, 5):
        refused(room.code, players, tables.join, tables.create_room("dixit").code, name)


def test_create_room_refuses_bad_options_clearly():
    for game, options, language in [
        ("chess", {}, "en"),
        ("dixit", {"contando": "yes"}, "en"),
        ("dixit", {"sneaky": 1}, "en"),
        ("dixit", [], "en"),
        ("dixit", {}, "fr"),
        ("odyssey", {"laps": 1.0}, "en"),
        ("pictomania", {"decks": "green"}, "en"),
        (None, {}, "en"),
        ("dixit", {}, None),
    ]:
        with pytest.raises(BadOptions) as caught:
            tables.create_room(game, options=options, language=language)
        assert not INTERNAL.search(str(caught.value))


def test_a_player_cannot_make_host_moves():
    room, players = room_of("dixit", 3)
    for kind in ("end", "skip", "kick"):
        error = refused(room.code, players, tables.submit, room.code, 0, players[0].token, {"type": kind, "target": 1})
        assert isinstance(error, NotHost)


def test_turn_times_are_stamped_as_turns_close():
    times = iter(f"2026-01-01T10:{m:02d}:00.000+00:00" for m in range(60))
    with tables.clock(lambda: next(times)):
        room, players = room_of("dixit", 3)
        stamps = []
        while tables.view(room.code)["status"] != "finished":
            view = tables.view(room.code)
            p = players[view["waiting_for"][0]]
            tables.submit(room.code, p.seat, p.token, tables.legal(room.code, p.seat, p.token)[0])
            if tables.view(room.code)["history_length"] > len(stamps):
                stamps.append(tables.store().moves(room.code, 1)[-1]["at"])
            if len(stamps) == 2:
                tables.end(room.code, room.host_token)
    assert [t["ended_at"] for t in tables.record(room.code)["turns"]] == stamps


@pytest.mark.parametrize("name", list(GAMES))
def test_fuzzing_the_service_changes_nothing(name):
    game = GAMES[name]
    variant = game.variants[-1]
    seats = game.seat_counts(game.check_options(variant))[0]
    room, players = room_of(name, seats, variant)
    rnd = random.Random(name)
    tried = 0
    for _ in range(6):
        view = tables.view(room.code)
        if view["status"] != "playing":
            break
        state = tables.state_of(room.code)
        for move in kit.malformed(game, state, rnd, {}) + kit.illegal_neighbours(game, state, rnd, limit=10):
            if not isinstance(move, dict):
                move = {"type": move}
            seat = move.get("seat")
            if seat is None:
                args = (tables.skip, room.code, room.host_token, move.get("target"))
            elif isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
                args = (tables.submit, room.code, seat, players[seat].token, move)
            else:
                args = (tables.submit, room.code, seat, players[0].token, move)
            refused(room.code, players, *args)
            tried += 1
        p = players[view["waiting_for"][0]]
        past_the_reveal(room.code)  # the refusals above were tried during it too
        tables.submit(room.code, p.seat, p.token, kit.fill(game, tables.legal(room.code, p.seat, p.token)[0], rnd))
    assert tried > 100
