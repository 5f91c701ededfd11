"""Pictomania's audience on a member's phone: each drawing's number, from the word cards on the
shared screen (pages/audience.py)."""

from __future__ import annotations

from pages.screens.kit import name_of


def audience_line(counts: dict, view) -> str:
    parts = []
    for drawer, numbers in sorted(counts.items(), key=lambda kv: int(kv[0])):
        ranked = sorted(numbers.items(), key=lambda kv: -kv[1])
        picks = ", ".join(f"{n} ×{c}" for n, c in ranked)  # numbers only: the same in every language
        parts.append(f"{name_of(view, int(drawer))}: {picks}")
    return " · ".join(parts)
