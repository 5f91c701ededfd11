"""Per-game renderers. Each module has `PITCH` (one line for the start page), `options()` (the
host's choices, as the engine's options dict), `table(view)` for the shared screen and
`player(view, act)` for a phone. The pages pick one by the view's game. Every game of the engine's
registry has one, named after it: the registry is the only list of games."""
import importlib

from engine import tables

SCREENS = {name: importlib.import_module(f"pages.screens.{name}") for name in tables.games()}
