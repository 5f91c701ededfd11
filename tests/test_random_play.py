"""Every game, every player count, many seeds, played through `legal()` alone (after OpenSpiel).

Checks: the game ends; legal moves never run out before the end; every card is in exactly one
place; votes are legal; scores equal an independent recomputation; state round-trips through
JSON; replaying the log rebuilds the snapshot; and no view shows another seat's secret.
"""
import json
import random

import pytest

from engine.core import REVEALED, SHARED, play
from engine.games import GAMES
from tests.helpers import fake_cards

SEEDS = range(200)
MAX_MOVES = 2000


def strings_in(value):
    """Every string anywhere in a view: secrets are searched by value, not by key."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings_in(v)


def dixit_places(state):
    places = list(state["deck"]) + list(state["discard"]) + [c for h in state["hands"] for c in h]
    places += [c for cards in state["given"].values() for c in cards] if state["phase"] == "give" else []
    places += [p["card"] for p in state["table"]]
    if state["phase"] == "give" and state["story_card"]:
        places.append(state["story_card"])
    return places


def dixit_secrets(state, seat):
    """What seat `seat` holds that nobody else may see now."""
    hidden = set(state["hands"][seat])
    if state["phase"] == "give":
        hidden |= set(state["given"].get(str(seat), []))
        if seat == state["storyteller"]:
            hidden.add(state["story_card"])
    return hidden


def check_dixit_views(game, state):
    table_view = game.view(state, SHARED)
    json.dumps(table_view)
    for position in table_view["table"]:
        assert set(position) == {"position", "card"}, "the shared table must not show owners before the reveal"
    views = {seat: game.view(state, seat) for seat in range(state["players"])}
    for seat in range(state["players"]):
        secret = dixit_secrets(state, seat)
        assert not secret & set(strings_in(table_view)), "shared screen shows a seat's secret card"
        for other, v in views.items():
            if other != seat:
                assert not secret & set(strings_in(v)), f"seat {other} sees seat {seat}'s card"
    if state["phase"] == "vote" and len(state["votes"]) >= 1:
        # Counterfactual: changing another seat's vote must not change anyone else's view.
        voter = next(iter(state["votes"]))
        own = {p["position"] for p in state["table"] if p["owner"] == int(voter)}
        choices = [p["position"] for p in state["table"] if p["position"] not in own]
        altered = json.loads(json.dumps(state))
        altered["votes"][voter] = [c for c in choices if c != state["votes"][voter][0]][:1] or state["votes"][voter]
        for seat in range(state["players"]):
            if str(seat) != voter:
                assert game.view(altered, seat) == views[seat]
        assert game.view(altered, SHARED) == table_view


def recompute_dixit(record_turns, contando):
    """An independent recomputation of classic Dixit scores from the turn records alone."""
    totals = {}
    for turn in record_turns:
        teller = turn["storyteller"]
        owners = {p["position"]: p["owner"] for p in turn["table"]}
        story = [pos for pos, owner in owners.items() if owner == teller][0]
        voters = [int(v) for v in turn["votes"]]
        hits = [v for v in voters if turn["votes"][str(v)] == [story]]
        points = {teller: 0, **{v: 0 for v in voters}}
        if len(hits) in (0, len(voters)):
            for v in voters:
                points[v] += 2
        else:
            bonus = 4 if (contando and len(hits) == 1) else 3
            points[teller] += bonus
            for v in hits:
                points[v] += bonus
        for v in voters:
            owner = owners[turn["votes"][str(v)][0]]
            if owner != teller:
                points[owner] = points.get(owner, 0) + 1
        for seat, p in points.items():
            totals[seat] = totals.get(seat, 0) + p
            assert turn["scores"][str(seat)] == p
    return totals


def random_move(game, state, rnd, host_chance):
    waiting = game.waiting_for(state)
    if waiting and rnd.random() < host_chance and state["phase"] != "claim":
        return {"type": "skip", "seat": None, "target": rnd.choice(waiting)}
    seat = rnd.choice(waiting)
    moves = game.legal(state, seat)
    assert moves, f"seat {seat} is waited on but has no legal move in {state['phase']}"
    move = dict(rnd.choice(moves))
    if move.get("phrase", 1) is None and rnd.random() < 0.5:
        move["phrase"] = rnd.choice(["the tide forgets", "  a   key  ", "¿dónde está la felicidad?"])
    return move


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_dixit_random_play(seats):
    game = GAMES["dixit"]
    for seed in SEEDS:
        rnd = random.Random(seed)
        options = game.check_options({"contando": seed % 2 == 1})
        cards = fake_cards(84 + seed % 30)
        state = game.setup(seats, options, seed, cards)
        start = json.loads(json.dumps(state))
        dealt = sorted(dixit_places(state))
        assert len(dealt) == min(84, len(cards)) and len(set(dealt)) == len(dealt)
        log = []
        for _ in range(MAX_MOVES):
            if game.outcome(state) is not None:
                break
            assert sorted(dixit_places(state)) == dealt, "a card was lost, duplicated or is in two places"
            if seed % 10 == 0:
                check_dixit_views(game, state)
            move = random_move(game, state, rnd, host_chance=0.02 if seed % 5 == 0 else 0)
            try:
                new = play(game, state, move)
            except Exception:
                if move["seat"] is None:  # a refused skip is fine: it changes nothing
                    continue
                raise
            # JSON round trip: the state continues identically from its serialised form.
            if seed % 4 == 0:
                assert play(game, json.loads(json.dumps(state)), move) == new
            state, log = new, log + [move]
        else:
            pytest.fail(f"seed {seed}: the game did not end")
        for turn in state["history"]:
            for voter, picks in turn["votes"].items():
                owners = {p["position"]: p["owner"] for p in turn["table"]}
                assert len(picks) == 1 and owners[picks[0]] != int(voter) and int(voter) != turn["storyteller"]
        totals = recompute_dixit(state["history"], options["contando"])
        assert state["scores"] == [totals.get(s, 0) for s in range(seats)]
        replayed = start
        for move in log:
            replayed = play(game, replayed, move)
        assert replayed == state
        assert "seed" not in json.dumps(game.view(state, REVEALED)).replace('"rng": null', "")
