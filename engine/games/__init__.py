"""Every game Sobremesa hosts, by its API name."""
from engine.core.game import Game
from engine.games import dixit, maudit_mot_dit, odyssey, pictomania, trading_faces

GAMES: dict[str, Game] = {game.name: game for game in (dixit.GAME, odyssey.GAME, pictomania.GAME, trading_faces.GAME,
                                                    maudit_mot_dit.GAME)}
