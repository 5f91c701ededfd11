"""Trading Faces' audience (RULES.md §6): when a face is made, members pick its emotion, 1 point
when right. The memory variant has nothing to pick: members watch."""

from __future__ import annotations

from engine.core.audience import Audience, count


def picks(view: dict, mine: list[dict], emotions: tuple) -> list[dict]:
    if view.get("phase") != "face" or not view.get("face"):
        return []
    return [{"type": "pick", "emotion": e} for e in emotions]


def score(entry: dict, picks_: dict) -> tuple[dict, dict]:
    chosen = {member: mine[-1]["emotion"] for member, mine in picks_.items() if mine}
    return {m: int(e == entry["emotion"]) for m, e in chosen.items()}, count(chosen.values())


def audience(emotions: tuple) -> Audience:
    return Audience(
        picks=lambda view, mine: picks(view, mine, emotions),
        slot=lambda pick: "face",
        reads=("phase", "face"),
        score=score,
        applies=lambda options: options.get("variant") != "memory",
        does="When a face is made, pick the emotion you see: 1 point when you are right.",
    )
