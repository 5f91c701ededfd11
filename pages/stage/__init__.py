"""The stage: a game's screens drawn on the server from a viewer's view, sent over the room's
socket and morphed in place in the browser (the LiveView model; `pages/assets/stage.js`).

A game's screens are the `screens.py` of its folder (pages/games): `wall(view, lang, extra)`,
`phone(view, lang, extra)` and `member(view, me, lang, extra)`, each returning HTML in that
language, built from templates (`render.py`) and the kit's partials (`kit.py`,
`templates/kit.html`). They make no Streamlit call. A member's phone of a game with no `member`
of its own is drawn by `member.py`; the wall's lobby by `lobby.py`."""

from __future__ import annotations

from types import ModuleType

from pages import games

_screens: dict[str, ModuleType | None] = {}


def stage_of(game: str) -> ModuleType | None:
    """The screens of a game, or None for a game with none (looked up once: every draw asks)."""
    try:
        return _screens[game]
    except KeyError:
        found = _screens[game] = games.screens(game) if game in games.SETUPS else None
        return found


def on_stage(game: str) -> bool:
    """Whether the game's wall and phones are drawn on the stage (a module may hold only `member`)."""
    stage = stage_of(game)
    return stage is not None and hasattr(stage, "wall") and hasattr(stage, "phone")


def wall_on_stage(game: str) -> bool:
    """Whether the game's wall is drawn on the stage."""
    stage = stage_of(game)
    return stage is not None and hasattr(stage, "wall")
