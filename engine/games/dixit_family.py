"""What Dixit and Dixit Odyssey share: seats around the table, the phrase, and the picture deck."""
from __future__ import annotations

from engine.core.errors import BadOptions

GAME_CARDS = 84   # a game deals from 84 cards of the chosen deck (RULES.md §1, App decision)
PHRASE_MAX = 140


def active(state: dict) -> list[int]:
    """Seats still in the game (a kicked seat is out for good)."""
    return [s for s in range(state["players"]) if s not in state["out"]]


def next_seat(state: dict, seat: int) -> int:
    """The next seat clockwise that is still in the game."""
    seats = state["players"]
    for step in range(1, seats + 1):
        candidate = (seat + step) % seats
        if candidate not in state["out"]:
            return candidate
    return seat


def own_positions(state: dict, seat: int) -> set[int]:
    return {p["position"] for p in state["table"] if p["owner"] == seat}


def clean_phrase(phrase: str | None) -> str | None:
    """One line, no runs of spaces, at most PHRASE_MAX characters; empty means no phrase."""
    if phrase is None:
        return None
    return " ".join(phrase.split())[:PHRASE_MAX] or None


def picture_cards(options: dict, seats: int, needed: int) -> list[str]:
    """The chosen picture deck, refused with a clear message when it cannot serve this table."""
    from engine import pictures

    name = options.get("deck") or pictures.DEFAULT_DECK
    try:
        cards = pictures.deck_cards(name)
    except pictures.DeckNotFound as exc:
        raise BadOptions(str(exc)) from exc
    if len(cards) < needed:
        raise BadOptions(f"The deck '{name}' has {len(cards)} cards; {seats} players need at least "
                         f"{needed}. Choose another deck or upload more pictures.")
    return cards
