"""What the game tests share: a seeded random player that plays any game through `legal()` alone,
the cases the conformance suite runs, and a malformed-move generator.

Nothing here names a game: everything comes from `GAMES` and each game's `Move` specs.
"""

from __future__ import annotations

import json
import random
import re

from engine.core import REVEALED, SHARED, play, table_view
from engine.core.moves import Maybe, Text
from engine.games import GAMES
from tests.helpers import fake_cards

MAX_MOVES = 5000
# What a refusal written for a player never shows: seat numbers, phase ids, field names, tracebacks.
NOT_FOR_PLAYERS = re.compile(
    r"seat \d|phase|'(claim|tell|give|vote|words|draw|red_vote|positions?|cards?)'|"
    r"\(seat|Traceback|Error|\{|\}"
)


def cases() -> list[tuple[str, dict, int]]:
    """Every game × variant × allowed seat count: (game name, options, seats)."""
    found = []
    for name, game in GAMES.items():
        for variant in game.variants:
            options = game.check_options(variant)
            found += [(name, variant, n) for n in game.seat_counts(options)]
    return found


def case_id(case) -> str:
    name, variant, seats = case
    label = "-".join(f"{k}={v}" for k, v in variant.items()) or "base"
    return f"{name}[{label}]x{seats}"


def content(game, options: dict, seats: int):
    """Picture games play with plain numbered cards (the rules, not the art); word games with
    their real decks."""
    if game.content.min_cards is not None:
        return fake_cards(100)
    return game.content.cards(options, seats)


_CONTENT: dict = {}


def new_state(name: str, variant: dict, seats: int, seed: int) -> dict:
    game = GAMES[name]
    options = game.check_options(variant)
    key = (name, json.dumps(options, sort_keys=True), seats)
    if key not in _CONTENT:
        _CONTENT[key] = content(game, options, seats)
    return game.setup(seats, options, seed, _CONTENT[key])


def fill(game, move: dict, rnd: random.Random, state: dict | None = None) -> dict:
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


def random_move(game, state: dict, rnd: random.Random, host_chance: float = 0.0) -> dict:
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
    assert moves, f"seat {seat} is waited on but has no legal move in {state['phase']}"
    return fill(game, rnd.choice(moves), rnd, state)


def random_game(name: str, variant: dict, seats: int, seed: int, host_chance: float = 0.0, each=None):
    """Play one seeded game to its end. Returns (first state, final state, accepted moves).
    `each(state)` is called before every move. A refused host move is fine; a refused legal move
    fails the test."""
    game = GAMES[name]
    rnd = random.Random(seed)
    state = new_state(name, variant, seats, seed)
    first = json.loads(json.dumps(state))
    log = []
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
                assert json.dumps(state, sort_keys=True) == before, f"a refused {move} changed the state: {exc}"
                continue
        else:
            play(game, state, move)
        log.append(move)
    raise AssertionError(f"{name} {variant} x{seats}, seed {seed}: the game did not end in {MAX_MOVES} moves")


def views(game, state: dict) -> dict:
    """Every viewer's view: the shared screen and each seat."""
    return {
        SHARED: table_view(game, state, SHARED),
        **{seat: table_view(game, state, seat) for seat in range(state["players"])},
    }


def strings_in(value) -> set:
    """Every string anywhere in a view, keys included: secrets are searched by value, not by key."""
    return set(re.findall(r'"((?:[^"\\]|\\.)*)"', json.dumps(value, ensure_ascii=False)))


def revealed_has_no_seed(game, state: dict) -> bool:
    return "seed" not in json.dumps(table_view(game, state, REVEALED)).replace('"rng": null', "")


# ---- malformed moves ---------------------------------------------------------------------------


def junk_for(field, state: dict) -> list:
    """Values a field can never accept (so each is a refusal whatever the state)."""
    from engine.core import moves as m

    nul, surrogate, rtl = "a\x00b", "\ud800", "a\u202eb"
    if isinstance(field, m.Maybe):
        return [v for v in junk_for(field.inner, state) if v is not None]
    if isinstance(field, m.Whole):
        return [True, False, 1.5, "1", None, -7, 10**9, [1], float("nan")]
    if isinstance(field, m.Number):
        return [True, "2", None, float("nan"), float("inf"), 1e9, -1]
    if isinstance(field, m.SeatNo):
        return [True, 1.0, -1, state["players"], "0", None, [0]]
    if isinstance(field, m.OneOf):
        return ["Z", 1, None, True, ["A"], {}]
    if isinstance(field, m.Flag):
        return [None, 1, 0, "true", [], 1.5]
    if isinstance(field, m.Text):
        return [5, ["a"], {"a": 1}, "x" * (field.most + 1), "x" * 10**6, surrogate, nul, rtl, "a\u200bb"]
    if isinstance(field, m.Id):
        return [None, 5, "", "x" * 200, nul, ["a"], "zz-not-dealt", surrogate]
    if isinstance(field, m.Many):
        hi = field.hi(state) if callable(field.hi) else field.hi
        item = [v for v in junk_for(field.item, state) if v is not None][:3]
        return [
            None,
            "abc",
            [],
            [[v] for v in item][0],
            ["zz-not-dealt"] * (hi + 1),
            [f"zz-{i}" for i in range(hi + 1)],
            list(range(100)),
        ]
    return [None, True, 1.5, "x", [], {}, [[[]]], 10**12, nul]


def malformed(game, state: dict, rnd: random.Random, stale: dict) -> list:
    """Moves the game must refuse now: broken shapes, wrong seats, junk in every field, host moves
    with bad targets, and moves of another phase (`stale`: a legal move seen earlier, by type)."""
    players = state["players"]
    seats = game.waiting_for(state) or game.playing(state)
    seat = rnd.choice(seats)
    legal = game.legal(state, seat)
    base = fill(game, rnd.choice(legal), rnd) if legal else None
    bad = [
        None,
        [],
        "vote",
        3,
        {"seat": seat},
        {"type": 5, "seat": seat},
        {"type": "x" * 100, "seat": seat},
        {"type": "xyzzy", "seat": seat},
        {"type": "end", "seat": seat},
        {"type": "skip", "seat": seat, "target": 0},
    ]
    for target in (True, 1.0, -1, players, "0", None, [0]):
        bad.append({"type": rnd.choice(("skip", "kick")), "seat": None, "target": target})
    bad.append({"type": "end", "seat": None, "extra": 1})
    if base is not None:
        spec = game.move_specs[base["type"]]
        for wrong in (True, False, 1.0, str(seat), -1, players, None, 10**30):
            bad.append({**base, "seat": wrong})
        bad.append({**base, "surprise": 1})
        bad.append({**base, "\ud800": 1})
        for name, field in spec.fields.items():
            if not isinstance(field, (Text, Maybe)):
                bad.append({k: v for k, v in base.items() if k != name})
            for value in rnd.sample(junk_for(field, state), k=min(3, len(junk_for(field, state)))):
                bad.append({**base, name: value})
    for kind, move in stale.items():
        if state["phase"] not in game.move_specs[kind].phases:
            bad.append(dict(move))
    return bad


def _pool(field, state: dict, values: dict, name: str) -> list:
    """Well-formed values for a field: every value of its range, or those seen in legal moves."""
    from engine.core import moves as m

    if isinstance(field, m.Maybe):
        return [None] + _pool(field.inner, state, values, name)
    if isinstance(field, m.Whole):
        lo, hi = (b(state) if callable(b) else b for b in (field.lo, field.hi))
        return list(range(lo, min(hi, lo + 15) + 1))
    if isinstance(field, m.SeatNo):
        return list(range(state["players"]))
    if isinstance(field, m.OneOf):
        return list(field.values)
    if isinstance(field, m.Many):
        items = [v for v in _pool(field.item, state, values, name + "[]")]
        return [[v] for v in items] + [sorted(pair) for pair in zip(items, items[1:])]
    return values.get(name, [])


def illegal_neighbours(game, state: dict, rnd: random.Random, limit: int = 30) -> list:
    """Well-formed moves the rules refuse now: a legal move of some seat, made by another seat or
    with another value in one of its fields (another's card, one's own card, a taken number...).
    Each is checked against `legal()`: only moves it does not list are returned."""
    seats = list(range(state["players"]))
    legal = {s: game.legal(state, s) for s in seats}
    values: dict = {}
    for moves in legal.values():
        for move in moves:
            for name, value in move.items():
                if isinstance(value, list):
                    for item in value:
                        values.setdefault(name + "[]", []).append(item)
                values.setdefault(name, []).append(value)
    found = []
    for seat in seats:
        for move in legal[seat][:4]:
            spec = game.move_specs[move["type"]]
            tries = [{**move, "seat": other} for other in seats if other != seat]
            for name, field in spec.fields.items():
                if move.get(name) is None and name != "token":  # free text or a drawing
                    continue
                tries += [{**move, name: value} for value in _pool(field, state, values, name) if value != move[name]]
            for candidate in tries:
                if candidate not in legal[candidate["seat"]] and not any(
                    v is None and k in ("phrase", "points") for k, v in candidate.items()
                ):
                    found.append(candidate)
    rnd.shuffle(found)
    return found[:limit]
