"""A game written outside the project runs the conformance kit on its own `Game`, registered or not
(as PettingZoo's api_test is run): the toy game does, from its files under tests/ alone."""

import pytest

from engine.core import conformance
from tests.toy import GAME


@pytest.mark.parametrize("case", conformance.cases(GAME), ids=lambda c: conformance.case_id(GAME.name, *c))
def test_the_toy_game_conforms(case):
    conformance.check_play(GAME, *case, seeds=range(2))


def test_the_toy_game_refuses_what_it_must():
    assert conformance.check_refusals(GAME, least=500) >= 500
