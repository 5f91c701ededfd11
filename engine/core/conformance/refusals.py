"""Moves a game must refuse: malformed ones (broken shapes, wrong seats, junk in every field, host
moves with bad targets, moves of another phase) and well-formed ones its rules refuse now."""

from __future__ import annotations

import random
import re

from engine.core import moves as m
from engine.core.conformance.player import fill
from engine.core.moves import Maybe, Text

# What a refusal written for a player never shows: seat numbers, phase ids, field names, tracebacks.
NOT_FOR_PLAYERS = re.compile(
    r"seat \d|phase|'(claim|tell|give|vote|words|draw|red_vote|positions?|cards?)'|"
    r"\(seat|Traceback|Error|\{|\}"
)


def junk_for(field, state: dict) -> list:
    """Values a field can never accept (so each is a refusal whatever the state)."""
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
    bad: list = [
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
        return [[v] for v in items] + [sorted(pair) for pair in zip(items, items[1:], strict=False)]
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
    tries = []
    for seat in seats:
        for move in legal[seat][:4]:
            spec = game.move_specs[move["type"]]
            tries += [{**move, "seat": other} for other in seats if other != seat]
            for name, field in spec.fields.items():
                if move.get(name) is None and name != "token":  # free text or a drawing
                    continue
                tries += [{**move, name: value} for value in _pool(field, state, values, name) if value != move[name]]
    # A random sample of the refused ones: the candidates in random order, the first `limit` the
    # rules refuse. Only those are checked against the legal moves, not every candidate.
    rnd.shuffle(tries)
    found = []
    for candidate in tries:
        if candidate.get("phrase", 0) is None or candidate.get("points", 0) is None:
            continue
        if candidate not in legal[candidate["seat"]]:
            found.append(candidate)
            if len(found) == limit:
                break
    return found
