"""Maudit Mot Dit's audience on the wall: how many found the word after each clue (a member's phone
is on the stage: pages/stage/maudit_mot_dit.py)."""

from __future__ import annotations

from pages.i18n import n_


def audience_line(counts: dict, view) -> str:
    return " · ".join(
        n_("{n} found it after clue {clue}", "{n} found it after clue {clue}", c, clue=int(k) + 1)
        for k, c in sorted(counts.items(), key=lambda kv: int(kv[0]))
    )
