"""A view is a copy of what the game's state shows (`views.as_json`): it must be exactly what a
JSON round trip makes of it, which the views were before, and share nothing with the state."""

from __future__ import annotations

import enum
import json
import random

import pytest

from engine.tables.views import as_json


class Colour(enum.IntEnum):
    RED = 1


def nested(rng: random.Random, depth: int = 0):
    leaves = [None, True, False, 0, -3, 2**70, 1.5, float("inf"), "", "ñ<b>", Colour.RED]
    if depth > 3 or rng.random() < 0.3:
        return rng.choice(leaves)
    if rng.random() < 0.5:
        keys = [rng.choice(["a", "b", 1, 2, 2.5, True, None, Colour.RED]) for _ in range(rng.randint(0, 4))]
        return {k: nested(rng, depth + 1) for k in keys}
    items = [nested(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return tuple(items) if rng.random() < 0.3 else items


def test_a_copy_is_what_a_json_round_trip_makes():
    rng = random.Random(7)
    for _ in range(2000):
        value = nested(rng)
        assert as_json(value) == json.loads(json.dumps(value)), value


def test_a_copy_shares_nothing_with_the_state():
    state = {"hands": [[1, 2], [3]], "scores": {0: 1}}
    copy = as_json(state)
    state["hands"][0].append(9)
    state["scores"][0] = 5
    assert copy == {"hands": [[1, 2], [3]], "scores": {"0": 1}}


def test_what_json_cannot_write_is_refused_as_json_refuses_it():
    with pytest.raises(TypeError):
        as_json({(1, 2): "a tuple key"})
    with pytest.raises(TypeError):
        as_json([{1, 2}])
