"""The optional parts of a `Game`, beside its rules: a game declares only the parts it uses, as it
declares an `Audience` (engine/core/audience.py). Each part is pure data and pure functions; the
service's work for a part is one step of its own in the move pipeline (engine/tables/steps.py).

- `Host`: whom the host may skip now, and what skipping, removing a player and ending do.
- `Clock`: the pace clock's seconds per phase, its own skip, and what else starts a deadline.
- `Bots`: how a computer player plays, when it may sit, and what it needs typed at the table.
- `Content`: the cards a game is dealt, the pictures and keepsakes it draws, the rule data screens show.
- `Demo`: the tables the demo's simulated group plays, and how it plays them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalMove

State = dict


def _no_kick(state: State, target: int) -> None:
    raise IllegalMove("Players cannot leave this game once it has started.")


def _no_skip(state: State, target: int) -> None:
    raise IllegalMove("Nobody can be skipped now.")


@dataclass(frozen=True)
class Host:
    """The host's say in a game under way. `end` comes at any moment: a game whose turn in progress
    has already changed the scores writes that turn into the history there, so the final scores
    follow from the record."""

    skippable: Callable[[State], list] = lambda state: []  # seats the host may skip now
    skip: Callable[[State, int], None] = _no_skip
    kick: Callable[[State, int], None] = _no_kick
    end: Callable[[State], None] = lambda state: None


@dataclass(frozen=True)
class Clock:
    """The pace clock (engine/tables/pace.py): seconds each phase may last, (relaxed, brisk), by phase
    name (a phase not listed has no deadline); the clock's skip where it goes further than the
    host's (Dixit ends a phase nobody acted in); and what else starts a new deadline within a phase
    (Maudit Mot Dit: each clue), besides a seat newly waited on. `reveal`: the seconds the wall
    plays a closed turn's reveal; the next deadline starts when it ends (or when the host ends it)."""

    pace: dict[str, tuple[int, int]]
    skip: Callable[[State, int], None] | None = None
    moment: Callable[[State], Any] = lambda state: None
    reveal: int = 0


@dataclass(frozen=True)
class Bots:
    """A computer player: (its own view, its legal moves, a random.Random, level) -> a move, or None.
    Only its seat's view reaches it; it plays through the table service like any client
    (engine/bots). `ready(options)`: whether these options allow computer players; `text`: move
    type -> the text field a person must type when computer players sit at the table."""

    play: Callable
    ready: Callable[[dict], bool] | None = None
    text: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Content:
    """What a game is dealt and draws, kept out of its pure rules (no file access there).

    `cards(options, seats)`: the game's content (picture cards, word cards) for these options,
    called by the service, never by the rules; it raises BadOptions when it cannot serve this many
    seats. `min_cards(options, seats)`: picture cards a deck needs (games played with picture
    decks). `pictures(name)`: the game's own pictures, served at /pictures/<game>/<name>, as
    (bytes, media type), or ValueError. `keepsake(prefix, the record's turn, {seat: name})`:
    {file name: bytes} of a finished turn (Pictomania's animated drawings). `constants`: rule data
    the screens show (token tables, ...)."""

    cards: Callable[[dict, int], Any] = lambda options, seats: None
    min_cards: Callable[[dict, int], int] | None = None
    pictures: Callable[[str], tuple[bytes, str]] | None = None
    keepsake: Callable[[str, dict, dict], dict[str, bytes]] | None = None
    constants: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Demo:
    """The demo: tables a simulated group plays, (options, fewest, most), and how it plays one game
    through the table service (`simulate(table)`, see engine/demo.py)."""

    tables: tuple
    simulate: Callable
