"""Small builders the engine tests share."""

from engine.core import play
from engine.games import GAMES


def fake_cards(n=100, prefix="dream"):
    return [f"{prefix}-{i:03d}" for i in range(1, n + 1)]


def start(game_name, seats, seed=1, options=None, cards=None):
    game = GAMES[game_name]
    opts = game.check_options(options)
    return game, game.setup(seats, opts, seed, cards if cards is not None else fake_cards())


def position_of(state, seat):
    return next(p["position"] for p in state["table"] if p["owner"] == seat)


def step(game, state, **move):
    return play(game, state, move)
