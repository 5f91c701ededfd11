"""The pace clock through the table service, with an injected clock (`tables.clock`), for every
game in GAMES: every phase that can expire does, pause and resume, more time, a restart in the
middle of a countdown; and games whose clock expires at random moments still end, with records
that rescore like any other."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from engine import stats, tables
from engine.games import GAMES
from tests import kit
from tests.helpers import submit
from tests.rescore import final_scores

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal"]


class Clock:
    """The time the service reads, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 10, 0, tzinfo=UTC)

    def __call__(self) -> str:
        return self.now.isoformat(timespec="milliseconds")

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    def until(self, deadline: str, seconds: float = 0.0) -> None:
        self.now = datetime.fromisoformat(deadline) + timedelta(seconds=seconds)


@pytest.fixture
def clock():
    now = Clock()
    with tables.clock(now):
        yield now


def seated_room(name: str, variant: dict, seats: int, **pace):
    room = tables.create_room(name, options={**variant, **pace}, seed=seats)
    joined = [tables.join(room.code, n) for n in NAMES[:seats]]
    tables.start(room.code, room.host_token)
    return room, joined


def play_one(room, joined, rnd: random.Random) -> None:
    """One random move by a seat the table waits on (or any seat with a move)."""
    state = tables.state_of(room.code)
    move = kit.random_move(tables.games()[state["game"]], state, rnd)
    seat = move.pop("seat")
    submit(room.code, seat, joined[seat].token, move)


def clock_skips(code: str) -> list[tuple[int, str]]:
    view = tables.view(code)
    log = tables.move_log(code, view["game_no"])
    return [(e["move"]["target"], e["actor"]) for e in log if e["move"]["type"] == "skip" and e["actor"] != "host"]


def one_case_per_variant() -> list:
    chosen = {}
    for name, variant, seats in kit.cases():
        chosen.setdefault((name, repr(variant)), (name, variant, seats))
    return list(chosen.values())


CASES = one_case_per_variant()


@pytest.mark.parametrize("name", list(GAMES))
def test_every_phase_that_can_expire_does_and_skips_each_seat_still_waited_on(name, clock, plain_cards):
    game = GAMES[name]
    expired: set = set()
    seen: set = set()
    for variant in game.variants:
        options = game.check_options(variant)
        seats = game.seat_counts(options)[0]
        room, joined = seated_room(name, variant, seats, pace="brisk", skip_quiet=False)
        rnd = random.Random(name)
        for _ in range(kit.MAX_MOVES):
            view = tables.view(room.code)
            if view["status"] != "playing":
                break
            phase = view["phase"]
            if phase in game.clock.pace and game.host.skippable(tables.state_of(room.code)):
                seen.add(phase)
                assert view["deadline"] is not None and not view["paused"]
            if view["deadline"] and (phase not in expired or rnd.random() < 0.2):
                skippable = game.host.skippable(tables.state_of(room.code))
                waited = [s for s in view["waiting_for"] if s in skippable]
                before = len(clock_skips(room.code))
                clock.until(view["deadline"], -0.5)
                tables.tick()
                assert len(clock_skips(room.code)) == before, "the clock skipped before the deadline"
                clock.wait(1)
                tables.tick()
                skipped = clock_skips(room.code)[before:]
                assert all(by == "clock" and seat in waited for seat, by in skipped)
                tables.tick()
                assert len(clock_skips(room.code)) == before + len(skipped), "a seat was skipped twice"
                if waited:
                    assert skipped, "the deadline passed and nobody was skipped"
                    expired.add(phase)
                else:  # nobody the clock may skip (the toy's last pebble): the countdown stops
                    assert not skipped and tables.view(room.code)["deadline"] is None
                    play_one(room, joined, rnd)
            else:
                play_one(room, joined, rnd)
                clock.wait(1)
        assert tables.view(room.code)["status"] == "finished", f"{variant}: the game did not end"
    assert seen and expired == seen, f"phases with a deadline that never expired: {seen - expired}"


@pytest.mark.parametrize("name", list(GAMES))
def test_pause_resume_more_time_and_a_restart_in_the_middle_of_a_countdown(name, clock, plain_cards):
    game = GAMES[name]
    variant = game.variants[0]
    room, joined = seated_room(
        name, variant, game.seat_counts(game.check_options(variant))[0], pace="relaxed", skip_quiet=False
    )
    rnd = random.Random(name)
    while tables.view(room.code)["deadline"] is None:  # Dixit's first turn begins with a claim
        play_one(room, joined, rnd)
    clock.wait(5)
    tables.pause(room.code, room.host_token)
    paused = tables.view(room.code)
    assert paused["paused"] and paused["deadline"] is None and paused["left"] > 0
    with pytest.raises(tables.SobremesaError, match="already paused"):
        tables.pause(room.code, room.host_token)
    clock.wait(3600)
    assert tables.tick() == 0, "a paused clock skipped someone"
    tables.more_time(room.code, room.host_token)
    assert tables.view(room.code)["left"] == paused["left"] + 30
    tables.resume(room.code, room.host_token)
    resumed = datetime.fromisoformat(tables.view(room.code)["deadline"])
    assert 0 <= (resumed - clock.now).total_seconds() - (paused["left"] + 30) < 1
    tables.more_time(room.code, room.host_token, seconds=30)
    assert datetime.fromisoformat(tables.view(room.code)["deadline"]) == resumed + timedelta(seconds=30)
    with pytest.raises(tables.SobremesaError, match="already running"):
        tables.resume(room.code, room.host_token)
    tables.reset()  # a restart: nothing of the clock is kept in memory
    clock.until(tables.view(room.code)["deadline"], -1)
    assert tables.tick() == 0
    clock.wait(2)
    assert tables.tick() >= 1 and clock_skips(room.code)


@pytest.mark.parametrize("case", CASES, ids=[kit.case_id(c) for c in CASES])
def test_a_clock_expiring_at_random_moments_ends_every_game_with_a_record_that_rescores(case, clock):
    name, variant, seats = case
    rnd = random.Random(kit.case_id(case))
    room, joined = seated_room(name, variant, seats, pace=rnd.choice(["relaxed", "brisk"]))
    skipped = 0
    for _ in range(kit.MAX_MOVES):
        if tables.view(room.code)["status"] != "playing":
            break
        if rnd.random() < 0.12:
            clock.wait(rnd.choice([10, 35, 60, 200]))
            skipped += tables.tick()
        else:
            play_one(room, joined, rnd)
            clock.wait(rnd.random() * 4)
    record = tables.record(room.code)
    assert record is not None, "the game did not end"
    assert record["final_scores"] == final_scores(record)
    marked = [s for turn in record["turns"] for s in turn.get("clock_skips", [])]
    assert skipped and marked and all(0 <= s < seats for s in marked)
    assert {by for _, by in clock_skips(room.code)} <= {"clock", "quiet"}
    assert tables.replay(room.code) == tables.state_of(room.code), "the clock's skips do not replay"
    # The statistics count them per player, from the rows packed when the game was saved.
    archive = stats.from_rows(tables.stat_rows())
    summary = stats.player_summary(archive, archive.games.index, bots=True).set_index("player")
    for p in record["players"]:
        assert summary.loc[p["name"], "clock_skips"] == marked.count(p["seat"])


@pytest.mark.parametrize("name", list(GAMES))
def test_a_quiet_player_away_for_thirty_seconds_is_skipped_and_a_connected_one_never(name, clock, plain_cards):
    from engine import presence

    game = GAMES[name]
    variant = game.variants[0]
    room, joined = seated_room(name, variant, game.seat_counts(game.check_options(variant))[0], pace="relaxed")
    rnd = random.Random(name)
    for seat in range(len(joined)):
        presence.arrive(room.code, seat)
    while not (
        waited := [
            s for s in tables.view(room.code)["waiting_for"] if s in game.host.skippable(tables.state_of(room.code))
        ]
    ):
        play_one(room, joined, rnd)
    away = waited[0]
    tables.more_time(room.code, room.host_token, 120)  # a deadline shorter than 30 s would come first
    presence.leave(room.code, away)  # the others' sockets stay: their word lasts EXPIRE s more
    before = len(clock_skips(room.code))
    clock.wait(29)
    tables.tick()
    assert len(clock_skips(room.code)) == before, "skipped before 30 s away"
    clock.wait(2)
    tables.tick()
    assert clock_skips(room.code)[before:][:1] == [(away, "quiet")]
    assert all(seat == away or by != "quiet" for seat, by in clock_skips(room.code)), "a connected seat was skipped"
