"""The statistics module of each game family: one module per family, listed once here."""
from __future__ import annotations

from engine.stats import dixit_family, pictomania

FAMILIES = {module.NAME: module for module in (dixit_family, pictomania)}


def family_of(game: str):
    """The statistics module of a game, or None for a game without statistics of its own yet."""
    return next((m for m in FAMILIES.values() if game in m.GAMES), None)
