"""Per-game Streamlit parts. Each module has `PITCH` (one line for the start page), `options()` (the
host's choices, as the engine's options dict) and `PACE_NAMES` (each timed phase's name, for the
start page's pace line; `pace_names(options)` where it depends on the variant); it may have
`above_stage(view, act)` (a phone's part of its own above the stage: Pictomania's pad) and
`host_extra(view)` (the host's own tools in the wall's sidebar). The game screens themselves are
the stage's (pages/stage). The pages pick one by the view's game. Every game of the engine's
registry has one: `pages.screens.<name>`, or the module its `Game.screen` names. The registry is the
only list of games, and it is read when a screen is asked for (a game may be registered later)."""

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType

from engine import tables


class _Screens(Mapping):
    def __getitem__(self, name: str) -> ModuleType:
        game = tables.games()[name]
        return importlib.import_module(game.screen or f"pages.screens.{name}")

    def __iter__(self) -> Iterator[str]:
        return iter(tables.games())

    def __len__(self) -> int:
        return len(tables.games())


SCREENS: Mapping[str, ModuleType] = _Screens()
