"""The Pictomania word decks: shape, uniqueness and the loader's errors."""

from __future__ import annotations

import json
import unicodedata
from collections import Counter

import pytest

from engine.games.pictomania_words import DECKS, deck as pictomania_deck
from engine.words import LANGUAGES, WORDS_DIR

COMBOS = [(lang, deck) for lang in LANGUAGES for deck in DECKS]


def normalise(word: str) -> str:
    """Casefold, strip accents and surrounding spaces."""
    decomposed = unicodedata.normalize("NFKD", word.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@pytest.mark.parametrize(("language", "deck"), COMBOS)
def test_deck_file_header(language, deck):
    path = WORDS_DIR / "pictomania" / language / f"{deck}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["deck"] == deck
    assert data["language"] == language


@pytest.mark.parametrize(("language", "deck"), COMBOS)
def test_deck_has_enough_cards(language, deck):
    assert len(pictomania_deck(deck, language)) >= 30


@pytest.mark.parametrize(("language", "deck"), COMBOS)
def test_cards_have_seven_distinct_words(language, deck):
    for card in pictomania_deck(deck, language):
        assert set(card) == {"id", "theme", "words"}, card
        assert isinstance(card["theme"], str) and card["theme"].strip(), card
        words = card["words"]
        assert len(words) == 7, card
        assert all(isinstance(w, str) and w.strip() for w in words), card
        assert all(w == w.strip() for w in words), card
        assert len({normalise(w) for w in words}) == 7, card


@pytest.mark.parametrize(("language", "deck"), COMBOS)
def test_no_word_repeated_within_deck(language, deck):
    counts = Counter(normalise(w) for card in pictomania_deck(deck, language) for w in card["words"])
    repeated = sorted(w for w, n in counts.items() if n > 1)
    assert not repeated, f"{language}/{deck} repeats: {repeated}"


@pytest.mark.parametrize(("language", "deck"), COMBOS)
def test_words_fit_on_a_phone_and_have_no_digits(language, deck):
    for card in pictomania_deck(deck, language):
        for word in card["words"]:
            assert len(word) <= 24, (card["id"], word)
            assert not any(c.isdigit() for c in word), (card["id"], word)


def test_card_ids_unique_across_all_files():
    ids = [card["id"] for lang, deck in COMBOS for card in pictomania_deck(deck, lang)]
    duplicates = sorted(i for i, n in Counter(ids).items() if n > 1)
    assert not duplicates


def test_default_language_is_english():
    assert pictomania_deck("green") == pictomania_deck("green", "en")


def test_loader_returns_copies():
    cards = pictomania_deck("green", "en")
    cards[0]["words"].clear()
    cards.clear()
    assert len(pictomania_deck("green", "en")[0]["words"]) == 7


@pytest.mark.parametrize("deck", ["blue", "", "Green"])
def test_unknown_deck_raises(deck):
    with pytest.raises(ValueError, match="deck"):
        pictomania_deck(deck, "en")


@pytest.mark.parametrize("language", ["fr", "", "EN"])
def test_unknown_language_raises(language):
    with pytest.raises(ValueError, match="language"):
        pictomania_deck("green", language)
