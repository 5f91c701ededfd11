"""Words compared the way people mean them, in English, Spanish and Italian: the plain form (case,
accents, apostrophes, hyphens and spaces ignored) and the root, from the Snowball stemmers
(snowballstemmer, pure Python). Maudit Mot Dit compares answers and clues with them; the computer
players compare a phrase with what a picture shows."""

from __future__ import annotations

import functools
import unicodedata

import snowballstemmer

STEMMERS = {"en": "english", "es": "spanish", "it": "italian"}


def plain(text: str) -> str:
    """The form words are compared in: case, accents, apostrophes, hyphens and spaces ignored."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    kept = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "".join(ch for ch in kept if ch.isalnum())


@functools.lru_cache(maxsize=8)
def _stemmer(language: str):
    return snowballstemmer.stemmer(STEMMERS.get(language, "english"))


@functools.lru_cache(maxsize=16384)  # the same words come back (a picture's words at every bot's turn)
def stem(word: str, language: str) -> str:
    """The root of a word in a language ("fishes" -> "fish")."""
    return plain(_stemmer(language).stemWord(plain(word)))
