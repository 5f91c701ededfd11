"""Drawings of the largest size the game allows (MAX_STROKES strokes, MAX_DRAWING_POINTS points),
for the keepsake's tests and bench/replay.py."""

from __future__ import annotations

import random

from . import pictomania_canvas as canvas


def largest_drawing(seed: int, timed: bool = True) -> list[dict]:
    rnd = random.Random(seed)
    strokes, t = [], 0
    per = canvas.MAX_DRAWING_POINTS // canvas.MAX_STROKES
    for _ in range(canvas.MAX_STROKES):
        x, y = rnd.randint(0, canvas.CANVAS_WIDTH), rnd.randint(0, canvas.CANVAS_HEIGHT)
        points = []
        for _ in range(per):
            x = min(canvas.CANVAS_WIDTH, max(0, x + rnd.randint(-15, 15)))
            y = min(canvas.CANVAS_HEIGHT, max(0, y + rnd.randint(-15, 15)))
            points.append([x, y])
        t += rnd.randint(200, 3000)
        stroke = {
            "points": points,
            "width": rnd.choice([5, 10, 20, 32]),
            "color": rnd.choice([*canvas.PALETTE, canvas.ERASER]),
        }
        strokes.append({**stroke, "t": t} if timed else stroke)
    return strokes


def largest_round(players: int = 6) -> dict:
    """A scored round's record (the parts the keepsake reads) with `players` largest drawings."""
    return {
        "round": 1,
        "cards": {"A": ["sun", "boat", "cat", "tree", "house", "moon", "fish"]},
        "assignments": {str(s): {"letter": "A", "number": s + 1} for s in range(players)},
        "drawings": {str(s): largest_drawing(s, timed=s % 2 == 0) for s in range(players)},
    }
