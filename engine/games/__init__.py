"""Every game Sobremesa hosts, by its API name."""
from engine.core.game import Game
from engine.games import dixit, odyssey, pictomania

GAMES: dict[str, Game] = {game.name: game for game in (dixit.GAME, odyssey.GAME, pictomania.GAME)}
