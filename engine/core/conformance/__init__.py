"""The conformance kit: any `Game`, inside the project or written outside it, checks itself against
what the service relies on (after OpenSpiel's basic tests and PettingZoo's `api_test`).

    from engine.core import conformance
    for variant, seats in conformance.cases(GAME):
        conformance.check_play(GAME, variant, seats)
    conformance.check_refusals(GAME)

`check_play`: for seeded random games played through `legal()` alone, with host skips and kicks on
some seeds, the game ends; a seat the table waits on always has a legal move; the state round-trips
through JSON; replaying the accepted moves from the seed gives the final state, and a seeded game
is reproducible bit for bit; no seat's secret appears in another seat's view or on the shared
screen, and changing a seat's secrets (`alternative`) leaves every other view identical; an
audience member is offered nothing secret and scores whole points.
`check_refusals`: malformed and well-formed-but-illegal moves are each refused with a player's
message (no internal ids) and change nothing.

A failed check raises AssertionError with what went wrong. Nothing here names a game.
"""

from __future__ import annotations

import json
import random
from typing import NoReturn

from engine.core.conformance.player import (  # noqa: F401  (the kit's API)
    MAX_MOVES,
    content,
    fill,
    new_state,
    numbered_cards,
    random_game,
    random_move,
    revealed_has_no_seed,
    strings_in,
    views,
)
from engine.core.conformance.refusals import NOT_FOR_PLAYERS, illegal_neighbours, junk_for, malformed  # noqa: F401
from engine.core.errors import InternalError, SobremesaError
from engine.core.game import SHARED, Game, table_view
from engine.core.moves import play

SEEDS = range(4)


def _fail(why: str) -> NoReturn:
    raise AssertionError(why)  # a variable, never a literal: the catalogue's extractor reads literals


def _require(held: bool, why: str) -> None:
    if not held:
        _fail(why)


def cases(game: Game) -> list[tuple[dict, int]]:
    """Every variant × allowed seat count: (options, seats)."""
    return [(variant, n) for variant in game.variants for n in game.seat_counts(game.check_options(variant))]


def case_id(name: str, variant: dict, seats: int) -> str:
    label = "-".join(f"{k}={v}" for k, v in variant.items()) or "base"
    return f"{name}[{label}]x{seats}"


def roundtrips(state) -> bool:
    return json.loads(json.dumps(state)) == state


def check_secrets(game: Game, state: dict, rnd: random.Random, changed: list) -> None:
    seen = views(game, state)
    found = {viewer: strings_in(view) for viewer, view in seen.items()}
    for seat in range(state["players"]):
        hidden = game.secrets(state, seat)
        for viewer, strings in found.items():
            if viewer != seat:
                leaked = hidden & strings
                _require(
                    not leaked, f"viewer {viewer} sees seat {seat}'s secret {sorted(leaked)[:3]} in {state['phase']}"
                )
        other = game.alternative(state, seat, rnd)
        if other is None:
            continue
        for viewer, view in seen.items():
            if viewer != seat:
                _require(
                    table_view(game, other, viewer) == view,
                    f"viewer {viewer} learns something of seat {seat}'s secrets in {state['phase']}",
                )
        changed.append(table_view(game, other, seat) != seen[seat])
    if game.audience is not None:  # an audience member sees the wall, and picks from it alone
        wall = table_view(game, state, SHARED)
        offered = game.audience.picks(wall, [])
        read = {k: wall.get(k) for k in game.audience.reads}
        _require(
            game.audience.picks({**{k: None for k in wall}, **read}, []) == offered,
            f"the audience's picks read more of the wall's view than Audience.reads says, in {state['phase']}",
        )
        leaked = set().union(*(game.secrets(state, s) for s in range(state["players"]))) & strings_in(offered)
        _require(not leaked, f"an audience member is offered seats' secrets {sorted(leaked)[:3]} in {state['phase']}")


class Members:
    """Three audience members picking at random from what the kit offers them, scored as each turn
    closes: the scores are whole points for members who picked, the counts add up to their picks."""

    def __init__(self, game: Game, rnd: random.Random) -> None:
        self.game, self.rnd, self.turn, self.scored = game, rnd, 0, 0
        self.picks: dict[str, list[dict]] = {}

    def __call__(self, state: dict) -> None:
        audience = self.game.audience.of(state["options"]) if self.game.audience else None
        if audience is None:  # no audience, or nothing to pick under these options
            return
        for closed in range(self.turn, len(state["history"])):
            mine = self.picks if closed == self.turn else {}
            earned, counts = audience.score(state["history"][closed], mine)
            _require(
                set(earned) <= set(mine) and all(isinstance(n, int) and n >= 0 for n in earned.values()),
                f"audience points {earned} are not whole points of members who picked",
            )
            _require(
                json.loads(json.dumps(counts)) == counts and all(isinstance(k, str) for k in counts),
                f"audience counts {counts} do not survive JSON",
            )
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


def check_play(game: Game, variant: dict, seats: int, seeds=SEEDS, cards=None) -> None:
    """Seeded random games of one case conform (see the module's docstring)."""
    changed: list = []
    audience_scored = 0
    for seed in seeds:
        rnd = random.Random(f"secrets/{seed}")
        step = [0]
        members = Members(game, random.Random(seed))

        def each(state, members=members, step=step, rnd=rnd):  # this seed's, bound as the game runs
            members(state)
            for seat in game.waiting_for(state):
                _require(
                    bool(game.legal(state, seat)), f"seat {seat} is waited on but has no legal move in {state['phase']}"
                )
            step[0] += 1
            if step[0] % 5 == 1:
                _require(roundtrips(state), "the state does not survive JSON")
            if step[0] % 9 == 1:
                check_secrets(game, state, rnd, changed)

        host = 0.03 if seed % 2 else 0
        first, state, log = random_game(game, variant, seats, seed, host_chance=host, each=each, cards=cards)
        audience_scored += members.scored
        result = game.outcome(state)
        if result is None:
            _fail("the game ended with no outcome")
        _require(set(result["final_scores"]) == {str(s) for s in range(seats)}, "the outcome misses a seat")
        _require(result["final_scores"] == {str(s): p for s, p in enumerate(state["scores"])}, "scores differ")
        _require(roundtrips(state), "the final state does not survive JSON")
        _require(revealed_has_no_seed(game, state), "the revealed view shows the seed")
        replayed = first
        for move in log:
            replayed = play(game, replayed, move)
        _require(replayed == state, "replaying the log from the seed does not rebuild the state")
        if seed == 0:
            again = random_game(game, variant, seats, seed, host_chance=0, cards=cards)
            _require(json.dumps(again[1], sort_keys=True) == json.dumps(state, sort_keys=True), "not reproducible")
            _require(again[2] == log, "a seeded game is not reproducible")
    _require(any(changed), "the counterfactual never changed anything, so it proves nothing")
    if game.audience is not None and game.audience.applies(game.check_options(variant)):
        _require(bool(audience_scored), "the audience never had anything to pick, so nothing was scored")


def _changed_by(game: Game, before: str, moves: list) -> str:
    for move in moves:
        state = json.loads(before)
        try:
            play(game, state, move)
        except SobremesaError:
            pass
        if json.dumps(state, sort_keys=True) != before:
            return str(move)[:200]
    return "a move"


def check_refusals(game: Game, least: int = 3400, cards=None) -> int:
    """Malformed and illegal moves over every case are refused with a player's message and change
    nothing; returns how many were tried (at least `least`)."""
    tried = 0
    kinds = set()
    for variant, seats in cases(game):
        rnd = random.Random(case_id(game.name, variant, seats))
        stale: dict = {}

        def each(state, rnd=rnd, stale=stale):  # this case's, bound as the game runs
            nonlocal tried
            if rnd.random() < 0.6:  # a sample of the states is enough: malformed moves are cheap, states are not
                return
            before = json.dumps(state, sort_keys=True)
            moves = malformed(game, state, rnd, stale) + illegal_neighbours(game, state, rnd)
            for move in moves:
                try:
                    play(game, state, move)
                except SobremesaError as refused:
                    _require(not isinstance(refused, InternalError), f"{str(move)[:200]}: an internal error")
                    _require(not NOT_FOR_PLAYERS.search(str(refused)), f"not written for a player: {refused}")
                    kinds.add(type(refused).__name__)
                else:
                    raise AssertionError(f"{str(move)[:200]} was accepted")
                tried += 1
            # The state is compared once a batch (dumping it for each move was half the kit's time);
            # when it changed, the moves are tried again one by one to name the one that changed it.
            if json.dumps(state, sort_keys=True) != before:
                _fail(f"refused {_changed_by(game, before, moves)} changed the state")
            for seat in game.waiting_for(state)[:1]:
                for move in game.legal(state, seat)[:1]:
                    stale[move["type"]] = fill(game, move, rnd)

        random_game(game, variant, seats, seed=7, each=each, cards=cards)
    _require(tried >= least, f"only {tried} malformed moves tried")
    _require({"UnknownMove", "WrongPhase", "NotHost", "IllegalMove"} <= kinds, f"refusals seen: {kinds}")
    _require(bool({"NotYourTurn", "AlreadyMoved"} & kinds), f"refusals seen: {kinds}")
    return tried
