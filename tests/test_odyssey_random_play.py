"""Dixit Odyssey, every variant at every allowed player count, many seeds, played through `legal()`
alone (after OpenSpiel), with host skips and kicks on some seeds.

Checks: the game ends, and ends for the right reason; a seat the table waits on always has a legal
move; every card is in exactly one place (deck, hands, given, table, discard) across reshuffles;
every recorded vote is legal; scores equal an independent recomputation from the turn records; the
state continues identically from its JSON form; replaying the log rebuilds the state; and no view
shows another seat's secret, by value and by counterfactual (changing a vote, the red vote or who
owns a card changes no other seat's view nor the shared one).
"""
import json
import random
import re
from collections import Counter

import pytest

from engine.core import REVEALED, SHARED, play
from engine.games import odyssey
from tests.helpers import fake_cards

GAME = odyssey.GAME
SEEDS = range(40)
MAX_MOVES = 3000
COUNTS = ([("base", n) for n in range(3, 13)] + [("party", n) for n in range(6, 13)]
          + [("team", n) for n in (6, 8, 10, 12)])


def roundtrip(state):
    return json.loads(json.dumps(state))


def strings_in(view):
    """Every string anywhere in a view, keys included: secrets are searched by value, not by key."""
    return set(re.findall(r'"((?:[^"\\]|\\.)*)"', json.dumps(view, ensure_ascii=False)))


def places(state):
    cards = list(state["deck"]) + list(state["discard"]) + [c for hand in state["hands"] for c in hand]
    cards += [p["card"] for p in state["table"]]
    if state["phase"] == "give":
        cards += [c for given in state["given"].values() for c in given]
        cards += [state["story_card"]] if state["story_card"] else []
    return cards


def secrets(state, seat):
    """What `seat` holds that nobody else may see now. Cards already shown on a table are public
    (they may come back into a hand after a reshuffle), so they cannot be searched for."""
    shown = {p["card"] for p in state["table"]} | {p["card"] for t in state["history"] for p in t["table"]}
    hidden = set(state["hands"][seat])
    if state["phase"] == "give":
        hidden |= set(state["given"].get(str(seat), []))
        if seat == state["storyteller"] and state["story_card"]:
            hidden.add(state["story_card"])
    return hidden - shown


def check_views(state):
    seats = state["players"]
    shared = GAME.view(state, SHARED)
    views = {seat: GAME.view(state, seat) for seat in range(seats)}
    for v in [shared, *views.values()]:
        assert all(set(p) == {"position", "card"} for p in v["table"]), "a view shows who owns a card"
    shown = {"table": strings_in(shared), **{seat: strings_in(v) for seat, v in views.items()}}
    for seat in range(seats):
        secret = secrets(state, seat)
        for viewer, strings in shown.items():
            assert viewer == seat or not secret & strings, f"{viewer!r} sees seat {seat}'s card"
    if state["options"]["variant"] == "party" and state["phase"] in ("claim", "tell"):
        hidden = range(seats) if state["phase"] == "claim" else [state["storyteller"]]
        assert all(views[s]["hand"] == [] for s in hidden), "the Party storyteller saw the hand before telling"

    def unchanged_for_others(altered, *owners):
        assert GAME.view(altered, SHARED) == shared
        for seat in range(seats):
            if seat not in owners:
                assert GAME.view(altered, seat) == views[seat], f"seat {seat} learns another seat's secret"

    if state["phase"] != "vote":
        return
    table = [p["position"] for p in state["table"]]
    for voter, picks in state["votes"].items():  # another choice of votes, same count
        others = [p for p in table if p not in picks]
        if len(others) >= len(picks):
            altered = roundtrip(state)
            altered["votes"][voter] = sorted(others[:len(picks)])
            unchanged_for_others(altered, int(voter))
            break
    if state["red_vote"] is not None and len(table) > 1:
        altered = roundtrip(state)
        altered["red_vote"] = next(p for p in table if p != state["red_vote"])
        unchanged_for_others(altered, state["storyteller"])
    owners = [p["owner"] for p in state["table"]]
    if len(set(owners)) > 1:  # two cards of different owners swap owners
        i = next(i for i, o in enumerate(owners) if o != owners[0])
        altered = roundtrip(state)
        altered["table"][0]["owner"], altered["table"][i]["owner"] = owners[i], owners[0]
        unchanged_for_others(altered, owners[0], owners[i])


def check_turn_records(history, variant, seats):
    """Every recorded vote was a legal one, and the table held the right cards."""
    half = seats // 2
    for turn in history:
        teller = turn["storyteller"]
        owner = {p["position"]: p["owner"] for p in turn["table"]}
        most = 2 if variant == "base" and seats >= 7 else 1
        assert sorted(owner) == list(range(1, len(owner) + 1))
        if variant != "party":
            assert turn["red_vote"] is None and teller in owner.values()
        elif turn["red_vote"] is not None:
            assert turn["red_vote"] in owner
        for voter, picks in turn["votes"].items():
            voter = int(voter)
            assert 1 <= len(picks) <= most and len(set(picks)) == len(picks) and picks == sorted(picks)
            assert all(p in owner for p in picks)
            if variant == "base":
                assert voter != teller and voter in owner.values()
                assert not any(owner[p] == voter for p in picks), "a vote for one's own card"
            if variant == "party":
                assert voter in owner.values()
            if variant == "team":
                assert voter % half != teller % half and voter not in owner.values()
                assert (voter + half) % seats in owner.values()
        if variant == "team":
            per_team = Counter(o % half for o in owner.values())
            assert per_team[teller % half] <= 2 and all(n == 1 for t, n in per_team.items() if t != teller % half)


def recompute_scores(history, variant, seats):
    """Turn points from the records alone, without the engine's scoring."""
    totals, half = [0] * seats, seats // 2
    for turn in history:
        teller, red = turn["storyteller"], turn["red_vote"]
        votes = {int(v): picks for v, picks in turn["votes"].items()}
        owner = {p["position"]: p["owner"] for p in turn["table"]}
        earned = [0] * seats
        if variant == "party":
            for voter, (pick,) in votes.items():
                crowd = sum(1 for other in votes.values() if other == [pick])
                earned[voter] = 0 if pick == red or crowd == 1 else min(crowd, 5)
        else:
            story = [p for p, o in owner.items() if o == teller][0]
            found = [v for v, picks in votes.items() if story in picks]
            if found and len(found) < len(votes):
                earned[teller] += 3
                for v in found:
                    earned[v] += 3
            else:
                for v in votes:
                    earned[v] += 2
            if variant == "base" and seats >= 7:
                for v in found:
                    earned[v] += 1 if len(votes[v]) == 1 else 0
            on_card = Counter(owner[p] for picks in votes.values() for p in picks)
            for seat, n in on_card.items():
                if seat != teller:
                    earned[seat] += min(n, 3)
            if variant == "team":
                team_points = [earned[t] + earned[t + half] for t in range(half)]
                assert turn["team_scores"] == {str(t): team_points[t] for t in range(half)}
                earned = [team_points[s % half] for s in range(seats)]
        assert turn["scores"] == {str(s): earned[s] for s in range(seats)}
        totals = [a + b for a, b in zip(totals, earned)]
    return totals


def random_move(state, rnd, host_chance):
    waiting = GAME.waiting_for(state)
    active = [s for s in range(state["players"]) if s not in state["out"]]
    roll = rnd.random()
    if roll < host_chance / 5 and len(active) > 3:
        return {"type": "kick", "seat": None, "target": rnd.choice(active)}
    if roll < host_chance and state["phase"] != "claim":
        return {"type": "skip", "seat": None, "target": rnd.choice(waiting)}
    seat = rnd.choice(waiting)
    moves = GAME.legal(state, seat)
    assert moves, f"seat {seat} is waited on but has no legal move in {state['phase']}"
    move = dict(rnd.choice(moves))
    if move.get("phrase", 1) is None and rnd.random() < 0.5:
        move["phrase"] = rnd.choice(["the tide forgets", "  a   key  ", "¿dónde está la felicidad?"])
    return move


@pytest.mark.parametrize("variant, seats", COUNTS)
def test_odyssey_random_play(variant, seats):
    for seed in SEEDS:
        rnd = random.Random(seed)
        laps = 1 + seed % 2
        options = GAME.check_options({"variant": variant, "laps": laps})
        cards = fake_cards(odyssey.min_cards(variant, seats) + seed % 25)
        state = GAME.setup(seats, options, seed, cards)
        start = roundtrip(state)
        dealt = sorted(places(state))
        assert len(dealt) == min(84, len(cards)) and len(set(dealt)) == len(dealt)
        host_chance = 0.03 if seed % 5 == 0 else 0
        views_checked = seed % 8 == 0
        log = []
        for count in range(MAX_MOVES):
            if GAME.outcome(state) is not None:
                break
            assert sorted(places(state)) == dealt, "a card was lost, duplicated or is in two places"
            if views_checked and count % 3 == 0:
                check_views(state)
            move = random_move(state, rnd, host_chance)
            if seed % 4 == 0:  # the state continues identically from its JSON form, and through play()
                new = GAME.apply(roundtrip(state), move)
                assert play(GAME, state, move) == new
                state = new
            else:
                state = GAME.apply(state, move)
            log.append(move)
        else:
            pytest.fail(f"seed {seed}: the game did not end")
        assert sorted(places(state)) == dealt

        history = state["history"]
        check_turn_records(history, variant, seats)
        assert state["scores"] == recompute_scores(history, variant, seats)
        result = GAME.outcome(state)
        assert result["final_scores"] == {str(s): p for s, p in enumerate(state["scores"])}
        if variant == "base":
            before_last = recompute_scores(history[:-1], variant, seats)
            assert max(state["scores"]) >= 30 > max(before_last), "base ends in the turn reaching 30"
        else:
            active = [s for s in range(seats) if s not in state["out"]]
            assert all(state["tells"][s] >= laps for s in active)
            if host_chance == 0:
                assert Counter(t["storyteller"] for t in history) == {s: laps for s in range(seats)}
        if variant == "team":
            team_scores = {str(t): sum(t_["team_scores"][str(t)] for t_ in history) for t in range(seats // 2)}
            assert result["team_scores"] == team_scores
            best = max(team_scores.values())
            assert result["winners"] == [s for s in range(seats) if team_scores[str(s % (seats // 2))] == best]

        replayed = start
        for move in log:
            replayed = GAME.apply(replayed, move)
        assert replayed == state, "replaying the log does not rebuild the state"
        assert "seed" not in json.dumps(GAME.view(state, REVEALED)).replace('"rng": null', "")
