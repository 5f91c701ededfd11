"""The reveal holds the room, and the pace clock waits for it: a move that closes a turn starts the
reveal (`Clock.reveal` seconds); the next turn's moves are refused until it ends (computer players
and the clock wait too), and the next deadline starts only then, or at once at the host's *Next*.
At the host's pace a reveal holds until *Next*; under any pace the host may *Hold* one. A game
without a reveal keeps its deadlines as they were."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from engine import tables
from engine.core import RevealOn, TableError
from engine.games import GAMES
from tests.engine.tables.test_pace import (
    clock,  # noqa: F401  (the fixture)
    play_one,
    seated_room,
)


def at(when: str) -> datetime:
    return datetime.fromisoformat(when)


def close_a_turn(room, joined, rnd) -> None:
    for _ in range(300):
        if tables.view(room.code).get("history"):
            return
        play_one(room, joined, rnd)
    raise AssertionError("no turn closed")


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.clock and g.clock.reveal])
def test_the_next_deadline_starts_when_the_reveal_ends(name, clock):  # noqa: F811
    game = GAMES[name]
    room, joined = seated_room(name, {}, 3, pace="brisk")
    close_a_turn(room, joined, random.Random(2))
    closed_at = clock.now
    view = tables.view(room.code)
    assert at(view["reveal_until"]) == closed_at + timedelta(seconds=game.clock.reveal)
    seconds = game.clock.pace[view["phase"]][1]
    assert at(view["deadline"]) == closed_at + timedelta(seconds=game.clock.reveal + seconds)
    # The next turn's moves wait for the reveal's end: none is offered, and one sent is refused.
    clock.wait(1)
    teller = view["waiting_for"][0]
    assert tables.legal(room.code, teller, joined[teller].token) == []
    move = next(m for m in GAMES[name].legal(tables.state_of(room.code), teller))
    move.pop("seat", None)
    if move["type"] == "tell":
        move["phrase"] = "the sea"
    with pytest.raises(RevealOn):
        tables.submit(room.code, teller, joined[teller].token, move)
    assert tables.view(room.code)["version"] == view["version"]
    # Its end is told at the next tick (every screen and computer player hears of it), once.
    clock.wait(game.clock.reveal)
    tables.tick()
    told = tables.view(room.code)
    assert told["version"] == view["version"] + 1 and told["reveal_until"] is None
    tables.tick()
    assert tables.view(room.code)["version"] == told["version"]
    tables.submit(room.code, teller, joined[teller].token, move)
    after = tables.view(room.code)
    assert after["version"] > told["version"]
    # A new moment within the reveal also waits for its end.
    if after["deadline"] and after["phase"] != view["phase"]:
        assert at(after["deadline"]) >= at(view["reveal_until"])


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.clock and g.clock.reveal])
def test_the_host_ends_the_reveal_and_the_deadline_starts_at_once(name, clock):  # noqa: F811
    game = GAMES[name]
    room, joined = seated_room(name, {}, 3, pace="brisk")
    close_a_turn(room, joined, random.Random(5))
    view = tables.view(room.code)
    clock.wait(2)
    tables.next_scene(room.code, room.host_token)
    ended = tables.view(room.code)
    seconds = game.clock.pace[ended["phase"]][1]
    assert ended["reveal_until"] is None and at(ended["reveal_since"]) == clock.now
    assert at(ended["deadline"]) == clock.now + timedelta(seconds=seconds)
    assert ended["deadline"] < view["deadline"]
    with pytest.raises(TableError):
        tables.next_scene(room.code, room.host_token)  # over already: said, and nothing changes
    assert tables.view(room.code)["version"] == ended["version"]


def test_a_room_with_no_pace_still_plays_the_reveal(clock):  # noqa: F811
    room, joined = seated_room("dixit", {}, 3)
    close_a_turn(room, joined, random.Random(1))
    view = tables.view(room.code)
    assert view["reveal_until"] and view["deadline"] is None


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if not (g.clock and g.clock.reveal)])
def test_a_game_without_a_reveal_keeps_its_deadlines(name, clock):  # noqa: F811
    room, joined = seated_room(name, {}, GAMES[name].seat_counts(GAMES[name].check_options({}))[0], pace="brisk")
    rnd = random.Random(3)
    for _ in range(60):
        if tables.view(room.code)["status"] != "playing" or tables.view(room.code).get("history"):
            break
        play_one(room, joined, rnd)
    assert not tables.view(room.code).get("reveal_until")


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.clock and g.clock.reveal])
def test_the_last_turn_has_its_reveal_before_the_podium(name, clock):  # noqa: F811
    """Played to its end, the game's last turn holds the wall as every other does."""
    room, joined = seated_room(name, {}, 3)
    rnd = random.Random(4)
    for _ in range(20000):
        if tables.view(room.code)["status"] != "playing":
            break
        play_one(room, joined, rnd)
    ended = tables.view(room.code)
    assert ended["status"] == "finished" and not ended.get("ended_by_host")
    assert at(ended["reveal_until"]) == clock.now + timedelta(seconds=GAMES[name].clock.reveal)
    tables.play_again(room.code, room.host_token)  # during the last reveal: the new game starts at once
    again = tables.view(room.code)
    assert again["status"] == "playing" and again["reveal_until"] is None


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.clock and g.clock.reveal])
def test_a_game_the_host_ends_goes_to_the_podium_at_once(name, clock):  # noqa: F811
    """Ended by the host during a reveal: no reveal holds the wall, the podium shows."""
    room, joined = seated_room(name, {}, 3)
    close_a_turn(room, joined, random.Random(5))
    assert tables.view(room.code)["reveal_until"]
    tables.end(room.code, room.host_token)
    assert tables.view(room.code)["reveal_until"] is None


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.clock and g.clock.reveal])
def test_at_the_hosts_pace_a_reveal_holds_until_next(name, clock):  # noqa: F811
    """Host-paced: no deadline, and a reveal still on a minute after it began; one *Next* ends it."""
    room, joined = seated_room(name, {}, 3, pace="host")
    close_a_turn(room, joined, random.Random(6))
    view = tables.view(room.code)
    assert view["reveal_held"] and view["deadline"] is None and not view["skip_quiet"]
    clock.wait(60)
    tables.tick()
    held = tables.view(room.code)
    assert held["version"] == view["version"] and held["reveal_held"]
    waited = held["waiting_for"][0]
    assert tables.legal(room.code, waited, joined[waited].token) == []
    tables.next_scene(room.code, room.host_token)
    after = tables.view(room.code)
    assert not after["reveal_held"] and after["deadline"] is None
    assert tables.legal(room.code, waited, joined[waited].token)


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g.clock and g.clock.reveal])
def test_hold_keeps_a_brisk_reveal_past_its_length(name, clock):  # noqa: F811
    game = GAMES[name]
    room, joined = seated_room(name, {}, 3, pace="brisk")
    close_a_turn(room, joined, random.Random(7))
    clock.wait(1)
    tables.hold(room.code, room.host_token)
    with pytest.raises(TableError):
        tables.hold(room.code, room.host_token)  # held already: said, and nothing changes
    clock.wait(game.clock.reveal + 30)
    tables.tick()
    view = tables.view(room.code)
    waited = view["waiting_for"][0]
    assert view["reveal_held"] and tables.legal(room.code, waited, joined[waited].token) == []
    tables.next_scene(room.code, room.host_token)
    after = tables.view(room.code)
    seconds = game.clock.pace[after["phase"]][1]
    assert at(after["deadline"]) == clock.now + timedelta(seconds=seconds)  # the clock starts at Next


def test_computer_players_make_no_move_during_a_reveal(clock):  # noqa: F811
    from engine.bots import runner

    room = tables.create_room("dixit", seed=3)
    ana = tables.join(room.code, "Ana")
    for _ in range(2):
        tables.add_bot(room.code, room.host_token)
    tables.start(room.code, room.host_token)
    rnd = random.Random(3)
    for _ in range(200):
        if tables.view(room.code).get("history"):
            break
        runner.play_pending(room.code, rnd)
        legal = tables.legal(room.code, 0, ana.token)
        if legal:
            move = {k: v for k, v in rnd.choice(legal).items() if k != "seat"}
            if move["type"] == "tell":
                move["phrase"] = "the sea"
            tables.submit(room.code, 0, ana.token, move)
    view = tables.view(room.code)
    assert view["history"] and view["reveal_until"]
    assert runner.play_pending(room.code, rnd) == 0  # the reveal is on: they wait
    assert tables.view(room.code)["version"] == view["version"]
    clock.wait(GAMES["dixit"].clock.reveal)
    tables.tick()
    before = tables.view(room.code)["version"]
    runner.play_pending(room.code, rnd)
    assert tables.view(room.code)["version"] >= before
