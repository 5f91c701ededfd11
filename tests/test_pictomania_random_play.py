"""Pictomania played through `legal()` alone, 3 to 6 players, many seeds (after OpenSpiel).

Checks: the game ends after 4 rounds; legal moves never run out for a seat the table waits on;
numbers are distinct and letters come from the 6 letter cards; every guess is legal; tokens are
conserved; scores equal an independent recomputation from the round records; state round-trips
through JSON; replaying the log rebuilds the state; no view shows another seat's letter, number
or guess numbers before the round is scored (counterfactual), and the shared view no secret.
"""
import copy
import json
import random
from collections import Counter, defaultdict

import pytest

from engine.core import REVEALED, SHARED, MoveError, play
from engine.games.pictomania import GAME

SEEDS = range(64)
MAX_MOVES = 3000

# Independent copies of RULES.md §3's token tables (not imported from the engine on purpose).
SCORING = {3: [3, 1], 4: [3, 2, 1], 5: [4, 3, 2, 1], 6: [4, 3, 2, 2, 1]}
BLACK = {3: [3, 2, 1], 4: [4, 3, 2, 1], 5: [4, 3, 2, 1, 1], 6: [5, 4, 3, 2, 1, 1]}

DRAW_WEIGHTS = {"stroke": 3, "undo": 0.5, "clear": 0.2, "guess": 6, "finish": 1.2, "wrong_word": 0.08}
WORDS_WEIGHTS = {"ready": 6, "replace": 1}


def random_stroke(rnd):
    colour = rnd.choice(["#000000", "#E53935", "eraser", "#%06x" % rnd.randrange(1 << 24)])
    points = [[rnd.randint(0, 1000), rnd.randint(0, 750)] for _ in range(rnd.randint(1, 6))]
    return {"points": points, "width": rnd.randint(1, 40), "color": colour}


def random_move(state, rnd, host_chance):
    waiting = GAME.waiting_for(state)
    if rnd.random() < host_chance:
        target = rnd.randrange(state["players"])
        return {"type": rnd.choice(["skip", "skip", "kick"]), "seat": None, "target": target}
    seat = rnd.choice(waiting)
    moves = GAME.legal(state, seat)
    assert moves, f"seat {seat} is waited on but has no legal move in {state['phase']}"
    by_kind = defaultdict(list)
    for move in moves:
        by_kind[move["type"]].append(move)
    weights = DRAW_WEIGHTS if state["phase"] == "draw" else WORDS_WEIGHTS
    kinds = sorted(by_kind)
    kind = rnd.choices(kinds, [weights[k] for k in kinds])[0]
    move = dict(rnd.choice(by_kind[kind]))
    if kind == "stroke":
        assert move["points"] is None
        move.update(random_stroke(rnd))
    return move


def recompute_round(record):
    """Round scores from the record alone, written independently of the engine."""
    seats = sorted(map(int, record["assignments"]))
    table = SCORING[len(seats)]
    secret = {int(s): a["number"] for s, a in record["assignments"].items()}
    void = set(record["wrong_word"])
    finders = defaultdict(list)
    errors = Counter()
    for guess in sorted(record["guesses"], key=lambda g: g["order"]):
        if guess["drawer"] in void:
            continue
        if guess["number"] == secret[guess["drawer"]]:
            finders[guess["drawer"]].append(guess["guesser"])
        else:
            errors[guess["guesser"]] += 1
    points = Counter()
    for drawer in seats:
        for k, finder in enumerate(finders[drawer]):
            points[finder] += table[k]
        points[drawer] -= sum(table) if drawer in void else sum(table[len(finders[drawer]):])
    top = max(errors.values(), default=0)
    sheep = [s for s in seats if errors[s] == top]
    sheep = sheep[0] if top > 0 and len(sheep) == 1 else None
    for seat in seats:
        token = record["black_tokens"][str(seat)] or 0
        if seat in void:
            continue
        if seat == sheep:
            points[seat] -= token
        elif finders[seat]:
            points[seat] += token
    return {seat: points[seat] for seat in seats}


def check_round_record(record, players, competitive):
    seats = sorted(map(int, record["assignments"]))
    assert 3 <= len(seats) <= players
    numbers = [a["number"] for a in record["assignments"].values()]
    letters = Counter(a["letter"] for a in record["assignments"].values())
    assert len(set(numbers)) == len(numbers) and set(numbers) <= set(range(1, 8))
    assert set(letters) <= set("ABC") and max(letters.values()) <= 2
    assert set(record["cards"]) == set("ABC") and all(len(w) == 7 for w in record["cards"].values())
    # Every guess was legal.
    assert [g["order"] for g in record["guesses"]] == list(range(1, len(record["guesses"]) + 1))
    pairs = [(g["guesser"], g["drawer"]) for g in record["guesses"]]
    assert len(set(pairs)) == len(pairs), "two guesses on one drawing"
    played = defaultdict(list)
    for g in record["guesses"]:
        assert g["guesser"] in seats and g["drawer"] in seats and g["guesser"] != g["drawer"]
        assert g["number"] != record["assignments"][str(g["guesser"])]["number"]
        if g["drawer"] not in record["wrong_word"]:
            played[g["guesser"]].append(g["number"])
    assert all(len(set(n)) == len(n) for n in played.values()), "a number card played twice"
    # Black tokens: each taken token comes from the round's supply, at most once.
    supply = Counter(BLACK[len(seats)][:-1] if competitive else BLACK[len(seats)])
    taken = Counter(v for v in record["black_tokens"].values() if v is not None)
    assert not taken - supply
    # Scoring tokens: every token of every drawer is with its owner (unclaimed) or with one guesser.
    for drawer in seats:
        handed = [r["value"] for t in record["tokens"].values() for r in t["received"] if r["from"] == drawer]
        assert sorted(handed + record["tokens"][str(drawer)]["unclaimed"]) == sorted(SCORING[len(seats)])
    # Scores, from the record alone.
    expected = recompute_round(record)
    assert record["scores"] == {str(s): expected.get(s, 0) for s in range(players)}


def check_black_tokens_in_play(state):
    seats = len(state["assignments"])
    full = BLACK[seats][:-1] if state["options"]["competitive"] else BLACK[seats]
    held = [v for v in state["finished"].values() if v is not None]
    assert sorted(state["black_supply"] + held) == sorted(full), "a black token was lost or doubled"


def check_views(state):
    """Another seat's letter, number and guess numbers never change a view (counterfactual)."""
    shared = GAME.view(state, SHARED)
    json.dumps(shared)
    views = {s: GAME.view(state, s) for s in range(state["players"])}
    for other in map(int, state["assignments"]):
        altered = copy.deepcopy(state)
        mine = altered["assignments"][str(other)]
        mine["number"] = mine["number"] % 7 + 1
        mine["letter"] = {"A": "B", "B": "C", "C": "A"}[mine["letter"]]
        for guess in altered["guesses"]:
            if guess["guesser"] == other:
                guess["number"] = guess["number"] % 7 + 1
        assert GAME.view(altered, SHARED) == shared, f"the shared view shows seat {other}'s secret"
        for seat, seen in views.items():
            if seat != other:
                assert GAME.view(altered, seat) == seen, f"seat {seat} sees seat {other}'s secret"
        assert GAME.view(altered, other) != views[other], "the counterfactual changed nothing at all"


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_pictomania_random_play(seats):
    for seed in SEEDS:
        rnd = random.Random(seed)
        decks = ["green", "yellow", "orange", "red"] if seed % 3 else [rnd.choice("green yellow".split())] * 4
        options = GAME.check_options({"competitive": seed % 2 == 1, "decks": decks,
                                      "language": ["en", "es", "it"][seed % 3]})
        state = GAME.setup(seats, options, seed, GAME.content(options, seats))
        start = json.loads(json.dumps(state))
        log = []
        shown, on_table = [], set()  # every word card put on the table this game, in order
        for _ in range(MAX_MOVES):
            if GAME.outcome(state) is not None:
                break
            now = {c["id"] for c in state["cards"].values()}
            shown += sorted(now - on_table)
            on_table = now
            if state["phase"] == "draw":
                check_black_tokens_in_play(state)
                if seed % 6 == 0 and rnd.random() < 0.1:
                    check_views(state)
            move = random_move(state, rnd, host_chance=0.01 if seed % 5 == 0 else 0)
            try:
                new = play(GAME, state, move)
            except MoveError:
                if move["seat"] is None:  # a refused host move is fine: it changes nothing
                    continue
                raise
            if seed % 4 == 0:
                assert play(GAME, json.loads(json.dumps(state)), move) == new
            state = new
            log.append(move)
        else:
            pytest.fail(f"seed {seed}: the game did not end")
        assert state["phase"] == "end" and len(state["history"]) == 4
        assert len(shown) == len(set(shown)), "a word card came back"
        totals = Counter()
        for number, record in enumerate(state["history"], start=1):
            assert record["round"] == number and record["deck"] == decks[number - 1]
            check_round_record(record, seats, options["competitive"])
            totals.update({int(s): p for s, p in record["scores"].items()})
        assert state["scores"] == [totals[s] for s in range(seats)]
        result = GAME.outcome(state)
        best = max(state["scores"])
        assert result["winners"] == [s for s in range(seats) if state["scores"][s] == best]
        assert json.loads(json.dumps(state)) == state
        replayed = start
        for move in log:
            replayed = play(GAME, replayed, move)
        assert replayed == state
        revealed = GAME.view(state, REVEALED)
        assert revealed["rng"] is None
