"""The Maudit Mot Dit word cards (data/words/maudit): 110 cards of 8 words in each language,
distinct on a card and across the deck, nothing near-duplicate on one card."""

import itertools
from collections import Counter

import pytest

from engine import words
from engine.games import maudit_words as mw
from engine.games.maudit_mot_dit import BACKS, SYMBOLS

CARDS = 110
REPEATS_ALLOWED = 5  # words that may appear on two cards of one language's deck (none do today)


@pytest.mark.parametrize("language", words.LANGUAGES)
def test_each_language_has_110_cards_of_8_distinct_words(language):
    deck = mw.deck(language)
    assert len(deck) == CARDS
    assert len({c["id"] for c in deck}) == CARDS
    for card in deck:
        assert len(card["words"]) == len(SYMBOLS) == 8
        plain = [mw.plain(w) for w in card["words"]]
        assert len(set(plain)) == 8, card
        assert all(w == w.strip() and " " not in w and 3 <= len(w) <= 12 for w in card["words"]), card
        for a, b in itertools.combinations(card["words"], 2):
            assert not mw.same_root(a, b, language), f"{card['id']}: {a} and {b} share a root"
    repeated = [w for w, n in Counter(mw.plain(w) for c in deck for w in c["words"]).items() if n > 1]
    assert len(repeated) <= REPEATS_ALLOWED, repeated


def test_the_card_backs_are_fair():
    """Every back offers a short word (1–2 clues) and a long one (3–5); the kept box only on a
    one-clue word; spells on three backs in ten."""
    assert len(BACKS) == 10
    for short, long, effect in BACKS:
        assert 1 <= short <= 2 < 3 <= long <= 5
        assert effect in (None, "spell", "keep_box")
        assert effect != "keep_box" or short == 1
    assert sum(e == "spell" for *_, e in BACKS) == 3 and sum(e == "keep_box" for *_, e in BACKS) == 2
