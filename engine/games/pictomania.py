"""Pictomania (2nd edition), 3 to 6 players, 4 rounds: RULES.md §3.

Phases of every round: `words` → `draw`; after round 4 the game is in `end`.
- `words`: the round's 3 word cards (slots A, B, C) are on the table for everyone to read. Any
  player may ask to replace a card; each player marks ready. When every playing seat is ready, the
  letters and numbers are dealt in secret and the round goes to `draw`.
- `draw`: everyone draws, guesses and finishes at once. The round is scored when every player has
  finished (competitive variant: also as soon as the last black token is taken), its record goes
  to the history, and the next round's cards are drawn (`words`), or the game ends.

Moves (each also carries `"seat"`):
- `{"type": "replace", "slot": "A"}` (`words`): swap that card for an unused card of the same deck.
- `{"type": "ready"}` (`words`): "I have read the 21 words".
- `{"type": "stroke", "points": [[x, y], ...], "width": w, "color": "#rrggbb" | "eraser", "t": ms}` (`draw`);
  `t` (optional) is the milliseconds since the round's drawing began, stamped by the table service
  (`Game.timed`), kept with the stroke for replays; a stroke without it replays at an even pace.
- `{"type": "undo"}` / `{"type": "clear"}` (`draw`): remove the last stroke / every stroke.
- `{"type": "guess", "drawer": d, "number": n}` (`draw`).
- `{"type": "finish", "token": value | None}` (`draw`): take a black token of that value, or none.
- `{"type": "wrong_word"}` (`draw`): "I drew the wrong word".
Host (`"seat": None`): `{"type": "skip", "target": s}`, `{"type": "kick", "target": s}`, `{"type": "end"}`.

Drawings are data, in one canvas space (engine/pictures/pictomania_canvas.py): integer points
0..CANVAS_WIDTH × 0..CANVAS_HEIGHT (x to the right, y downwards), widths WIDTH_MIN..WIDTH_MAX in the
same units, a colour `#rrggbb` (stored lower case) or `"eraser"`. At most MAX_STROKE_POINTS points per stroke, MAX_STROKES
strokes and MAX_DRAWING_POINTS points per drawing. `legal()` lists the stroke move once with
`"points": None`; the caller fills the points in (and may change width and colour).

App decisions (RULES.md §3 leaves these open):
- Replacing a card: any player, in `words`, any number of times. The replaced card is discarded
  for the rest of the game, like the cards of earlier rounds. A replacement clears every ready
  mark, so everybody reads the new card. It is refused when the deck has no spare card: the cards
  later rounds need from the same deck are kept back.
- The deal: letters from the 6 letter cards (2 per letter) and numbers 1..7, shuffled separately
  and dealt in seat order; it happens when the last playing seat marks ready.
- A drawing is frozen once its drawer has guessed, finished or admitted the wrong word.
- Guess refusals: a second guess on the same drawing, a number card already played this round,
  one's own number, one's own drawing, a drawing whose drawer admitted the wrong word.
- Public while the round runs (guess cards lie face down on the drawings): who guessed on which
  drawing and in which order, who has finished and which black token they took, who admitted the
  wrong word, every drawing. Secret until the round is scored: letters, numbers, guess numbers,
  and everything derived from them (right or wrong, errors).
- "I drew the wrong word": the drawer may admit it at any time during `draw`, also after
  finishing (the round is scored as soon as the last player finishes, so that is the last chance).
  From then on the drawing takes no guesses; the guesses already on it are returned (void: no
  points, no errors) and so are their number cards, which their guessers may play again this
  round. The drawer keeps every own scoring token (all count negative) and their black token, taken
  before or after the admission, scores 0. The drawer's own guesses count as usual.
- Competitive variant: a player may still finish without a token; the round ends when the last
  black token is taken or when everyone has finished, whichever comes first.
- Skip (host, a player who went away): in `words` the player is marked ready; in `draw` the player
  finishes without a black token. Their drawing stays as it is and may still be guessed on.
- Kick (host): only in `words` (between rounds); the seat leaves for good, plays no later round,
  and keeps the points it has. In `draw` it is refused: skip them, then kick them in `words`.
  The game needs three playing seats; below that the host ends the game instead.
- Token tables follow the number of seats playing the round.
- The host's `end` stops the game where it is: a round in progress is not scored.

Options: `competitive` (bool), `decks` (4 deck names, round 1..4; a deck may repeat), `language`
(the word cards' language), `deck` (the shared picture-deck option; unused here).

Views: every viewer gets the public table: `cards` (slot → id, theme, 7 words), `drawings`
(seat → strokes), `frozen`, `guesses` (guesser, drawer, order: no number), `finished` (seat →
black token taken or None), `black_supply`, `wrong_word`, `ready`, `participants`,
`scoring_tokens`, `scores`, `history`/`last_round` (rounds already scored, fully revealed),
`canvas`. A seat adds `letter`, `number`, `word`, `my_guesses` (with numbers), `numbers_left`,
`can_guess_on`. REVEALED adds the whole state but the rng and the draw piles.

History: one record per round (DESIGN.md shape), plus `card_ids`, `themes`, `drawings`, and the
scoring breakdown `tokens` (per seat: tokens received with their drawer, unclaimed own tokens,
black token and what it counted, errors) and `black_sheep`. `round_scores(record)` recomputes
the scores from the record alone.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from engine.core import rng
from engine.core.errors import AlreadyMoved, BadOptions, IllegalMove, UnknownMove
from engine.core.game import REVEALED, SHARED, Game, rules, scores_outcome
from engine.core.moves import Field, Flag, Many, Maybe, Move, Number, OneOf, SeatNo, Whole
from engine.core.parts import Clock, Content, Demo, Host
from engine.games import pictomania_audience, pictomania_play
from engine.pictures.pictomania_canvas import (  # the drawing sheet, shared with the keepsake
    CANVAS_HEIGHT,
    CANVAS_WIDTH,
    DEFAULT_COLOR,
    DEFAULT_WIDTH,
    ERASER,
    MAX_DRAWING_POINTS,
    MAX_STROKE_POINTS,
    MAX_STROKE_TIME,
    MAX_STROKES,
    PALETTE,
    WIDTH_MAX,
    WIDTH_MIN,
)

RULES_VERSION = "1"
REVEAL = 12  # seconds the wall plays a scored round: the drawings replay, the answers show
ROUNDS = 4
SLOTS = ("A", "B", "C")
LETTER_CARDS = ("A", "A", "B", "B", "C", "C")
NUMBERS = (1, 2, 3, 4, 5, 6, 7)
from engine.games.pictomania_words import DECKS  # noqa: E402  (the word decks, one per round by default)

# Token tables (RULES.md §3, App decision: data shown on the rules screen), by seats in the round.
SCORING_TOKENS = {3: (3, 1), 4: (3, 2, 1), 5: (4, 3, 2, 1), 6: (4, 3, 2, 2, 1)}
BLACK_TOKENS = {3: (3, 2, 1), 4: (4, 3, 2, 1), 5: (4, 3, 2, 1, 1), 6: (5, 4, 3, 2, 1, 1)}

_COLOR = re.compile(r"#[0-9a-fA-F]{6}")


def black_tokens(seats: int, competitive: bool) -> list[int]:
    """The black tokens in the middle at the start of a round (highest first)."""
    tokens = list(BLACK_TOKENS[seats])
    return tokens[:-1] if competitive else tokens


def round_decks(options: dict) -> list[str]:
    decks = options.get("decks")
    if not isinstance(decks, (list, tuple)) or len(decks) != ROUNDS or any(d not in DECKS for d in decks):
        raise BadOptions("Pictomania needs {count} word decks, one per round.", count=ROUNDS)
    return list(decks)


def content(options: dict, seats: int) -> dict:
    """The word cards of every deck the rounds use, in the room's language: {deck: [cards]}."""
    from engine.games import pictomania_words

    decks = round_decks(options)
    language = options.get("language") or "en"
    try:
        cards = {deck: pictomania_words.deck(deck, language) for deck in dict.fromkeys(decks)}
    except ValueError as exc:
        raise BadOptions("The word decks for this language could not be read.") from exc
    for deck, deck_cards in cards.items():
        need = len(SLOTS) * decks.count(deck)
        if len(deck_cards) < need:
            raise BadOptions(
                "The {deck} deck has {count} cards in this language; {rounds} rounds need {need}. Choose other decks.",
                deck=deck,
                count=len(deck_cards),
                rounds=decks.count(deck),
                need=need,
            )
    return cards


def setup(seats: int, options: dict, seed: int, cards: dict) -> dict:
    if not isinstance(cards, dict):
        raise BadOptions("Pictomania's content is {deck: [word cards]}; load it with content()")
    decks = round_decks(options)
    state: dict = {
        "game": "pictomania",
        "rules_version": RULES_VERSION,
        "options": {**options, "decks": decks},
        "players": seats,
        "rng": rng.new(seed),
        "phase": "words",
        "round": 0,
        "out": [],
        "scores": [0] * seats,
        "history": [],
        "piles": {},
        "discarded": [],
    }
    for deck in dict.fromkeys(decks):
        # A pile holds each card as its JSON text: the state is copied on every move, and a list of
        # strings copies in one step where a list of 34 card dicts would not.
        pile = sorted(
            json.dumps({"id": c["id"], "theme": c["theme"], "words": list(c["words"])}, ensure_ascii=False)
            for c in cards[deck]
        )
        rng.draw(state).shuffle(pile)
        state["piles"][deck] = pile
    _start_round(state)
    return state


def _start_round(state: dict) -> None:
    state["round"] += 1
    deck = round_decks(state["options"])[state["round"] - 1]
    state.update(
        deck=deck,
        cards={slot: _draw_card(state, deck) for slot in SLOTS},
        phase="words",
        ready=[],
        replaced=None,
        assignments={},
        drawings={},
        guesses=[],
        finished={},
        wrong_word=[],
        black_supply=[],
    )


def _draw_card(state: dict, deck: str) -> dict:
    return json.loads(state["piles"][deck].pop(0))


# ---- who does what now -------------------------------------------------------------------------


def _active(state: dict) -> list[int]:
    return [s for s in range(state["players"]) if s not in state["out"]]


def participants(state: dict) -> list[int]:
    """The seats playing the current round (dealt a letter and number); before the deal, the active ones."""
    if state["phase"] == "draw":
        return sorted(int(s) for s in state["assignments"])
    return _active(state)


def waiting_for(state: dict) -> list[int]:
    if state["phase"] == "words":
        return [s for s in _active(state) if s not in state["ready"]]
    if state["phase"] == "draw":
        return [s for s in participants(state) if str(s) not in state["finished"]]
    return []


def _spare_cards(state: dict) -> int:
    """Cards of this round's deck a replacement may use: later rounds' cards are kept back."""
    decks = round_decks(state["options"])
    later = decks[state["round"] :].count(state["deck"])
    return len(state["piles"][state["deck"]]) - len(SLOTS) * later


def _frozen(state: dict, seat: int) -> bool:
    return (
        str(seat) in state["finished"]
        or seat in state["wrong_word"]
        or any(g["guesser"] == seat for g in state["guesses"])
    )


def _numbers_left(state: dict, seat: int) -> list[int]:
    """The number cards this seat may still play: not its own, not one lying on a drawing."""
    own = state["assignments"][str(seat)]["number"]
    used = {g["number"] for g in state["guesses"] if g["guesser"] == seat and g["drawer"] not in state["wrong_word"]}
    return [n for n in NUMBERS if n != own and n not in used]


def _guessable(state: dict, seat: int) -> list[int]:
    done = {g["drawer"] for g in state["guesses"] if g["guesser"] == seat}
    return [d for d in participants(state) if d != seat and d not in done and d not in state["wrong_word"]]


def legal(state: dict, seat: int) -> list[dict]:
    phase = state["phase"]
    if phase == "words":
        if seat not in _active(state):
            return []
        moves = [{"type": "ready", "seat": seat}] if seat in waiting_for(state) else []
        if _spare_cards(state) > 0:
            moves += [{"type": "replace", "seat": seat, "slot": slot} for slot in SLOTS]
        return moves
    if phase != "draw" or seat not in participants(state):
        return []
    admit = [] if seat in state["wrong_word"] else [{"type": "wrong_word", "seat": seat}]
    if str(seat) in state["finished"]:
        return admit
    moves = []
    if not _frozen(state, seat):
        moves.append({"type": "stroke", "seat": seat, "points": None, "width": DEFAULT_WIDTH, "color": DEFAULT_COLOR})
        if state["drawings"][str(seat)]:
            moves += [{"type": "undo", "seat": seat}, {"type": "clear", "seat": seat}]
    numbers = _numbers_left(state, seat)
    moves += [
        {"type": "guess", "seat": seat, "drawer": d, "number": n} for d in _guessable(state, seat) for n in numbers
    ]
    moves += [{"type": "finish", "seat": seat, "token": t} for t in sorted(set(state["black_supply"]), reverse=True)]
    moves.append({"type": "finish", "seat": seat, "token": None})
    return moves + admit


# ---- moves -------------------------------------------------------------------------------------


def _replace(state: dict, move: dict) -> None:
    if _spare_cards(state) <= 0:
        raise IllegalMove("The {deck} deck has no card left to replace it with.", deck=state["deck"])
    slot = move["slot"]
    state["discarded"].append(state["cards"][slot]["id"])
    state["cards"][slot] = _draw_card(state, state["deck"])
    state["ready"] = []  # everyone reads the new card: the phones say who replaced which
    state["replaced"] = {"slot": slot, "seat": move["seat"]}


def _ready(state: dict, move: dict) -> None:
    state["ready"].append(move["seat"])
    if not waiting_for(state):
        _deal(state)


def _deal(state: dict) -> None:
    seats = _active(state)
    letters, numbers = list(LETTER_CARDS), list(NUMBERS)
    rng.draw(state).shuffle(letters)
    rng.draw(state).shuffle(numbers)
    state["assignments"] = {str(s): {"letter": letters[i], "number": numbers[i]} for i, s in enumerate(seats)}
    state["drawings"] = {str(s): [] for s in seats}
    state["black_supply"] = black_tokens(len(seats), bool(state["options"].get("competitive")))
    state["phase"] = "draw"


def _drawing(state: dict, seat: int, kind: str) -> list:
    if _frozen(state, seat):
        if seat in state["wrong_word"]:
            raise IllegalMove("You said you drew the wrong word: your drawing can no longer change.")
        raise IllegalMove("You have already guessed: your drawing can no longer change.")
    drawing = state["drawings"][str(seat)]
    if kind != "stroke" and not drawing:
        raise IllegalMove("Your drawing is empty.")
    return drawing


def _stroke(state: dict, move: dict) -> None:
    seat = move["seat"]
    drawing = _drawing(state, seat, "stroke")
    if len(drawing) >= MAX_STROKES:
        raise IllegalMove("A drawing holds at most {most} strokes: undo or clear some.", most=MAX_STROKES)
    if sum(len(s["points"]) for s in drawing) + len(move["points"]) > MAX_DRAWING_POINTS:
        raise IllegalMove("A drawing holds at most {most} points: undo or clear some.", most=MAX_DRAWING_POINTS)
    stroke = {"points": move["points"], "width": move["width"], "color": move["color"]}
    if move.get("t") is not None:
        stroke["t"] = move["t"]
    drawing.append(stroke)


class Points(Field):
    """A stroke's points: [[x, y], ...] inside the canvas, stored as whole numbers."""

    def sample(self, rnd):
        x, y = rnd.randint(0, CANVAS_WIDTH), rnd.randint(0, CANVAS_HEIGHT)
        points = []
        for _ in range(rnd.randint(1, 12)):
            points.append([x, y])
            x = min(CANVAS_WIDTH, max(0, x + rnd.randint(-60, 60)))
            y = min(CANVAS_HEIGHT, max(0, y + rnd.randint(-60, 60)))
        return points

    def check(self, value, state, name):
        if not isinstance(value, list) or not value or len(value) > MAX_STROKE_POINTS:
            if isinstance(value, list) and len(value) > MAX_STROKE_POINTS:
                raise IllegalMove("A stroke has at most {most} points.", field=name, most=MAX_STROKE_POINTS)
            raise UnknownMove(field=name)
        clean = []
        for point in value:
            if (
                not isinstance(point, (list, tuple))
                or len(point) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)
            ):
                raise UnknownMove(field=name)
            x, y = (round(v) if math.isfinite(v) else -1 for v in point)
            if not (0 <= x <= CANVAS_WIDTH and 0 <= y <= CANVAS_HEIGHT):
                raise IllegalMove("That stroke goes off the drawing sheet.", field=name)
            clean.append([x, y])
        return clean


class Colour(Field):
    """'#rrggbb' (stored lower case) or 'eraser'."""

    def check(self, value, state, name):
        if value == ERASER:
            return ERASER
        if not (isinstance(value, str) and _COLOR.fullmatch(value)):
            raise UnknownMove(field=name)
        return value.lower()


def _undo(state: dict, move: dict) -> None:
    _drawing(state, move["seat"], "undo").pop()


def _clear(state: dict, move: dict) -> None:
    _drawing(state, move["seat"], "clear").clear()


def _guess(state: dict, move: dict) -> None:
    seat, drawer, number = move["seat"], move["drawer"], move["number"]
    if drawer not in participants(state):
        raise IllegalMove("That player is not drawing this round.")
    if drawer == seat:
        raise IllegalMove("You cannot guess on your own drawing.")
    if drawer in state["wrong_word"]:
        raise IllegalMove("That player drew the wrong word: their drawing takes no guesses.")
    if any(g["guesser"] == seat and g["drawer"] == drawer for g in state["guesses"]):
        raise AlreadyMoved("You have already guessed on that drawing, and a guess cannot be taken back.")
    if number == state["assignments"][str(seat)]["number"]:
        raise IllegalMove("You cannot play your own number.")
    if number not in _numbers_left(state, seat):
        raise IllegalMove("Your number card {number} is already on another drawing this round.", number=number)
    order = len(state["guesses"]) + 1  # arrival order over the whole round; guesses are never removed
    state["guesses"].append({"guesser": seat, "drawer": drawer, "number": number, "order": order})


def _finish(state: dict, move: dict) -> None:
    seat, token = move["seat"], move["token"]
    if token is not None:
        if token not in state["black_supply"]:
            raise IllegalMove("That black token has already been taken.")
        state["black_supply"].remove(token)
    state["finished"][str(seat)] = token
    _end_round_if_over(state)


def _wrong_word(state: dict, move: dict) -> None:
    state["wrong_word"].append(move["seat"])


def _finished(state: dict, seat: int) -> bool:
    return str(seat) in state.get("finished", {})


def _drawing_move(kind, apply, fields=None) -> Move:
    """Moves of the drawing phase: refused once the player has finished the round."""
    return Move(
        kind,
        ("draw",),
        apply,
        fields or {},
        done=_finished,
        done_message="You have finished this round: you can no longer draw or guess.",
        not_now="Drawing starts when everyone has read the words.",
    )


MOVES = (
    Move(
        "replace",
        ("words",),
        _replace,
        {"slot": OneOf(SLOTS)},
        waits=False,
        not_now="Cards can be replaced only before the drawing starts.",
    ),
    Move(
        "ready",
        ("words",),
        _ready,
        done=lambda state, seat: seat in state["ready"],
        done_message="You are already marked ready.",
        not_now="The drawing has already started.",
    ),
    _drawing_move(
        "stroke",
        _stroke,
        {
            "points": Points(),
            "width": Number(WIDTH_MIN, WIDTH_MAX),
            "color": Colour(),
            "t": Maybe(Whole(0, MAX_STROKE_TIME)),
        },
    ),
    _drawing_move("undo", _undo),
    _drawing_move("clear", _clear),
    _drawing_move("guess", _guess, {"drawer": SeatNo(), "number": Whole(1, len(NUMBERS))}),
    _drawing_move("finish", _finish, {"token": Maybe(Whole(1, 9))}),
    Move(
        "wrong_word",
        ("draw",),
        _wrong_word,
        waits=False,
        done=lambda state, seat: seat in state["wrong_word"],
        done_message="You have already said you drew the wrong word.",
        not_now="That can be said only while drawing.",
    ),
)


def _skip(state: dict, target: int) -> None:
    if state["phase"] == "words":
        state["ready"].append(target)
        if not waiting_for(state):
            _deal(state)
        return
    state["finished"][str(target)] = None
    _end_round_if_over(state)


def _kick(state: dict, target: int) -> None:
    if state["phase"] != "words":
        raise IllegalMove(
            "A player cannot leave in the middle of a round: skip them now (they finish without "
            "a black token) and remove them before the next round."
        )
    if len(_active(state)) <= 3:
        raise IllegalMove("Pictomania needs three players: end the game instead.")
    state["out"].append(target)
    if target in state["ready"]:
        state["ready"].remove(target)
    if not waiting_for(state):
        _deal(state)


# ---- scoring -----------------------------------------------------------------------------------


def _end_round_if_over(state: dict) -> None:
    everyone = not waiting_for(state)
    last_token = bool(state["options"].get("competitive")) and not state["black_supply"]
    if everyone or last_token:
        _score_round(state)


def round_scores(record: dict) -> dict:
    """The scoring breakdown of one round, from what is in its record alone (RULES.md §3).

    Returns {"scores": {seat: points}, "black_sheep": seat | None, "tokens": {seat: {...}}} over the
    seats in `assignments`.
    """
    seats = sorted(int(s) for s in record["assignments"])
    table = SCORING_TOKENS[len(seats)]
    number = {int(s): a["number"] for s, a in record["assignments"].items()}
    void = set(record["wrong_word"])
    tokens = {
        s: {
            "received": [],
            "unclaimed": [],
            "errors": 0,
            "black": record["black_tokens"].get(str(s)),
            "black_counts": 0,
        }
        for s in seats
    }
    correct = {s: 0 for s in seats}
    for guess in sorted(record["guesses"], key=lambda g: g["order"]):
        drawer, guesser = guess["drawer"], guess["guesser"]
        if drawer in void:
            continue
        if guess["number"] == number[drawer]:
            tokens[guesser]["received"].append({"from": drawer, "value": table[correct[drawer]]})
            correct[drawer] += 1
        else:
            tokens[guesser]["errors"] += 1
    most = max(t["errors"] for t in tokens.values())
    worst = [s for s in seats if tokens[s]["errors"] == most]
    black_sheep = worst[0] if most > 0 and len(worst) == 1 else None
    scores = {}
    for s in seats:
        mine = tokens[s]
        mine["unclaimed"] = list(table) if s in void else list(table[correct[s] :])
        black = mine["black"] or 0
        if s in void:
            black = 0
        elif s == black_sheep:
            black = -black
        elif correct[s] == 0:
            black = 0
        mine["black_counts"] = black
        scores[str(s)] = sum(t["value"] for t in mine["received"]) + black - sum(mine["unclaimed"])
    return {"scores": scores, "black_sheep": black_sheep, "tokens": {str(s): t for s, t in tokens.items()}}


def _score_round(state: dict) -> None:
    seats = participants(state)
    record = {
        "round": state["round"],
        "deck": state["deck"],
        "cards": {slot: list(card["words"]) for slot, card in state["cards"].items()},
        "card_ids": {slot: card["id"] for slot, card in state["cards"].items()},
        "themes": {slot: card["theme"] for slot, card in state["cards"].items()},
        "assignments": state["assignments"],
        "guesses": state["guesses"],
        "black_tokens": {str(s): state["finished"].get(str(s)) for s in seats},
        "wrong_word": sorted(state["wrong_word"]),
        "drawings": state["drawings"],
    }
    result = round_scores(record)
    record["scores"] = {str(s): result["scores"].get(str(s), 0) for s in range(state["players"])}
    record["black_sheep"], record["tokens"] = result["black_sheep"], result["tokens"]
    for seat, points in record["scores"].items():
        state["scores"][int(seat)] += points
    state["history"].append(record)
    state["discarded"] += [card["id"] for card in state["cards"].values()]
    if state["round"] >= ROUNDS:
        state.update(
            phase="end", ready=[], assignments={}, drawings={}, guesses=[], finished={}, wrong_word=[], black_supply=[]
        )
        return
    _start_round(state)


# ---- views -------------------------------------------------------------------------------------


def view(state: dict, viewer) -> dict:
    phase = state["phase"]
    drawing = phase == "draw"
    seats = participants(state) if drawing else []
    public = {
        "round": state["round"],
        "rounds": ROUNDS,
        "deck": state["deck"],
        "cards": {
            slot: {"id": c["id"], "theme": c["theme"], "words": list(c["words"])} for slot, c in state["cards"].items()
        },
        "can_replace": phase == "words" and _spare_cards(state) > 0,
        "replaced": state.get("replaced") if phase == "words" else None,
        "ready": sorted(state["ready"]),
        "participants": seats,
        "drawings": state["drawings"],
        "frozen": [s for s in seats if _frozen(state, s)],
        # Guess cards lie face down: who guessed on which drawing, and when, is public; the number is not.
        "guesses": [{"guesser": g["guesser"], "drawer": g["drawer"], "order": g["order"]} for g in state["guesses"]],
        "finished": dict(state["finished"]),
        "black_supply": list(state["black_supply"]),
        "wrong_word": sorted(state["wrong_word"]),
        "scoring_tokens": list(SCORING_TOKENS[len(seats)]) if seats else [],
        "history": state["history"],
        "last_round": state["history"][-1] if state["history"] else None,
        "canvas": {"width": CANVAS_WIDTH, "height": CANVAS_HEIGHT},
    }
    if viewer == SHARED:
        return public
    if viewer == REVEALED:
        secret = {k: v for k, v in state.items() if k not in ("rng", "piles")}
        return {**public, **secret, "rng": None}
    seat = int(viewer)
    mine: dict[str, Any] = {
        "seat": seat,
        "letter": None,
        "number": None,
        "word": None,
        "my_guesses": [],
        "numbers_left": [],
        "can_guess_on": [],
    }
    assignment = state["assignments"].get(str(seat)) if drawing else None
    if assignment:
        mine.update(
            letter=assignment["letter"],
            number=assignment["number"],
            word=state["cards"][assignment["letter"]]["words"][assignment["number"] - 1],
            my_guesses=[
                {"drawer": g["drawer"], "number": g["number"], "order": g["order"]}
                for g in state["guesses"]
                if g["guesser"] == seat
            ],
            numbers_left=_numbers_left(state, seat),
            can_guess_on=[] if str(seat) in state["finished"] else _guessable(state, seat),
        )
    return {**public, **mine}


def outcome(state: dict) -> dict | None:
    return scores_outcome(state)


def secrets(state: dict, seat: int) -> set:
    """A seat's letter and number are not strings of their own (the word is one of the 21 on the
    table), so nothing is searchable by value: the counterfactual below checks them."""
    return set()


def alternative(state: dict, seat: int, rnd) -> dict | None:
    """The same moment with another letter and number for this seat (its guesses renumbered to
    match, so they stay legal): nobody else's view may change."""
    if state["phase"] != "draw" or str(seat) not in state["assignments"]:
        return None
    other = json.loads(json.dumps(state))
    mine = other["assignments"][str(seat)]
    taken = {a["number"] for a in other["assignments"].values()}
    new = rnd.choice([n for n in NUMBERS if n not in taken])
    old = mine["number"]
    for guess in other["guesses"]:
        if guess["guesser"] == seat and guess["number"] == new:
            guess["number"] = old
    mine["number"] = new
    mine["letter"] = rnd.choice([slot for slot in SLOTS if slot != mine["letter"]])
    return other


def _keepsake(prefix: str, turn: dict, names: dict) -> dict[str, bytes]:
    from engine.pictures import pictomania_keepsake  # drawing pictures is no business of the rules

    return pictomania_keepsake.round_files(prefix, turn, names)


GAME = Game(
    name="pictomania",
    title="Pictomania",
    min_players=3,
    max_players=6,
    rules_version=RULES_VERSION,
    options={
        "competitive": Flag(default=False),
        "decks": Many(OneOf(DECKS), ROUNDS, ROUNDS, distinct=False, default=list(DECKS)),
    },
    **rules(globals()),
    turn_word="round",
    host=Host(skippable=waiting_for, skip=_skip, kick=_kick),
    audience=pictomania_audience.audience(NUMBERS),
    # One deadline for drawing and guessing together; a scored round holds the wall while every
    # drawing replays (8 s) and the answers are read, before the next words' deadline starts.
    clock=Clock({"words": (45, 30), "draw": (150, 90)}, reveal=REVEAL),
    timed={"stroke": "draw"},
    variants=({"competitive": False}, {"competitive": True}),
    demo=Demo(
        tables=(
            ({"competitive": False, "decks": ["green", "yellow", "orange", "red"]}, 4, 6),
            ({"competitive": True, "decks": ["green", "green", "yellow", "orange"]}, 3, 5),
        ),
        simulate=pictomania_play.simulate,
    ),
    family="pictomania",
    content=Content(
        cards=content,
        keepsake=_keepsake,
        constants={
            "scoring_tokens": SCORING_TOKENS,
            "black_tokens": BLACK_TOKENS,
            "decks": DECKS,
            "canvas": (CANVAS_WIDTH, CANVAS_HEIGHT),
            "eraser": ERASER,
            "palette": PALETTE,
            "stroke_points": MAX_STROKE_POINTS,
            "width": (WIDTH_MIN, WIDTH_MAX),
        },
    ),
)
