"""A computer player for the Dixit family (Dixit, Dixit Odyssey), playing from what each card shows.

Every Dreams card is described in data/pictures/dreams/cards.json (motifs, mood, colours, setting,
title); data/pictures/dreams/words.json gives that vocabulary in English, Spanish and Italian, with
the articles a phrase needs, and a small phrase grammar per language.

- As storyteller it picks a card and says one thing about it: one motif, or the mood, or a colour,
  or where it happens, or a metaphor (a motif carrying a mood). It never says the title nor lists
  the card: the aim is that some but not all find it. A feature several cards of the deck share
  (a mood, a colour) is vaguer than a motif only that card has, so it mixes them.
- Giving and voting, it ranks cards by how well their description fits the phrase: words in common
  after stemming in the room's language (maudit_words' Snowball stemmers), motifs counting most.
- Levels: "normal" takes the best fit (ties broken at random); "easy" picks with noise.

Pure functions of the seat's own view and its legal moves: engine/bots/runner.py feeds them. The
Dixit family's own module (beside its rules, which name `play` and `ready` in their `Game`).
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

WORDS_FILE = Path(__file__).resolve().parents[2] / "data" / "pictures" / "dreams" / "words.json"
WEIGHTS = {"motif": 3.0, "mood": 2.0, "setting": 1.5, "colour": 1.0, "title": 0.7}
STOP = {
    "en": {
        "the",
        "a",
        "an",
        "of",
        "in",
        "on",
        "at",
        "and",
        "to",
        "with",
        "is",
        "its",
        "my",
        "for",
        "from",
        "under",
        "into",
        "whose",
        "than",
        "that",
        "by",
    },
    "es": {"el", "la", "los", "las", "un", "una", "de", "del", "en", "y", "a", "al", "con", "por", "que", "mi"},
    "it": {
        "il",
        "lo",
        "la",
        "i",
        "gli",
        "le",
        "un",
        "uno",
        "una",
        "di",
        "del",
        "della",
        "in",
        "nel",
        "e",
        "a",
        "con",
        "per",
        "che",
        "mio",
        "mia",
    },
}


@functools.lru_cache(maxsize=1)
def vocabulary() -> dict:
    return json.loads(WORDS_FILE.read_text(encoding="utf-8"))


def _lang(language: str) -> str:
    return language if language in vocabulary() else "en"


def describe(card_id: str) -> dict:
    from engine import pictures

    try:
        return pictures.card_words(card_id) | {"setting": _setting(card_id)}
    except LookupError:
        return {"motifs": [], "mood": "", "colours": [], "title": "", "setting": ""}


def _setting(card_id: str) -> str:
    from engine import pictures

    return (pictures.builtin_words().get(card_id) or {}).get("setting", "")


def _stems(text: str, language: str) -> set[str]:
    from engine.stems import stem

    words = "".join(ch if ch.isalpha() else " " for ch in text.casefold()).split()
    return {stem(w, language) for w in words if w not in STOP.get(language, ()) and len(w) > 2}


@functools.lru_cache(maxsize=4096)
def card_terms(card_id: str, language: str) -> tuple[tuple[str, float], ...]:
    """The card's description as (stem, weight) in the room's language."""
    language = _lang(language)
    words, d = vocabulary()[language], describe(card_id)
    found: dict[str, float] = {}

    def add(text: str, kind: str) -> None:
        for stem in _stems(text, language):
            found[stem] = max(found.get(stem, 0.0), WEIGHTS[kind])

    for motif in d["motifs"]:
        add(words["motifs"].get(motif, {}).get("bare", motif if language == "en" else ""), "motif")
    if d["mood"]:
        add(words["moods"].get(d["mood"], {}).get("noun", ""), "mood")
        if language == "en":
            add(d["mood"], "mood")
    for colour in d["colours"]:
        add(words["colours"].get(colour, {}).get("noun", ""), "colour")
    if d.get("setting"):
        add(words["settings"].get(d["setting"], {}).get("in", ""), "setting")
    # Not the title: it is the card's own caption, and a phrase that happened to echo it would make
    # finding the card trivial (bench/bots.py measures against titles).
    return tuple(found.items())


def fit(phrase: str, card_id: str, language: str) -> float:
    """How well a card's description fits a phrase: the weights of the words they share."""
    said = _stems(phrase or "", _lang(language))
    return sum(weight for stem, weight in card_terms(card_id, language) if stem in said)


def phrase_for(card_id: str | None, language: str, rnd, level: str = "normal") -> str:
    """A short phrase about one thing on the card (a random card's worth when there is none)."""
    text = _phrase(card_id, language, rnd)
    return text[:1].upper() + text[1:]  # templates may start with a slot: "an owl in my pocket"


def _phrase(card_id: str | None, language: str, rnd) -> str:
    language = _lang(language)
    words = vocabulary()[language]
    d = describe(card_id) if card_id else {"motifs": [], "mood": "", "colours": [], "setting": ""}
    motifs = [m for m in d["motifs"] if m in words["motifs"]] or (
        [] if card_id else [rnd.choice(sorted(words["motifs"]))]
    )
    mood = d["mood"] if d["mood"] in words["moods"] else (rnd.choice(sorted(words["moods"])) if not card_id else "")
    # Weighted by how often "some but not all" find the card (bench/bots.py, computer voters): a
    # colour 86 %, a setting 75 %, the mood 69 %, one motif 50 %, a motif with the mood 20 % (too plain).
    kinds = ["motif"] * 2 * bool(motifs) + ["mood"] * 3 * bool(mood) + ["metaphor"] * bool(motifs and mood)
    kinds += ["colour"] * 2 * bool(d["colours"] and d["colours"][0] in words["colours"])
    kinds += ["setting"] * 2 * bool(d.get("setting") in words["settings"])
    kind = rnd.choice(kinds or ["mood"])
    grammar = words["phrases"]
    if kind == "motif":
        return rnd.choice(grammar["motif"]).format(**words["motifs"][rnd.choice(motifs)])
    if kind == "mood":
        return rnd.choice(grammar["mood"]).format(**words["moods"][mood or rnd.choice(sorted(words["moods"]))])
    if kind == "colour":
        return rnd.choice(grammar["colour"]).format(**words["colours"][d["colours"][0]])
    if kind == "setting":
        return rnd.choice(grammar["setting"]).format(**words["settings"][d["setting"]])
    motif = words["motifs"][rnd.choice(motifs)]
    return rnd.choice(grammar["metaphor"]).format(
        m_the=motif["the"], m_bare=motif["bare"], m_of_the=motif["of_the"], mood=words["moods"][mood]["noun"]
    )


def _choose(scored: list, rnd, level: str):
    """The best (ties at random); with level "easy", a weighted draw that often takes another."""
    if not scored:
        return None
    if level == "easy":
        weights = [math.exp(1.2 * s) for s, _item in scored]
        return rnd.choices([item for _s, item in scored], weights)[0]
    best = max(s for s, _item in scored)
    return rnd.choice([item for s, item in scored if s == best])


def _distinct(card_id: str, hand: list[str]) -> float:
    """How much a card has to say: storytellers like a card with a clear motif."""
    return len(describe(card_id)["motifs"]) + 0.1


def play(view: dict, legal: list[dict], rnd, level: str = "normal") -> dict | None:
    """The move a computer player makes now, from its own view and its legal moves (None: wait)."""
    language = view.get("language") or "en"
    phrase = view.get("phrase") or ""
    kinds = {m["type"] for m in legal}
    if "claim" in kinds:
        return {"type": "claim"}
    if "tell" in kinds:
        tells = [m for m in legal if m["type"] == "tell"]
        cards = [m["card"] for m in tells if m.get("card")]
        card = _choose([(_distinct(c, cards) + rnd.random(), c) for c in cards], rnd, "normal") if cards else None
        return {"type": "tell", **({"card": card} if card else {}), "phrase": phrase_for(card, language, rnd, level)}
    if "give" in kinds:
        gives = [m for m in legal if m["type"] == "give"]
        scored = [
            (sum(fit(phrase, c, language) for c in m["cards"]) / len(m["cards"]) + rnd.random() * 0.01, m)
            for m in gives
        ]
        move = _choose(scored, rnd, level)
        return {"type": "give", "cards": move["cards"]}
    if "vote" in kinds or "red_vote" in kinds:
        card_at = {p["position"]: p["card"] for p in view.get("table", [])}
        votes = [m for m in legal if m["type"] == "vote"]
        if votes:
            single = [m for m in votes if len(m.get("positions") or [m.get("position")]) == 1]
            scored = [
                (fit(phrase, card_at.get((m.get("positions") or [m.get("position")])[0], ""), language), m)
                for m in single
            ]
            move = _choose(scored, rnd, level)
            return {k: v for k, v in move.items() if k != "seat"}
        reds = [m for m in legal if m["type"] == "red_vote"]
        if reds:  # the storyteller's red card: the one that fits the phrase worst
            scored = [(-fit(phrase, card_at.get(m["position"], ""), language), m) for m in reds]
            move = _choose(scored, rnd, level)
            return {k: v for k, v in move.items() if k != "seat"}
    return None


def ready(options: dict) -> bool:
    """Only a deck whose pictures are described: Dreams."""
    return (options.get("deck") or "dreams") == "dreams"
