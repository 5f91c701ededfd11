"""Seeded randomness held in the state.

The state keeps only `{"seed": s, "draws": n}`. Each draw derives a fresh generator from both, so a
state that went through JSON continues exactly as one that did not, and the log plus the seed
rebuild every shuffle.
"""

from __future__ import annotations

import random


def new(seed: int) -> dict:
    return {"seed": int(seed), "draws": 0}


def draw(state: dict) -> random.Random:
    """A generator for one random act; advances the state's counter."""
    rng = state["rng"]
    rng["draws"] += 1
    return random.Random(f"{rng['seed']}/{rng['draws']}")
