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
import math
import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from engine import tables
from engine.core import MoveError

GROUP = ("Ana", "Bruno", "Carla", "Dario", "Elena", "Farid", "Gaia", "Hugo", "Inés", "Jonas", "Kemal", "Lucía")
# Spellings a person sometimes types. Case and spaces make no difference to player_key; the others
# ("Lucia", "Hugo M.", "Jo") are what the host merges on the statistics page.
SPELLINGS = {"Ana": ("ana", "ANA"), "Lucía": ("Lucia",), "Hugo": ("Hugo M.",), "Jonas": ("jonas", "Jo"),
             "Inés": ("Ines",), "Dario": ("dario",)}

PHRASES = ("A quiet storm", "Before breakfast", "Lost keys", "Monday morning", "The long way home",
           "Whispers", "Too much coffee", "Hide and seek", "Summer never ends", "Upside down",
           "A promise", "Almost there", "Grandmother's kitchen", "Static", "The other side",
           "Deadline", "Echo", "First snow", "Out of tune", "Borrowed time")

# The mix of tables a group plays: (game, options, fewest players, most players).
TABLES = (
    ("dixit", {"contando": False}, 4, 6),
    ("dixit", {"contando": True}, 3, 5),
    ("odyssey", {"variant": "base"}, 4, 8),
    ("odyssey", {"variant": "party", "laps": 1}, 6, 9),
    ("odyssey", {"variant": "team", "laps": 1}, 6, 8),
    ("pictomania", {"competitive": False, "decks": ["green", "yellow", "orange", "red"]}, 4, 6),
    ("pictomania", {"competitive": True, "decks": ["green", "green", "yellow", "orange"]}, 3, 5),
)
DECK_EASE = {"green": 1.0, "yellow": 0.9, "orange": 0.8, "red": 0.7}
PALETTE = ("#000000", "#000000", "#e53935", "#1e88e5", "#43a047", "#fb8c00", "#8e24aa")


@dataclass
class Person:
    name: str
    skill: float      # finds the storyteller's card; guesses drawings right
    clarity: float    # as storyteller or drawer: how findable
    bluff: float      # how tempting their decoy cards are
    speed: float      # how fast they guess in Pictomania
    likes: dict       # name -> how easily they fall for that person's decoys


def people(rng: random.Random) -> list[Person]:
    group = []
    for name in GROUP:
        group.append(Person(name, skill=rng.uniform(0.35, 0.9), clarity=rng.uniform(0.45, 0.95),
                            bluff=rng.uniform(0.5, 2.0), speed=rng.uniform(0.5, 2.0), likes={}))
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
        return tables.legal(self.room.code, seat, self.seats[seat].token)

    def submit(self, seat: int, move: dict, low: float = 2, high: float = 15) -> None:
        self.clock.tick(low, high, self.rng)
        tables.submit(self.room.code, seat, self.seats[seat].token, move)

    def view(self, seat: int | None = None) -> dict:
        if seat is None:
            return tables.view(self.room.code)
        return tables.view(self.room.code, seat, self.seats[seat].token)

    def finished(self) -> bool:
        return tables.view(self.room.code)["status"] == "finished"


def play_dixit_family(t: Table) -> None:
    rng, owner_of = t.rng, {}
    fit = {}
    while not t.finished():
        shared = t.view()
        phase, waiting = shared["phase"], shared["waiting_for"]
        if phase == "claim":
            t.submit(rng.choice(waiting), {"type": "claim"}, 5, 40)
        elif phase == "tell":
            seat = shared["storyteller"]
            move = rng.choice(t.legal(seat))
            if rng.random() < 0.45:
                move["phrase"] = rng.choice(PHRASES)
            owner_of = {move["card"]: seat} if move.get("card") else {}
            fit = {}
            t.submit(seat, move, 20, 90)
        elif phase == "give":
            # One at a time: in Team the first member to give answers for the pair.
            seat = rng.choice(waiting)
            move = rng.choice(t.legal(seat))
            for card in move["cards"]:
                owner_of[card] = seat
            t.submit(seat, move, 5, 30)
        elif phase == "vote":
            _vote_round(t, shared, owner_of, fit)


def _card_appeal(card: str) -> float:
    """Some pictures pull votes whatever the phrase: a fixed appeal per card id."""
    return 0.5 + (hash_card(card) % 100) / 40


def hash_card(card: str) -> int:
    return sum((i + 1) * ord(c) for i, c in enumerate(card))


def _vote_round(t: Table, shared: dict, owner_of: dict, fit: dict) -> None:
    rng = t.rng
    storyteller = shared["storyteller"]
    party = shared.get("variant") == "party"
    table = shared["table"]
    # Some clues are too obvious, some too obscure, most in between (then it is up to each voter).
    fit.setdefault("", rng.choices((0.93, 0.1, 0.0), (0.2, 0.15, 0.65))[0])
    for p in table:  # how well each card fits the phrase: shared by the whole table
        fit.setdefault(p["card"], rng.uniform(0.2, 1.5) * _card_appeal(p["card"]))
    waiting = list(shared["waiting_for"])
    if len(waiting) > 2 and rng.random() < 0.04:  # someone went for coffee: the host skips them
        gone = rng.choice(waiting)
        try:
            t.clock.tick(30, 90, rng)
            tables.skip(t.room.code, t.room.host_token, gone)
            waiting.remove(gone)
        except MoveError:
            pass
    teller = t.people[storyteller]
    for seat in waiting:
        moves = t.legal(seat)
        if not moves:
            continue
        votes = [m for m in moves if m["type"] == "vote"]
        me = t.people[seat]
        if votes:
            positions = sorted({m["positions"][0] if "positions" in m else m["position"] for m in votes})
            pick = _pick(rng, positions, table, owner_of, storyteller, me, teller, t.people, party, fit)
            single = [m for m in votes if (m.get("positions") or [m.get("position")]) == [pick]]
            move = single[0]
            doubles = [m for m in votes if len(m.get("positions", [])) == 2 and pick in m["positions"]]
            if doubles and rng.random() < 0.3:
                move = rng.choice(doubles)
            t.submit(seat, move, 5, 25)
        reds = [m for m in t.legal(seat) if m["type"] == "red_vote"]
        if reds:
            # The red card: the one the storyteller thinks fits the phrase worst, most of the time.
            worst = min(reds, key=lambda m: fit[table[m["position"] - 1]["card"]] * rng.uniform(0.6, 1.4))
            t.submit(seat, worst, 3, 15)


def _pick(rng, positions, table, owner_of, storyteller, me, teller, people, party, fit) -> int:
    card_at = {p["position"]: p["card"] for p in table}
    if party:
        weights = [fit[card_at[p]] ** 2 for p in positions]
        return rng.choices(positions, weights)[0]
    story = next((p for p in positions if owner_of.get(card_at[p]) == storyteller), None)
    p_find = fit[""] or min(0.92, max(0.05, me.skill * teller.clarity * 1.25 + rng.uniform(-0.15, 0.15)))
    if story is not None and rng.random() < p_find:
        return story
    decoys = [p for p in positions if p != story] or positions
    weights = []
    for p in decoys:
        owner = owner_of.get(card_at[p])
        person = people[owner] if owner is not None else None
        weights.append(fit[card_at[p]] * (person.bluff * me.likes.get(person.name, 1.0) if person else 1.0))
    return rng.choices(decoys, weights)[0]


def _strokes(rng: random.Random) -> list[dict]:
    """A few short random strokes: a random walk each, sometimes an eraser pass."""
    strokes = []
    for i in range(rng.randint(2, 4)):
        x, y = rng.randint(120, 880), rng.randint(100, 650)
        points = []
        heading = rng.uniform(0, 2 * math.pi)
        for _ in range(rng.randint(4, 10)):
            points.append([x, y])
            heading += rng.uniform(-0.9, 0.9)
            step = rng.uniform(25, 70)
            x = min(1000, max(0, round(x + step * math.cos(heading))))
            y = min(750, max(0, round(y + step * math.sin(heading))))
        eraser = i > 0 and rng.random() < 0.1
        strokes.append({"points": points, "width": rng.choice((4, 6, 6, 8, 12)) if not eraser else 24,
                        "color": "eraser" if eraser else rng.choice(PALETTE)})
    return strokes


def play_pictomania(t: Table) -> None:
    rng = t.rng
    n = len(t.seats)
    while not t.finished():
        shared = t.view()
        if shared["phase"] == "words":
            if rng.random() < 0.1:
                replace = [m for m in t.legal(0) if m["type"] == "replace"]
                if replace:
                    t.submit(0, rng.choice(replace), 5, 20)
            for seat in t.view()["waiting_for"]:
                t.submit(seat, {"type": "ready"}, 10, 40)
            continue
        ease = DECK_EASE.get(shared["deck"], 0.85)
        secret = {s: t.view(s) for s in range(n)}
        number = {s: secret[s]["number"] for s in range(n) if secret[s]["number"] is not None}
        drawing = sorted(number)
        for seat in drawing:
            for stroke in _strokes(rng):
                t.submit(seat, {"type": "stroke", **stroke}, 1, 6)
        admitted = set()
        for seat in drawing:
            if rng.random() < 0.03:
                t.submit(seat, {"type": "wrong_word"}, 3, 10)
                admitted.add(seat)
        # Guesses arrive in the order of each player's speed, with some luck.
        events = []
        for seat in drawing:
            me = t.people[seat]
            for drawer in drawing:
                if drawer != seat and drawer not in admitted and rng.random() < 0.85:
                    events.append((rng.expovariate(me.speed), seat, drawer))
        events.sort()
        last_move = {}
        for when, seat, drawer in events:
            me, them = t.people[seat], t.people[drawer]
            mine = t.view(seat)
            if drawer not in mine["can_guess_on"] or not mine["numbers_left"]:
                continue
            right = number[drawer]
            p = min(0.95, me.skill * them.clarity * ease * 1.4)
            if right in mine["numbers_left"] and rng.random() < p:
                guess = right
            else:
                wrong = [k for k in mine["numbers_left"] if k != right]
                if not wrong:
                    continue
                guess = rng.choice(wrong)
            t.submit(seat, {"type": "guess", "drawer": drawer, "number": guess}, 2, 12)
            last_move[seat] = when
        for seat in sorted(drawing, key=lambda s: last_move.get(s, 0)):
            moves = [m for m in t.legal(seat) if m["type"] == "finish"]
            if not moves:
                continue  # the round has already ended (competitive: the last black token went)
            tokens = [m for m in moves if m["token"] is not None]
            move = tokens[0] if tokens and rng.random() < 0.7 else {"type": "finish", "token": None}
            t.submit(seat, move, 3, 20)


def play_one(game: str, options: dict, group: list[Person], rng: random.Random, clock: Clock) -> str:
    t = Table(game, options, group, rng, clock)
    (play_pictomania if game == "pictomania" else play_dixit_family)(t)
    return t.room.code


# ---- the archive -------------------------------------------------------------------------------

def _seats_for(game: str, options: dict, low: int, high: int, rng: random.Random) -> int:
    n = rng.randint(low, high)
    if options.get("variant") == "team":
        n -= n % 2
    return n


def simulate(games: int = 30, seed: int = 0, today: datetime | None = None) -> list[str]:
    """Play `games` finished games into the current archive; returns their room codes."""
    rng = random.Random(seed)
    group = people(rng)
    # The calendar first: a session of a few games every few days, the last one yesterday.
    session_starts = [i for i in range(games) if i == 0 or rng.random() < 0.35]
    gaps = [rng.randint(2, 5) for _ in session_starts]
    today = (today or datetime.now(timezone.utc)).replace(minute=0, second=0, microsecond=0)
    day = today - timedelta(days=sum(gaps) + 1)
    clock = Clock(day)
    kinds, codes = [], []
    with simulated_time(clock):
        for i in range(games):
            if not kinds:
                kinds = list(TABLES)
                rng.shuffle(kinds)
            game, options, low, high = kinds.pop()
            if i in session_starts:  # a new session a few days later, after lunch or after work
                day += timedelta(days=gaps[session_starts.index(i)])
                clock.now = day.replace(hour=rng.choice((12, 13, 16, 17)), minute=rng.randint(0, 59))
            else:
                clock.tick(120, 600, rng)
            n = _seats_for(game, options, low, high, rng)
            codes.append(play_one(game, dict(options), rng.sample(group, n), rng, clock))
    return codes


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Fill the Sobremesa archive with simulated games.")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    codes = simulate(args.games, args.seed)
    print(f"{len(codes)} games played into {tables.store().path if hasattr(tables.store(), 'path') else 'the store'} "
          f"in {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
