"""Places in a ranking, the same everywhere the app shows one (the players' places, the audience's
best readers): ties share a place and the next place skips them, standard competition ranking
(RULES.md §6: 1, 2, 2, 4)."""

from __future__ import annotations

from collections.abc import Sequence

TOP = 3  # a "top three" shows everyone placed 1 to 3 ...
TOP_NAMES = 8  # ... by name, at most this many, then "+ N more"


def places(points: Sequence[float]) -> list[int]:
    """Each score's place, in the order given: 1 + how many scored more. [5, 3, 3, 1] -> [1, 2, 2, 4]."""
    first: dict[float, int] = {}
    for i, p in enumerate(sorted(points, reverse=True)):
        first.setdefault(p, i + 1)
    return [first[p] for p in points]


def top(points: Sequence[float], most_place: int = TOP, most_shown: int = TOP_NAMES) -> tuple[list[int], int]:
    """Who a "top three" names: the indices of everyone placed 1 to `most_place`, best first (ties in
    the order given), at most `most_shown` of them, and how many more share those places."""
    ranked = sorted(range(len(points)), key=lambda i: -points[i])  # stable: ties keep their order
    at = places(points)
    placed = [i for i in ranked if at[i] <= most_place]
    return placed[:most_shown], max(len(placed) - most_shown, 0)
