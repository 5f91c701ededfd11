"""Per-game renderers. Each module has `PITCH` (one line for the start page), `options()` (the
host's choices, as the engine's options dict), `table(view)` for the shared screen and
`player(view, act)` for a phone. The pages pick one by the view's game; a game appears on the
start page once it is listed here."""
from pages.screens import dixit, odyssey, pictomania

SCREENS = {"dixit": dixit, "odyssey": odyssey, "pictomania": pictomania}
