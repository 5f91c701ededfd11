"""Every game Sobremesa hosts, by its API name: the one registry every other derives from.

A game that lives elsewhere is hosted with `register(game)`, or by naming its module (one with a
`GAME`) in `SOBREMESA_GAMES` (comma-separated), so that every server process hosts it too."""

import importlib
import logging
import os

from engine.core.game import Game
from engine.games import dixit, maudit_mot_dit, odyssey, pictomania, trading_faces

GAMES: dict[str, Game] = {
    game.name: game for game in (dixit.GAME, odyssey.GAME, pictomania.GAME, trading_faces.GAME, maudit_mot_dit.GAME)
}


def register(game: Game) -> None:
    """Host one more game (one that lives outside engine/games, like the tests' toy): the screens,
    titles, statistics and every suite that runs over GAMES pick it up."""
    if GAMES.get(game.name, game) is not game:
        raise ValueError(f"another game is already called {game.name!r}")
    GAMES[game.name] = game


def unregister(name: str) -> None:
    GAMES.pop(name, None)


for _module in filter(None, (m.strip() for m in os.environ.get("SOBREMESA_GAMES", "").split(","))):
    try:
        register(importlib.import_module(_module).GAME)
    except (ImportError, AttributeError, ValueError):  # a game that cannot be found is not hosted
        logging.getLogger(__name__).warning("SOBREMESA_GAMES: no game in %s", _module)
