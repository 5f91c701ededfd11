"""Trading Faces' audience on a member's phone: the emotion of the face being made (pages/audience.py)."""

from __future__ import annotations


def audience_line(counts: dict, view, label) -> str:
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    return " · ".join(f"{label(emotion)}: {count}" for emotion, count in ranked)
