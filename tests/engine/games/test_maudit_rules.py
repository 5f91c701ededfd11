"""Maudit Mot Dit: the rulebook's worked example, each scoring case, the answer limits, effects,
spells, votes and the curse (RULES.md §5), and how answers and clues are compared."""

import copy

import pytest

from engine.core import SHARED, AlreadyMoved, IllegalMove, NotYourTurn, WrongPhase, play, table_view
from engine.games import maudit_words as mw
from engine.games.maudit_mot_dit import GAME, SYMBOLS, round_scores

ANNA, GIULIA, CARLO, DARIO, ELSA = 0, 1, 2, 3, 4
CARD = ["pesce", "sfera", "perla", "palma", "gatto", "medaglia", "talpa", "bosco"]


def game(seats=3, language="it", back=("sun", 4, "feather", 2, None), words=CARD):
    opts = GAME.check_options({"language": language})
    state = GAME.setup(seats, opts, 1, GAME.content.cards(opts, seats))
    return rig(state, back, words)


def rig(state, back, words=CARD):
    """This round's word card and the back of the next card: (symbol, count, symbol, count, effect)."""
    s1, c1, s2, c2, effect = back
    state["card"] = {"id": "test", "words": list(words)}
    state["back"] = {"symbols": [s1, s2], "counts": [c1, c2], "effect": effect}
    return state


def mv(state, kind, seat, **fields):
    return play(GAME, state, {"type": kind, "seat": seat, **fields})


def refused(state, error, move, match=None):
    before = copy.deepcopy(state)
    with pytest.raises(error, match=match):
        play(GAME, state, move)
    assert state == before


def clues(state, *said):
    for clue in said:
        mv(state, "clue", state["holder"], text=clue)


def judge(state, unrelated=()):
    for seat in list(GAME.waiting_for(state)):
        mv(state, "verdict", seat, unrelated=seat in unrelated)


def test_the_rulebooks_example_anna_makes_pesce_in_four_and_carlo_finds_it_on_clue_three():
    state = game(3)
    view = table_view(GAME, state, ANNA)
    assert [c["count"] for c in view["back"]] == [4, 2] and SYMBOLS[1] == "feather"
    mv(state, "choose", ANNA, symbol="sun")  # "Pesce" with 4 clues
    clues(state, "Astrologia")
    mv(state, "answer", GIULIA, text="Segno")
    mv(state, "answer", CARLO, text="Oroscopo")
    clues(state, "Nemo")
    mv(state, "answer", GIULIA, text="Pagliaccio")
    mv(state, "answer", CARLO, text="Disney")
    clues(state, "Acqua")
    mv(state, "answer", GIULIA, text="Mare")
    assert state["phase"] == "clues"  # Carlo has not answered clue 3 yet
    mv(state, "answer", CARLO, text="Pesce")
    assert state["phase"] == "verdict"
    result = state["result"]
    assert result["guessed_on"] == 3 and result["guessers"] == [CARLO]
    assert result["scores"] == {"0": 0, "1": 0, "2": 3}  # found early: only Carlo, 3 points
    judge(state)
    record = state["history"][-1]
    assert record["chosen"] == {"word": "pesce", "count": 4} and record["effect"] is None
    assert record["choices"] == [
        {"symbol": "sun", "word": "pesce", "count": 4},  # in our symbol order
        {"symbol": "feather", "word": "sfera", "count": 2},
    ]
    assert round_scores(record) == record["scores"]
    assert state["holder"] == GIULIA and state["phase"] == "choose"


def test_found_on_exactly_the_count_the_holder_and_the_guesser_both_score_it():
    state = game(4)
    mv(state, "choose", ANNA, symbol="feather")  # "sfera" in 2
    clues(state, "palla")
    for seat, answer in ((1, "pallone"), (2, "tondo"), (3, "cerchio")):
        mv(state, "answer", seat, text=answer)
    clues(state, "globo")
    mv(state, "answer", GIULIA, text="Sfera")
    mv(state, "answer", CARLO, text=" SFÈRA ")  # case, accent, spaces: the same word
    mv(state, "answer", DARIO, text="luna")
    assert state["result"]["scores"] == {"0": 2, "1": 2, "2": 2, "3": 0}
    assert state["result"]["guessers"] == [GIULIA, CARLO]  # both answers to the same clue count


def test_not_found_within_the_count_nobody_scores():
    state = game(3)
    mv(state, "choose", ANNA, symbol="feather")
    clues(state, "palla")
    mv(state, "answer", GIULIA, text="calcio")
    refused(state, IllegalMove, {"type": "close", "seat": ANNA}, "next clue")
    mv(state, "answer", CARLO, text="tennis")
    clues(state, "globo")
    mv(state, "answer", GIULIA, text="mondo")
    refused(state, IllegalMove, {"type": "clue", "seat": ANNA, "text": "tonda"}, "every clue")
    mv(state, "close", ANNA)  # Carlo stays silent: the holder closes
    assert state["result"]["guessed_on"] is None and set(state["result"]["scores"].values()) == {0}


def test_a_near_miss_is_flagged_for_the_holder_and_counts_only_once_accepted():
    state = game(3)
    mv(state, "choose", ANNA, symbol="sun")
    clues(state, "mare")
    mv(state, "answer", GIULIA, text="pesci")  # a plural
    assert state["phase"] == "clues" and not state["found"]
    assert table_view(GAME, state, ANNA)["near"] == [0]
    assert "near" not in str(table_view(GAME, state, SHARED)["clues"])
    refused(state, NotYourTurn, {"type": "accept", "seat": GIULIA, "index": 0})
    mv(state, "accept", ANNA, index=0)
    assert state["found"] and state["phase"] == "clues"  # Carlo may still answer this clue
    mv(state, "answer", CARLO, text="squalo")
    assert state["result"]["guessers"] == [GIULIA] and state["result"]["guessed_on"] == 1


def test_the_answer_limits_one_each_at_four_players_three_in_all_at_five():
    four = game(4)
    mv(four, "choose", ANNA, symbol="sun")
    clues(four, "mare")
    mv(four, "answer", GIULIA, text="onda")
    refused(four, AlreadyMoved, {"type": "answer", "seat": GIULIA, "text": "sale"}, "already answered")
    five = game(5)
    mv(five, "choose", ANNA, symbol="sun")
    clues(five, "mare")
    for seat, answer in ((1, "onda"), (2, "sale"), (3, "barca")):
        mv(five, "answer", seat, text=answer)
    assert table_view(GAME, five, SHARED)["answers_left"] == 0
    refused(five, IllegalMove, {"type": "answer", "seat": ELSA, "text": "pesce"}, "Three answers")
    clues(five, "squame")
    mv(five, "answer", ELSA, text="pesce")  # a new clue, three new answers


def test_bad_input_is_refused_with_a_message_and_changes_nothing():
    state = game(3)
    refused(state, NotYourTurn, {"type": "choose", "seat": GIULIA, "symbol": "sun"})
    refused(state, IllegalMove, {"type": "choose", "seat": ANNA, "symbol": "moon"}, "two symbols")
    mv(state, "choose", ANNA, symbol="sun")
    refused(state, IllegalMove, {"type": "answer", "seat": GIULIA, "text": "pesce"}, "first clue")
    refused(state, IllegalMove, {"type": "clue", "seat": ANNA, "text": "acqua salata"}, "one word")
    refused(state, NotYourTurn, {"type": "clue", "seat": GIULIA, "text": "acqua"}, "box holder")
    clues(state, "sud-est")  # a compound with a hyphen is one word
    refused(state, IllegalMove, {"type": "answer", "seat": ANNA, "text": "pesce"}, "others answer")
    refused(state, IllegalMove, {"type": "answer", "seat": GIULIA, "text": "   "}, "Type an answer")
    refused(state, IllegalMove, {"type": "answer", "seat": GIULIA, "text": "x" * 500}, "at most 40")
    mv(state, "answer", GIULIA, text="pesce")
    mv(state, "answer", CARLO, text="rete")
    refused(state, WrongPhase, {"type": "answer", "seat": CARLO, "text": "pesce"}, "answers are closed")
    refused(state, IllegalMove, {"type": "verdict", "seat": ANNA, "unrelated": False}, "judge your clues")


def test_keep_the_box_a_one_clue_word_found_on_its_one_clue():
    state = game(3, back=("moon", 1, "star", 4, "keep_box"))
    mv(state, "choose", ANNA, symbol="moon")  # "perla" in 1
    clues(state, "ostrica")
    mv(state, "answer", GIULIA, text="perla")
    mv(state, "answer", CARLO, text="palla")
    judge(state)
    assert state["history"][-1]["effect"] == "keep_box" and state["holder"] == ANNA and state["kept"] == 1
    assert table_view(GAME, state, SHARED)["turn"] == 1  # a kept box does not count as a turn


def test_the_spell_effect_and_spells_running_out():
    state = game(3, back=("sun", 4, "feather", 2, "spell"))
    mv(state, "choose", ANNA, symbol="feather")
    clues(state, "globo")
    mv(state, "answer", GIULIA, text="sfera")
    mv(state, "answer", CARLO, text="palla")
    assert state["phase"] == "spell"
    refused(state, IllegalMove, {"type": "give_spell", "seat": ANNA, "target": ANNA}, "opponents")
    mv(state, "give_spell", ANNA, target=CARLO)
    judge(state)
    assert state["history"][-1]["spell_to"] == CARLO and state["spells"] == [0, 0, 1]
    assert state["scores"] == [0, 1, -1]  # found early, on clue 1: Giulia scores 1
    rig(state, ("sun", 4, "feather", 2, "spell"))
    state["spells_left"] = 0
    mv(state, "choose", GIULIA, symbol="feather")
    clues(state, "globo")
    mv(state, "answer", ANNA, text="sfera")
    mv(state, "answer", CARLO, text="palla")
    assert state["phase"] == "verdict"  # none left: no spell to give


def test_too_slow_a_majority_of_opponents_gives_the_holder_a_spell():
    state = game(5)
    mv(state, "slow", GIULIA)
    refused(state, AlreadyMoved, {"type": "slow", "seat": GIULIA}, "already said")
    refused(state, IllegalMove, {"type": "slow", "seat": ANNA}, "only the others")
    mv(state, "slow", CARLO)
    assert state["spells"][ANNA] == 0  # two of four opponents: no majority yet
    mv(state, "slow", DARIO)
    assert state["spells"][ANNA] == 1 and state["slow_spells"] == [ANNA] and state["slow_votes"] == []


def test_the_curse_moves_to_the_holder_and_wipes_a_holder_who_had_it():
    state = game(3)
    mv(state, "choose", ANNA, symbol="feather")
    clues(state, "palla", "globo")
    mv(state, "answer", GIULIA, text="sfera")
    mv(state, "answer", CARLO, text="sfera")
    judge(state, unrelated={GIULIA})  # one of two: no majority
    assert state["curse"] is None and state["points"][ANNA] == 2
    rig(state, ("sun", 4, "feather", 2, None))
    mv(state, "choose", GIULIA, symbol="feather")
    clues(state, "tonda", "globo")
    mv(state, "answer", ANNA, text="sfera")
    mv(state, "answer", CARLO, text="no")
    judge(state, unrelated={ANNA, CARLO})
    assert state["curse"] == GIULIA and state["history"][-1]["curse_to"] == GIULIA
    assert state["scores"][GIULIA] == 2 + 2 - 4
    state["holder"] = GIULIA  # the box comes back to Giulia, who holds the curse
    rig(state, ("sun", 4, "feather", 2, None))
    state["phase"] = "choose"
    mv(state, "choose", GIULIA, symbol="feather")
    clues(state, "tonda", "globo")
    mv(state, "answer", ANNA, text="sfera")
    mv(state, "answer", CARLO, text="no")
    judge(state, unrelated={ANNA, CARLO})
    assert state["history"][-1]["curse_wipe"] is True and state["points"][GIULIA] == 0  # this round's too


def test_the_box_goes_around_twice_and_the_final_score_counts_spells_and_the_curse():
    state = game(3)
    for _ in range(6):
        holder = state["holder"]
        rig(state, ("sun", 4, "feather", 2, None))
        mv(state, "choose", holder, symbol="feather")
        clues(state, "palla", "globo")
        for seat in GAME.waiting_for(state):
            if seat != holder:
                mv(state, "answer", seat, text="sfera")
        judge(state)
    assert state["phase"] == "end" and [r["box_holder"] for r in state["history"]] == [0, 1, 2, 0, 1, 2]
    assert GAME.outcome(state)["final_scores"] == {"0": 12, "1": 12, "2": 12}
    assert GAME.outcome(state)["winners"] == [0, 1, 2]  # ties share the win


@pytest.mark.parametrize(
    "language,answer,secret",
    [
        ("en", " Fish ", "fish"),
        ("en", "CAT'S", "cats"),
        ("es", "ÁRBOL", "árbol"),
        ("es", "arbol", "árbol"),
        ("es", "Pingüino", "pinguino"),
        ("it", "Città", "citta"),
        ("it", "l'Ape", "lape"),
        ("it", "PERCHÉ", "perche"),
    ],
)
def test_answers_match_ignoring_case_accents_apostrophes_and_spaces(language, answer, secret):
    assert mw.matches(answer, secret)


@pytest.mark.parametrize(
    "language,answer,secret,near",
    [
        ("en", "fishes", "fish", True),
        ("en", "elefant", "elephant", True),
        ("en", "dog", "fish", False),
        ("es", "árboles", "árbol", True),
        ("es", "gato", "perro", False),
        ("it", "pesci", "pesce", True),
        ("it", "mucca", "pesce", False),
        ("it", "pesce", "pesce", False),
    ],
)
def test_near_misses(language, answer, secret, near):
    assert mw.near_miss(answer, secret, language) is near


def test_clue_warnings_for_the_same_root_and_a_repeated_clue():
    assert mw.clue_warnings("pescatore", "pesce", [], "it") == ["root"]
    assert mw.clue_warnings("fisherman", "fish", [], "en") == ["root"]
    assert mw.clue_warnings("pescadores", "pescado", [], "es") == ["root"]
    assert mw.clue_warnings("Mari", "pesce", ["mare"], "it") == ["repeat"]
    assert mw.clue_warnings("acqua", "pesce", ["mare"], "it") == []


def test_a_skipped_holder_passes_the_box_and_the_record_keeps_the_slow_spell():
    state = game(4)
    for seat in (GIULIA, CARLO):
        mv(state, "slow", seat)
    assert state["spells"][ANNA] == 1
    play(GAME, state, {"type": "skip", "seat": None, "target": ANNA})
    skipped = state["history"][-1]
    assert skipped["abandoned"] and skipped["chosen"] is None and skipped["slow_spells"] == [ANNA]
    assert state["holder"] == GIULIA and state["phase"] == "choose" and state["scores"][ANNA] == -1


def test_a_player_who_leaves_takes_their_slow_vote_with_them():
    state = game(5)
    mv(state, "slow", ELSA)
    play(GAME, state, {"type": "kick", "seat": None, "target": ELSA})
    assert state["slow_votes"] == []
    mv(state, "slow", GIULIA)
    assert state["spells"][ANNA] == 0  # one of three opponents now


def rescored(state) -> list[int]:
    """The final scores from the history alone, as an outside tool reads a record."""
    points, spells, curse = [0] * state["players"], [0] * state["players"], None
    for r in state["history"]:
        for seat, p in r["scores"].items():
            points[int(seat)] += p
        for seat in r["slow_spells"] + ([r["spell_to"]] if r["spell_to"] is not None else []):
            spells[seat] += 1
        if r["curse_to"] is not None:
            points[r["curse_to"]] = 0 if r["curse_wipe"] else points[r["curse_to"]]
            curse = r["curse_to"]
    return [p - s - (4 if curse == seat else 0) for seat, (p, s) in enumerate(zip(points, spells, strict=True))]


def test_the_host_ends_while_the_clues_are_judged_the_round_is_in_the_history():
    state = game(3)
    mv(state, "choose", ANNA, symbol="feather")  # "sfera" in 2
    clues(state, "palla")
    mv(state, "answer", GIULIA, text="sfera")
    mv(state, "answer", CARLO, text="tondo")
    assert state["phase"] == "verdict" and state["scores"] == [0, 1, 0]
    play(GAME, state, {"type": "end", "seat": None})
    assert state["history"][-1]["guessers"] == [GIULIA] and state["history"][-1]["scores"]["1"] == 1
    assert GAME.outcome(state)["final_scores"] == {"0": 0, "1": 1, "2": 0} and rescored(state) == [0, 1, 0]


def test_the_host_ends_a_round_with_a_slow_spell_the_record_keeps_the_spell():
    state = game(4)
    for seat in (GIULIA, CARLO):
        mv(state, "slow", seat)
    assert state["scores"][ANNA] == -1
    play(GAME, state, {"type": "end", "seat": None})
    assert state["history"][-1]["abandoned"] and state["history"][-1]["slow_spells"] == [ANNA]
    assert rescored(state) == state["scores"] == [-1, 0, 0, 0]


def test_the_host_ends_a_round_that_changed_nothing_no_entry_is_written():
    state = game(3)
    mv(state, "choose", ANNA, symbol="sun")
    clues(state, "mare")
    play(GAME, state, {"type": "end", "seat": None})
    assert state["history"] == [] and state["phase"] == "end"
