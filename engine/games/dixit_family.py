"""What Dixit and Dixit Odyssey share: seats around the table, the phrase, the picture deck, and
what each seat keeps secret."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from engine.core.audience import Audience, count
from engine.core.errors import BadOptions, IllegalMove
from engine.core.moves import Id, Many, Text, Whole

GAME_CARDS = 84  # a game deals from 84 cards of the chosen deck (RULES.md §1, App decision)
PHRASE_MAX = 140
MAX_TABLE = 12  # positions on the table: 1..12 at most
# Seconds per phase at a relaxed and a brisk pace (the pace clock; turn 1's claim has no deadline).
PACE = {"tell": (90, 45), "give": (60, 30), "vote": (45, 25)}
REVEAL = 7  # seconds the wall plays a closed turn: the storyteller's card, the votes landing, the points

PHRASE = Text(PHRASE_MAX, too_long="A phrase can be at most {most} characters.")
CARD = Id()


def cards_field(count) -> Many:
    return Many(CARD, count, count, repeated="Choose two different cards.")


def position_field() -> Whole:
    return Whole(1, lambda state: max(len(state["table"]), 1))


def positions_field(most) -> Many:
    return Many(
        Whole(1, MAX_TABLE),
        1,
        most,
        repeated="Two votes must go to two different cards.",
        wrong_count="You may vote for at most {hi} cards.",
    )


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


def check_position(state: dict, position: int) -> None:
    if not any(p["position"] == position for p in state["table"]):
        raise IllegalMove("There is no card {position} on the table.", position=position)


def picture_cards(options: dict, seats: int, needed: int) -> list[str]:
    """The chosen picture deck, refused with a clear message when it cannot serve this table."""
    from engine import pictures

    name = options.get("deck") or pictures.DEFAULT_DECK
    try:
        cards = pictures.deck_cards(name)
    except pictures.DeckNotFound as exc:
        raise BadOptions(str(exc)) from exc
    if len(cards) < needed:
        raise BadOptions(
            "The deck {deck} has {cards} cards; {seats} players need at least {needed}. "
            "Choose another deck or upload more pictures.",
            deck=name,
            cards=len(cards),
            seats=seats,
            needed=needed,
        )
    return cards


# ---- secrets -----------------------------------------------------------------------------------


def secrets(state: dict, seat: int) -> set:
    """The cards only this seat may see now: its hand, and until the reveal what it laid down.
    A card already shown on a table is public for good (Odyssey reshuffles it back into hands)."""
    hidden = set(state["hands"][seat])
    if state["phase"] == "give":
        hidden |= set(state["given"].get(str(seat), []))
        if seat == state["storyteller"] and state.get("story_card"):
            hidden.add(state["story_card"])
    shown = {p["card"] for p in state["table"]} | {p["card"] for turn in state["history"] for p in turn["table"]}
    return hidden - shown


def alternative(state: dict, seat: int, rnd: random.Random) -> dict | None:
    """The same moment with this seat's secrets changed: other cards in hand (and, before the table
    is laid, other cards given) drawn from the pile, and another vote. Nothing public moves."""
    other = json.loads(json.dumps(state))
    pile = other["deck"]
    changed = False

    def swap(cards: list) -> None:
        nonlocal changed
        for i in range(len(cards)):
            if pile:
                j = rnd.randrange(len(pile))
                cards[i], pile[j] = pile[j], cards[i]
                changed = True

    swap(other["hands"][seat])
    if other["phase"] == "give":
        swap(other["given"].get(str(seat), []))
        if seat == other["storyteller"] and other.get("story_card"):
            story = [other["story_card"]]
            swap(story)
            other["story_card"] = story[0]
    vote = other["votes"].get(str(seat))
    if other["phase"] == "vote" and vote:
        own = set() if other["options"].get("variant") == "party" else own_positions(other, seat)
        free = [p["position"] for p in other["table"] if p["position"] not in own]
        if len(free) > len(vote):
            other["votes"][str(seat)] = sorted(rnd.sample(free, len(vote)))
            changed = changed or other["votes"][str(seat)] != vote
    if other.get("red_vote") is not None and seat == other["storyteller"]:
        other["red_vote"] = rnd.choice([p["position"] for p in other["table"]])
        changed = True
    return other if changed else None


# ---- the audience (RULES.md §6): while the players vote, members pick the storyteller's card (in
# Odyssey's Party, the card the storyteller votes red) -------------------------------------------


def _audience_picks(view: dict, mine: list[dict]) -> list[dict]:
    if view.get("phase") != "vote":
        return []
    return [{"type": "pick", "position": p["position"]} for p in view.get("table", [])]


def _audience_score(entry: dict, picks: dict) -> tuple[dict, dict]:
    """1 point for the storyteller's card."""
    return _scored({p["position"] for p in entry["table"] if p["owner"] == entry["storyteller"]}, picks)


def _party_score(entry: dict, picks: dict) -> tuple[dict, dict]:
    """Odyssey's Party: the phrase goes with no card, so the card to find is the one the storyteller
    votes red, not their own (none, if they were skipped before voting red)."""
    return _scored(set() if entry.get("red_vote") is None else {entry["red_vote"]}, picks)


def _scored(found: set, picks: dict) -> tuple[dict, dict]:
    chosen = {member: mine[-1]["position"] for member, mine in picks.items() if mine}
    return {m: int(position in found) for m, position in chosen.items()}, count(chosen.values())


AUDIENCE = Audience(
    picks=_audience_picks,
    slot=lambda pick: "card",
    reads=("phase", "table"),
    score=_audience_score,
    does="While the players vote, pick the card you think is the storyteller's: 1 point when you are right.",
)
PARTY_AUDIENCE = replace(
    AUDIENCE,
    score=_party_score,
    does="While the players vote, pick the card you think the storyteller will vote red: 1 point when you are right.",
)
# Odyssey's: the family's, but Party's in the Party variant.
ODYSSEY_AUDIENCE = replace(
    AUDIENCE, varies=lambda options: PARTY_AUDIENCE if options.get("variant") == "party" else None
)
