"""One conformance suite for every game, variant and seat count (after OpenSpiel's basic tests).

For seeded random games played through `legal()` alone, with host skips and kicks on some seeds:
- the game ends;
- a seat the table waits on always has a legal move;
- the state round-trips through JSON;
- replaying the accepted moves from the seed gives the final state, and a seeded game is
  reproducible bit for bit;
- secrets, through each game's `secrets` and `alternative` hooks: no seat's secret appears in
  another seat's view or on the shared screen, and changing a seat's secrets leaves every other
  view identical;
- malformed moves (at least 10,000 a run over all games) are each refused with a SobremesaError
  and change nothing.
Golden playthroughs (tests/engine/games/test_golden.py) catch unintended rule changes.
"""

import json
import random

import pytest

from engine.core import SHARED, InternalError, SobremesaError, play, table_view
from engine.games import GAMES
from tests import kit

CASES = kit.cases()
SEEDS = range(4)
MALFORMED_PER_GAME = 3400  # per game: over 10,000 a run whatever the registry holds


def roundtrips(state) -> bool:
    return json.loads(json.dumps(state)) == state


def check_secrets(game, state, rnd, changed: list) -> None:
    seen = kit.views(game, state)
    found = {viewer: kit.strings_in(view) for viewer, view in seen.items()}
    for seat in range(state["players"]):
        hidden = game.secrets(state, seat)
        for viewer, strings in found.items():
            if viewer != seat:
                leaked = hidden & strings
                assert not leaked, f"viewer {viewer} sees seat {seat}'s secret {sorted(leaked)[:3]} in {state['phase']}"
        other = game.alternative(state, seat, rnd)
        if other is None:
            continue
        for viewer, view in seen.items():
            if viewer != seat:
                assert table_view(game, other, viewer) == view, (
                    f"viewer {viewer} learns something of seat {seat}'s secrets in {state['phase']}"
                )
        changed.append(table_view(game, other, seat) != seen[seat])
    if game.audience is not None:  # an audience member sees the wall, and picks from it alone
        wall = table_view(game, state, SHARED)
        offered = game.audience.picks(wall, [])
        read = {k: wall.get(k) for k in game.audience.reads}
        assert game.audience.picks({**{k: None for k in wall}, **read}, []) == offered, (
            f"the audience's picks read more of the wall's view than Audience.reads says, in {state['phase']}"
        )
        leaked = set().union(*(game.secrets(state, s) for s in range(state["players"]))) & kit.strings_in(offered)
        assert not leaked, f"an audience member is offered seats' secrets {sorted(leaked)[:3]} in {state['phase']}"


class Members:
    """Three audience members picking at random from what the kit offers them, scored as each turn
    closes: the scores are whole points for members who picked, the counts add up to their picks."""

    def __init__(self, game, rnd: random.Random) -> None:
        self.game, self.rnd, self.turn, self.picks, self.scored = game, rnd, 0, {}, 0

    def __call__(self, state: dict) -> None:
        audience = self.game.audience.of(state["options"]) if self.game.audience else None
        if audience is None:  # no audience, or nothing to pick under these options
            return
        for closed in range(self.turn, len(state["history"])):
            mine = self.picks if closed == self.turn else {}
            earned, counts = audience.score(state["history"][closed], mine)
            assert set(earned) <= set(mine) and all(isinstance(n, int) and n >= 0 for n in earned.values())
            assert json.loads(json.dumps(counts)) == counts and all(isinstance(k, str) for k in counts)
            self.scored += bool(mine)
        if len(state["history"]) > self.turn:
            self.turn, self.picks = len(state["history"]), {}
        wall = table_view(self.game, state, SHARED)
        for member in ("m1", "m2", "m3"):
            kept = self.picks.setdefault(member, [])
            offered = [] if audience.done(state, kept) else audience.picks(wall, kept)
            if offered and self.rnd.random() < 0.5:
                pick = dict(self.rnd.choice(offered))
                for field in audience.text:
                    pick[field] = self.rnd.choice(["x", *sorted(self.game.secrets(state, 0))[:1]])
                slot = audience.slot(pick)
                kept[:] = [p for p in kept if audience.slot(p) != slot] + [pick]


@pytest.mark.parametrize("case", CASES, ids=[kit.case_id(c) for c in CASES])
def test_random_games_conform(case):
    name, variant, seats = case
    game = GAMES[name]
    changed, audience_scored = [], 0
    for seed in SEEDS:
        rnd = random.Random(f"secrets/{seed}")
        step = [0]
        members = Members(game, random.Random(seed))

        def each(state):
            members(state)
            for seat in game.waiting_for(state):
                assert game.legal(state, seat), f"seat {seat} is waited on but has no legal move in {state['phase']}"
            step[0] += 1
            if step[0] % 5 == 1:
                assert roundtrips(state), "the state does not survive JSON"
            if step[0] % 9 == 1:
                check_secrets(game, state, rnd, changed)

        first, state, log = kit.random_game(name, variant, seats, seed, host_chance=0.03 if seed % 2 else 0, each=each)
        audience_scored += members.scored
        result = game.outcome(state)
        assert result is not None and set(result["final_scores"]) == {str(s) for s in range(seats)}
        assert result["final_scores"] == {str(s): p for s, p in enumerate(state["scores"])}
        assert roundtrips(state)
        assert kit.revealed_has_no_seed(game, state)
        replayed = first
        for move in log:
            replayed = play(game, replayed, move)
        assert replayed == state, "replaying the log from the seed does not rebuild the state"
        if seed == 0:
            again = kit.random_game(name, variant, seats, seed, host_chance=0)
            assert json.dumps(again[1], sort_keys=True) == json.dumps(state, sort_keys=True)
            assert again[2] == log, "a seeded game is not reproducible"
    assert any(changed), "the counterfactual never changed anything, so it proves nothing"
    if game.audience is not None and game.audience.applies(game.check_options(variant)):
        assert audience_scored, "the audience never had anything to pick, so nothing was scored"


@pytest.mark.parametrize("name", list(GAMES))
def test_malformed_moves_are_refused_and_change_nothing(name):
    game = GAMES[name]
    tried = 0
    kinds = set()
    for case in [c for c in CASES if c[0] == name]:
        rnd = random.Random(kit.case_id(case))
        stale = {}

        def each(state):
            nonlocal tried
            if rnd.random() < 0.6:  # a sample of the states is enough: malformed moves are cheap, states are not
                return
            before = json.dumps(state, sort_keys=True)
            for move in kit.malformed(game, state, rnd, stale) + kit.illegal_neighbours(game, state, rnd):
                with pytest.raises(SobremesaError) as refused:
                    play(game, state, move)
                assert not isinstance(refused.value, InternalError)
                assert not kit.NOT_FOR_PLAYERS.search(str(refused.value)), f"not written for a player: {refused.value}"
                assert json.dumps(state, sort_keys=True) == before, f"refused {str(move)[:200]} changed the state"
                kinds.add(type(refused.value).__name__)
                tried += 1
            for seat in game.waiting_for(state)[:1]:
                for move in game.legal(state, seat)[:1]:
                    stale[move["type"]] = kit.fill(game, move, rnd)

        kit.random_game(*case, seed=7, each=each)
    assert tried >= MALFORMED_PER_GAME, f"only {tried} malformed moves tried"
    assert {"UnknownMove", "WrongPhase", "NotHost", "IllegalMove"} <= kinds, kinds
    assert {"NotYourTurn", "AlreadyMoved"} & kinds, kinds
    print(f"{name}: {tried} malformed or illegal moves refused")
