"""The conformance kit (engine/core/conformance) by game name, over the registry: the cases every
generic suite runs (every game of `GAMES`, the toy game included), and the kit's player and move
generators, named as the tests have always called them."""

from __future__ import annotations

from engine.core import conformance
from engine.core.conformance import (  # noqa: F401  (the tests' names for the kit's)
    MAX_MOVES,
    NOT_FOR_PLAYERS,
    content,
    fill,
    illegal_neighbours,
    junk_for,
    malformed,
    random_move,
    revealed_has_no_seed,
    strings_in,
    views,
)
from engine.games import GAMES


def cases() -> list[tuple[str, dict, int]]:
    """Every game × variant × allowed seat count: (game name, options, seats)."""
    return [(name, variant, n) for name, game in GAMES.items() for variant, n in conformance.cases(game)]


def case_id(case) -> str:
    return conformance.case_id(*case)


def new_state(name: str, variant: dict, seats: int, seed: int) -> dict:
    return conformance.new_state(GAMES[name], variant, seats, seed)


def random_game(name: str, variant: dict, seats: int, seed: int, host_chance: float = 0.0, each=None):
    """Play one seeded game to its end: (first state, final state, accepted moves)."""
    return conformance.random_game(GAMES[name], variant, seats, seed, host_chance=host_chance, each=each)
