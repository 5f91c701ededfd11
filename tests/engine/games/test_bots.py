"""Computer players for the Dixit family: they play whole games through the table service with
only their own seat's view, take over a seat and give it back, and survive a restart."""

from __future__ import annotations

import random
from datetime import UTC

import pytest

from engine import tables
from engine.bots import runner
from engine.core import IllegalMove, SobremesaError, TableError
from engine.games import GAMES
from tests.helpers import past_the_reveal, submit

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]


def room_with(game: str, people: int, bots: int, options: dict | None = None, level="normal", seed=3):
    r = tables.create_room(game, options=options, seed=seed)
    humans = [tables.join(r.code, NAMES[i]) for i in range(people)]
    robots = [tables.add_bot(r.code, r.host_token, level if i % 2 == 0 else "easy") for i in range(bots)]
    return r, humans, robots


def human_move(code: str, seat, rnd) -> bool:
    """A person at the table: any legal move, with a phrase when telling (required with bots)."""
    legal = tables.legal(code, seat.seat, seat.token)
    if not legal:
        return False
    move = dict(rnd.choice(legal))
    move.pop("seat")
    if move["type"] == "tell":
        move["phrase"] = rnd.choice(("A quiet storm", "Lost keys", "The other side"))
    submit(code, seat.seat, seat.token, move)
    return True


def play_out(code: str, humans: list, rnd, most=3000) -> None:
    for _ in range(most):
        if tables.view(code)["status"] != "playing":
            return
        past_the_reveal(code)
        moved = runner.play_pending(code, rnd) > 0
        for seat in humans:
            moved = human_move(code, seat, rnd) or moved
        assert moved, f"nobody can move in {tables.view(code)['phase']}"
    raise AssertionError("the game did not end")


def cases():
    found = []
    for name in ("dixit", "odyssey"):
        game = GAMES[name]
        for variant in game.variants:
            options = game.check_options(variant)
            counts = game.seat_counts(options)
            for n in counts:
                found.append((name, variant, n, (n * 7) % 3))  # 0, 1 or 2 people, the rest computer players
    return found


@pytest.mark.parametrize("game,variant,seats,people", cases(), ids=lambda v: str(v))
def test_games_with_computer_players_end_normally(game, variant, seats, people):
    options = {**variant, "laps": 1} if game == "odyssey" and "laps" in GAMES[game].option_fields else variant
    r, humans, robots = room_with(game, people, seats - people, options=options, seed=seats)
    tables.start(r.code, r.host_token)
    play_out(r.code, humans, random.Random(seats))
    record = tables.record(r.code)
    assert record is not None and sum(1 for p in record["players"] if p.get("bot")) == seats - people


def test_one_person_and_two_computer_players_play_a_real_game_with_phrases_on_the_wall():
    r, (ana,), robots = room_with("dixit", 1, 2)
    assert [n.endswith("🤖") for n in tables.view(r.code)["names"]] == [False, True, True]
    tables.start(r.code, r.host_token)
    rnd = random.Random(1)
    phrases = set()
    for _ in range(400):
        view = tables.view(r.code)
        if view["status"] != "playing":
            break
        if view["phase"] in ("give", "vote") and view["storyteller"] != 0:
            phrases.add(view["phrase"])
        past_the_reveal(r.code)
        runner.play_pending(r.code, rnd)
        human_move(r.code, ana, rnd)
    assert tables.view(r.code)["status"] == "finished"
    assert phrases and all(p for p in phrases), "a computer storyteller's phrase shows on the wall"


def test_with_a_computer_player_a_person_must_type_the_phrase():
    r, humans, robots = room_with("dixit", 2, 1)
    tables.start(r.code, r.host_token)
    submit(r.code, 0, humans[0].token, {"type": "claim"})
    card = tables.view(r.code, 0, humans[0].token)["hand"][0]
    before = tables.version(r.code)
    with pytest.raises(IllegalMove, match="computer players read it"):
        submit(r.code, 0, humans[0].token, {"type": "tell", "card": card, "phrase": None})
    assert tables.version(r.code) == before
    submit(r.code, 0, humans[0].token, {"type": "tell", "card": card, "phrase": "Sleepy moon"})


def test_a_computer_player_sees_only_its_own_seat(monkeypatch):
    r, humans, robots = room_with("dixit", 1, 2)
    tables.start(r.code, r.host_token)
    seen = []
    real_view = tables.view

    def spy(code, seat=None, token=None, device=None):
        seen.append((seat, token))
        return real_view(code, seat, token, device)

    monkeypatch.setattr(tables, "view", spy)
    past_the_reveal(r.code)
    runner.play_pending(r.code, random.Random(2))
    tokens = {b["seat"]: b["token"] for b in tables.bot_seats(r.code)}
    assert seen and all(seat in tokens and token == tokens[seat] for seat, token in seen)
    with pytest.raises(SobremesaError):  # and its token opens no other seat
        real_view(r.code, 0, tokens[1])


def test_a_seat_handed_to_a_computer_player_and_given_back_keeps_its_hand_and_score():
    r, humans, robots = room_with("dixit", 3, 0)
    tables.start(r.code, r.host_token)
    rnd = random.Random(5)
    for _ in range(12):  # a few turns by people
        for seat in humans:
            human_move(r.code, seat, rnd)
    ben = humans[1]
    tables.hand_to_bot(r.code, r.host_token, ben.seat, "easy")
    assert tables.view(r.code)["names"][1].endswith("🤖") and tables.view(r.code)["handed"] == [1]
    with pytest.raises(TableError):
        tables.hand_to_bot(r.code, r.host_token, ben.seat)
    for _ in range(30):
        past_the_reveal(r.code)
        runner.play_pending(r.code, rnd)
        for seat in (humans[0], humans[2]):
            human_move(r.code, seat, rnd)
    mine = tables.view(r.code, ben.seat, ben.token)  # Ben's own link still opens his seat
    tables.take_back(r.code, r.host_token, ben.seat)
    back = tables.view(r.code, ben.seat, ben.token)
    assert back["hand"] == mine["hand"] and back["scores"][1] == mine["scores"][1]
    assert tables.bot_seats(r.code) == [] and not back["names"][1].endswith("🤖")


def told_by_the_person():
    """One person and two computer players; the person has claimed and told: the computer players give."""
    r, humans, robots = room_with("dixit", 1, 2)
    tables.start(r.code, r.host_token)
    submit(r.code, 0, humans[0].token, {"type": "claim"})
    card = tables.view(r.code, 0, humans[0].token)["hand"][0]
    submit(r.code, 0, humans[0].token, {"type": "tell", "card": card, "phrase": "Night train"})
    return r


def test_after_a_restart_a_computer_players_pending_turn_is_played():
    r = told_by_the_person()
    tables.reset()  # a new server process: nothing in memory
    fresh = runner.Runner(random.Random(1))
    fresh.tick(0.0)  # sees the pending gives, waits a human-like delay
    assert tables.view(r.code)["phase"] == "give"
    for t in range(1, 30):  # each computer player gives after its delay
        fresh.tick(float(t))
        if tables.view(r.code)["phase"] != "give":
            break
    assert tables.view(r.code)["phase"] == "vote" and t >= 2


def test_computer_players_only_with_a_described_deck_and_a_game_that_has_them():
    r = tables.create_room("pictomania")
    with pytest.raises(TableError, match="no computer players"):
        tables.add_bot(r.code, r.host_token)
    d = tables.create_room("dixit", options={"deck": "somewhere-else"})
    with pytest.raises(TableError, match="described"):
        tables.add_bot(d.code, d.host_token)


def test_a_failure_does_not_stall_the_computer_players(monkeypatch):
    r = told_by_the_person()
    fresh = runner.Runner(random.Random(1))
    real = runner.decide
    failures = [1]

    def flaky(code, bot, rnd):
        if failures:
            failures.pop()
            raise SobremesaError("the store hiccupped")
        return real(code, bot, rnd)

    monkeypatch.setattr(runner, "decide", flaky)
    for t in range(0, 40):
        fresh.tick(float(t))
        if tables.view(r.code)["phase"] != "give":
            break
    assert not failures and tables.view(r.code)["phase"] == "vote"


def test_a_room_that_ends_leaves_nothing_in_the_runners_memory():
    r = told_by_the_person()
    fresh = runner.Runner(random.Random(1))
    fresh.tick(0.0)
    assert {key[0] for key in fresh.due} == {r.code}
    tables.end(r.code, r.host_token)
    fresh.tick(runner.ROOMS_EVERY)  # its next look for rooms: this one has ended
    assert fresh.rooms == [] and fresh.due == {} and fresh.looked == {}


def test_one_process_plays_a_rooms_computer_players_and_another_takes_over_when_it_dies():
    from datetime import datetime, timedelta

    from engine import leases

    r = told_by_the_person()
    a = runner.Runner(random.Random(1), process="process-a")
    b = runner.Runner(random.Random(2), process="process-b")
    a.tick(0.0)
    b.tick(0.0)
    assert a.rooms == [r.code] and b.rooms == []  # a leads the room; b leaves it alone
    for t in range(1, 30):
        b.tick(float(t))
    assert tables.view(r.code)["phase"] == "give"  # b never played a's room
    # a dies: nobody renews its lease, which runs out
    assert leases.lead(r.code, "process-a", now=datetime.now(UTC) - timedelta(seconds=60))
    b.tick(100.0)
    assert b.rooms == [r.code]
    for t in range(101, 140):
        b.tick(float(t))
        if tables.view(r.code)["phase"] != "give":
            break
    assert tables.view(r.code)["phase"] == "vote"
    a.tick(200.0)
    assert a.rooms == []  # back from the dead, a finds the room led by b
