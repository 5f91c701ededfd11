"""The statistics module of each game family: one module per family, listed once here."""
from __future__ import annotations

from engine.stats import dixit_family, pictomania

FAMILIES = {module.NAME: module for module in (dixit_family, pictomania)}


def family_of(game: str):
    """The statistics module of a game, or None for a game without statistics of its own yet."""
    from engine.games import GAMES

    known = GAMES.get(game)
    return FAMILIES.get(known.family) if known is not None else None


def members(family) -> tuple[str, ...]:
    """The games a statistics family covers: those whose Game names it."""
    from engine.games import GAMES

    return tuple(name for name, game in GAMES.items() if game.family == family.NAME)
