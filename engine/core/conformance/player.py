"""A seeded random player that plays any game through `legal()` alone, and the views it looks at.
It names no game: everything comes from the `Game` it is handed and its `Move` specs."""

from __future__ import annotations

import json
import random

from engine.core.game import REVEALED, SHARED, Game, table_view
from engine.core.moves import Maybe, Text, play

MAX_MOVES = 5000


def numbered_cards(n: int = 100, prefix: str = "dream") -> list[str]:
    """Plain numbered picture cards: a picture game's rules are tested without its art."""
    return [f"{prefix}-{i:03d}" for i in range(1, n + 1)]


def content(game: Game, options: dict, seats: int):
    """Picture games play with plain numbered cards (the rules, not the art); word games with
    their real decks."""
    if game.content.min_cards is not None:
        return numbered_cards(100)
    return game.content.cards(options, seats)


_dealt: dict = {}  # (game, options, seats) -> content: a word game's deck is read once per run


def new_state(game: Game, variant: dict, seats: int, seed: int, cards=None) -> dict:
    options = game.check_options(variant)
    if cards is None:
        key = (game.name, id(game), json.dumps(options, sort_keys=True), seats)
        if key not in _dealt:
            _dealt[key] = content(game, options, seats)
        cards = _dealt[key]
    return game.setup(seats, options, seed, cards)


def fill(game: Game, move: dict, rnd: random.Random, state: dict | None = None) -> dict:
    """A legal move with its free fields (left None by `legal()`) filled as a player might (knowing
    the state when it is given: see `Field.sample_for`)."""
    spec = game.move_specs.get(move["type"])
    if spec is None:
        return move
    move = dict(move)
    for name, field in spec.fields.items():
        if move.get(name) is None:
            sample = field.sample(rnd) if state is None else field.sample_for(state, rnd)
            required = not isinstance(field, (Text, Maybe)) or not getattr(field, "optional", True)
            if sample is not None and (required or rnd.random() < 0.6):
                move[name] = sample
    return move


def random_move(game: Game, state: dict, rnd: random.Random, host_chance: float = 0.0) -> dict:
    """A random move: mostly from a seat the table waits on, sometimes from any seat with a move
    (a Pictomania replacement), now and then a host skip or kick."""
    if host_chance and rnd.random() < host_chance:
        skippable = game.host.skippable(state)
        if skippable and rnd.random() < 0.8:
            return {"type": "skip", "seat": None, "target": rnd.choice(skippable)}
        return {"type": "kick", "seat": None, "target": rnd.choice(game.playing(state))}
    waiting = game.waiting_for(state)
    seats = waiting
    if not waiting or rnd.random() < 0.05:
        seats = [s for s in game.playing(state) if game.legal(state, s)] or waiting
    seat = rnd.choice(seats)
    moves = game.legal(state, seat)
    if not moves:
        raise AssertionError(f"seat {seat} is waited on but has no legal move in {state['phase']}")
    return fill(game, rnd.choice(moves), rnd, state)


def random_game(
    game: Game, variant: dict, seats: int, seed: int, host_chance: float = 0.0, each=None, cards=None
) -> tuple[dict, dict, list]:
    """Play one seeded game to its end. Returns (first state, final state, accepted moves).
    `each(state)` is called before every move. A refused host move is fine; a refused legal move
    is a failure."""
    rnd = random.Random(seed)
    state = new_state(game, variant, seats, seed, cards)
    first = json.loads(json.dumps(state))
    log: list[dict] = []
    for _ in range(MAX_MOVES):
        if game.outcome(state) is not None:
            return first, state, log
        if each is not None:
            each(state)
        move = random_move(game, state, rnd, host_chance)
        if move["seat"] is None:
            before = json.dumps(state, sort_keys=True)
            try:
                play(game, state, move)
            except Exception as exc:
                if json.dumps(state, sort_keys=True) != before:
                    raise AssertionError(f"a refused {move} changed the state: {exc}") from exc
                continue
        else:
            play(game, state, move)
        log.append(move)
    raise AssertionError(f"{game.name} {variant} x{seats}, seed {seed}: the game did not end in {MAX_MOVES} moves")


def views(game: Game, state: dict) -> dict:
    """Every viewer's view: the shared screen and each seat."""
    return {
        SHARED: table_view(game, state, SHARED),
        **{seat: table_view(game, state, seat) for seat in range(state["players"])},
    }


def strings_in(value) -> set:
    """Every string anywhere in a view, keys included: secrets are searched by value, not by key.
    (A walk, not a regular expression over the view's JSON: four times faster, and a string with a
    quote in it is found as itself, not as its escaped JSON.)"""
    found: set = set()
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            found.add(item)
        elif kind is dict:
            found.update(item)  # its keys (a number as a key is no secret: secrets are strings)
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
    return found


def revealed_has_no_seed(game: Game, state: dict) -> bool:
    return "seed" not in json.dumps(table_view(game, state, REVEALED)).replace('"rng": null', "")
