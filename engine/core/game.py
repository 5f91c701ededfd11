"""The Game protocol: a game is one declarative object of pure functions over JSON state.

A game module defines, in this order: `setup`, `legal`, `apply`, `view`, `outcome`, and exposes
them as `GAME = Game(...)`. State is a plain JSON-serialisable dict that always carries
`game`, `rules_version`, `options`, `players` (the seat count), `rng`, `phase` and `history`.

Moves are dicts with a `type` and the acting `seat`. Host actions carry `"seat": None`:
`{"type": "skip", "target": s}` (a player who went away sits out what is asked of them now) and
`{"type": "end"}` (the host ends the game; it is scored as it stands).
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.core.errors import GameOver, UnknownMove

SHARED = "table"      # the shared screen: no secret at all
REVEALED = "revealed"  # after the game: everything but the seed

State = dict
Move = dict
Viewer = Any  # an int seat, SHARED or REVEALED


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    options: dict                                   # every option with its default
    setup: Callable[[int, dict, int, Any], State]   # (seats, options, seed, content) -> state
    legal: Callable[[State, int], list]             # complete moves this seat may submit now
    apply: Callable[[State, Move], State]           # a new state, or raises MoveError
    view: Callable[[State, Viewer], dict]
    outcome: Callable[[State], dict | None]         # None while playing, else final scores and winners
    waiting_for: Callable[[State], list]            # seats the table waits on now
    # The game's content (picture cards, word cards) for these options. Called by the service,
    # never by the pure functions above, so the rules stay free of file access.
    # It raises BadOptions when the content cannot serve this many seats.
    content: Callable[[dict, int], Any] = field(default=lambda options, seats: None)
    # How many seats these options allow: (fewest, most). Variants may narrow the game's range.
    seats_for: Callable[[dict], tuple[int, int]] | None = None
    # What of an accepted move every screen may see at once, before its rerun (a Pictomania
    # stroke), or None. Only public information: it goes to every tab of the room.
    echo: Callable[[dict, State], dict | None] = field(default=lambda move, state: None)

    def seat_range(self, options: dict) -> tuple[int, int]:
        return self.seats_for(options) if self.seats_for else (self.min_players, self.max_players)

    def check_options(self, options: dict | None) -> dict:
        """The options with defaults filled in; unknown names are refused."""
        from engine.core.errors import BadOptions

        merged = dict(self.options)
        for name, value in (options or {}).items():
            if name not in merged:
                raise BadOptions(f"{self.title} has no option '{name}'.")
            merged[name] = value
        return merged


def play(game: Game, state: State, move: Move) -> State:
    """Apply a move through the checks every game shares. The given state is never modified."""
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise UnknownMove("a move is a dict with a 'type'", phase=state.get("phase"))
    if game.outcome(state) is not None:
        raise GameOver("the game has ended", phase=state.get("phase"), seat=move.get("seat"))
    new = copy.deepcopy(state)
    if move["type"] == "end" and move.get("seat") is None:
        new["phase"] = "end"
        new["ended_by_host"] = True
        return new
    return game.apply(new, move)


def roundtrip(state: State) -> State:
    return json.loads(json.dumps(state))


def scores_outcome(state: State) -> dict | None:
    """The usual outcome: once the phase is 'end', the seat scores, highest winning."""
    if state["phase"] != "end":
        return None
    scores = {str(s): points for s, points in enumerate(state["scores"])}
    return {"final_scores": scores, "winners": score_winners(scores)}


def score_winners(scores: dict) -> list[int]:
    """Highest score wins; ties share the win."""
    if not scores:
        return []
    best = max(scores.values())
    return sorted(int(seat) for seat, points in scores.items() if points == best)
