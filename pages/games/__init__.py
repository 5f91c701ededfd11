"""Each game's own UI, one folder per game (or per family of games that share their screens):

    pages/games/<folder>/
      <game>.py        its start-page part: `PITCH` (one line), `options()` (the host's choices, as
                       the engine's options dict), `PACE_NAMES` (each timed phase's name, for the
                       start page's pace line; `pace_names(options)` where the variant changes
                       them); it may have `above_stage(view, act)` (a phone's own part above the
                       stage: Pictomania's pad) and `host_extra(view)` (the host's own tools)
      screens.py       its screens on the stage: `wall`, `phone`, `member` (HTML from a view)
      templates/       the screens' Jinja templates, named `<folder>_*.html`
      charts.py        its Statistics tab, when its records have figures of their own

The folder is the game's statistics family (Dixit and Odyssey share `dixit_family`), else its
name; a game outside the project names its own (`Game.ui`, a package: tests/toy). Everything here
is derived from the engine's registry (`tables.games()`), read when asked (a game may be registered
later): no shared file lists games.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType

from engine import tables


def folder(name: str) -> str:
    """The package that holds a game's UI."""
    game = tables.games()[name]
    return game.ui or f"pages.games.{game.family or name}"


def screens(name: str) -> ModuleType | None:
    """A game's screens on the stage, or None for a game with none (its wall and phones then say
    plainly that they cannot show it)."""
    try:
        return importlib.import_module(f"{folder(name)}.screens")
    except ModuleNotFoundError as exc:
        if exc.name != f"{folder(name)}.screens":
            raise
        return None


def templates(name: str) -> Path:
    """The folder of a game's templates."""
    return Path(importlib.import_module(folder(name)).__file__ or "").resolve().parent / "templates"


@functools.cache
def charts(family: str) -> ModuleType:
    """A statistics family's tab (engine/stats/registry.py lists the families)."""
    return importlib.import_module(f"pages.games.{family}.charts")


class _Setups(Mapping):
    """Each game's start-page part, by the game's name."""

    def __getitem__(self, name: str) -> ModuleType:
        return importlib.import_module(f"{folder(name)}.{name}")

    def __iter__(self) -> Iterator[str]:
        return iter(tables.games())

    def __len__(self) -> int:
        return len(tables.games())


SETUPS: Mapping[str, ModuleType] = _Setups()
