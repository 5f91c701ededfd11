"""The move pipeline: each game declares its moves, and the checks every game shares run here once.

A game lists its moves as `Move` specs: the type, the phases where it is allowed, who may make it
and its fields with their types and ranges. Before a game's handler sees a move, `check()` makes
sure, in this order:
- the move is a dict with a known type and no unknown keys;
- the game has not ended;
- the seat is a real seat number (not a bool, a float or a string), or None for the host;
- the phase allows this move;
- the table waits on that seat for it (or, for moves any player may make, the seat still plays),
  and the seat has not made it already;
- every field is present, of its type and in its range; text within its length limit.
It returns the normalised move (ints as ints, text cleaned, only declared keys): that, never the raw
input, is what the handler receives and the service stores in the log.

Handlers then check the rules that need the state (a card in hand, not one's own card) before they
change anything: a refused move leaves the state as it was. The conformance suite fuzzes this.

Host moves are the same for every game: `skip` and `kick` with a typed `target`, and `end`.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import (
    AlreadyMoved,
    GameOver,
    IllegalMove,
    MoveError,
    NotHost,
    NotYourTurn,
    UnknownMove,
    WrongPhase,
)

State = dict
Bound = int | Callable[[State], int]

KEY_MAX = 40  # longest key or type name worth reading
MOVE_MAX = 8_000  # characters one move may add to the log (a 400-point stroke is about 4,000)
ID_MAX = 80  # a card or word id
MISSING = object()


def _bound(value: Bound, state: State) -> int:
    return value(state) if callable(value) else value


def is_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _malformed(field_name: str) -> UnknownMove:
    return UnknownMove(field=field_name)


# ---- fields ------------------------------------------------------------------------------------


class Field:
    """One field of a move or an option: `check(value, state, name)` returns it normalised or raises."""

    default: Any = MISSING  # options: the value when the host chooses nothing

    def check(self, value, state: State, name: str):
        raise NotImplementedError

    def sample(self, rnd):
        """A plausible value for a field `legal()` leaves to the player (free text, a drawing):
        what random players, the demo and the conformance suite fill in. None if it has none."""
        return None

    def sample_for(self, state: State, rnd):
        """The same, knowing the state: a word game's random answers are sometimes its secret word,
        so that the conformance suite sees rounds won as well as lost."""
        return self.sample(rnd)


@dataclass(frozen=True)
class Whole(Field):
    """A whole number in lo..hi (bounds may depend on the state). True and 1.0 are not whole numbers."""

    lo: Bound
    hi: Bound
    default: Any = MISSING

    def check(self, value, state, name):
        if not is_whole(value):
            raise _malformed(name)
        lo, hi = _bound(self.lo, state), _bound(self.hi, state)
        if not lo <= value <= hi:  # never offered by a screen: a malformed move
            raise UnknownMove("Choose a number from {lo} to {hi}.", field=name, lo=lo, hi=hi)
        return value


@dataclass(frozen=True)
class Number(Field):
    """A finite number in lo..hi, stored rounded to a whole number (a pen width from a canvas)."""

    lo: float
    hi: float

    def check(self, value, state, name):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise _malformed(name)
        if not self.lo <= value <= self.hi:
            raise _malformed(name)
        return int(round(value))


@dataclass(frozen=True)
class Flag(Field):
    default: Any = MISSING

    def check(self, value, state, name):
        if not isinstance(value, bool):
            raise _malformed(name)
        return value


@dataclass(frozen=True)
class OneOf(Field):
    """One of a few fixed values, of the same type (so True never passes for 1)."""

    values: tuple
    default: Any = MISSING

    def check(self, value, state, name):
        for allowed in self.values:
            if type(value) is type(allowed) and value == allowed:
                return allowed
        raise _malformed(name)


def printable(text: str) -> bool:
    """No surrogates, control, format (zero-width, direction overrides) or private-use characters."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in "\t\n\r":
            return False
    return True


@dataclass(frozen=True)
class Text(Field):
    """Free text a person typed: one line, runs of spaces folded, at most `most` characters.
    Empty text is None when optional. Control and invisible characters are refused."""

    most: int
    optional: bool = True
    too_long: str = "That text is too long: at most {most} characters."
    empty: str = "Type something first."

    def sample(self, rnd):
        words = ("tide", "forgets", "¿dónde", "está", "la", "felicidad?", "  a", "key  ", "l'orologio", "dorme")
        return " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 4)))[: self.most]

    def check(self, value, state, name):
        if value is None and self.optional:
            return None
        if not isinstance(value, str):
            raise _malformed(name)
        if len(value) > 4 * self.most + 64:  # cleaning megabytes first would be work for nothing
            raise IllegalMove(self.too_long, field=name, most=self.most)
        if not printable(value):
            raise IllegalMove("That text has characters that cannot be shown. Type it again.", field=name)
        clean = " ".join(value.split())
        if len(clean) > self.most:
            raise IllegalMove(self.too_long, field=name, most=self.most)
        if not clean:
            if self.optional:
                return None
            raise IllegalMove(self.empty, field=name)
        return clean


@dataclass(frozen=True)
class Id(Field):
    """An identifier the game dealt (a card, a word): a short printable string."""

    def check(self, value, state, name):
        if not isinstance(value, str) or not 0 < len(value) <= ID_MAX or not value.isprintable():
            raise _malformed(name)
        return value


@dataclass(frozen=True)
class Many(Field):
    """A list of `lo`..`hi` items of one field type; `distinct` refuses repeats."""

    item: Field
    lo: Bound
    hi: Bound
    distinct: bool = True
    repeated: str = "Choose different cards."
    wrong_count: str = "Choose from {lo} to {hi}."
    default: Any = MISSING

    def check(self, value, state, name):
        if not isinstance(value, (list, tuple)):
            raise _malformed(name)
        lo, hi = _bound(self.lo, state), _bound(self.hi, state)
        if len(value) > max(hi, 0) * 4 + 8:
            raise _malformed(name)
        items = [self.item.check(v, state, name) for v in value]
        if self.distinct and len(_distinct(items)) != len(items):
            raise IllegalMove(self.repeated, field=name)
        if not lo <= len(items) <= hi:
            if lo == hi:
                raise IllegalMove("Choose exactly {count}.", field=name, count=lo)
            raise IllegalMove(self.wrong_count, field=name, lo=lo, hi=hi)
        return items


def _distinct(items: list) -> set:
    """The distinct items: card ids and numbers as they are (a set of strings is cheap; `repr` of
    each, for the unhashable, cost a tenth of a give's check)."""
    try:
        return set(items)
    except TypeError:
        return set(map(repr, items))


@dataclass(frozen=True)
class Maybe(Field):
    """None, or a value of the inner field."""

    inner: Field
    default: Any = MISSING

    def check(self, value, state, name):
        return None if value is None else self.inner.check(value, state, name)


@dataclass(frozen=True)
class SeatNo(Field):
    """A seat of this table: a whole number 0..players-1."""

    def check(self, value, state, name):
        if not is_whole(value) or not 0 <= value < state["players"]:
            raise UnknownMove("There is no such player at this table.", field=name)
        return value


# ---- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """One kind of move a game accepts.

    - `phases`: where it is allowed.
    - `waits`: the table must be waiting on the seat (most moves); otherwise any seat still playing
      may make it (Pictomania's "replace a card").
    - `done(state, seat)`: whether this seat has made it already (a double click); refused with
      `done_message`, or with the message `done` returns instead of True.
    - `allowed(state)`: whether the move exists in this variant at all (Party's red vote).
    - `apply(state, move)`: changes the state in place, after checking the rules that need it.
    """

    type: str
    phases: tuple[str, ...]
    apply: Callable[[State, dict], Any]
    fields: dict[str, Field] = field(default_factory=dict)
    waits: bool = True
    done: Callable[[State, int], bool | str] | None = None
    done_message: str = "You have already done that."
    not_now: str = "That is not possible at this moment of the game."
    allowed: Callable[[State], bool] | None = None


# Who skips: the host's hand (no `by`), the pace clock ("clock") or the quiet-player rule ("quiet").
# The service alone makes the last two (engine/tables/pace.py); a page's skip never carries `by`.
SKIPPERS = ("clock", "quiet")


HOST_MOVES: dict[str, dict] = {
    "skip": {"target": SeatNo(), "by": Maybe(OneOf(SKIPPERS))},
    "kick": {"target": SeatNo()},
    "end": {},
}


def _fields(spec_fields: dict, move: dict, state: State) -> dict:
    out = {}
    for name, kind in spec_fields.items():
        value = move.get(name, MISSING)
        if value is MISSING:
            if isinstance(kind, (Maybe, Text)) and getattr(kind, "optional", True):
                value = None  # an optional field may be left out
            else:
                raise UnknownMove(field=name)
        out[name] = kind.check(value, state, name)
    return out


def check(game, state: State, move) -> dict:
    """The move, checked and normalised, or a MoveError. Never changes the state."""
    if not isinstance(move, dict):
        raise UnknownMove()
    kind = move.get("type")
    if not isinstance(kind, str) or len(kind) > KEY_MAX:
        raise UnknownMove(field="type")
    phase = state.get("phase")
    seat = move.get("seat", MISSING)
    context = {"phase": phase, "move": kind}
    if kind in HOST_MOVES:
        if seat is not None and seat is not MISSING:
            raise NotHost(**context, seat=seat if is_whole(seat) else None)
        spec_fields = HOST_MOVES[kind]
    else:
        spec = game.move_specs.get(kind)
        if spec is None or (spec.allowed is not None and not spec.allowed(state)):
            raise UnknownMove(**context)
        if not is_whole(seat) or not 0 <= seat < state["players"]:
            raise UnknownMove("There is no such player at this table.", **context, field="seat")
        context["seat"] = seat
        spec_fields = spec.fields
    if len(move) > 2 + len(spec_fields):  # more keys than it may have: one is unknown
        extra = [k for k in move if k not in ("type", "seat") and k not in spec_fields]
        raise UnknownMove(**context, field=str(extra[0])[:KEY_MAX])
    for k in move:
        if k not in spec_fields and k != "type" and k != "seat":
            raise UnknownMove(**context, field=str(k)[:KEY_MAX])
    if game.outcome(state) is not None:
        raise GameOver(**context)
    if kind in HOST_MOVES:
        checked = {"type": kind, "seat": None, **_fields(spec_fields, move, state)}
        if checked.get("by", MISSING) is None:
            del checked["by"]  # the host's own skip is logged as it always was
        return checked
    if phase not in spec.phases:
        raise WrongPhase(spec.not_now, **context)
    done = spec.done(state, seat) if spec.done is not None else False
    if done:
        raise AlreadyMoved(done if isinstance(done, str) else spec.done_message, **context)
    if spec.waits:
        if seat not in game.waiting_for(state):
            raise NotYourTurn(**context)
    elif seat not in game.playing(state):
        raise NotYourTurn("You are not playing at the moment.", **context)
    checked = {"type": kind, "seat": seat, **_fields(spec_fields, move, state)}
    if _may_be_large(checked):  # every field has its own limit; this bounds what any move can store
        size = len(json.dumps(checked, ensure_ascii=False, separators=(",", ":")))
        if size > MOVE_MAX:
            raise IllegalMove(
                "That is too much for one move ({size} characters; at most {most}). Send it in smaller parts.",
                **context,
                size=size,
                most=MOVE_MAX,
            )
    return checked


def _may_be_large(move: dict) -> bool:
    """A cheap upper bound first: most moves are a type, a seat and a card id or two, and measuring
    their JSON on every move cost a fifth of the engine's time."""
    bound = 0
    for value in move.values():
        if type(value) is str:  # the usual case first: a type, a card id
            bound += 6 * len(value) + 3  # a character is at most 6 in JSON (a \u escape)
            continue
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(item, str):
                bound += 6 * len(item) + 3
            elif isinstance(item, (list, tuple, dict)):
                return True  # the points of a stroke and the like: measure them
            else:
                bound += 24
    return bound > MOVE_MAX


def perform(game, state: State, move: dict) -> State:
    """Apply a move that `check` returned, in place. Host moves are handled here for every game."""
    kind = move["type"]
    closed = len(state["history"])
    try:
        if kind == "end":
            game.host.end(state)
            state["phase"] = "end"
            state["ended_by_host"] = True
        elif kind == "skip":
            if move["target"] not in game.host.skippable(state):
                raise IllegalMove("That player is not holding up the table now.")
            if move.get("by"):
                clock_skip = game.clock.skip if game.clock else None
                (clock_skip or game.host.skip)(state, move["target"])
                state.setdefault("clock_skips", []).append({"seat": move["target"], "by": move["by"]})
            else:
                game.host.skip(state, move["target"])
        elif kind == "kick":
            if move["target"] not in game.playing(state):
                raise IllegalMove("That player has already left the game.")
            game.host.kick(state, move["target"])
        else:
            game.move_specs[kind].apply(state, move)
    except MoveError as exc:
        exc.phase = exc.phase or state.get("phase")
        exc.seat = exc.seat if exc.seat is not None else move.get("seat")
        exc.move = exc.move or kind
        raise
    if len(state["history"]) > closed and ("clock_skips" in state or "quiet_runs" in state):
        _close_clock_skips(state, closed)
    return state


def _close_clock_skips(state: State, closed: int) -> None:
    """A turn closed: the seats the clock skipped in it go into its entry (`clock_skips`, DESIGN.md),
    and each seat's run of turns skipped for a quiet phone is counted on (two running: shown away)."""
    skipped = state.pop("clock_skips", [])
    if skipped:
        state["history"][closed]["clock_skips"] = list(dict.fromkeys(s["seat"] for s in skipped))
    state["last_clock_skips"] = skipped
    quiet = {str(s["seat"]) for s in skipped if s["by"] == "quiet"}
    runs = state.get("quiet_runs", {})
    state["quiet_runs"] = {seat: runs.get(seat, 0) + 1 for seat in sorted(quiet)}


def play(game, state: State, move) -> State:
    """Check a move and apply it to `state` in place; returns the state. A refused move raises a
    MoveError and leaves the state as it was."""
    return perform(game, state, check(game, state, move))
