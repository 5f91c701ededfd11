"""Demo data: a seeded simulator that fills the archive with plausible finished games.

    python -m engine.demo [--games N] [--seed S]

It plays through the same public API the pages use (`tables.create_room`, `join`, `start`,
`legal`, `submit`, `skip`): it never writes a row itself. The players are one recurring group (a
class, an office) whose names sometimes come in variants: "ana" and "Ana" are one person by
`tables.player_key`; "Lucia" and "Lucía", or "Hugo M." and "Hugo", are left for the host to merge.

Play is plausible rather than uniform: each person has a skill at finding the storyteller's card,
a clarity as storyteller, a knack for bluffing, favourite people to fall for, a drawing clarity and
a guessing speed; picture cards have an appeal of their own; storytellers sometimes type a phrase;
the host now and then skips a voter who went for coffee. Pictomania drawings are a few short random
strokes (an eraser stroke now and then), then guesses arrive in the order of each player's speed.

Times: the games are spread over the last weeks (a session of a few games every few days, moves
taking seconds to minutes). While it plays, the simulator gives the table service a simulated
clock, for its own thread only, so the archive's dates and durations look like real sessions.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from engine import tables
from engine.core import MoveError
from engine.games import GAMES
from engine.tables.deadlines import at

GROUP = ("Ana", "Bruno", "Carla", "Dario", "Elena", "Farid", "Gaia", "Hugo", "Inés", "Jonas", "Kemal", "Lucía")
# Spellings a person sometimes types. Case and spaces make no difference to player_key; the others
# ("Lucia", "Hugo M.", "Jo") are what the host merges on the statistics page.
SPELLINGS = {
    "Ana": ("ana", "ANA"),
    "Lucía": ("Lucia",),
    "Hugo": ("Hugo M.",),
    "Jonas": ("jonas", "Jo"),
    "Inés": ("Ines",),
    "Dario": ("dario",),
}


def tables_to_play() -> list[tuple[str, dict, int, int]]:
    """The mix of tables the group plays: every game's demo tables, (game, options, fewest, most)."""
    return [
        (name, dict(options), low, high)
        for name, game in GAMES.items()
        if game.demo
        for options, low, high in game.demo.tables
    ]


@dataclass
class Person:
    name: str
    skill: float  # finds the storyteller's card; guesses drawings right
    clarity: float  # as storyteller or drawer: how findable
    bluff: float  # how tempting their decoy cards are
    speed: float  # how fast they guess in Pictomania
    likes: dict  # name -> how easily they fall for that person's decoys


def people(rng: random.Random) -> list[Person]:
    group = []
    for name in GROUP:
        group.append(
            Person(
                name,
                skill=rng.uniform(0.35, 0.9),
                clarity=rng.uniform(0.45, 0.95),
                bluff=rng.uniform(0.5, 2.0),
                speed=rng.uniform(0.5, 2.0),
                likes={},
            )
        )
    for p in group:
        p.likes = {q.name: rng.choice((1.0, 1.0, 1.0, 2.5, 0.6)) for q in group if q is not p}
    return group


def spelling(person: Person, rng: random.Random) -> str:
    variants = SPELLINGS.get(person.name)
    return rng.choice(variants) if variants and rng.random() < 0.3 else person.name


# ---- the simulated clock -----------------------------------------------------------------------


class Clock:
    def __init__(self, start: datetime):
        self.now = start

    def tick(self, low: float, high: float, rng: random.Random) -> None:
        self.now += timedelta(seconds=rng.uniform(low, high))

    def iso(self) -> str:
        return self.now.isoformat(timespec="milliseconds")


def simulated_time(clock: Clock):
    """The table service stamps this thread's moves with the simulated clock; other threads (a
    running server's rooms) keep the real one."""
    return tables.clock(clock.iso)


# ---- one game ----------------------------------------------------------------------------------


class Table:
    """One room being played: its seats, the people in them, and the simulator's own knowledge
    (it plays every seat, so it knows which card each seat gave)."""

    def __init__(self, game: str, options: dict, group: list[Person], rng: random.Random, clock: Clock):
        self.game, self.rng, self.clock = game, rng, clock
        self.room = tables.create_room(game, options=options, seed=rng.randrange(2**31))
        self.people = group
        self.seats = [tables.join(self.room.code, spelling(p, rng)) for p in group]
        clock.tick(30, 120, rng)
        tables.start(self.room.code, self.room.host_token)

    def legal(self, seat: int) -> list[dict]:
        self.watch_the_reveal()
        return tables.legal(self.room.code, seat, self.seats[seat].token)

    def submit(self, seat: int, move: dict, low: float = 2, high: float = 15) -> None:
        self.watch_the_reveal()
        self.clock.tick(low, high, self.rng)
        tables.submit(self.room.code, seat, self.seats[seat].token, move)

    def watch_the_reveal(self) -> None:
        """The class watches the last turn's reveal to its end: the next turn's moves wait for it."""
        until = tables.view(self.room.code)["reveal_until"]
        if until and at(until) > self.clock.now:
            self.clock.now = at(until) + timedelta(seconds=self.rng.uniform(0.5, 3))

    def view(self, seat: int | None = None) -> dict:
        if seat is None:
            return tables.view(self.room.code)
        return tables.view(self.room.code, seat, self.seats[seat].token)

    def skip(self, seat: int) -> bool:
        """The host skips a player who went for coffee; False if the rules refuse it now."""
        try:
            self.watch_the_reveal()
            self.clock.tick(30, 90, self.rng)
            tables.skip(self.room.code, self.room.host_token, seat)
            return True
        except MoveError:
            return False

    def finished(self) -> bool:
        return tables.view(self.room.code)["status"] == "finished"


def play_one(game: str, options: dict, group: list[Person], rng: random.Random, clock: Clock) -> str:
    t = Table(game, options, group, rng, clock)
    demo = GAMES[game].demo
    assert demo is not None, "tables are drawn from games with a demo"
    demo.simulate(t)
    return t.room.code


# ---- the archive -------------------------------------------------------------------------------


def _seats_for(game: str, options: dict, low: int, high: int, rng: random.Random) -> int:
    """A seat count these options allow, between low and high."""
    allowed = [n for n in GAMES[game].seat_counts(GAMES[game].check_options(options)) if low <= n <= high]
    return rng.choice(allowed)


def simulate(games: int = 30, seed: int = 0, today: datetime | None = None) -> list[str]:
    """Play `games` finished games into the current archive; returns their room codes."""
    rng = random.Random(seed)
    group = people(rng)
    # The calendar first: a session of a few games every few days, the last one yesterday.
    session_starts = [i for i in range(games) if i == 0 or rng.random() < 0.35]
    gaps = [rng.randint(2, 5) for _ in session_starts]
    today = (today or datetime.now(UTC)).replace(minute=0, second=0, microsecond=0)
    day = today - timedelta(days=sum(gaps) + 1)
    clock = Clock(day)
    kinds: list[tuple[str, dict, int, int]] = []
    codes: list[str] = []
    with simulated_time(clock):
        for i in range(games):
            if not kinds:
                kinds = tables_to_play()
                rng.shuffle(kinds)
            game, options, low, high = kinds.pop()
            if i in session_starts:  # a new session a few days later, after lunch or after work
                day += timedelta(days=gaps[session_starts.index(i)])
                clock.now = day.replace(hour=rng.choice((12, 13, 16, 17)), minute=rng.randint(0, 59))
            else:
                clock.tick(120, 600, rng)
            n = _seats_for(game, options, low, high, rng)
            codes.append(play_one(game, dict(options), rng.sample(group, n), rng, clock))
    # The statistics' rows are written beside the games: wait for them, so that nothing is lost to a
    # process that ends now (`python -m engine.demo` once aborted in pandas as its threads were cut).
    tables.settle()
    return codes


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Fill the Sobremesa archive with simulated games.")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    codes = simulate(args.games, args.seed)
    print(
        f"{len(codes)} games played into {tables.store().path if hasattr(tables.store(), 'path') else 'the store'} "
        f"in {time.perf_counter() - began:.1f} s"
    )


if __name__ == "__main__":
    main()
