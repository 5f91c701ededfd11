"""Dixit Odyssey scoring and flow (RULES.md §2), from the rulebook's Party example and hand-made turns."""

from collections import Counter

import pytest

from engine.core import (
    SHARED,
    AlreadyMoved,
    BadOptions,
    GameOver,
    IllegalMove,
    NotYourTurn,
    UnknownMove,
    WrongPhase,
    play,
)
from engine.games import odyssey
from tests import kit
from tests.helpers import fake_cards, position_of

GAME = odyssey.GAME


def start(seats, seed=1, cards=None, **options):
    return GAME.setup(seats, GAME.check_options(options), seed, cards if cards is not None else fake_cards())


def step(state, **move):
    return play(GAME, state, move)


def tell_and_give(state, storyteller, givers=None):
    """Up to the vote: the storyteller tells (with their first card unless Party), givers give their first card(s)."""
    if state["phase"] == "claim":
        state = step(state, type="claim", seat=storyteller)
    party = state["options"]["variant"] == "party"
    card = {} if party else {"card": state["hands"][storyteller][0]}
    state = step(state, type="tell", seat=storyteller, phrase="Where is happiness?", **card)
    if givers is None:
        givers = [s for s in range(state["players"]) if party or s != storyteller]
    k = 2 if state["players"] == 3 and not party else 1
    for seat in givers:
        state = step(state, type="give", seat=seat, cards=state["hands"][seat][:k])
    assert state["phase"] == "vote"
    return state


def vote_for_owners(state, votes):
    """votes: voter -> owner or list of owners whose card(s) they vote for."""
    table = state
    for voter, owners in votes.items():
        owners = owners if isinstance(owners, list) else [owners]
        state = step(state, type="vote", seat=voter, positions=[position_of(table, o) for o in owners])
    return state


def play_turn(state, storyteller, votes):
    return vote_for_owners(tell_and_give(state, storyteller), votes)


# ---- Party -------------------------------------------------------------------------------------

JULIAN, TOMAS, DANIEL, MYRIAM, LAURA = range(5)


def test_party_rulebook_example():
    """Tomás and 5 others on card 3: 6, capped to 5. Daniel and Myriam on card 2, the red card: 0.
    Laura alone on card 5: 0."""
    state = tell_and_give(start(9, variant="party"), JULIAN)
    assert len(state["table"]) == 9  # the storyteller gave a card too
    for seat in (TOMAS, JULIAN, 5, 6, 7, 8):
        state = step(state, type="vote", seat=seat, positions=[3])
    for seat in (DANIEL, MYRIAM):
        state = step(state, type="vote", seat=seat, positions=[2])
    state = step(state, type="vote", seat=LAURA, positions=[5])
    assert GAME.waiting_for(state) == [JULIAN]  # the red vote is still to come
    state = step(state, type="red_vote", seat=JULIAN, position=2)
    turn = state["history"][0]
    assert turn["red_vote"] == 2 and turn["votes"][str(TOMAS)] == [3]
    assert turn["scores"] == {"0": 5, "1": 5, "2": 0, "3": 0, "4": 0, "5": 5, "6": 5, "7": 5, "8": 5}
    assert state["scores"] == [5, 5, 0, 0, 0, 5, 5, 5, 5]
    assert state["storyteller"] == TOMAS and state["phase"] == "tell"


def test_party_storyteller_voting_the_red_card_scores_nothing_but_may_vote_own_card():
    state = tell_and_give(start(6, variant="party"), 0)
    own = position_of(state, 0)
    state = step(state, type="vote", seat=0, positions=[own])  # own card: allowed in Party
    state = step(state, type="vote", seat=1, positions=[own])
    state = step(state, type="vote", seat=2, positions=[own])
    for seat in (3, 4, 5):
        state = step(state, type="vote", seat=seat, positions=[position_of(state, 3)])
    state = step(state, type="red_vote", seat=0, position=own)
    assert state["history"][0]["scores"] == {"0": 0, "1": 0, "2": 0, "3": 3, "4": 3, "5": 3}


def test_party_storyteller_tells_before_looking_at_the_hand():
    state = start(6, variant="party")
    assert all(GAME.view(state, s)["hand"] == [] for s in range(6))  # turn 1: nobody has looked yet
    state = step(state, type="claim", seat=2)
    assert GAME.view(state, 2)["hand"] == [] and GAME.view(state, 2)["hand_hidden"]
    assert GAME.view(state, 3)["hand"] == sorted(state["hands"][3])
    assert GAME.legal(state, 2) == [{"type": "tell", "seat": 2, "phrase": None}]
    with pytest.raises(IllegalMove, match="goes with no card"):
        step(state, type="tell", seat=2, card=state["hands"][2][0], phrase="x")
    state = step(state, type="tell", seat=2, phrase="  the   tide forgets ")
    assert state["phrase"] == "the tide forgets" and state["story_card"] is None
    assert GAME.view(state, 2)["hand"] == sorted(state["hands"][2])


def test_party_hands_pass_left_after_refilling():
    state = tell_and_give(start(6, variant="party"), 0)
    kept = [list(hand) for hand in state["hands"]]  # 4 cards each after giving
    for seat in range(6):
        state = step(state, type="vote", seat=seat, positions=[1])
    state = step(state, type="red_vote", seat=0, position=2)
    for seat in range(6):
        left = (seat + 1) % 6
        assert len(state["hands"][left]) == 5 and set(kept[seat]) < set(state["hands"][left])


def test_party_ends_after_the_laps():
    state = start(6, variant="party", laps=2)
    for _ in range(12):
        teller = state["storyteller"] if state["phase"] == "tell" else 3
        state = tell_and_give(state, teller)
        for seat in range(6):
            state = step(state, type="vote", seat=seat, positions=[1])
        state = step(state, type="red_vote", seat=teller, position=1)
    assert state["phase"] == "end" and [t["storyteller"] for t in state["history"]] == [3, 4, 5, 0, 1, 2] * 2
    assert GAME.outcome(state)["winners"] == [0, 1, 2, 3, 4, 5]  # the red card got every vote: all 0
    with pytest.raises(GameOver):
        step(state, type="claim", seat=0)


# ---- base game ---------------------------------------------------------------------------------


def test_seven_players_double_vote_that_found_the_card():
    state = play_turn(start(7), 0, {1: [0, 2], 2: 0, 3: 1, 4: 1, 5: [1, 2], 6: 5})
    # Two found: storyteller 3; seat 1 (two votes) 3; seat 2 (single vote) 3+1.
    # Votes on own cards: seat 1 got 3, seat 2 got 2, seat 5 got 1.
    assert state["history"][0]["votes"]["1"] == sorted(
        [position_of(state["history"][0], 0), position_of(state["history"][0], 2)]
    )
    assert state["scores"] == [3, 6, 6, 0, 0, 1, 0]


def test_single_vote_bonus_also_when_everyone_found_it():
    state = play_turn(start(8), 0, {1: 0, 2: 0, 3: [0, 1], 4: [0, 1], 5: 0, 6: [0, 5], 7: 0})
    # Everyone found it: storyteller 0, every voter 2, +1 for a single vote; seat 1: 2 votes, seat 5: 1.
    assert state["scores"] == [0, 3 + 2, 3, 2, 2, 3 + 1, 2, 3]


def test_votes_on_own_card_score_at_most_three():
    state = play_turn(start(6), 0, {1: 0, 2: 1, 3: 1, 4: 1, 5: 1})
    # Only seat 1 found it (3); four votes on seat 1's card are capped at 3.
    assert state["scores"] == [3, 6, 0, 0, 0, 0]


def test_three_players_hold_seven_and_lay_five_cards():
    state = start(3)
    assert [len(h) for h in state["hands"]] == [7, 7, 7]
    state = tell_and_give(state, 1)
    assert len(state["table"]) == 5
    assert GAME.legal(state, 0)[0]["positions"] and all(len(m["positions"]) == 1 for m in GAME.legal(state, 0))


def test_discards_are_reshuffled_when_the_draw_pile_runs_out():
    cards = fake_cards(31)  # 3 players: the deal (21) and two turns (2 x 5)
    state = start(3, cards=cards)
    assert len(state["deck"]) == 10
    state = play_turn(state, 0, {1: 0, 2: 0})
    state = play_turn(state, 1, {0: 1, 2: 1})
    assert state["deck"] == [] and len(state["discard"]) == 10
    state = play_turn(state, 2, {0: 2, 1: 2})
    # The third refill found the pile empty: all 15 discards became the new pile, 5 were drawn.
    assert len(state["deck"]) == 10 and state["discard"] == []
    everywhere = state["deck"] + [c for hand in state["hands"] for c in hand]
    assert sorted(everywhere) == sorted(cards)
    played = {p["card"] for turn in state["history"] for p in turn["table"]}
    assert len(played) == 15 and played <= set(everywhere)  # every played card is back in play


def test_game_ends_at_the_end_of_the_turn_in_which_someone_reaches_thirty():
    state = start(4)
    state["scores"] = [26, 29, 0, 0]
    state = play_turn(state, 0, {1: 2, 2: 3, 3: 2})  # nobody found it: 2 each, seat 2 +2, seat 3 +1
    assert state["scores"] == [26, 31, 4, 3] and state["phase"] == "end"
    assert GAME.outcome(state) == {"final_scores": {"0": 26, "1": 31, "2": 4, "3": 3}, "winners": [1]}


def test_game_goes_on_below_thirty():
    state = start(4)
    state["scores"] = [26, 27, 0, 0]
    state = play_turn(state, 0, {1: 2, 2: 3, 3: 2})
    assert state["scores"] == [26, 29, 4, 3] and state["phase"] == "tell" and state["storyteller"] == 1


def test_legal_lists_single_and_pair_votes_with_seven_or_more():
    state = tell_and_give(start(7), 0)
    own = position_of(state, 3)
    votes = [m["positions"] for m in GAME.legal(state, 3)]
    assert len(votes) == 6 + 15 and all(own not in v for v in votes)
    assert GAME.legal(state, 0) == []  # the storyteller does not vote


# ---- Team --------------------------------------------------------------------------------------


def test_team_scoring_counts_the_storytellers_teammate():
    state = start(6, variant="team")  # teams: {0, 3}, {1, 4}, {2, 5}
    assert [len(h) for h in state["hands"]] == [4] * 6
    state = step(state, type="claim", seat=0)
    state = step(state, type="tell", seat=0, card=state["hands"][0][0], phrase=None)
    assert GAME.waiting_for(state) == [1, 2, 3, 4, 5]  # the teammate, and both members of the other teams
    state = step(state, type="give", seat=3, cards=state["hands"][3][:1])
    state = step(state, type="give", seat=1, cards=state["hands"][1][:1])
    before = repr(state)
    with pytest.raises(AlreadyMoved, match="teammate"):
        step(state, type="give", seat=4, cards=state["hands"][4][:1])
    with pytest.raises(AlreadyMoved):
        step(state, type="give", seat=1, cards=state["hands"][1][:1])
    assert repr(state) == before
    state = step(state, type="give", seat=5, cards=state["hands"][5][:1])
    assert state["phase"] == "vote" and len(state["table"]) == 4
    assert GAME.waiting_for(state) == [2, 4]  # one member of each other team; nobody of the storyteller's
    for seat in (0, 1, 3, 5):
        with pytest.raises(NotYourTurn):
            step(state, type="vote", seat=seat, positions=[1])
    state = vote_for_owners(state, {4: 0, 2: 3})
    turn = state["history"][0]
    # One found it: storyteller 3 and seat 4 3; the vote on the teammate's card: +1 for team 0.
    assert turn["team_scores"] == {"0": 4, "1": 3, "2": 0}
    assert turn["scores"] == {"0": 4, "1": 3, "2": 0, "3": 4, "4": 3, "5": 0}
    assert turn["votes"] == {"4": [position_of(turn, 0)], "2": [position_of(turn, 3)]}


def test_team_game_ends_after_a_lap_and_the_best_team_wins():
    state = start(8, variant="team")
    for _ in range(8):
        teller = state["storyteller"] if state["phase"] == "tell" else 0
        state = tell_and_give(state, teller, givers=[(teller + 4) % 8] + [(teller + k) % 8 for k in (1, 2, 3)])
        voters = GAME.waiting_for(state)
        assert sorted(voters) == sorted((teller + k) % 8 for k in (5, 6, 7))
        # Everyone finds the storyteller's card except one voter, who picks the teammate's card.
        state = vote_for_owners(state, {voters[0]: (teller + 4) % 8, **{v: teller for v in voters[1:]}})
    assert state["phase"] == "end" and len(state["history"]) == 8
    result = GAME.outcome(state)
    assert result["teams"] == {str(s): s % 4 for s in range(8)}
    assert all(result["final_scores"][str(s)] == result["team_scores"][str(s % 4)] for s in range(8))
    best = max(result["team_scores"].values())
    assert result["winners"] == [s for s in range(8) if result["team_scores"][str(s % 4)] == best]


def test_team_skip_passes_the_give_to_the_teammate():
    state = start(6, variant="team")
    state = step(state, type="claim", seat=0)
    state = step(state, type="tell", seat=0, card=state["hands"][0][0], phrase=None)
    state = step(state, type="skip", seat=None, target=1)
    assert 1 not in GAME.waiting_for(state) and 4 in GAME.waiting_for(state)
    state = step(state, type="skip", seat=None, target=4)  # the whole team sits the turn out
    for seat in (3, 2):
        state = step(state, type="give", seat=seat, cards=state["hands"][seat][:1])
    assert GAME.waiting_for(state) == [5]
    state = vote_for_owners(state, {5: 0})
    assert state["history"][0]["team_scores"] == {"0": 0, "1": 0, "2": 2}  # all (one) found it: 2


# ---- host moves and refusals -------------------------------------------------------------------


def test_skipped_party_storyteller_leaves_no_red_card():
    state = tell_and_give(start(6, variant="party"), 0)
    for seat in range(6):
        state = step(state, type="vote", seat=seat, positions=[1 + seat % 2])
    state = step(state, type="skip", seat=None, target=0)
    turn = state["history"][0]
    assert turn["red_vote"] is None and turn["scores"] == {str(s): 3 for s in range(6)}


def test_skipped_storyteller_has_had_their_turn():
    state = start(6, variant="party")
    state = step(state, type="claim", seat=5)
    state = step(state, type="skip", seat=None, target=5)
    assert state["storyteller"] == 0 and state["phase"] == "tell" and state["tells"][5] == 1


def test_kicked_seat_never_holds_up_the_table():
    state = tell_and_give(start(5), 0)
    state = vote_for_owners(state, {1: 0, 2: 0})
    state = step(state, type="kick", seat=None, target=3)
    assert GAME.waiting_for(state) == [4]
    state = vote_for_owners(state, {4: 1})
    assert state["phase"] == "tell" and state["storyteller"] == 1 and "3" not in state["history"][0]["votes"]
    state = step(state, type="kick", seat=None, target=1)  # the storyteller leaves: the next seat tells
    assert state["storyteller"] == 2
    with pytest.raises(IllegalMove, match="three players"):
        step(state, type="kick", seat=None, target=2)


def test_refusals_raise_the_right_error_and_change_nothing():
    state = tell_and_give(start(7), 0)
    before = repr(state)
    own = position_of(state, 1)
    others = [p["position"] for p in state["table"] if p["owner"] not in (1,)]
    with pytest.raises(IllegalMove, match="your own card"):
        step(state, type="vote", seat=1, positions=[own])
    with pytest.raises(IllegalMove, match="at most 2"):
        step(state, type="vote", seat=1, positions=others[:3])
    with pytest.raises(IllegalMove, match="different"):
        step(state, type="vote", seat=1, positions=[others[0], others[0]])
    with pytest.raises(NotYourTurn):
        step(state, type="vote", seat=0, positions=[others[0]])  # the storyteller does not vote
    with pytest.raises(WrongPhase):
        step(state, type="give", seat=1, cards=state["hands"][1][:1])
    with pytest.raises(UnknownMove):
        step(state, type="red_vote", seat=0, position=1)  # no red vote outside Party
    with pytest.raises(UnknownMove):
        step(state, type="shout", seat=1)
    assert repr(state) == before
    state = step(state, type="vote", seat=1, positions=others[:2])
    with pytest.raises(AlreadyMoved):
        step(state, type="vote", seat=1, positions=others[:1])


def test_refusals_in_small_base_and_party():
    state = tell_and_give(start(4), 0)
    with pytest.raises(IllegalMove, match="one card only"):
        step(state, type="vote", seat=1, positions=[p["position"] for p in state["table"]][:2])
    state = start(6, variant="party")
    state = step(state, type="claim", seat=0)
    with pytest.raises(WrongPhase):
        step(state, type="claim", seat=1)
    state = step(state, type="tell", seat=0, phrase=None)
    state = step(state, type="give", seat=2, cards=state["hands"][2][:1])
    before = repr(state)
    with pytest.raises(AlreadyMoved):
        step(state, type="give", seat=2, cards=state["hands"][2][:1])
    with pytest.raises(IllegalMove, match="not in your hand"):
        step(state, type="give", seat=3, cards=state["hands"][2][:1])
    with pytest.raises(WrongPhase):
        step(state, type="vote", seat=3, positions=[1])
    assert repr(state) == before
    for seat in (0, 1, 3, 4, 5):
        state = step(state, type="give", seat=seat, cards=state["hands"][seat][:1])
    before = repr(state)
    with pytest.raises(NotYourTurn, match="Only the storyteller"):
        step(state, type="red_vote", seat=1, position=1)
    with pytest.raises(UnknownMove):
        step(state, type="red_vote", seat=0, position=7)  # 6 cards on the table
    assert repr(state) == before
    state = step(state, type="red_vote", seat=0, position=1)
    with pytest.raises(AlreadyMoved):
        step(state, type="red_vote", seat=0, position=2)


def test_red_vote_is_secret_until_the_reveal():
    state = tell_and_give(start(6, variant="party"), 0)
    state = step(state, type="red_vote", seat=0, position=4)
    assert GAME.view(state, 0)["my_red_vote"] == 4
    for viewer in [SHARED, 1, 2, 3, 4, 5]:
        assert "my_red_vote" not in GAME.view(state, viewer)
        altered = {**state, "red_vote": 5}
        assert GAME.view(altered, viewer) == GAME.view(state, viewer)


@pytest.mark.parametrize(
    "seats, options, message",
    [
        (5, {"variant": "party"}, "6 to 12"),
        (7, {"variant": "team"}, "6, 8, 10 or 12"),
        (6, {"variant": "teams"}, "not valid"),
        (6, {"laps": 0}, "not valid"),
        (6, {"laps": 6}, "not valid"),
        (13, {}, "3 to 12"),
    ],
)
def test_bad_options_are_refused_with_a_clear_message(seats, options, message):
    with pytest.raises(BadOptions, match=message):
        start(seats, **options)
    with pytest.raises(BadOptions, match=message):
        GAME.content.cards(GAME.check_options(options), seats)


def test_content_checks_the_deck_covers_the_deal_and_two_turns():
    assert odyssey.min_cards("base", 10) == 10 * 6 + 2 * 10
    assert odyssey.min_cards("base", 12) == 84  # the box: 72 dealt, 12 left, then reshuffles
    assert odyssey.min_cards("party", 12) == 12 * 5 + 2 * 12
    assert odyssey.min_cards("team", 12) == 12 * 4 + 2 * 7
    assert odyssey.min_cards("base", 3) == 21 + 2 * 5
    with pytest.raises(BadOptions, match="no picture deck"):
        GAME.content.cards(GAME.check_options({"deck": "no-such-deck"}), 6)


# ---- over many random games (the shared random player of tests/kit.py) --------------------------


def places(state):
    cards = list(state["deck"]) + list(state["discard"]) + [c for hand in state["hands"] for c in hand]
    cards += [p["card"] for p in state["table"]]
    if state["phase"] == "give":
        cards += [c for given in state["given"].values() for c in given]
        cards += [state["story_card"]] if state["story_card"] else []
    return cards


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
        totals = [a + b for a, b in zip(totals, earned, strict=True)]
    return totals


@pytest.mark.parametrize(
    "variant, seats",
    [("base", n) for n in (3, 5, 7, 9, 12)] + [("party", n) for n in (6, 9, 12)] + [("team", n) for n in (6, 8, 12)],
)
def test_random_games_keep_every_card_score_by_the_records_and_end_for_the_right_reason(variant, seats):
    for seed in range(12):
        dealt = []

        def each(state, dealt=dealt):
            if not dealt:
                dealt.extend(sorted(places(state)))
                assert len(dealt) == 84 and len(set(dealt)) == 84
            assert sorted(places(state)) == dealt, "a card was lost, duplicated or is in two places"

        kicks = seed % 4 == 0
        _, state, _ = kit.random_game(
            "odyssey", {"variant": variant, "laps": 1}, seats, seed, host_chance=0.02 if kicks else 0, each=each
        )
        history = state["history"]
        check_turn_records(history, variant, seats)
        assert state["scores"] == recompute_scores(history, variant, seats)
        if state.get("ended_by_host"):
            continue
        if variant == "base":
            before_last = [s - int(history[-1]["scores"][str(i)]) for i, s in enumerate(state["scores"])]
            assert max(state["scores"]) >= 30 > max(before_last), "base ends in the turn reaching 30"
        else:
            assert all(state["tells"][s] >= 1 for s in range(seats) if s not in state["out"])
            if not kicks:
                assert Counter(t["storyteller"] for t in history) == {s: 1 for s in range(seats)}
