"""What a game's audience does (RULES.md §6): a game opts in with an `Audience` on its `Game`, as it
does for computer players. Two pure functions, checked by the conformance suite, and nothing else:
what a member may pick now, seen from the shared screen's view, and which picks score when a turn
(or round, or face) closes. Members never change the game: their picks live beside it, not in its
move log (engine/tables/audience.py).

A pick is a dict like a move: `{"type": "pick", "position": 3}`. `picks(view, mine)` lists the
complete picks a member may make now, free text left `None` (as `legal` does for seats), given the
picks this member already made in this turn. A pick fills a slot (`slot(pick)`): a later pick in
the same slot replaces the earlier one until the reveal. `score(entry, picks)` reads the closed
turn's record entry (public by then) and each member's picks in that turn, and returns each
member's points and the counts the record keeps as the turn's `audience_picks` (DESIGN.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

Picks = dict[str, list[dict]]  # member id -> their picks in one turn


@dataclass(frozen=True)
class Audience:
    picks: Callable[[dict, list[dict]], list[dict]]
    slot: Callable[[dict], str]
    score: Callable[[dict, Picks], tuple[dict[str, int], dict]]
    # What members do in this game, one line for the join page (translated by the pages).
    does: str = ""
    # The wall view's fields `picks` reads: a member's phone reruns when one of them changes.
    reads: tuple[str, ...] = ("phase",)
    # Whether these options give members anything to pick (Trading Faces' memory variant: no).
    applies: Callable[[dict], bool] = lambda options: True
    # Pick fields that carry free text (Maudit Mot Dit's answer), with their longest length.
    text: dict[str, int] = field(default_factory=dict)
    # Whether a member is done for this turn, read on the server from the whole state and their
    # picks in it (Maudit Mot Dit: they found the word). They are offered nothing more, and their
    # phone says so: it tells only them, of their own picks.
    done: Callable[[dict, list[dict]], bool] = lambda state, mine: False
    # Options under which members pick otherwise: options -> that Audience, else None for this one
    # (Odyssey's Party: the card the storyteller votes red).
    varies: Callable[[dict], Audience | None] = lambda options: None

    def of(self, options: dict) -> Audience | None:
        """What members do under these options; None when they have nothing to pick."""
        if not self.applies(options):
            return None
        return self.varies(options) or self


def count(values) -> dict[str, int]:
    """How many members picked each value, keys as strings (JSON), in a stable order."""
    counts: dict[str, int] = {}
    for value in values:
        counts[str(value)] = counts.get(str(value), 0) + 1
    return dict(sorted(counts.items()))
