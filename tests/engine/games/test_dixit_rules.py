"""Classic Dixit scoring and flow, from the rulebook's worked example (RULES.md §1)."""

import pytest

from engine.core import AlreadyMoved, GameOver, IllegalMove, NotYourTurn, WrongPhase
from engine.games.dixit import turn_scores
from tests import kit
from tests.helpers import position_of, start, step

JULIAN, MATILDE, NICOLAS, LEO, TOMAS = range(5)


def play_turn(game, state, storyteller, votes_for_owner, contando=False):
    """Storyteller tells, everyone gives their first card, each voter votes for the card of an owner."""
    if state["phase"] == "claim":
        state = step(game, state, type="claim", seat=storyteller)
    state = step(
        game, state, type="tell", seat=storyteller, card=state["hands"][storyteller][0], phrase="Where is happiness?"
    )
    for seat in range(state["players"]):
        if seat != storyteller:
            k = 2 if state["players"] == 3 else 1
            state = step(game, state, type="give", seat=seat, cards=state["hands"][seat][:k])
    table_before = state
    for voter, owner in votes_for_owner.items():
        state = step(game, state, type="vote", seat=voter, position=position_of(table_before, owner))
    return state


def test_rulebook_worked_example():
    game, state = start("dixit", 5)
    state = play_turn(game, state, JULIAN, {LEO: JULIAN, MATILDE: LEO, TOMAS: LEO, NICOLAS: TOMAS})
    assert state["scores"] == [3, 0, 0, 5, 1]  # Julián 3, Matilde 0, Nicolás 0, Leo 5, Tomás 1
    turn = state["history"][0]
    assert turn["scores"] == {"0": 3, "1": 0, "2": 0, "3": 5, "4": 1}
    assert turn["phrase"] == "Where is happiness?"
    # The next storyteller is the seat to Julián's left.
    assert state["storyteller"] == MATILDE and state["phase"] == "tell"


def test_everyone_finds_the_card():
    game, state = start("dixit", 4)
    state = play_turn(game, state, 0, {1: 0, 2: 0, 3: 0})
    assert state["scores"] == [0, 2, 2, 2]


def test_nobody_finds_the_card():
    game, state = start("dixit", 4)
    state = play_turn(game, state, 0, {1: 2, 2: 3, 3: 2})
    # 2 each, plus 1 per vote on one's own card: seat 2 got two votes, seat 3 one.
    assert state["scores"] == [0, 2, 4, 3]


def test_contando_one_finder_scores_four():
    game, state = start("dixit", 5, options={"contando": True})
    state = play_turn(game, state, JULIAN, {LEO: JULIAN, MATILDE: LEO, TOMAS: LEO, NICOLAS: TOMAS})
    assert state["scores"] == [4, 0, 0, 6, 1]


def test_contando_two_finders_score_three():
    game, state = start("dixit", 5, options={"contando": True})
    state = play_turn(game, state, 0, {1: 0, 2: 0, 3: 1, 4: 1})
    assert state["scores"] == [3, 5, 3, 0, 0]


def test_three_players_give_two_cards_and_table_has_five():
    game, state = start("dixit", 3)
    assert [len(h) for h in state["hands"]] == [7, 7, 7]
    state = step(game, state, type="claim", seat=1)
    state = step(game, state, type="tell", seat=1, card=state["hands"][1][0], phrase=None)
    state = step(game, state, type="give", seat=0, cards=state["hands"][0][:2])
    state = step(game, state, type="give", seat=2, cards=state["hands"][2][:2])
    assert len(state["table"]) == 5 and state["phase"] == "vote"


def test_turn_scores_is_pure_record_arithmetic():
    table = [
        {"position": 1, "card": "a", "owner": 3},
        {"position": 2, "card": "b", "owner": 1},
        {"position": 3, "card": "c", "owner": 4},
        {"position": 4, "card": "d", "owner": 0},
        {"position": 5, "card": "e", "owner": 2},
    ]
    votes = {"3": [4], "1": [1], "4": [1], "2": [3]}
    assert turn_scores(0, table, votes, [0, 1, 2, 3, 4], False) == {"0": 3, "1": 0, "2": 0, "3": 5, "4": 1}


def test_first_claim_wins_and_others_cannot_claim():
    game, state = start("dixit", 4)
    state = step(game, state, type="claim", seat=2)
    with pytest.raises(WrongPhase):
        step(game, state, type="claim", seat=0)
    with pytest.raises(NotYourTurn):
        step(game, state, type="tell", seat=0, card=state["hands"][0][0], phrase=None)


def test_refusals_change_nothing():
    game, state = start("dixit", 4)
    state = play_turn(game, state, 0, {})  # up to the vote
    before = repr(state)
    own = position_of(state, 1)
    with pytest.raises(IllegalMove, match="your own card"):
        step(game, state, type="vote", seat=1, position=own)
    with pytest.raises(NotYourTurn):
        step(game, state, type="vote", seat=0, position=own)  # the storyteller does not vote
    with pytest.raises(WrongPhase):
        step(game, state, type="give", seat=1, cards=state["hands"][1][:1])
    assert repr(state) == before
    other = next(p["position"] for p in state["table"] if p["owner"] not in (1,))
    state = step(game, state, type="vote", seat=1, position=other)
    with pytest.raises(AlreadyMoved):
        step(game, state, type="vote", seat=1, position=other)


def test_game_ends_when_the_draw_pile_runs_out_and_then_refuses_moves():
    game, state = start("dixit", 6, cards=[f"dream-{i:03d}" for i in range(1, 85)])
    turns = 0
    while state["phase"] != "end":
        storyteller = state["storyteller"] if state["phase"] != "claim" else 0
        voters = [s for s in range(6) if s != storyteller]
        state = play_turn(game, state, storyteller, {v: storyteller for v in voters})
        turns += 1
    # 84 cards, 36 dealt, 6 per turn: 8 turns empty the pile, the 9th cannot be refilled.
    assert turns == 9 and len(state["history"]) == 9
    # Everyone always finds the card: 2 per turn when not telling. Seats 0-2 told twice, 3-5 once.
    assert state["scores"] == [14, 14, 14, 16, 16, 16]
    assert game.outcome(state)["winners"] == [3, 4, 5]
    with pytest.raises(GameOver):
        step(game, state, type="claim", seat=0)


# ---- over many random games (the shared random player of tests/kit.py) --------------------------


def dixit_places(state):
    places = list(state["deck"]) + list(state["discard"]) + [c for h in state["hands"] for c in h]
    places += [c for cards in state["given"].values() for c in cards] if state["phase"] == "give" else []
    places += [p["card"] for p in state["table"]]
    if state["phase"] == "give" and state["story_card"]:
        places.append(state["story_card"])
    return places


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


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_random_games_keep_every_card_and_score_by_the_turn_records(seats):
    for seed in range(30):
        dealt = []

        def each(state, dealt=dealt):
            if not dealt:
                dealt.extend(sorted(dixit_places(state)))
                assert len(dealt) == 84 and len(set(dealt)) == 84
            assert sorted(dixit_places(state)) == dealt, "a card was lost, duplicated or is in two places"

        contando = seed % 2 == 1
        _, state, _ = kit.random_game(
            "dixit", {"contando": contando}, seats, seed, host_chance=0.02 if seed % 5 == 0 else 0, each=each
        )
        for turn in state["history"]:
            owners = {p["position"]: p["owner"] for p in turn["table"]}
            for voter, picks in turn["votes"].items():
                assert len(picks) == 1 and owners[picks[0]] != int(voter) and int(voter) != turn["storyteller"]
        totals = recompute_dixit(state["history"], contando)
        assert state["scores"] == [totals.get(s, 0) for s in range(seats)]
