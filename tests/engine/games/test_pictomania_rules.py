"""Pictomania scoring and flow, from the rulebook's worked example and RULES.md §3."""

import copy
from collections import Counter, defaultdict

import pytest

from engine.core import SHARED, AlreadyMoved, GameOver, IllegalMove, NotYourTurn, UnknownMove, WrongPhase, play
from engine.games.pictomania import GAME, SCORING_TOKENS, round_scores
from tests import kit

LINE = {"points": [[10, 10], [200, 150]], "width": 6, "color": "#000000"}


def new_game(seats, seed=1, **options):
    opts = GAME.check_options(options)
    return GAME.setup(seats, opts, seed, GAME.content.cards(opts, seats))


def mv(state, kind, seat, **fields):
    return play(GAME, state, {"type": kind, "seat": seat, **fields})


def host(state, kind, target):
    return play(GAME, state, {"type": kind, "seat": None, "target": target})


def deal(state, numbers):
    """Everyone marks ready, then the secret numbers are set to `numbers` (seat order)."""
    for seat in GAME.waiting_for(state):
        state = mv(state, "ready", seat)
    assert state["phase"] == "draw"
    letters = "AABBCC"
    state["assignments"] = {
        s: {"letter": letters[i], "number": numbers[i]} for i, s in enumerate(sorted(state["assignments"], key=int))
    }
    return state


def guesses(state, *triples):
    """Guesses in arrival order: (guesser, drawer, number)."""
    for guesser, drawer, number in triples:
        state = mv(state, "guess", guesser, drawer=drawer, number=number)
    return state


def finish_all(state, tokens):
    """Finish every seat in seat order; tokens[seat] is the black token it takes (or None)."""
    for seat, token in enumerate(tokens):
        state = mv(state, "finish", seat, token=token)
    return state


def refused(state, error, move, match=None):
    """The move raises `error`, and leaves the state untouched."""
    before = copy.deepcopy(state)
    trial = copy.deepcopy(state)
    with pytest.raises(error, match=match):
        play(GAME, trial, {"seat": None, **move})
    assert trial == before, "a refused move changed the state"
    with pytest.raises(error):
        play(GAME, state, move)
    assert state == before


# ---- scoring -----------------------------------------------------------------------------------


def test_rulebook_worked_example_scores_six():
    """Yellow: 5 from guesses + 2 from the black token − 1 unclaimed own token = 6."""
    YELLOW = 0
    state = deal(new_game(4), numbers=[1, 2, 3, 4])
    state = guesses(
        state,
        (YELLOW, 1, 2),  # first on seat 1's drawing: token 3
        (2, 3, 4),  # seat 2 first on seat 3's drawing
        (YELLOW, 3, 4),  # second on seat 3's drawing: token 2
        (1, YELLOW, 1),
        (2, YELLOW, 1),
    )  # seat 3 never finds yellow's word: 1 stays
    state = finish_all(state, [2, 4, 3, 1])
    record = state["history"][0]
    assert record["scores"][str(YELLOW)] == 6
    assert record["tokens"][str(YELLOW)]["received"] == [{"from": 1, "value": 3}, {"from": 3, "value": 2}]
    assert record["tokens"][str(YELLOW)]["unclaimed"] == [1]
    assert record["tokens"][str(YELLOW)]["black_counts"] == 2
    assert record["black_sheep"] is None
    # The whole round: seat 1 got 3 and its black 4, and only yellow found it (2 + 1 unclaimed); seat 2 got
    # 3 + 2 but nobody found its word (black token worth 0, all 3 + 2 + 1 unclaimed); seat 3 was found twice.
    assert record["scores"] == {"0": 6, "1": 3 + 4 - (2 + 1), "2": 3 + 2 + 0 - (3 + 2 + 1), "3": 0 + 1 - 1}
    assert state["scores"] == [6, 4, -1, 0]
    assert round_scores(record)["scores"] == {k: v for k, v in record["scores"].items()}


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_correct_guessers_get_the_drawers_tokens_in_arrival_order(seats):
    state = deal(new_game(seats), numbers=list(range(1, seats + 1)))
    order = list(range(seats - 1, 0, -1))  # the last seat guesses first
    for guesser in order:
        state = mv(state, "guess", guesser, drawer=0, number=1)
    state = finish_all(state, [None] * seats)
    record = state["history"][0]
    table = SCORING_TOKENS[seats]
    for k, guesser in enumerate(order):
        assert record["tokens"][str(guesser)]["received"] == [{"from": 0, "value": table[k]}]
    assert record["tokens"]["0"]["unclaimed"] == []
    assert [g["order"] for g in record["guesses"]] == list(range(1, seats))


def test_nobody_found_your_word_makes_the_black_token_worth_nothing():
    state = deal(new_game(4), numbers=[1, 2, 3, 4])
    state = guesses(state, (0, 1, 2), (1, 0, 1))  # seat 2's and seat 3's words are never found
    state = finish_all(state, [4, 3, 2, 1])
    record = state["history"][0]
    assert [record["tokens"][str(s)]["black_counts"] for s in range(4)] == [4, 3, 0, 0]
    assert record["scores"] == {"0": 3 + 4 - 3, "1": 3 + 3 - 3, "2": 0 - 6, "3": 0 - 6}


def test_black_sheep_token_counts_negative_even_when_nobody_found_their_word():
    state = deal(new_game(4), numbers=[1, 2, 3, 4])
    state = guesses(
        state,
        (3, 0, 5),
        (3, 1, 6),  # seat 3: two errors, the most
        (2, 0, 7),  # seat 2: one error
        (0, 1, 2),
        (1, 0, 1),
        (0, 3, 4),
    )
    state = finish_all(state, [1, 2, 3, 4])
    record = state["history"][0]
    assert record["black_sheep"] == 3
    assert record["tokens"]["3"]["errors"] == 2
    assert record["tokens"]["3"]["black_counts"] == -4  # found by seat 0, black sheep: negative
    assert record["scores"]["3"] == -4 - (2 + 1)
    # seat 2 is not the black sheep; nobody found its word, so its token is worth 0.
    assert record["tokens"]["2"]["black_counts"] == 0


def test_black_sheep_whose_word_nobody_found_still_loses_the_token():
    state = deal(new_game(3), numbers=[1, 2, 3])
    state = guesses(state, (2, 0, 5), (0, 1, 2))
    state = finish_all(state, [1, 2, 3])
    record = state["history"][0]
    assert record["black_sheep"] == 2
    assert record["tokens"]["2"]["black_counts"] == -3
    assert record["scores"]["2"] == -3 - (3 + 1)


def test_tie_for_most_errors_means_no_black_sheep():
    state = deal(new_game(4), numbers=[1, 2, 3, 4])
    state = guesses(
        state,
        (2, 0, 5),
        (3, 0, 6),  # one error each: a tie for the most
        (2, 1, 2),
        (3, 1, 2),
        (1, 2, 3),
        (0, 3, 4),
    )
    state = finish_all(state, [4, 3, 2, 1])
    record = state["history"][0]
    assert record["black_sheep"] is None
    assert [record["tokens"][str(s)]["black_counts"] for s in range(4)] == [0, 3, 2, 1]


def test_everybody_error_free_means_no_black_sheep():
    state = deal(new_game(3), numbers=[1, 2, 3])
    state = finish_all(state, [3, 2, 1])
    record = state["history"][0]
    assert record["black_sheep"] is None
    assert record["scores"] == {"0": -4, "1": -4, "2": -4}


def test_wrong_word_admission():
    state = deal(new_game(4), numbers=[1, 2, 3, 4])
    state = guesses(
        state,
        (1, 0, 1),  # correct on seat 0: returned, no token
        (2, 0, 6),  # wrong on seat 0: returned, not an error
        (0, 1, 2),  # seat 0's own correct guess still counts: token 3
        (0, 2, 7),
    )  # and its own error still counts
    state = mv(state, "finish", 0, token=4)
    state = mv(state, "wrong_word", 0)  # admitted after finishing: still allowed
    assert 0 in GAME.view(state, SHARED)["wrong_word"]
    # The drawing takes no more guesses; number cards played on it come back to their guessers.
    refused(state, IllegalMove, {"type": "guess", "seat": 3, "drawer": 0, "number": 1}, match="wrong word")
    assert 6 in GAME.view(state, 2)["numbers_left"]
    state = guesses(state, (2, 3, 6))  # seat 2 plays its returned card 6 again, an error this time
    refused(state, AlreadyMoved, {"type": "wrong_word", "seat": 0})
    for seat, token in ((1, 3), (2, 2), (3, 1)):
        state = mv(state, "finish", seat, token=token)
    record = state["history"][0]
    assert record["wrong_word"] == [0]
    assert record["tokens"]["0"]["unclaimed"] == [3, 2, 1]
    assert record["tokens"]["0"]["black_counts"] == 0
    assert record["scores"]["0"] == 3 - (3 + 2 + 1)
    assert record["tokens"]["1"]["received"] == []
    # Only seat 2's guess on seat 3 counts as an error (the one on seat 0 was returned), and seat 0's
    # error on seat 2: a tie, so no black sheep.
    assert record["tokens"]["2"]["errors"] == 1 and record["tokens"]["0"]["errors"] == 1
    assert record["black_sheep"] is None


def test_competitive_round_ends_when_the_last_black_token_is_taken():
    state = deal(new_game(4, competitive=True), numbers=[1, 2, 3, 4])
    assert state["black_supply"] == [4, 3, 2]
    state = guesses(state, (3, 0, 1))
    state = mv(state, "finish", 0, token=2)
    state = mv(state, "finish", 1, token=None)  # finishing without a token is still allowed
    state = mv(state, "finish", 2, token=4)
    assert state["phase"] == "draw" and state["round"] == 1
    state = mv(state, "finish", 3, token=None)  # nobody takes the last token: the round ends when all finished
    assert state["phase"] == "words" and state["round"] == 2
    assert state["history"][0]["black_tokens"] == {"0": 2, "1": None, "2": 4, "3": None}

    state = deal(state, numbers=[4, 3, 2, 1])
    for seat, token in ((0, 4), (1, 3), (2, 2)):
        state = mv(state, "finish", seat, token=token)
    assert state["round"] == 3, "the last black token ends the round even though seat 3 never finished"
    assert state["history"][1]["black_tokens"]["3"] is None


def test_scores_are_recomputable_from_the_record_alone():
    state = deal(new_game(5), numbers=[7, 2, 5, 1, 3])
    state = guesses(state, (0, 1, 2), (1, 0, 7), (2, 0, 7), (3, 4, 3), (4, 2, 5), (2, 3, 4))
    state = finish_all(state, [4, 1, 3, 2, 1])
    record = copy.deepcopy(state["history"][0])
    for key in ("tokens", "black_sheep", "scores", "drawings"):
        record.pop(key)
    assert round_scores(record)["scores"] == {k: v for k, v in state["history"][0]["scores"].items()}


# ---- refusals ----------------------------------------------------------------------------------


def test_guess_refusals_change_nothing():
    state = deal(new_game(4), numbers=[1, 2, 3, 4])
    refused(state, IllegalMove, {"type": "guess", "seat": 0, "drawer": 0, "number": 2}, match="your own drawing")
    refused(state, IllegalMove, {"type": "guess", "seat": 0, "drawer": 1, "number": 1}, match="own number")
    refused(state, UnknownMove, {"type": "guess", "seat": 0, "drawer": 1, "number": 8})
    refused(state, UnknownMove, {"type": "guess", "seat": 0, "drawer": 9, "number": 2})
    state = mv(state, "guess", 0, drawer=1, number=3)
    refused(state, AlreadyMoved, {"type": "guess", "seat": 0, "drawer": 1, "number": 2}, match="already guessed")
    refused(state, IllegalMove, {"type": "guess", "seat": 0, "drawer": 2, "number": 3}, match="already on another")
    state = mv(state, "guess", 0, drawer=2, number=2)
    state = mv(state, "finish", 0, token=4)
    refused(state, AlreadyMoved, {"type": "guess", "seat": 0, "drawer": 3, "number": 4}, match="finished")
    refused(state, AlreadyMoved, {"type": "finish", "seat": 0, "token": 3})
    refused(state, IllegalMove, {"type": "finish", "seat": 1, "token": 4}, match="already been taken")


def test_drawing_refusals_change_nothing():
    state = deal(new_game(3), numbers=[1, 2, 3])
    refused(state, IllegalMove, {"type": "undo", "seat": 0}, match="empty")
    state = mv(state, "stroke", 0, **LINE)
    assert state["drawings"]["0"] == [LINE]
    bad = [
        (UnknownMove, {"points": None}),
        (UnknownMove, {"points": []}),
        (UnknownMove, {"points": [[1, 2, 3]]}),
        (UnknownMove, {"points": [["1", 2]]}),
        (IllegalMove, {"points": [[1001, 5]]}),
        (IllegalMove, {"points": [[5, -1]]}),
        (IllegalMove, {"points": [[5, 751]]}),
        (IllegalMove, {"points": [[float("inf"), 5]]}),
        (IllegalMove, {"points": [[1, 1]] * 401}),
        # A pen width or a colour is never typed by a person: a bad one is a malformed move.
        (UnknownMove, {"width": 0}),
        (UnknownMove, {"width": 41}),
        (UnknownMove, {"color": "red"}),
        (UnknownMove, {"color": "#12345"}),
    ]
    for error, change in bad:
        refused(state, error, {"type": "stroke", "seat": 0, **LINE, **change})
    # Floats are rounded into the integer canvas; colours are stored in lower case.
    state = mv(state, "stroke", 0, points=[[0.4, 749.6], [1000, 0]], width=2.6, color="#ABCDEF")
    assert state["drawings"]["0"][-1] == {"points": [[0, 750], [1000, 0]], "width": 3, "color": "#abcdef"}
    state = mv(state, "stroke", 0, points=[[5, 5]], width=40, color="eraser")
    state = mv(state, "undo", 0)
    assert len(state["drawings"]["0"]) == 2
    # The first guess freezes the drawing.
    state = mv(state, "guess", 0, drawer=1, number=2)
    for kind in ("stroke", "undo", "clear"):
        extra = LINE if kind == "stroke" else {}
        refused(state, IllegalMove, {"type": kind, "seat": 0, **extra}, match="can no longer change")
    assert 0 in GAME.view(state, SHARED)["frozen"]
    assert not any(m["type"] in ("stroke", "undo", "clear") for m in GAME.legal(state, 0))
    state = mv(state, "stroke", 1, **LINE)
    state = mv(state, "clear", 1)
    assert state["drawings"]["1"] == []


def test_wrong_phase_and_unknown_moves():
    state = new_game(3)
    refused(state, WrongPhase, {"type": "guess", "seat": 0, "drawer": 1, "number": 2})
    refused(state, WrongPhase, {"type": "stroke", "seat": 0, **LINE})
    refused(state, UnknownMove, {"type": "vote", "seat": 0})
    refused(state, UnknownMove, {"type": "ready", "seat": 7})
    refused(state, UnknownMove, {"type": "replace", "seat": 0, "slot": "D"})
    state = mv(state, "ready", 0)
    refused(state, AlreadyMoved, {"type": "ready", "seat": 0})
    state = deal(state, numbers=[1, 2, 3])
    refused(state, WrongPhase, {"type": "replace", "seat": 0, "slot": "A"})


# ---- cards -------------------------------------------------------------------------------------


def test_replaced_and_used_cards_never_return():
    state = new_game(3, decks=["green", "green", "yellow", "green"])
    seen = []
    for _ in range(4):
        seen += [c["id"] for c in state["cards"].values()]
        round_no = state["round"]
        for _ in range(2):
            before = state["cards"]["B"]["id"]
            state = mv(state, "replace", 1, slot="B")
            assert state["cards"]["B"]["id"] != before
            seen.append(state["cards"]["B"]["id"])
        state = deal(state, numbers=[1, 2, 3])
        state = finish_all(state, [None] * 3)
        record = state["history"][round_no - 1]
        assert record["deck"] == ["green", "green", "yellow", "green"][round_no - 1]
        assert all(cid.startswith(f"en-{record['deck']}-") for cid in record["card_ids"].values())
    assert state["phase"] == "end"
    assert len(seen) == len(set(seen)) == 4 * 5


def test_replacements_keep_back_the_cards_later_rounds_need():
    state = new_game(3, decks=["green"] * 4)
    pile = len(state["piles"]["green"])
    # 3 later rounds need 9 cards: every other card may be swapped in now.
    for _ in range(pile - 9):
        state = mv(state, "replace", 0, slot="A")
    assert not any(m["type"] == "replace" for m in GAME.legal(state, 0))
    assert GAME.view(state, SHARED)["can_replace"] is False
    refused(state, IllegalMove, {"type": "replace", "seat": 0, "slot": "C"}, match="no card left")
    for _ in range(3):
        state = deal(state, numbers=[1, 2, 3])
        state = finish_all(state, [None] * 3)
    assert state["round"] == 4 and len(state["piles"]["green"]) == 0


def test_a_replacement_clears_the_ready_marks():
    state = new_game(3)
    state = mv(state, "ready", 0)
    state = mv(state, "ready", 1)
    state = mv(state, "replace", 2, slot="C")
    assert state["ready"] == [] and GAME.waiting_for(state) == [0, 1, 2]


def test_content_loads_the_room_language_and_refuses_bad_decks():
    from engine.core import BadOptions

    cards = GAME.content.cards(GAME.check_options({"language": "es"}), 4)
    assert set(cards) == {"green", "yellow", "orange", "red"}
    assert all(card["id"].startswith("es-") and len(card["words"]) == 7 for card in cards["red"])
    with pytest.raises(BadOptions):
        GAME.content.cards(GAME.check_options({"decks": ["green", "blue", "red", "red"]}), 4)
    with pytest.raises(BadOptions):
        GAME.content.cards(GAME.check_options({"decks": ["green"]}), 4)


# ---- flow, host, views -------------------------------------------------------------------------


def test_deal_gives_distinct_numbers_and_at_most_two_of_each_letter():
    for seed in range(30):
        state = new_game(6, seed=seed)
        for seat in range(6):
            state = mv(state, "ready", seat)
        numbers = [a["number"] for a in state["assignments"].values()]
        letters = [a["letter"] for a in state["assignments"].values()]
        assert len(set(numbers)) == 6 and set(numbers) <= set(range(1, 8))
        assert all(letters.count(letter) == 2 for letter in "ABC")


def test_four_rounds_then_the_game_ends():
    state = new_game(3)
    for round_no in range(1, 5):
        assert state["round"] == round_no and state["phase"] == "words"
        state = deal(state, numbers=[1, 2, 3])
        state = guesses(state, (1, 0, 1), (2, 0, 1), (0, 1, 2))
        state = finish_all(state, [3, 2, 1])
    assert state["phase"] == "end" and len(state["history"]) == 4
    # Per round: seat 0: 3 + 3 (black) − 0; seat 1: 3 + 2 (black) − 1; seat 2: 1 + 0 (nobody found it) − (3 + 1).
    assert GAME.outcome(state) == {"final_scores": {"0": 24, "1": 16, "2": -12}, "winners": [0]}
    with pytest.raises(GameOver):
        mv(state, "ready", 0)


def test_host_skip_and_kick():
    state = new_game(4)
    state = mv(state, "ready", 0)
    state = host(state, "skip", 3)  # marked ready
    refused(state, IllegalMove, {"type": "skip", "target": 3}, match="not holding up")
    state = host(state, "kick", 2)  # leaves before the deal; the last ready seat makes the deal
    refused(state, NotYourTurn, {"type": "ready", "seat": 2})
    state = mv(state, "ready", 1)
    assert state["phase"] == "draw" and sorted(state["assignments"]) == ["0", "1", "3"]
    assert state["black_supply"] == [3, 2, 1]  # the 3-player tables
    refused(state, IllegalMove, {"type": "kick", "target": 1}, match="middle of a round")
    state = mv(state, "finish", 0, token=3)
    state = host(state, "skip", 1)  # finishes without a black token
    state = mv(state, "finish", 3, token=2)
    record = state["history"][0]
    assert record["black_tokens"] == {"0": 3, "1": None, "3": 2}
    assert record["scores"]["2"] == 0 and set(record["scores"]) == {"0", "1", "2", "3"}
    refused(state, IllegalMove, {"type": "kick", "target": 0}, match="needs three players")


def test_views_show_own_secrets_and_public_guesses_only():
    state = deal(new_game(4), numbers=[5, 2, 3, 4])
    state = mv(state, "stroke", 1, **LINE)
    state = guesses(state, (0, 1, 2), (3, 1, 7))
    mine = GAME.view(state, 0)
    assert (mine["number"], mine["letter"]) == (5, "A")
    assert mine["word"] == state["cards"]["A"]["words"][4]
    assert mine["my_guesses"] == [{"drawer": 1, "number": 2, "order": 1}]
    assert mine["numbers_left"] == [1, 3, 4, 6, 7]
    assert mine["can_guess_on"] == [2, 3]
    assert mine["drawings"]["1"] == [LINE]
    table = GAME.view(state, SHARED)
    assert table["guesses"] == [{"guesser": 0, "drawer": 1, "order": 1}, {"guesser": 3, "drawer": 1, "order": 2}]
    assert "number" not in table and "assignments" not in table
    assert table["frozen"] == [0, 3]
    # Counterfactual: another seat's number, letter and guess numbers leave this view unchanged.
    altered = copy.deepcopy(state)
    altered["assignments"]["3"] = {"letter": "C", "number": 6}
    altered["guesses"][1]["number"] = 1
    assert GAME.view(altered, 0) == mine and GAME.view(altered, SHARED) == table
    assert GAME.view(altered, 3) != GAME.view(state, 3)


def test_legal_lists_the_stroke_once_for_the_caller_to_fill_in():
    state = deal(new_game(3), numbers=[1, 2, 3])
    moves = GAME.legal(state, 0)
    strokes = [m for m in moves if m["type"] == "stroke"]
    assert strokes == [{"type": "stroke", "seat": 0, "points": None, "width": 6, "color": "#000000"}]
    guesses_listed = {(m["drawer"], m["number"]) for m in moves if m["type"] == "guess"}
    assert guesses_listed == {(d, n) for d in (1, 2) for n in range(2, 8)}
    assert [m["token"] for m in moves if m["type"] == "finish"] == [3, 2, 1, None]
    state = mv(state, "finish", 0, token=3)
    assert GAME.legal(state, 0) == [{"type": "wrong_word", "seat": 0}]
    assert GAME.waiting_for(state) == [1, 2]


def test_before_the_deal_nobody_has_a_letter_or_number():
    state = new_game(4)
    mine = GAME.view(state, 2)
    assert (mine["letter"], mine["number"], mine["word"]) == (None, None, None)
    assert sorted(mine["cards"]) == ["A", "B", "C"] and all(len(c["words"]) == 7 for c in mine["cards"].values())


def test_host_end_mid_round_scores_the_finished_rounds_only():
    state = deal(new_game(3), numbers=[1, 2, 3])
    state = guesses(state, (1, 0, 1), (0, 1, 2))
    state = finish_all(state, [3, 2, 1])
    state = deal(state, numbers=[1, 2, 3])
    state = guesses(state, (1, 0, 1))
    state = play(GAME, state, {"type": "end", "seat": None})
    assert len(state["history"]) == 1
    assert GAME.outcome(state)["final_scores"] == state["history"][0]["scores"]


# ---- over many random games (the shared random player of tests/kit.py) --------------------------

# Independent copies of RULES.md §3's token tables (not imported from the engine on purpose).
SCORING = {3: [3, 1], 4: [3, 2, 1], 5: [4, 3, 2, 1], 6: [4, 3, 2, 2, 1]}
BLACK = {3: [3, 2, 1], 4: [4, 3, 2, 1], 5: [4, 3, 2, 1, 1], 6: [5, 4, 3, 2, 1, 1]}


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
        points[drawer] -= sum(table) if drawer in void else sum(table[len(finders[drawer]) :])
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


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
@pytest.mark.parametrize("competitive", [False, True])
def test_random_games_keep_the_tokens_and_score_by_the_round_records(seats, competitive):
    for seed in range(12):
        shown, on_table = [], set()  # every word card put on the table this game, in order

        def each(state, shown=shown):
            nonlocal on_table
            now = {c["id"] for c in state["cards"].values()}
            shown.extend(sorted(now - on_table))
            on_table = now
            if state["phase"] == "draw":
                check_black_tokens_in_play(state)

        _, state, _ = kit.random_game(
            "pictomania", {"competitive": competitive}, seats, seed, host_chance=0.01 if seed % 5 == 0 else 0, each=each
        )
        assert len(shown) == len(set(shown)), "a word card came back"
        if state.get("ended_by_host"):
            continue
        assert len(state["history"]) == 4
        totals = Counter()
        for number, record in enumerate(state["history"], start=1):
            assert record["round"] == number
            check_round_record(record, seats, competitive)
            totals.update({int(s): p for s, p in record["scores"].items()})
        assert state["scores"] == [totals[s] for s in range(seats)]
