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
from engine.core.errors import AlreadyMoved, IllegalMove, NotYourTurn, UnknownMove, WrongPhase
from engine.core.game import REVEALED, SHARED, Game, scores_outcome
from engine.games.dixit_family import GAME_CARDS, active as _active, clean_phrase, next_seat as _next_seat
from engine.games.dixit_family import own_positions as _own_positions, picture_cards

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
        "game": "dixit", "rules_version": RULES_VERSION, "options": dict(options), "players": seats,
        "rng": rng.new(seed), "phase": "claim", "turn": 1, "storyteller": None, "phrase": None,
        "story_card": None, "given": {}, "table": [], "votes": {}, "sitting_out": [], "out": [],
        "scores": [0] * seats, "history": [], "discard": [],
    }
    pool = sorted(cards)
    rng.draw(state).shuffle(pool)
    pool = pool[:GAME_CARDS]
    size = hand_size(seats)
    state["hands"] = [pool[i * size:(i + 1) * size] for i in range(seats)]
    state["deck"] = pool[seats * size:]
    return state


# ---- who does what now -------------------------------------------------------------------------

def givers(state: dict) -> list[int]:
    return [s for s in _active(state) if s != state["storyteller"] and s not in state["sitting_out"]]


def voters(state: dict) -> list[int]:
    return [s for s in givers(state) if str(s) in state["given"]]


def waiting_for(state: dict) -> list[int]:
    phase = state["phase"]
    if phase == "claim":
        return _active(state)
    if phase == "tell":
        return [state["storyteller"]]
    if phase == "give":
        return [s for s in givers(state) if str(s) not in state["given"]]
    if phase == "vote":
        return [s for s in voters(state) if str(s) not in state["votes"]]
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
    return [{"type": "vote", "seat": seat, "position": p["position"]}
            for p in state["table"] if p["position"] not in own]


# ---- moves -------------------------------------------------------------------------------------

def apply(state: dict, move: dict) -> dict:
    kind, seat, phase = move["type"], move.get("seat"), state["phase"]
    if kind == "skip" and seat is None:
        return _skip(state, move.get("target"))
    if kind == "kick" and seat is None:
        return _kick(state, move.get("target"))
    handler = {"claim": _claim, "tell": _tell, "give": _give, "vote": _vote}.get(kind)
    if handler is None:
        raise UnknownMove(f"Dixit has no move '{kind}'", phase=phase, seat=seat)
    if not isinstance(seat, int) or not 0 <= seat < state["players"]:
        raise UnknownMove("the move names no seat of this table", phase=phase, seat=seat)
    if kind != phase:
        raise WrongPhase(f"'{kind}' is not allowed now; the table is in '{phase}'", phase=phase, seat=seat)
    if seat not in waiting_for(state):
        done = {"give": str(seat) in state["given"], "vote": str(seat) in state["votes"]}.get(kind)
        if done:
            raise AlreadyMoved(f"you have already made your '{kind}' move this turn", phase=phase, seat=seat)
        raise NotYourTurn(f"seat {seat} has no '{kind}' to make now", phase=phase, seat=seat)
    return handler(state, move)


def _claim(state: dict, move: dict) -> dict:
    state["storyteller"] = move["seat"]
    state["phase"] = "tell"
    return state


def _tell(state: dict, move: dict) -> dict:
    seat, card = move["seat"], move.get("card")
    if card not in state["hands"][seat]:
        raise IllegalMove("that card is not in your hand", phase="tell", seat=seat)
    phrase = move.get("phrase")
    if phrase is not None and not isinstance(phrase, str):
        raise UnknownMove("the phrase must be text", phase="tell", seat=seat)
    phrase = clean_phrase(phrase)
    state["hands"][seat].remove(card)
    state["story_card"], state["phrase"], state["phase"] = card, phrase, "give"
    return state


def _give(state: dict, move: dict) -> dict:
    seat, cards = move["seat"], move.get("cards")
    k = gives_per_player(state["players"])
    if not isinstance(cards, list) or len(cards) != k or len(set(map(str, cards))) != k:
        raise UnknownMove(f"give exactly {k} different card{'s' if k > 1 else ''}", phase="give", seat=seat)
    if any(card not in state["hands"][seat] for card in cards):
        raise IllegalMove("that card is not in your hand", phase="give", seat=seat)
    for card in cards:
        state["hands"][seat].remove(card)
    state["given"][str(seat)] = list(cards)
    if not waiting_for(state):
        _lay_table(state)
    return state


def _vote(state: dict, move: dict) -> dict:
    seat, position = move["seat"], move.get("position")
    positions = {p["position"] for p in state["table"]}
    if not isinstance(position, int) or position not in positions:
        raise IllegalMove(f"there is no card {position!r} on the table", phase="vote", seat=seat)
    if position in _own_positions(state, seat):
        raise IllegalMove("you cannot vote for your own card", phase="vote", seat=seat)
    state["votes"][str(seat)] = [position]
    if not waiting_for(state):
        _score_turn(state)
    return state


def _skip(state: dict, target) -> dict:
    phase = state["phase"]
    if target not in waiting_for(state):
        raise IllegalMove(f"seat {target} is not holding up the table", phase=phase)
    if phase == "claim":
        raise IllegalMove("nobody has to wait in the first turn: whoever has a phrase claims it", phase=phase)
    if phase == "tell":
        state["storyteller"] = _next_seat(state, target)
        return state
    remaining = [s for s in (voters(state) if phase == "vote" else givers(state)) if s != target]
    if not remaining:
        raise IllegalMove("skipping them would leave nobody to vote; end the game instead", phase=phase)
    state["sitting_out"].append(target)
    if phase == "give" and not waiting_for(state):
        _lay_table(state)
    elif phase == "vote" and not waiting_for(state):
        _score_turn(state)
    return state


def _kick(state: dict, target) -> dict:
    """The seat leaves for good: its hand stays put (cards are conserved), it never tells again."""
    if target not in _active(state):
        raise IllegalMove(f"seat {target} is not playing", phase=state["phase"])
    if len(_active(state)) <= 3:
        raise IllegalMove("Dixit needs three players; end the game instead", phase=state["phase"])
    holding_up = target in waiting_for(state) and state["phase"] != "claim"
    if holding_up:
        state = _skip(state, target)
    state["out"].append(target)
    if state["storyteller"] == target and state["phase"] == "claim":
        state["storyteller"] = None
    return state


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
    scores = turn_scores(state["storyteller"], state["table"], state["votes"], participants,
                         bool(state["options"].get("contando")))
    full = {str(s): scores.get(str(s), 0) for s in range(state["players"])}
    for seat, points in full.items():
        state["scores"][int(seat)] += points
    state["history"].append({
        "turn": state["turn"], "storyteller": state["storyteller"], "phrase": state["phrase"],
        "table": state["table"], "votes": state["votes"], "red_vote": None, "scores": full,
    })
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
    phase = state["phase"]
    public = {
        "game": "dixit", "phase": phase, "turn": state["turn"], "players": state["players"],
        "storyteller": state["storyteller"], "phrase": state["phrase"],
        "scores": list(state["scores"]), "deck_left": len(state["deck"]),
        "waiting_for": waiting_for(state),
        "given": sorted(int(s) for s in state["given"]), "voted": sorted(int(s) for s in state["votes"]),
        "table": [{"position": p["position"], "card": p["card"]} for p in state["table"]],
        "history": state["history"], "last_turn": state["history"][-1] if state["history"] else None,
        "gives_per_player": gives_per_player(state["players"]), "options": state["options"],
        "ended_by_host": state.get("ended_by_host", False),
    }
    if viewer == SHARED:
        return public
    if viewer == REVEALED:
        secret = {k: v for k, v in state.items() if k != "rng"}
        return {**public, **secret, "rng": None}
    seat = int(viewer)
    mine = {"seat": seat, "hand": sorted(state["hands"][seat]),
            "my_given": state["given"].get(str(seat), []), "my_vote": state["votes"].get(str(seat), []),
            "my_positions": sorted(_own_positions(state, seat))}
    if seat == state["storyteller"]:
        mine["story_card"] = state["story_card"]
    return {**public, **mine}


def outcome(state: dict) -> dict | None:
    return scores_outcome(state)


GAME = Game(
    name="dixit", title="Dixit", min_players=3, max_players=6, rules_version=RULES_VERSION,
    options={"contando": False, "deck": "dreams", "language": "en"},
    setup=setup, legal=legal, apply=apply, view=view, outcome=outcome, waiting_for=waiting_for,
    content=content,
)
