"""How the demo's simulated group plays Pictomania (engine/demo.py): a few short random strokes
each (an eraser stroke now and then), then guesses arrive in the order of each player's speed, right
as often as the guesser's skill, the drawer's clarity and the deck's difficulty make likely."""

from __future__ import annotations

import math
import random

DECK_EASE = {"green": 1.0, "yellow": 0.9, "orange": 0.8, "red": 0.7}
PALETTE = ("#000000", "#000000", "#e53935", "#1e88e5", "#43a047", "#fb8c00", "#8e24aa")


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
        strokes.append(
            {
                "points": points,
                "width": rng.choice((4, 6, 6, 8, 12)) if not eraser else 24,
                "color": "eraser" if eraser else rng.choice(PALETTE),
            }
        )
    return strokes


def simulate(t) -> None:
    """Play one game of Pictomania to its end through the table `t` (engine/demo.py)."""
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
