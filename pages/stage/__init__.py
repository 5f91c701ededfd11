"""The stage: a game's screens drawn on the server from a viewer's view, sent over the room's
socket and morphed in place in the browser (the LiveView model; `pages/assets/stage.js`).

A stage module has `wall(view, lang)`, `phone(view, lang)` and `member(view, me, lang)`, each
returning HTML in that language, built from templates (`render.py`) and the kit's partials
(`templates/kit.html`). They make no Streamlit call. A game is on the stage when it has one:
`pages.stage.<name>`, or the module its screen module names as `STAGE` (a game outside the
project). A member's phone of a game with no stage module of its own is drawn by `member.py`."""

from __future__ import annotations

import importlib
from types import ModuleType

from engine import tables


def stage_of(game: str) -> ModuleType | None:
    """The stage module of a game, or None while the game is drawn by Streamlit."""
    found = tables.games().get(game)
    if found is None:
        return None
    if found.screen:
        name = getattr(importlib.import_module(found.screen), "STAGE", None)
        return importlib.import_module(name) if name else None
    try:
        return importlib.import_module(f"pages.stage.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"pages.stage.{game}":
            raise
        return None


def on_stage(game: str) -> bool:
    """Whether the game's wall and phones are drawn on the stage (a module may hold only `member`,
    a member's phone of a game still drawn by Streamlit)."""
    stage = stage_of(game)
    return stage is not None and hasattr(stage, "wall") and hasattr(stage, "phone")


def wall_on_stage(game: str) -> bool:
    """Whether the game's wall is drawn on the stage: with its phones (`on_stage`), or alone while
    the phones stay Streamlit's (Pictomania's, around the drawing pad)."""
    stage = stage_of(game)
    return stage is not None and hasattr(stage, "wall")
