"""Pictomania's word cards: four decks per language, green (easiest) to red (hardest), each card
a theme and 7 numbered words (data/words/pictomania/<language>/<deck>.json)."""

from __future__ import annotations

from engine import words

DECKS = ("green", "yellow", "orange", "red")


def deck(name: str, language: str = "en") -> list[dict]:
    """The cards of one deck: a list of {"id", "theme", "words"} (7 words each); a fresh copy."""
    if name not in DECKS:
        raise ValueError(f"unknown Pictomania deck {name!r}; expected one of {', '.join(DECKS)}")
    words.check_language(language)
    return [
        {"id": c["id"], "theme": c["theme"], "words": list(c["words"])}
        for c in words.cards("pictomania", language, name)
    ]
