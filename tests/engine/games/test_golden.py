"""Golden playthroughs: one recorded seeded game per game and variant, with a digest of every
viewer's view after every move and the final views in full. A rule change that shows anywhere (a
score, a hidden card, a phase) fails here, on the first move whose views differ.

After an intended rule change, re-record with `SOBREMESA_GOLDEN=write pytest tests/engine/games/test_golden.py`
and review the diff of tests/engine/games/golden/ like any other change.
"""

import hashlib
import json
import os
from pathlib import Path

import pytest

from engine.core import SHARED, play
from engine.games import GAMES
from tests import kit

FOLDER = Path(__file__).parent / "golden"
SEED = 2026


def golden_cases():
    """One table per game and variant: the smallest seat count that shows its particular rules
    (7 players in Odyssey's base game, for the double votes)."""
    found = []
    for name, game in GAMES.items():
        for variant in game.variants:
            counts = game.seat_counts(game.check_options(variant))
            seats = (
                next((n for n in counts if n >= 7), counts[-1])
                if name == "odyssey" and variant.get("variant") == "base"
                else counts[min(1, len(counts) - 1)]
            )
            found.append((name, variant, seats))
    return found


def digest(view) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def playthrough(name, variant, seats, moves):
    """Digests of every view after each move, and the final views."""
    game = GAMES[name]
    state = kit.new_state(name, variant, seats, SEED)
    steps = []
    for move in moves:
        play(game, state, move)
        steps.append({str(viewer): digest(view) for viewer, view in kit.views(game, state).items()})
    final = {str(viewer): view for viewer, view in kit.views(game, state).items() if viewer in (SHARED, 0)}
    return steps, final


@pytest.mark.parametrize("case", golden_cases(), ids=[kit.case_id(c) for c in golden_cases()])
def test_golden_playthrough(case):
    name, variant, seats = case
    path = FOLDER / f"{kit.case_id(case).replace('[', '-').replace(']', '').replace('=', '-')}.json"
    if os.environ.get("SOBREMESA_GOLDEN") == "write":
        _, _, log = kit.random_game(name, variant, seats, SEED, host_chance=0.03)
        steps, final = playthrough(name, variant, seats, log)
        FOLDER.mkdir(exist_ok=True)
        path.write_text(
            json.dumps(
                {
                    "game": name,
                    "options": variant,
                    "seats": seats,
                    "seed": SEED,
                    "moves": log,
                    "views": steps,
                    "final": final,
                },
                ensure_ascii=False,
                indent=0,
            )
            + "\n"
        )
    recorded = json.loads(path.read_text())
    steps, final = playthrough(name, variant, seats, recorded["moves"])
    assert len(steps) == len(recorded["views"])
    for number, (now, then) in enumerate(zip(steps, recorded["views"], strict=True), start=1):
        changed = [viewer for viewer in then if now.get(viewer) != then[viewer]]
        assert not changed, f"after move {number} ({recorded['moves'][number - 1]}) these views changed: {changed}"
    assert json.loads(json.dumps(final)) == recorded["final"]
