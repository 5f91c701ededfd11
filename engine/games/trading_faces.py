"""Trading Faces, 3 to 5 players, and its memory variant for 2 to 4: RULES.md §4.

Classic phases: `pass` ⇄ `face`, then `end`.
- `pass`: every playing seat picks one card of its hand, face down for its left neighbour (the next
  playing seat). The pass resolves when all have chosen: everyone receives theirs at once. A seat
  holding three of a kind may call stop, also right after the deal and before choosing.
- `face`: the head of the stop queue makes the face of their set; the seats to their left guess in
  clockwise order, one guess each. The first right guess wins 1 card and the face-maker 2; nobody
  right: the face-maker wins 1. The face-maker draws 1 card, or up to a hand of 3. The next queued
  set is played, or passing resumes; the game ends when the pile is empty and a hand is below 3.
Memory phases: `peek` → `decide` → (next player) `peek` …, then `end`.
- `peek`: the active player lifts a face-down cell; only their left neighbour sees it.
- `decide`: the active player ends the turn, or flips the lifted card and one more: a pair is
  taken; a mismatch gives every other player a card from the pile, clockwise from the active
  player's left, while the pile lasts. The game ends when one pair is left on the grid.

Moves: `{"type": "pass", "card": e}`, `{"type": "stop"}`, `{"type": "guess", "emotion": e}`;
memory: `{"type": "peek", "cell": c}`, `{"type": "flip", "cell": c}`, `{"type": "end_turn"}`.

App decisions (beyond RULES.md):
- A card chosen for passing leaves the hand at once (it lies face down): a choice is final.
- Stop takes every set the seat holds (a 3-player hand of 10 may hold two); each is a face. Stops
  called while a face is in progress, or before passing resumes, are simultaneous: the queue after
  the face in progress is in seat order from the seat after the last face-maker. The first stop of
  a pass starts at once: nobody waits for a call that may never come.
- Guesses are public as they are made (they are said aloud at a real table); the emotion of a face
  is secret until the face ends.
- When the game would end but a seat still holds a set, that set is played first (RULES.md: "unless
  someone can call stop"): the app calls it for them.
- When no emotion has all its copies in the players' hands any more (each has one in the pile),
  passing can never make a set: the game ends there, scored as it stands.
- Skip: while passing, the card is picked at random from the hand; while guessing, the guesser
  loses their guess; in the memory variant the active player's turn ends.
- Kick: while passing (classic, at least 4 playing: the leaver's hand goes under the pile), or at the
  start of a memory turn (at least 3 playing).

Views: public `hand_sizes`, `chosen` (seats that picked a card to pass), `pile`, `won` (seat →
emotions won), `queue` (seats only), `face` (maker, guessers, guesses so far), `last_face`;
a seat adds `hand` (hidden while a face is guessed), `my_pass`, `arrived`, `sets`, and the
face-maker `face_emotion`. Memory: `grid` (cell → "down" | "empty" | "taken"), `active`, `lifted`,
`last_flip` (public: everyone saw it), and for the left neighbour `peek_emotion`.
"""

from __future__ import annotations

import json
from collections import Counter

from engine.core import rng
from engine.core.errors import IllegalMove
from engine.core.game import REVEALED, SHARED, Game, playing, rules, scores_outcome
from engine.core.moves import Move, OneOf, Whole
from engine.core.parts import Clock, Content, Host
from engine.games import trading_faces_audience
from engine.pictures.trading_faces_emotions import EMOTIONS  # the cards' list, shared with their pictures

RULES_VERSION = "1"
REVEAL = 5  # seconds the room watches each face made (or each Memory turn): the face, who read it, the cards won
DEAL = {3: 10, 4: 8, 5: 6}
GRID_COLUMNS, GRID_ROWS = 6, 5
GRID_CELLS = GRID_COLUMNS * GRID_ROWS  # 30 cells for 26 cards: RULES.md's 5 × 4 cannot hold them
VARIANTS = ("classic", "memory")


def _memory(state: dict) -> bool:
    return state["options"].get("variant") == "memory"


def seats_for(options: dict) -> tuple[int, int]:
    return (2, 4) if options.get("variant") == "memory" else (3, 5)


def setup(seats: int, options: dict, seed: int, content=None) -> dict:
    state: dict = {
        "game": "trading_faces",
        "rules_version": RULES_VERSION,
        "options": dict(options),
        "players": seats,
        "rng": rng.new(seed),
        "out": [],
        "scores": [0] * seats,
        "history": [],
        "won": {str(s): [] for s in range(seats)},
    }
    deck = [e for e in EMOTIONS for _ in range(3)]
    rng.draw(state).shuffle(deck)
    if _memory(state):
        pairs = [e for e in EMOTIONS for _ in range(2)]
        rng.draw(state).shuffle(pairs)
        state.update(
            phase="peek",
            grid=pairs + [None] * (GRID_CELLS - len(pairs)),
            taken=[],
            pile=list(EMOTIONS),
            active=0,
            lifted=None,
        )
        rng.draw(state).shuffle(state["pile"])
        return state
    size = DEAL[seats]
    state.update(
        phase="pass",
        hands={str(s): deck[s * size : (s + 1) * size] for s in range(seats)},
        pile=deck[seats * size :],
        passing={},
        arrived={},
        pass_no=0,
        queue=[],
        face=None,
        last_maker=None,
    )
    return state


# ---- seats -------------------------------------------------------------------------------------


def _left(state: dict, seat: int) -> int:
    """The next playing seat clockwise: who receives this seat's pass, or sees its peek."""
    seats = playing(state)
    return min((s for s in seats if s > seat), default=min(seats))


def _clockwise_from(state: dict, seat: int) -> list[int]:
    """Playing seats in clockwise order starting after `seat` (not including it)."""
    seats = playing(state)
    return [s for s in seats if s > seat] + [s for s in seats if s < seat]


def _holding(state: dict, seat: int) -> int:
    """Cards a seat holds, counting one it has chosen to pass (still its own until the pass resolves)."""
    return len(state["hands"][str(seat)]) + (str(seat) in state["passing"])


def _set_possible(state: dict) -> bool:
    """Whether some emotion still has all its copies in players' hands (passing counts): otherwise
    each one has a copy in the pile, passing changes nothing and no set can ever be made."""
    held = Counter(state["passing"].values())
    for seat in playing(state):
        held.update(state["hands"][str(seat)])
    pile = set(state["pile"])
    return any(e not in pile for e in held)


def _sets(state: dict, seat: int) -> list[str]:
    counts = Counter(state["hands"][str(seat)])
    return [e for e in EMOTIONS if counts[e] >= 3]


def waiting_for(state: dict) -> list[int]:
    phase = state["phase"]
    if phase == "pass":
        return [s for s in playing(state) if str(s) not in state["passing"]]
    if phase == "face":
        face = state["face"]
        return [face["guessers"][face["turn"]]]
    if phase in ("peek", "decide"):
        return [state["active"]]
    return []


def legal(state: dict, seat: int) -> list[dict]:
    phase = state["phase"]
    if seat not in playing(state) or phase == "end":
        return []
    if phase in ("peek", "decide"):
        if seat != state["active"]:
            return []
        down = _down(state)
        if phase == "peek":
            return [{"type": "peek", "seat": seat, "cell": c} for c in down]
        return [{"type": "end_turn", "seat": seat}] + [
            {"type": "flip", "seat": seat, "cell": c} for c in down if c != state["lifted"]
        ]
    moves = []
    if _sets(state, seat):
        moves.append({"type": "stop", "seat": seat})
    if phase == "pass" and str(seat) not in state["passing"]:
        moves += [{"type": "pass", "seat": seat, "card": e} for e in sorted(set(state["hands"][str(seat)]))]
    if phase == "face" and seat in waiting_for(state):
        tried = {g["emotion"] for g in state["face"]["guesses"]}
        moves += [{"type": "guess", "seat": seat, "emotion": e} for e in EMOTIONS if e not in tried]
    return moves


# ---- classic: passing and stops ----------------------------------------------------------------


def _pass(state: dict, move: dict) -> None:
    hand = state["hands"][str(move["seat"])]
    if move["card"] not in hand:
        raise IllegalMove("That card is not in your hand.")
    hand.remove(move["card"])
    state["passing"][str(move["seat"])] = move["card"]
    _resolve_pass_if_ready(state)


def _resolve_pass_if_ready(state: dict) -> None:
    if state["phase"] != "pass" or waiting_for(state):
        return
    passing = state["passing"]
    state["arrived"] = {}
    for giver, card in passing.items():
        receiver = _left(state, int(giver))
        state["hands"][str(receiver)].append(card)
        state["arrived"][str(receiver)] = card
    state["passing"] = {}
    state["pass_no"] += 1


def _stop(state: dict, move: dict) -> None:
    seat = move["seat"]
    sets = _sets(state, seat)
    if not sets:
        raise IllegalMove("You need three cards of the same emotion to call stop.")
    for emotion in sets:
        _queue(state, seat, emotion)
    if state["phase"] == "pass":
        _next_face(state)


def _queue(state: dict, seat: int, emotion: str) -> None:
    hand = state["hands"][str(seat)]
    for _ in range(3):
        hand.remove(emotion)
    state["queue"].append({"seat": seat, "emotion": emotion})
    # The queue after the face in progress: seat order from the seat after the last face-maker.
    start = state["face"]["maker"] if state["face"] else state["last_maker"]
    order = _clockwise_from(state, start) if start is not None else playing(state)
    order = order + [start] if start is not None and start in playing(state) else order
    state["queue"].sort(key=lambda q: order.index(q["seat"]) if q["seat"] in order else len(order))


def _next_face(state: dict) -> None:
    """Start the next queued face, or go back to passing, or end the game."""
    if not state["queue"]:
        if not _set_possible(state):
            state.update(phase="end", face=None)
            return
        if not state["pile"] and any(_holding(state, s) < 3 for s in playing(state)):
            for seat in playing(state):
                for emotion in _sets(state, seat):  # "unless someone can call stop"
                    _queue(state, seat, emotion)
            if not state["queue"]:
                state.update(phase="end", face=None)
                return
        else:
            state.update(phase="pass", face=None)
            _resolve_pass_if_ready(state)  # a skipped or kicked seat may have been the last to choose
            return
    head = state["queue"].pop(0)
    guessers = _clockwise_from(state, head["seat"])
    state["face"] = {
        "maker": head["seat"],
        "emotion": head["emotion"],
        "guessers": guessers,
        "turn": 0,
        "guesses": [],
        "pass_no": state["pass_no"],
    }
    state["phase"] = "face"
    if not guessers:  # nobody left to guess: cannot happen with three playing, kept safe
        _end_face(state, None)


def _guess(state: dict, move: dict) -> None:
    face = state["face"]
    if any(g["emotion"] == move["emotion"] for g in face["guesses"]):
        raise IllegalMove("Someone has already guessed that emotion, and it was wrong. Choose another.")
    face["guesses"].append({"guesser": move["seat"], "emotion": move["emotion"]})
    _after_guess(state, move["emotion"] == face["emotion"])


def _after_guess(state: dict, right: bool) -> None:
    face = state["face"]
    if right:
        _end_face(state, face["guesses"][-1]["guesser"])
        return
    face["turn"] += 1
    if face["turn"] >= len(face["guessers"]):
        _end_face(state, None)


def _end_face(state: dict, winner: int | None) -> None:
    face = state["face"]
    maker, emotion = face["maker"], face["emotion"]
    earned = {maker: 2, winner: 1} if winner is not None else {maker: 1}
    for seat, cards in earned.items():
        state["scores"][seat] += cards
        state["won"][str(seat)] += [emotion] * cards
    hand = state["hands"][str(maker)]
    for _ in range(max(1, 3 - len(hand))):
        if state["pile"]:
            hand.append(state["pile"].pop(0))
    state["history"].append(
        {
            "face_maker": maker,
            "emotion": emotion,
            "pass_no": face["pass_no"],
            "guesses": list(face["guesses"]),
            "winner": winner,
            "scores": {str(s): earned.get(s, 0) for s in range(state["players"])},
        }
    )
    state["last_maker"] = maker
    _next_face(state)


# ---- memory ------------------------------------------------------------------------------------


def _down(state: dict) -> list[int]:
    return [c for c, e in enumerate(state["grid"]) if e is not None and c not in state["taken"]]


def _cell(state: dict, cell: int) -> None:
    if state["grid"][cell] is None:
        raise IllegalMove("That space of the grid is empty.")
    if cell in state["taken"]:
        raise IllegalMove("That card has already been taken.")


def _peek(state: dict, move: dict) -> None:
    _cell(state, move["cell"])
    state.update(lifted=move["cell"], phase="decide")


def _flip(state: dict, move: dict) -> None:
    first, second = state["lifted"], move["cell"]
    _cell(state, second)
    if second == first:
        raise IllegalMove("The card you lifted is turned over first: flip another one with it.")
    grid = state["grid"]
    match = grid[first] == grid[second]
    active = state["active"]
    earned = {active: 2} if match else {}
    if match:
        state["taken"] += [first, second]
        state["won"][str(active)] += [grid[first], grid[second]]
    else:
        for seat in _clockwise_from(state, active):
            if state["pile"]:
                state["won"][str(seat)].append(state["pile"].pop(0))
                earned[seat] = 1
    for seat, cards in earned.items():
        state["scores"][seat] += cards
    _end_turn(state, {"cells": [first, second], "match": match}, [grid[first], grid[second]], earned)


def _end_turn_move(state: dict, move: dict) -> None:
    _end_turn(state, None, None, {})


def _end_turn(state: dict, flip, shown, earned: dict) -> None:
    active = state["active"]
    if state["lifted"] is not None:
        state["history"].append(
            {
                "active": active,
                "peek": {"cell": state["lifted"], "viewer": _left(state, active)},
                "flip": flip,
                "shown": shown,
                "scores": {str(s): earned.get(s, 0) for s in range(state["players"])},
            }
        )
    state["lifted"] = None
    if len(_down(state)) <= 2:
        state["phase"] = "end"
        return
    state.update(active=_left(state, active), phase="peek")


# ---- host --------------------------------------------------------------------------------------


def _skip(state: dict, target: int) -> None:
    phase = state["phase"]
    if phase == "pass":
        hand = state["hands"][str(target)]
        _pass(state, {"seat": target, "card": rng.draw(state).choice(sorted(hand))})
    elif phase == "face":
        _after_guess(state, False)  # the guess is lost, and the next guesser's turn comes at once
    else:
        _end_turn(state, None, None, {})


def _kick(state: dict, target: int) -> None:
    if _memory(state):
        if state["phase"] != "peek" or len(playing(state)) <= 2:
            raise IllegalMove("A player can leave only at the start of a turn, and two must stay.")
        state["out"].append(target)
        if target == state["active"]:
            state["active"] = _left(state, target)
        return
    if state["phase"] != "pass" or len(playing(state)) <= 3:
        raise IllegalMove("A player can leave only while cards are being passed, and three must stay.")
    state["out"].append(target)
    # The leaver's cards go under the pile: every emotion keeps its three copies in play, so sets
    # can still be made (set aside, some never could and the game might never end).
    leaving = state["hands"][str(target)]
    if str(target) in state["passing"]:
        leaving.append(state["passing"].pop(str(target)))
    state["pile"] += sorted(leaving)
    state["hands"][str(target)] = []
    if not _set_possible(state):
        state["phase"] = "end"
        return
    _resolve_pass_if_ready(state)


# ---- views -------------------------------------------------------------------------------------


def view(state: dict, viewer) -> dict:
    public = {
        "variant": "memory" if _memory(state) else "classic",
        "pile": len(state["pile"]),
        "won": {s: list(cards) for s, cards in state["won"].items()},
        "history": state["history"],
        "last": state["history"][-1] if state["history"] else None,
    }
    public.update(_memory_view(state) if _memory(state) else _classic_view(state))
    if viewer == REVEALED:
        return {**public, **{k: v for k, v in state.items() if k != "rng"}, "rng": None}
    if viewer == SHARED:
        return public
    seat = int(viewer)
    if _memory(state):
        shown = state["phase"] == "decide" and seat == _left(state, state["active"]) and seat != state["active"]
        return {**public, "peek_emotion": state["grid"][state["lifted"]] if shown else None}
    face = state["face"]
    guessing = state["phase"] == "face"
    return {
        **public,
        "hand": [] if guessing else sorted(state["hands"][str(seat)]),
        "hand_hidden": guessing,
        "passes_to": _left(state, seat) if seat in playing(state) else None,
        "my_pass": state["passing"].get(str(seat)),
        "arrived": state["arrived"].get(str(seat)) if not guessing else None,
        "sets": len(_sets(state, seat)),
        "face_emotion": face["emotion"] if guessing and face["maker"] == seat else None,
        "my_queue": [q["emotion"] for q in state["queue"] if q["seat"] == seat],
    }


def _classic_view(state: dict) -> dict:
    face = state["face"]
    shown_face = None
    if face:
        shown_face = {
            "maker": face["maker"],
            "guessers": face["guessers"],
            "guesses": face["guesses"],
            "next": face["guessers"][face["turn"]] if face["turn"] < len(face["guessers"]) else None,
        }
    return {
        "hand_sizes": {str(s): len(state["hands"][str(s)]) for s in playing(state)},
        "chosen": sorted(int(s) for s in state["passing"]),
        "pass_no": state["pass_no"],
        "queue": [q["seat"] for q in state["queue"]],
        "face": shown_face,
    }


def _memory_view(state: dict) -> dict:
    grid = ["empty" if e is None else "taken" if c in state["taken"] else "down" for c, e in enumerate(state["grid"])]
    active = state["active"]
    return {
        "grid": grid,
        "columns": GRID_COLUMNS,
        "active": active,
        "lifted": state["lifted"],
        "viewer": _left(state, active) if state["phase"] != "end" else None,
    }


def outcome(state: dict) -> dict | None:
    return scores_outcome(state)


def secrets(state: dict, seat: int) -> set:
    """Emotions are public words (cards won, guesses), so nothing is searchable by value: the
    counterfactual below changes a seat's hand, its face or its peek instead."""
    return set()


def alternative(state: dict, seat: int, rnd) -> dict | None:
    other = json.loads(json.dumps(state))
    if _memory(other):
        if other["phase"] != "decide" or seat != _left(other, other["active"]) or seat == other["active"]:
            return None
        cells = [c for c in _down(other) if other["grid"][c] != other["grid"][other["lifted"]]]
        swap = rnd.choice(cells)
        lifted = other["lifted"]
        other["grid"][lifted], other["grid"][swap] = other["grid"][swap], other["grid"][lifted]
        return other
    if other["phase"] == "end":
        return None
    face = other["face"]
    if face and face["maker"] == seat:
        tried = {g["emotion"] for g in face["guesses"]}
        face["emotion"] = rnd.choice([e for e in EMOTIONS if e not in tried and e != face["emotion"]])
        return other
    hand = other["hands"][str(seat)]
    if not hand or other["phase"] != "pass":
        return None
    hand[rnd.randrange(len(hand))] = rnd.choice(EMOTIONS)
    if str(seat) in other["passing"]:
        other["passing"][str(seat)] = rnd.choice(EMOTIONS)
    return other


MOVES = (
    Move(
        "pass",
        ("pass",),
        _pass,
        {"card": OneOf(EMOTIONS)},
        done=lambda state, seat: str(seat) in state["passing"],
        done_message="You have already passed a card: it is on its way.",
        not_now="Cards are not being passed now.",
    ),
    Move("stop", ("pass", "face"), _stop, waits=False, not_now="Stop can be called only during play."),
    Move("guess", ("face",), _guess, {"emotion": OneOf(EMOTIONS)}, not_now="There is no face to guess now."),
    Move(
        "peek",
        ("peek",),
        _peek,
        {"cell": Whole(0, GRID_CELLS - 1)},
        not_now="You have already lifted a card this turn.",
    ),
    Move("flip", ("decide",), _flip, {"cell": Whole(0, GRID_CELLS - 1)}, not_now="Lift a card first."),
    Move("end_turn", ("decide",), _end_turn_move, not_now="Lift a card first."),
)


def _pictures(name: str) -> tuple[bytes, str]:
    from engine.pictures import trading_faces as faces  # drawing the cards is no business of the rules

    return faces.picture(name)


GAME = Game(
    name="trading_faces",
    title="Trading Faces",
    min_players=2,
    max_players=5,
    rules_version=RULES_VERSION,
    options={"variant": OneOf(VARIANTS, default="classic")},
    seats_for=seats_for,
    **rules(globals()),
    turn_word="turn",
    host=Host(skippable=waiting_for, skip=_skip, kick=_kick),
    audience=trading_faces_audience.audience(EMOTIONS),
    clock=Clock(
        {"pass": (45, 25), "face": (30, 15), "peek": (45, 25), "decide": (30, 15)}, reveal=REVEAL
    ),  # face: each guesser
    variants=({"variant": "classic"}, {"variant": "memory"}),
    family="trading_faces",
    content=Content(constants={"emotions": EMOTIONS, "grid": (GRID_COLUMNS, GRID_ROWS)}, pictures=_pictures),
)
