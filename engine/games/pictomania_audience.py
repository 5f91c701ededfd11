"""Pictomania's audience (RULES.md §6): while the players draw and guess, members guess each
drawing's card number from the same word cards; 1 point per right guess, no penalty."""

from __future__ import annotations

from engine.core.audience import Audience


def picks(view: dict, mine: list[dict], numbers: tuple) -> list[dict]:
    if view.get("phase") != "draw":
        return []
    drawers = [s for s in range(view["players"]) if s not in view.get("out", [])]
    return [{"type": "pick", "drawer": d, "number": n} for d in drawers for n in numbers]


def score(entry: dict, picks_: dict) -> tuple[dict, dict]:
    """A drawer who admitted the wrong word gives nobody a point for their drawing."""
    right = {int(s): a["number"] for s, a in entry["assignments"].items() if int(s) not in entry.get("wrong_word", [])}
    earned: dict[str, int] = {}
    counts: dict[str, dict[str, int]] = {}
    for member, mine in picks_.items():
        earned[member] = sum(1 for p in mine if right.get(p["drawer"]) == p["number"])
        for p in mine:
            by_number = counts.setdefault(str(p["drawer"]), {})
            by_number[str(p["number"])] = by_number.get(str(p["number"]), 0) + 1
    return earned, {d: dict(sorted(n.items())) for d, n in sorted(counts.items())}


def audience(numbers: tuple) -> Audience:
    return Audience(
        picks=lambda view, mine: picks(view, mine, numbers),
        slot=lambda pick: f"drawer {pick['drawer']}",
        reads=("phase", "players", "out"),
        score=score,
        does="While the players draw, guess each drawing's number from the word cards: 1 point per right guess.",
    )
