"""Maudit Mot Dit's audience (RULES.md §6): after each clue a member may type one answer, matched
like the players' answers without the near-miss step; finding the word scores 1 point once per
round, and a member who found it answers no more that round. Answers stay hidden until the round
ends (they would help the guessers)."""

from __future__ import annotations

from engine.core.audience import Audience
from engine.games import maudit_words as words

ANSWER_MAX = 40


def picks(view: dict, mine: list[dict]) -> list[dict]:
    clues = len(view.get("clues") or [])
    if view.get("phase") != "clues" or not clues or view.get("found"):
        return []
    if any(p["clue"] == clues for p in mine):
        return []  # one answer per clue
    return [{"type": "answer", "clue": clues, "answer": None}]


def found(state: dict, mine: list[dict]) -> bool:
    """Whether this member's answers in this round found the word: they answer no more this round."""
    word = (state.get("chosen") or {}).get("word")
    if not word:
        return False
    return any(words.matches(p["answer"], word) for p in mine)


def score(entry: dict, picks_: dict) -> tuple[dict, dict]:
    """Each member's first right answer: 1 point, counted at the clue (0-based) it followed."""
    word = (entry.get("chosen") or {}).get("word")
    earned: dict[str, int] = {}
    counts: dict[str, int] = {}
    for member, mine in picks_.items():
        found = sorted(p["clue"] for p in mine if word and words.matches(p["answer"], word))
        earned[member] = 1 if found else 0
        if found:
            counts[str(found[0] - 1)] = counts.get(str(found[0] - 1), 0) + 1
    return earned, dict(sorted(counts.items(), key=lambda kv: int(kv[0])))


AUDIENCE = Audience(
    picks=picks,
    slot=lambda pick: f"clue {pick['clue']}",
    reads=("phase", "clues", "found"),
    score=score,
    done=found,
    text={"answer": ANSWER_MAX},
    does="After each clue, type one answer: 1 point if you find the word.",
)
