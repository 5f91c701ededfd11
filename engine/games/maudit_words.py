"""How Maudit Mot Dit compares words: an answer that counts, a near miss the box holder may accept,
and a clue that shares a root with the secret word or repeats an earlier clue (a warning only: the
table judges, and the curse vote is for that).

Roots come from the Snowball stemmers for English, Spanish and Italian (snowballstemmer, pure
Python): "fishes" and "fish" share the stem "fish"; "pescatore" (stem "pescator") starts with the
stem of "pesce" ("pesc"), so it shares its root.
"""

from __future__ import annotations

from engine import words
from engine.stems import plain, stem  # noqa: F401  (plain and stem are part of what this module offers)


def deck(language: str = "en") -> list[dict]:
    """Our word cards in a language: a list of {"id", "words"} (8 words each, in the order of the
    symbols), written for Sobremesa (data/words/maudit/<language>.json); a fresh copy."""
    words.check_language(language)
    return [{"id": c["id"], "words": list(c["words"])} for c in words.cards("maudit", language)]


ROOT_MIN = 4  # a shorter stem ("pez", "sol") begins too many unrelated words to call it a root


def matches(answer: str, secret: str) -> bool:
    return plain(answer) == plain(secret)


def _distance(a: str, b: str, most: int) -> int:
    """Levenshtein distance, stopping early once it is above `most`."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
        if min(row) > most:
            return most + 1
    return row[-1]


def same_root(a: str, b: str, language: str) -> bool:
    sa, sb = stem(a, language), stem(b, language)
    if sa == sb:
        return True
    short, long = sorted((sa, sb), key=len)
    return len(short) >= ROOT_MIN and long.startswith(short)


def near_miss(answer: str, secret: str, language: str) -> bool:
    """A plural, a typo or the same root: flagged for the box holder, never accepted by itself."""
    a, s = plain(answer), plain(secret)
    if not a or a == s:
        return False
    typos = 1 if len(s) < 7 else 2
    return _distance(a, s, typos) <= typos or same_root(answer, secret, language)


def clue_warnings(clue: str, secret: str, earlier: list[str], language: str) -> list[str]:
    """Why a clue may break the rules, as message keys: "root" (the secret word's root), "repeat"
    (an earlier clue, or its root)."""
    found = []
    if matches(clue, secret) or same_root(clue, secret, language):
        found.append("root")
    if any(matches(clue, e) or same_root(clue, e, language) for e in earlier):
        found.append("repeat")
    return found
