"""Word decks (Pictomania, Maudit Mot Dit), loaded from `data/words`.

The decks are plain JSON shipped in the source tree; nothing here imports Streamlit.
"""
from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "es", "it")
DECKS = ("green", "yellow", "orange", "red")

WORDS_DIR = Path(__file__).resolve().parents[1] / "data" / "words"


def pictomania_deck(deck: str, language: str = "en") -> list[dict]:
    """The cards of one Pictomania deck: a list of {"id", "theme", "words"} (7 words each).

    `deck` is one of DECKS (green easiest .. red hardest), `language` one of LANGUAGES.
    Returns a fresh copy, so callers may shuffle or edit it freely.
    """
    if deck not in DECKS:
        raise ValueError(f"unknown Pictomania deck {deck!r}; expected one of {', '.join(DECKS)}")
    if language not in LANGUAGES:
        raise ValueError(
            f"unknown language {language!r}; expected one of {', '.join(LANGUAGES)}"
        )
    return copy.deepcopy(_load(deck, language))


@lru_cache(maxsize=None)
def _load(deck: str, language: str) -> list[dict]:
    path = WORDS_DIR / "pictomania" / language / f"{deck}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        {"id": card["id"], "theme": card["theme"], "words": list(card["words"])}
        for card in data["cards"]
    ]


def maudit_deck(language: str = "en") -> list[dict]:
    """The Maudit Mot Dit word cards in a language: a list of {"id", "words"} (8 words each, in the
    order of the symbols). Written for Sobremesa in each language (data/words/maudit/)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; expected one of {', '.join(LANGUAGES)}")
    return copy.deepcopy(_load_maudit(language))


@lru_cache(maxsize=None)
def _load_maudit(language: str) -> list[dict]:
    data = json.loads((WORDS_DIR / "maudit" / f"{language}.json").read_text(encoding="utf-8"))
    return [{"id": card["id"], "words": list(card["words"])} for card in data["cards"]]
