"""The statistics module of each game family: `engine/stats/<family>.py`, for every family a game
of the registry names on its Game (`Game.family`). A game without a family has no figures of its
own; it still counts in the players' records."""

from __future__ import annotations

import importlib

from engine.games import GAMES

FAMILIES = {
    name: importlib.import_module(f"engine.stats.{name}")
    for name in dict.fromkeys(game.family for game in GAMES.values() if game.family)
}


def family_of(game: str):
    """The statistics module of a game, or None for a game without statistics of its own yet."""
    known = GAMES.get(game)
    return FAMILIES.get(known.family) if known is not None and known.family is not None else None


def members(family) -> tuple[str, ...]:
    """The games a statistics family covers: those whose Game names it."""
    return tuple(name for name, game in GAMES.items() if game.family == family.NAME)
