"""One conformance suite for every game, variant and seat count: the kit of engine/core/conformance
(its docstring lists the checks) over every game of `GAMES`, the toy game included. Malformed moves:
at least 10,000 a run over all games. Golden playthroughs (tests/engine/games/test_golden.py) catch
unintended rule changes."""

import pytest

from engine.core import conformance
from engine.games import GAMES
from tests import kit

CASES = kit.cases()
MALFORMED_PER_GAME = 3400  # per game: over 10,000 a run whatever the registry holds


@pytest.mark.parametrize("case", CASES, ids=[kit.case_id(c) for c in CASES])
def test_random_games_conform(case):
    name, variant, seats = case
    conformance.check_play(GAMES[name], variant, seats)


@pytest.mark.parametrize("name", list(GAMES))
def test_malformed_moves_are_refused_and_change_nothing(name):
    tried = conformance.check_refusals(GAMES[name], least=MALFORMED_PER_GAME)
    print(f"{name}: {tried} malformed or illegal moves refused")
