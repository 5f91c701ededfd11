"""Pebbles' start-page part (tests/toy: a game outside the app); its screens are the stage's
(tests/toy/screens.py), built from the stage's kit alone."""

from __future__ import annotations

PITCH = "Pebbles: drop a pebble nobody else matches."
PACE_NAMES = {"drop": "Drop a pebble"}  # the start page's pace line (pages/clock.py)


def options() -> dict:
    return {}
