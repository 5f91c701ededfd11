"""Dixit (classic), 3 to 6 players: RULES.md §1.

Phases: `claim` (turn 1 only: the first "I have a phrase" wins) → `tell` → `give` → `vote`, then the
turn is scored, hands refill and the next storyteller tells. The game ends after the turn in which
a hand cannot be refilled (`end`).

Moves (each also carries `"seat"`):
- `{"type": "claim"}`: "I have a phrase" (turn 1).
- `{"type": "tell", "card": "dream-017", "phrase": None | "text"}`: the phrase is optional.
- `{"type": "give", "cards": ["dream-003"]}`: two cards with 3 players.
- `{"type": "vote", "position": 2}`: never one's own card; the storyteller does not vote.
Host (`"seat": None`): `{"type": "skip", "target": s}`, `{"type": "end"}`.

Skipping a player who went away (App decision): a skipped storyteller passes the turn to the next
seat, keeping their hand; a skipped player who has not given yet sits the turn out (gives nothing,
votes for nothing, scores nothing this turn); a skipped voter simply casts no vote. A skip never
leaves a turn without a voter: then the host ends the game instead.
"""

from __future__ import annotations

from itertools import combinations

from engine.core import rng
from engine.core.errors import IllegalMove
from engine.core.game import REVEALED, SHARED, Game, rules, scores_outcome
from engine.core.moves import Flag, Move
from engine.core.parts import Bots, Clock, Content, Demo, Host
from engine.games import dixit_bot, dixit_family as family, dixit_play as family_play
from engine.games.dixit_family import (
    CARD,
    GAME_CARDS,
    PHRASE,
    active as _active,
    cards_field,
    check_position,
    next_seat as _next_seat,
    own_positions as _own_positions,
    picture_cards,
    position_field,
)

RULES_VERSION = "1"


def hand_size(seats: int) -> int:
    return 7 if seats == 3 else 6


def gives_per_player(seats: int) -> int:
    return 2 if seats == 3 else 1


def min_cards(seats: int) -> int:
    """The deal plus two turns' worth of cards (RULES.md §1, App decision on small decks)."""
    per_turn = 1 + (seats - 1) * gives_per_player(seats)
    return seats * hand_size(seats) + 2 * per_turn


def content(options: dict, seats: int) -> list[str]:
    return picture_cards(options, seats, min_cards(seats))


def setup(seats: int, options: dict, seed: int, cards: list[str]) -> dict:
    state = {
        "game": "dixit",
        "rules_version": RULES_VERSION,
        "options": dict(options),
        "players": seats,
        "rng": rng.new(seed),
        "phase": "claim",
        "turn": 1,
        "storyteller": None,
        "phrase": None,
        "story_card": None,
        "given": {},
        "table": [],
        "votes": {},
        "sitting_out": [],
        "out": [],
        "scores": [0] * seats,
        "history": [],
        "discard": [],
    }
    pool = sorted(cards)
    rng.draw(state).shuffle(pool)
    pool = pool[:GAME_CARDS]
    size = hand_size(seats)
    state["hands"] = [pool[i * size : (i + 1) * size] for i in range(seats)]
    state["deck"] = pool[seats * size :]
    return state


# ---- who does what now -------------------------------------------------------------------------

KEYS = tuple(str(s) for s in range(64))  # seats as the state's JSON keys, made once


def givers(state: dict) -> list[int]:
    teller, out, sitting = state["storyteller"], state["out"], state["sitting_out"]
    if not out and not sitting:  # the usual table
        return [s for s in range(state["players"]) if s != teller]
    skip = {teller, *out, *sitting}
    return [s for s in range(state["players"]) if s not in skip]


def voters(state: dict) -> list[int]:
    given = state["given"]
    return [s for s in givers(state) if KEYS[s] in given]


def waiting_for(state: dict) -> list[int]:
    """Seats the table waits on now. Called several times a move (the engine's hottest function)."""
    phase = state["phase"]
    if phase == "give":
        given = state["given"]
        return [s for s in givers(state) if KEYS[s] not in given]
    if phase == "vote":
        given, votes = state["given"], state["votes"]
        return [s for s in givers(state) if KEYS[s] in given and KEYS[s] not in votes]
    if phase == "tell":
        return [state["storyteller"]]
    if phase == "claim":
        return _active(state)
    return []


def legal(state: dict, seat: int) -> list[dict]:
    if seat not in waiting_for(state):
        return []
    phase = state["phase"]
    if phase == "claim":
        return [{"type": "claim", "seat": seat}]
    hand = sorted(state["hands"][seat])
    if phase == "tell":
        return [{"type": "tell", "seat": seat, "card": card, "phrase": None} for card in hand]
    if phase == "give":
        k = gives_per_player(state["players"])
        return [{"type": "give", "seat": seat, "cards": list(c)} for c in combinations(hand, k)]
    own = _own_positions(state, seat)
    return [
        {"type": "vote", "seat": seat, "position": p["position"]} for p in state["table"] if p["position"] not in own
    ]


# ---- moves -------------------------------------------------------------------------------------


def _claim(state: dict, move: dict) -> None:
    state["storyteller"] = move["seat"]
    state["phase"] = "tell"


def _tell(state: dict, move: dict) -> None:
    seat, card = move["seat"], move["card"]
    if card not in state["hands"][seat]:
        raise IllegalMove("That card is not in your hand.")
    state["hands"][seat].remove(card)
    state["story_card"], state["phrase"], state["phase"] = card, move["phrase"], "give"


def _give(state: dict, move: dict) -> None:
    seat, cards = move["seat"], move["cards"]
    if any(card not in state["hands"][seat] for card in cards):
        raise IllegalMove("That card is not in your hand.")
    for card in cards:
        state["hands"][seat].remove(card)
    state["given"][str(seat)] = list(cards)
    if not waiting_for(state):
        _lay_table(state)


def _vote(state: dict, move: dict) -> None:
    seat, position = move["seat"], move["position"]
    check_position(state, position)
    if position in _own_positions(state, seat):
        raise IllegalMove("You cannot vote for your own card.")
    state["votes"][str(seat)] = [position]
    if not waiting_for(state):
        _score_turn(state)


def skippable(state: dict) -> list[int]:
    """Anyone the table waits on, except in turn 1's claim, where nobody has to wait."""
    return [] if state["phase"] == "claim" else waiting_for(state)


def _skip(state: dict, target: int) -> None:
    phase = state["phase"]
    if phase == "tell":
        state["storyteller"] = _next_seat(state, target)
        return
    remaining = [s for s in (voters(state) if phase == "vote" else givers(state)) if s != target]
    if not remaining:
        raise IllegalMove("Skipping them would leave nobody to vote: end the game instead.")
    state["sitting_out"].append(target)
    if phase == "give" and not waiting_for(state):
        _lay_table(state)
    elif phase == "vote" and not waiting_for(state):
        _score_turn(state)


def _clock_skip(state: dict, target: int) -> None:
    """The pace clock's skip (RULES.md §6): as the host's, but it may skip the last giver or voter.
    A turn where nobody gave a card, or nobody voted, is scored with no votes: nothing for anyone,
    and the next storyteller tells."""
    if state["phase"] == "tell":
        _skip(state, target)
        return
    state["sitting_out"].append(target)
    if state["phase"] == "give" and not waiting_for(state):
        _lay_table(state)
    if state["phase"] == "vote" and not waiting_for(state):
        _score_turn(state)


def _kick(state: dict, target: int) -> None:
    """The seat leaves for good: its hand stays put (cards are conserved), it never tells again."""
    if len(_active(state)) <= 3:
        raise IllegalMove("Dixit needs three players: end the game instead.")
    if target in skippable(state):
        _skip(state, target)
    state["out"].append(target)
    if state["storyteller"] == target and state["phase"] == "claim":
        state["storyteller"] = None


MOVES = (
    Move("claim", ("claim",), _claim, not_now="Someone already has a phrase: the storyteller is choosing."),
    Move(
        "tell",
        ("tell",),
        _tell,
        {"card": CARD, "phrase": PHRASE},
        not_now="The storyteller has already told this turn.",
    ),
    Move(
        "give",
        ("give",),
        _give,
        {"cards": cards_field(lambda state: gives_per_player(state["players"]))},
        done=lambda state, seat: str(seat) in state["given"],
        done_message="You have already given your card this turn.",
        not_now="Cards are given right after the storyteller tells.",
    ),
    Move(
        "vote",
        ("vote",),
        _vote,
        {"position": position_field()},
        done=lambda state, seat: str(seat) in state["votes"],
        done_message="You have already voted this turn.",
        not_now="Votes open when every card is on the table.",
    ),
)


# ---- turn resolution ---------------------------------------------------------------------------


def _lay_table(state: dict) -> None:
    laid = [(state["story_card"], state["storyteller"])]
    laid += [(card, int(seat)) for seat, cards in state["given"].items() for card in cards]
    laid.sort()
    rng.draw(state).shuffle(laid)
    state["table"] = [{"position": i + 1, "card": card, "owner": owner} for i, (card, owner) in enumerate(laid)]
    state["phase"] = "vote"


def turn_scores(storyteller: int, table: list, votes: dict, participants: list[int], contando: bool) -> dict:
    """Points per seat for one turn, from what is in a turn record alone (RULES.md §1)."""
    owner = {p["position"]: p["owner"] for p in table}
    story = next(p["position"] for p in table if p["owner"] == storyteller)
    scores = {str(s): 0 for s in participants}
    scores[str(storyteller)] = 0
    found = [v for v, picks in votes.items() if story in picks]
    if not found or len(found) == len(votes):
        for seat in participants:
            if seat != storyteller:
                scores[str(seat)] += 2
    else:
        points = 4 if contando and len(found) == 1 else 3
        scores[str(storyteller)] += points
        for voter in found:
            scores[voter] = scores.get(voter, 0) + points
    for picks in votes.values():
        for position in picks:
            if owner[position] != storyteller:
                key = str(owner[position])
                scores[key] = scores.get(key, 0) + 1
    return scores


def _score_turn(state: dict) -> None:
    participants = [state["storyteller"]] + voters(state)
    scores = turn_scores(
        state["storyteller"], state["table"], state["votes"], participants, bool(state["options"].get("contando"))
    )
    full = {str(s): scores.get(str(s), 0) for s in range(state["players"])}
    for seat, points in full.items():
        state["scores"][int(seat)] += points
    state["history"].append(
        {
            "turn": state["turn"],
            "storyteller": state["storyteller"],
            "phrase": state["phrase"],
            "table": state["table"],
            "votes": state["votes"],
            "red_vote": None,
            "scores": full,
        }
    )
    state["discard"] += [p["card"] for p in state["table"]]
    refilled = _refill(state)
    state.update(story_card=None, phrase=None, given={}, table=[], votes={}, sitting_out=[])
    if not refilled:
        state["phase"] = "end"
        return
    state["turn"] += 1
    state["storyteller"] = _next_seat(state, state["storyteller"])
    state["phase"] = "tell"


def _refill(state: dict) -> bool:
    """Refill every hand in seat order; False when the draw pile could not fill them all."""
    size = hand_size(state["players"])
    for hand in state["hands"]:
        while len(hand) < size and state["deck"]:
            hand.append(state["deck"].pop(0))
    return all(len(hand) == size for hand in state["hands"])


# ---- views -------------------------------------------------------------------------------------


def view(state: dict, viewer) -> dict:
    public = {
        "turn": state["turn"],
        "storyteller": state["storyteller"],
        "phrase": state["phrase"],
        "deck_left": len(state["deck"]),
        "given": sorted(int(s) for s in state["given"]),
        "voted": sorted(int(s) for s in state["votes"]),
        "table": [{"position": p["position"], "card": p["card"]} for p in state["table"]],
        "history": state["history"],
        "last_turn": state["history"][-1] if state["history"] else None,
        "gives_per_player": gives_per_player(state["players"]),
    }
    if viewer == SHARED:
        return public
    if viewer == REVEALED:
        secret = {k: v for k, v in state.items() if k != "rng"}
        return {**public, **secret, "rng": None}
    seat = int(viewer)
    mine = {
        "seat": seat,
        "hand": sorted(state["hands"][seat]),
        "my_given": state["given"].get(str(seat), []),
        "my_vote": state["votes"].get(str(seat), []),
        "my_positions": sorted(_own_positions(state, seat)),
    }
    if seat == state["storyteller"]:
        mine["story_card"] = state["story_card"]
    return {**public, **mine}


def outcome(state: dict) -> dict | None:
    return scores_outcome(state)


GAME = Game(
    name="dixit",
    title="Dixit",
    min_players=3,
    max_players=6,
    rules_version=RULES_VERSION,
    options={"contando": Flag(default=False)},
    **rules(globals(), secrets=family.secrets, alternative=family.alternative),
    host=Host(skippable=skippable, skip=_skip, kick=_kick),
    clock=Clock(family.PACE, skip=_clock_skip, reveal=family.REVEAL),
    audience=family.AUDIENCE,
    content=Content(cards=content, min_cards=lambda options, seats: min_cards(seats)),
    variants=({"contando": False}, {"contando": True}),
    demo=Demo(tables=(({"contando": False}, 4, 6), ({"contando": True}, 3, 5)), simulate=family_play.simulate),
    family="dixit_family",
    bots=Bots(dixit_bot.play, ready=dixit_bot.ready, text={"tell": "phrase"}),
)
