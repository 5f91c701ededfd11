"""Trading Faces and its memory variant: the rulebook's worked example and RULES.md §4."""

import copy

import pytest

from engine.core import SHARED, AlreadyMoved, IllegalMove, NotYourTurn, WrongPhase, play, table_view
from engine.games.trading_faces import EMOTIONS, GAME

LAURA, TIM, NADIA, JENNY = 0, 1, 2, 3


def new_game(seats, variant="classic", seed=1):
    return GAME.setup(seats, GAME.check_options({"variant": variant}), seed, None)


def mv(state, kind, seat, **fields):
    return play(GAME, state, {"type": kind, "seat": seat, **fields})


def refused(state, error, move, match=None):
    """The move raises `error` and leaves the state as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(error, match=match):
        play(GAME, state, move)
    assert state == before


def hands(state, *cards, pile=None):
    """Deal these hands (one list per seat) and this pile instead of the shuffled ones."""
    state["hands"] = {str(s): list(h) for s, h in enumerate(cards)}
    if pile is not None:
        state["pile"] = list(pile)
    return state


FILLER = ["angry", "bored", "confused", "disgusted", "embarrassed"]


def test_the_rulebooks_example_laura_makes_happy():
    """Laura holds three 6s (happy) and calls stop. Tim, on her left, guesses "excited": wrong.
    Nadia guesses "happy": right. Nadia wins one card of the set, Laura the other two."""
    state = hands(
        new_game(4),
        ["happy", "happy", "happy", "sad"],
        ["excited", "proud", "sad", "tired"],
        ["angry", "bored", "scared", "tired"],
        ["confused", "proud", "sad", "tired"],
        pile=["surprised", "in_love", "scared"],
    )
    assert EMOTIONS.index("happy") + 1 == 6  # the rulebook's card 6
    mv(state, "stop", LAURA)
    assert state["phase"] == "face" and GAME.waiting_for(state) == [TIM]
    shared = table_view(GAME, state, SHARED)
    assert shared["face"]["maker"] == LAURA and shared["face"]["guessers"] == [TIM, NADIA, JENNY]
    assert "happy" not in str(shared["face"]) and table_view(GAME, state, LAURA)["face_emotion"] == "happy"
    assert table_view(GAME, state, TIM)["hand"] == []  # nobody looks at their cards while guessing
    mv(state, "guess", TIM, emotion="excited")
    assert GAME.waiting_for(state) == [NADIA]
    mv(state, "guess", NADIA, emotion="happy")
    face = state["history"][-1]
    assert face == {
        "face_maker": LAURA,
        "emotion": "happy",
        "pass_no": 0,
        "guesses": [{"guesser": TIM, "emotion": "excited"}, {"guesser": NADIA, "emotion": "happy"}],
        "winner": NADIA,
        "scores": {"0": 2, "1": 0, "2": 1, "3": 0},
    }
    assert state["scores"] == [2, 0, 1, 0]
    assert state["won"]["0"] == ["happy", "happy"] and state["won"]["2"] == ["happy"]
    # Laura had one card left: she draws up to a hand of three.
    assert sorted(state["hands"]["0"]) == ["in_love", "sad", "surprised"] and state["pile"] == ["scared"]
    assert state["phase"] == "pass"


def test_a_pass_resolves_only_when_everyone_has_chosen():
    state = hands(new_game(3), ["angry", "bored", "sad"], ["happy", "proud", "tired"], ["scared", "sad", "tired"])
    mv(state, "pass", 0, card="angry")
    mv(state, "pass", 1, card="happy")
    assert state["hands"]["1"] == ["proud", "tired"] and state["pass_no"] == 0  # nothing has arrived yet
    assert table_view(GAME, state, SHARED)["chosen"] == [0, 1]
    refused(state, AlreadyMoved, {"type": "pass", "seat": 0, "card": "bored"}, "already passed")
    mv(state, "pass", 2, card="scared")
    assert state["pass_no"] == 1
    assert sorted(state["hands"]["1"]) == ["angry", "proud", "tired"]  # from the right neighbour
    assert sorted(state["hands"]["0"]) == ["bored", "sad", "scared"]  # around the table
    assert table_view(GAME, state, 2)["arrived"] == "happy"
    assert "arrived" not in table_view(GAME, state, SHARED)


def test_stop_right_after_the_deal_and_without_a_set():
    state = hands(
        new_game(3),
        ["sad", "sad", "sad", "angry"],
        ["happy", "proud", "tired"],
        ["scared", "bored", "tired"],
        pile=["in_love"] * 3,
    )
    refused(state, IllegalMove, {"type": "stop", "seat": 1}, "three cards")
    mv(state, "stop", 0)
    mv(state, "guess", 1, emotion="bored")
    refused(state, IllegalMove, {"type": "guess", "seat": 2, "emotion": "bored"}, "already guessed")
    mv(state, "guess", 2, emotion="tired")
    face = state["history"][-1]
    assert face["pass_no"] == 0 and face["winner"] is None
    # Nobody right: the face-maker wins one card, the other two leave the game.
    assert face["scores"] == {"0": 1, "1": 0, "2": 0} and state["won"]["0"] == ["sad"]
    assert sum(len(c) for c in state["won"].values()) == 1


def test_simultaneous_stops_queue_in_seat_order_after_the_last_face_maker():
    state = hands(
        new_game(5),
        ["angry"] * 3,
        ["bored"] * 3,
        ["confused"] * 3,
        ["sad", "tired", "happy"],
        ["disgusted"] * 3,
        pile=["proud"] * 3 + ["scared"] * 3,
    )
    mv(state, "stop", 2)  # the first call is played at once
    mv(state, "stop", 0)  # then, during Ana's face, three more calls arrive
    mv(state, "stop", 4)
    mv(state, "stop", 1)
    assert state["face"]["maker"] == 2
    assert table_view(GAME, state, SHARED)["queue"] == [4, 0, 1]  # from the seat after 2, clockwise
    assert table_view(GAME, state, SHARED)["face"]["guessers"] == [3, 4, 0, 1]
    mv(state, "guess", 3, emotion="confused")
    assert state["face"]["maker"] == 4 and state["phase"] == "face"
    assert [f["face_maker"] for f in state["history"]] == [2]
    refused(state, NotYourTurn, {"type": "guess", "seat": 3, "emotion": "sad"})  # 0 guesses first now
    refused(state, IllegalMove, {"type": "stop", "seat": 3}, "three cards")


def test_a_guess_out_of_turn_or_after_the_face_is_solved_is_refused():
    state = hands(
        new_game(4),
        ["happy"] * 3,
        ["sad", "proud", "tired"],
        ["scared", "bored", "tired"],
        ["confused", "proud", "sad"],
        pile=["angry"] * 3,
    )
    mv(state, "stop", 0)
    refused(state, NotYourTurn, {"type": "guess", "seat": 2, "emotion": "happy"})
    refused(state, NotYourTurn, {"type": "guess", "seat": 0, "emotion": "happy"})
    mv(state, "guess", 1, emotion="happy")
    refused(state, WrongPhase, {"type": "guess", "seat": 2, "emotion": "happy"}, "no face")


def test_the_face_maker_draws_up_to_three_and_the_game_ends_with_an_empty_pile():
    state = hands(
        new_game(3), ["tired"] * 3, ["happy", "proud", "sad"], ["scared", "bored", "sad"], pile=["angry", "angry"]
    )
    mv(state, "stop", 0)
    mv(state, "guess", 1, emotion="tired")
    # A hand of none draws up to three, but the pile holds two: both are drawn and it is empty.
    assert sorted(state["hands"]["0"]) == ["angry", "angry"] and state["pile"] == []
    assert state["phase"] == "end" and GAME.outcome(state)["winners"] == [0]
    assert GAME.outcome(state)["final_scores"] == {"0": 2, "1": 1, "2": 0}


def test_a_set_still_in_hand_is_played_before_the_end():
    state = hands(new_game(3), ["tired"] * 3, ["happy"] * 3 + ["sad"], ["scared", "bored", "sad"], pile=[])
    mv(state, "stop", 0)
    mv(state, "guess", 1, emotion="angry")
    mv(state, "guess", 2, emotion="bored")
    # Seat 0 now holds nothing and the pile is empty, but seat 1 can still stop: its set comes first.
    assert state["phase"] == "face" and state["face"]["maker"] == 1
    mv(state, "guess", 2, emotion="happy")
    assert state["phase"] == "end" and state["scores"] == [1, 2, 1]


def test_a_deal_where_no_set_can_ever_be_made_ends_the_game():
    """Every emotion still held has a copy in the pile: passing can never make a set again."""
    state = hands(
        new_game(3),
        ["sad"] * 3 + ["bored", "confused"],
        ["happy", "confused", "proud"],
        ["happy", "proud", "tired"],
        pile=["bored", "bored", "happy", "proud", "confused", "tired", "tired"],
    )
    mv(state, "stop", 0)
    mv(state, "guess", 1, emotion="sad")
    assert sorted(state["hands"]["0"]) == ["bored", "bored", "confused"]
    assert state["phase"] == "end" and state["scores"] == [2, 1, 0]


# ---- memory --------------------------------------------------------------------------------------


def memory(seats=3):
    state = new_game(seats, "memory")
    state["grid"] = ["happy", "sad", "happy", "sad"] + [e for e in EMOTIONS[:11] for _ in range(2)] + [None] * 4
    state["grid"][4:26] = [e for e in EMOTIONS if e not in ("happy", "sad") for _ in range(2)]
    state["pile"] = list(EMOTIONS)
    return state


def test_memory_peek_is_seen_only_by_the_left_neighbour():
    state = memory(3)
    mv(state, "peek", 0, cell=0)
    assert table_view(GAME, state, 1)["peek_emotion"] == "happy"
    for viewer in (0, 2, SHARED):
        assert "happy" not in str({k: v for k, v in table_view(GAME, state, viewer).items() if k != "history"})
    refused(state, NotYourTurn, {"type": "flip", "seat": 1, "cell": 2})
    refused(state, WrongPhase, {"type": "peek", "seat": 0, "cell": 1})


def test_memory_match_takes_the_pair():
    state = memory(3)
    mv(state, "peek", 0, cell=0)
    mv(state, "flip", 0, cell=2)
    assert state["history"][-1] == {
        "active": 0,
        "peek": {"cell": 0, "viewer": 1},
        "flip": {"cells": [0, 2], "match": True},
        "shown": ["happy", "happy"],
        "scores": {"0": 2, "1": 0, "2": 0},
    }
    assert state["active"] == 1 and table_view(GAME, state, SHARED)["grid"][:3] == ["taken", "down", "taken"]
    refused(state, IllegalMove, {"type": "peek", "seat": 1, "cell": 2}, "already been taken")
    refused(state, IllegalMove, {"type": "peek", "seat": 1, "cell": 28}, "empty")
    mv(state, "peek", 1, cell=1)
    refused(state, IllegalMove, {"type": "flip", "seat": 1, "cell": 0}, "already been taken")
    refused(state, IllegalMove, {"type": "flip", "seat": 1, "cell": 1}, "flip another")
    refused(state, NotYourTurn, {"type": "flip", "seat": 2, "cell": 3})


def test_memory_mismatch_gives_the_others_a_card_each_while_the_pile_lasts():
    state = memory(4)
    mv(state, "peek", 0, cell=0)
    mv(state, "flip", 0, cell=1)
    assert state["history"][-1]["scores"] == {"0": 0, "1": 1, "2": 1, "3": 1}
    assert len(state["pile"]) == 10 and state["active"] == 1
    state["pile"] = state["pile"][:2]  # the pile runs short: clockwise from the active's left
    mv(state, "peek", 1, cell=0)
    mv(state, "flip", 1, cell=1)
    assert state["history"][-1]["scores"] == {"0": 0, "1": 0, "2": 1, "3": 1}
    assert state["pile"] == []
    mv(state, "peek", 2, cell=0)
    mv(state, "flip", 2, cell=1)
    assert state["history"][-1]["scores"] == {"0": 0, "1": 0, "2": 0, "3": 0}
    assert state["scores"] == [0, 1, 2, 2]


def test_memory_end_turn_after_a_peek_and_the_end_with_one_pair_left():
    state = memory(2)
    mv(state, "peek", 0, cell=5)
    mv(state, "end_turn", 0)
    assert state["history"][-1]["flip"] is None and state["active"] == 1
    down = [c for c, e in enumerate(state["grid"]) if e is not None]
    state["taken"] = [c for c in down if state["grid"][c] not in ("happy", "sad")]
    mv(state, "peek", 1, cell=0)
    mv(state, "flip", 1, cell=2)
    assert state["phase"] == "end" and GAME.outcome(state) is not None


def test_a_skipped_guesser_loses_only_their_own_guess():
    state = hands(
        new_game(4),
        ["happy"] * 3,
        ["sad", "proud", "tired"],
        ["scared", "bored", "tired"],
        ["confused", "proud", "sad"],
        pile=["angry"] * 3,
    )
    mv(state, "stop", 0)
    play(GAME, state, {"type": "skip", "seat": None, "target": 1})
    assert GAME.waiting_for(state) == [2] and state["face"]["guesses"] == []
    mv(state, "guess", 2, emotion="happy")
    assert state["history"][-1]["winner"] == 2
