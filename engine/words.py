"""Word decks shipped in `data/words` (plain JSON, read once), and word lists a host uploads.

Each game's own module knows its decks (engine/games/pictomania_words.py, maudit_words.py); this
one only reads them. Nothing here imports Streamlit.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "es", "it")

WORDS_DIR = Path(__file__).resolve().parents[1] / "data" / "words"


def cards(*path: str) -> list[dict]:
    """The "cards" of a shipped word deck, data/words/<path...>.json, read once; a fresh copy, so
    callers may shuffle or edit it. Each game's own module knows its decks' shape and names."""
    return copy.deepcopy(_cards(path))


@cache
def _cards(path: tuple[str, ...]) -> list[dict]:
    file = WORDS_DIR.joinpath(*path[:-1], path[-1] + ".json")
    return json.loads(file.read_text(encoding="utf-8"))["cards"]


def check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; expected one of {', '.join(LANGUAGES)}")


# ---- word lists of the host's own (Maudit Mot Dit) ----------------------------------------------

CARD_WORDS = 8
WORD_MOST = 30  # characters in one word
LIST_MOST = 400  # cards in one list
LIST_FEWEST = 12  # two laps of six players
UPLOAD_MOST = 200_000  # bytes of text


class WordListRejected(ValueError):
    """An uploaded word list was refused; nothing was written. An English template (the catalogue's
    key) and its parameters, like every refusal."""

    def __init__(self, template: str, **params):
        self.template, self.params = template, params
        super().__init__(template.format(**params) if params else template)


def _store():
    """The store every server process shares. Lists an older version kept in the data directory
    (word-lists/*.json) are moved into it the first time it is asked."""
    from engine import paths
    from engine.store import store as opened

    store = opened()
    folder = paths.data_dir() / "word-lists"
    if folder.is_dir():
        kept = store.word_lists()
        for path in sorted(folder.glob("*.json")):
            try:
                body = json.loads(path.read_text(encoding="utf-8"))
                if path.stem not in kept:
                    with store.transaction() as conn:
                        store.keep_word_list(conn, path.stem, body["name"], body)
                path.unlink()
            except (OSError, ValueError, KeyError):
                continue
    return store


def parse_word_list(text: str) -> list[list[str]]:
    """Cards from a host's text: a line of 8 words separated by commas, semicolons or tabs is a
    card; otherwise every word on its own line, taken 8 at a time. Lines starting with # are notes."""
    words_on_lines = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.replace(";", ",").replace("\t", ",").split(",") if p.strip()]
        words_on_lines.append(parts)
    if words_on_lines and all(len(parts) == CARD_WORDS for parts in words_on_lines):
        return words_on_lines
    flat = [w for parts in words_on_lines for w in parts]
    return [flat[i : i + CARD_WORDS] for i in range(0, len(flat) - CARD_WORDS + 1, CARD_WORDS)]


def import_word_list(name: str, data: bytes) -> tuple[str, int]:
    """Check and keep a host's word list under `name`; returns (its id, how many cards)."""
    from engine.core.moves import printable

    name = " ".join(str(name or "").split())
    if not name or len(name) > 40 or not printable(name):
        raise WordListRejected("Give the list a name of up to 40 characters.")
    if len(data) > UPLOAD_MOST:
        raise WordListRejected("That file is too large for a word list: at most {most} KB.", most=UPLOAD_MOST // 1000)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise WordListRejected("That file is not plain text (UTF-8). Save it as text and try again.") from None
    cards = parse_word_list(text)
    for card in cards:
        for word in card:
            if len(word) > WORD_MOST or not printable(word) or " " in word.strip():
                raise WordListRejected(
                    "“{word}” cannot be used: one word of up to {most} letters each.", word=word[:40], most=WORD_MOST
                )
        if len({w.casefold() for w in card}) < CARD_WORDS:
            raise WordListRejected("A card repeats a word: {words}.", words=", ".join(card))
    if len(cards) < LIST_FEWEST:
        raise WordListRejected(
            "The list makes {count} cards of 8 words; it needs at least {fewest}.", count=len(cards), fewest=LIST_FEWEST
        )
    if len(cards) > LIST_MOST:
        raise WordListRejected(
            "The list makes {count} cards; at most {most} are kept.", count=len(cards), most=LIST_MOST
        )
    slug = "".join(ch if ch.isalnum() else "-" for ch in name.casefold()).strip("-")[:40] or "list"
    kept = word_lists().get(slug)
    if kept is not None and kept.casefold() != name.casefold():  # "Animals" and "animals!" share an id
        raise WordListRejected("A list called “{other}” is kept under the same name. Choose another name.", other=kept)
    body = {"name": name, "cards": [{"id": f"{slug}-{i + 1:03d}", "words": card} for i, card in enumerate(cards)]}
    store = _store()
    with store.transaction() as conn:
        store.keep_word_list(conn, slug, name, body)
    return slug, len(cards)


def word_lists() -> dict[str, str]:
    """The hosts' word lists, kept in the store (every server process sees them): {id: name}."""
    return _store().word_lists()


def word_list(list_id: str) -> list[dict]:
    body = _store().word_list(list_id) if isinstance(list_id, str) else None
    if body is None:
        raise ValueError(f"no word list {list_id!r}")
    return body["cards"]
