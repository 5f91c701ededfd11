"""The Game: everything the app knows about one game, as one declarative object of pure functions
over JSON state (after boardgame.io's game object and OpenSpiel's game type).

State is a plain JSON-serialisable dict that always carries `game`, `rules_version`, `options`,
`players` (the seat count), `rng`, `phase`, `scores` (one number per seat), `out` (seats that left
for good) and `history` (one entry per finished turn or round: the record's `turns`).

Moves are dicts with a `type` and the acting `seat`, declared per game as `Move` specs and checked
by `engine.core.moves` before a handler sees them. Host moves carry `"seat": None` and are the same
for every game: `skip` (a player who went away sits out what is asked of them now), `kick` (leaves
for good) and `end` (the game is scored as it stands).

Nothing in shared code (the service, the pages, the statistics, the demo) names a game: what they
need to know about one is a field here, or a field of one of its optional parts (engine/core/parts.py).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.audience import Audience
from engine.core.errors import BadOptions, MoveError
from engine.core.moves import Field, Id, Move, OneOf
from engine.core.parts import Bots, Clock, Content, Demo, Host

SHARED = "table"  # the shared screen: no secret at all
REVEALED = "revealed"  # after the game: everything but the seed
LANGUAGES = ("en", "es", "it")

State = dict
Viewer = Any  # an int seat, SHARED or REVEALED

# Options every game has (DESIGN.md): the picture deck and the room's language.
COMMON_OPTIONS = {"deck": Id(), "language": OneOf(LANGUAGES)}
COMMON_DEFAULTS = {"deck": "dreams", "language": "en"}


def playing(state: State) -> list[int]:
    """Seats still in the game (a kicked seat is out for good)."""
    out = state.get("out", ())
    return [s for s in range(state["players"]) if s not in out]


# The rules every game writes, under these names in its module, with its moves as MOVES.
RULES = ("setup", "legal", "view", "outcome", "waiting_for", "secrets", "alternative")


def rules(namespace: dict, **given: Any) -> dict:
    """A game module's rules as `Game` keywords, found by name in `namespace` (the module's
    globals()): `Game(name=..., **rules(globals()), ...)`. `given` holds those it takes from
    elsewhere (the Dixit family's shared secrets)."""
    found = {name: namespace[name] for name in RULES if name not in given}
    return {"moves": namespace["MOVES"], **found, **given}


@dataclass(frozen=True)
class Game:
    name: str
    title: str  # as published; never translated
    min_players: int
    max_players: int
    rules_version: str
    options: dict[str, Field]  # the game's own options, each with its default
    setup: Callable[[int, dict, int, Any], State]  # (seats, options, seed, content) -> state
    moves: tuple[Move, ...]  # every move a seat can make
    legal: Callable[[State, int], list]  # complete moves this seat may submit now
    view: Callable[[State, Viewer], dict]  # the game's part of a view (the service adds the header)
    outcome: Callable[[State], dict | None]  # None while playing, else final scores and winners
    waiting_for: Callable[[State], list]  # seats the table waits on now
    # What only `seat` may see now, as values searchable in any view (card ids, words): the
    # conformance suite looks for them in every other view.
    secrets: Callable[[State, int], set]
    # The same moment of the game with `seat`'s secrets changed (another hand, another vote) and
    # everything public kept, or None if it has none now: every other view must stay identical.
    alternative: Callable[[State, int, random.Random], State | None]
    turn_word: str = "turn"  # what one history entry is called: "turn" or "round"
    playing: Callable[[State], list] = playing
    # How many seats these options allow: (fewest, most). Variants may narrow the game's range.
    seats_for: Callable[[dict], tuple[int, int]] | None = None
    seats_ok: Callable[[dict, int], bool] = lambda options, seats: True  # e.g. Team: pairs only
    variants: tuple[dict, ...] = ({},)  # option sets the conformance suite plays
    family: str | None = None  # the statistics family (engine/stats)
    # The package that holds its UI (its start-page part, its screens, templates and charts: see
    # pages/games/__init__.py): pages.games.<family or name> unless the game lives elsewhere (tests/toy).
    ui: str | None = None
    # The optional parts (engine/core/parts.py and audience.py): a game declares those it uses.
    host: Host = Host()
    content: Content = Content()
    # Move type -> phase: the moves the service stamps with "t", the milliseconds since their phase
    # of the turn began (the engine itself reads no clock; Pictomania's strokes, for replays).
    timed: dict = field(default_factory=dict)
    clock: Clock | None = None
    bots: Bots | None = None
    demo: Demo | None = None
    audience: Audience | None = None  # what members pick and what scores; None: they watch
    move_specs: dict = field(init=False, repr=False, compare=False)

    def __repr__(self) -> str:
        return f"Game({self.name!r})"

    def __post_init__(self):
        object.__setattr__(self, "move_specs", {m.type: m for m in self.moves})

    def seat_range(self, options: dict) -> tuple[int, int]:
        return self.seats_for(options) if self.seats_for else (self.min_players, self.max_players)

    def seat_counts(self, options: dict) -> list[int]:
        fewest, most = self.seat_range(options)
        return [n for n in range(fewest, most + 1) if self.seats_ok(options, n)]

    @property
    def option_fields(self) -> dict[str, Field]:
        return {**COMMON_OPTIONS, **self.options}

    @property
    def defaults(self) -> dict:
        return copy.deepcopy({**COMMON_DEFAULTS, **{name: f.default for name, f in self.options.items()}})

    def check_options(self, options: dict | None) -> dict:
        """The options with defaults filled in; unknown names and wrong values are refused."""
        if options is not None and not isinstance(options, dict):
            raise BadOptions("Those game options are not valid.")
        merged = self.defaults
        fields = self.option_fields
        for name, value in (options or {}).items():
            if name not in fields:
                raise BadOptions("{game} has no such option.", game=self.title, field=str(name)[:40])
            try:
                merged[name] = fields[name].check(value, {}, name)
            except MoveError:
                raise BadOptions(
                    "One of the options chosen for {game} is not valid.", game=self.title, field=name
                ) from None
        return merged


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


def table_view(game: Game, state: State, viewer: Viewer) -> dict:
    """What a viewer sees of a game under way: the part every game shares (phase, who the table
    waits on, scores, ...) and the game's own view. The service adds the room's header."""
    return {
        "phase": state["phase"],
        "players": state["players"],
        "waiting_for": game.waiting_for(state),
        "scores": list(state["scores"]),
        "out": list(state.get("out", [])),
        "options": state["options"],
        "sitting_out": list(state.get("sitting_out", [])),  # skipped by the host this turn
        "ended_by_host": bool(state.get("ended_by_host")),
        "skippable": game.host.skippable(state),
        "turn_word": game.turn_word,
        "history_length": len(state["history"]),
        **_clock_fields(state),
        **game.view(state, viewer),
    }


def _clock_fields(state: State) -> dict:
    """Only in a game the clock has touched (pages read them with .get): who it skipped in this
    turn, else in the turn just closed, with why; and the seats skipped for a quiet phone two turns
    running, shown away while their phone stays away."""
    if "clock_skips" not in state and "quiet_runs" not in state:
        return {}
    return {
        "clock_skips": state.get("clock_skips") or state.get("last_clock_skips", []),
        # whether those are the closed turn's: the stage shows them with its reveal, not after
        "clock_skips_closed": not state.get("clock_skips"),
        "away": sorted(int(s) for s, run in state.get("quiet_runs", {}).items() if run >= 2),
    }
