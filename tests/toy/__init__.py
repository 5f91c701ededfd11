"""Pebbles: a toy game that lives only in tests/, to prove that a game registers through the
public extension points alone (`engine.games.register`, its `Game` fields, its own UI folder)
and passes every generic suite without an edit outside tests/.

Each seat holds a secret pebble for every round (unique ids: the leak checks search views by value).
Every round each seat drops one in the bag at once; then the round's caller empties the bag on the
table, and a pebble no one else dropped the same colour of scores its weight. Long enough for the conformance
suite's quota of malformed moves.
"""

from __future__ import annotations

import json

from engine.core import Game, IllegalMove, rng
from engine.core.game import scores_outcome
from engine.core.moves import Id, Move
from engine.core.parts import Clock, Host

ROUNDS = 24
COLOURS = ("red", "blue", "green")


def setup(seats: int, options: dict, seed: int, content) -> dict:
    state = {
        "game": "pebbles",
        "rules_version": "1",
        "options": dict(options),
        "players": seats,
        "rng": rng.new(seed),
        "phase": "drop",
        "round": 1,
        "bag": {},
        "sitting_out": [],
        "out": [],
        "scores": [0] * seats,
        "history": [],
    }
    pool = [f"pebble-{c}-{w}-{i}" for c in COLOURS for w in (1, 2, 3) for i in range(seats * ROUNDS // 9 + 2)]
    rng.draw(state).shuffle(pool)
    state["hands"] = [pool[ROUNDS * s : ROUNDS * (s + 1)] for s in range(seats)]
    state["spare"] = pool[ROUNDS * seats :]
    return state


def caller(state: dict) -> int:
    still = [s for s in range(state["players"]) if s not in state["out"]]
    return still[(state["round"] - 1) % len(still)]


def waiting_for(state: dict) -> list[int]:
    if state["phase"] == "call":
        return [caller(state)]
    if state["phase"] != "drop":
        return []
    return [
        s
        for s in range(state["players"])
        if str(s) not in state["bag"] and s not in state["out"] and s not in state["sitting_out"]
    ]


def legal(state: dict, seat: int) -> list[dict]:
    if seat not in waiting_for(state):
        return []
    if state["phase"] == "call":
        return [{"type": "empty", "seat": seat}]
    return [{"type": "drop", "seat": seat, "pebble": p} for p in state["hands"][seat]]


def _colour(pebble: str) -> str:
    return pebble.split("-")[1]


def _drop(state: dict, move: dict) -> None:
    seat, pebble = move["seat"], move["pebble"]
    if pebble not in state["hands"][seat]:
        raise IllegalMove("That pebble is not in your hand.")
    state["hands"][seat].remove(pebble)
    state["bag"][str(seat)] = pebble
    if not waiting_for(state):
        state["phase"] = "call"


def _empty_bag(state: dict) -> None:
    bag = state["bag"]
    colours = [_colour(p) for p in bag.values()]
    scores = {str(s): 0 for s in range(state["players"])}
    for seat, pebble in bag.items():
        if colours.count(_colour(pebble)) == 1:
            scores[seat] = int(pebble.split("-")[2])
            state["scores"][int(seat)] += scores[seat]
    state["history"].append({"round": state["round"], "bag": dict(bag), "scores": scores})
    state["bag"], state["sitting_out"] = {}, []
    if state["round"] >= ROUNDS:
        state["phase"] = "end"
    else:
        state["round"] += 1
        state["phase"] = "drop"


def view(state: dict, viewer) -> dict:
    seen = {
        "round": state["round"],
        "rounds": ROUNDS,
        "dropped": sorted(int(s) for s in state["bag"]),
        "caller": caller(state) if state["phase"] != "end" else None,
        "history": state["history"],
    }
    if isinstance(viewer, int):
        seen["hand"] = list(state["hands"][viewer])
        seen["mine"] = state["bag"].get(str(viewer))
    return seen


def secrets(state: dict, seat: int) -> set:
    shown = {p for turn in state["history"] for p in turn["bag"].values()}
    return (set(state["hands"][seat]) | ({state["bag"][str(seat)]} if str(seat) in state["bag"] else set())) - shown


def alternative(state: dict, seat: int, rnd) -> dict | None:
    other = json.loads(json.dumps(state))
    if not other["spare"] or not other["hands"][seat]:
        return None
    i, j = rnd.randrange(len(other["hands"][seat])), rnd.randrange(len(other["spare"]))
    other["hands"][seat][i], other["spare"][j] = other["spare"][j], other["hands"][seat][i]
    return other


def skippable(state: dict) -> list[int]:
    waiting = waiting_for(state) if state["phase"] == "drop" else []
    return waiting[:-1] if len(waiting) > 1 else []


def _skip(state: dict, target: int) -> None:
    if target not in skippable(state):
        raise IllegalMove("Nobody can be skipped now.")
    state["sitting_out"].append(target)
    if not waiting_for(state):
        state["phase"] = "call"


def _kick(state: dict, target: int) -> None:
    if target in state["out"] or len(state["out"]) + 1 >= state["players"]:
        raise IllegalMove("Nobody can leave now.")
    state["out"].append(target)
    state["bag"].pop(str(target), None)
    if state["phase"] == "call" or (state["phase"] == "drop" and not waiting_for(state)):
        state["phase"] = "call"
        if not state["bag"]:
            _empty_bag(state)


GAME = Game(
    name="pebbles",
    title="Pebbles",
    min_players=2,
    max_players=4,
    rules_version="1",
    options={},
    setup=setup,
    moves=(
        Move("drop", ("drop",), _drop, {"pebble": Id()}),
        Move("empty", ("call",), lambda state, move: _empty_bag(state)),
    ),
    legal=legal,
    view=view,
    outcome=scores_outcome,
    waiting_for=waiting_for,
    secrets=secrets,
    alternative=alternative,
    turn_word="round",
    host=Host(skippable=skippable, skip=_skip, kick=_kick),
    clock=Clock({"drop": (20, 10)}),  # a call is never skipped: no clock
    ui="tests.toy",  # its start-page part (pebbles.py), screens (screens.py) and templates
)
