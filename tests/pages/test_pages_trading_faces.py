"""Trading Faces' screens, both variants, in every phase: passing, a face being guessed, the reveal,
the end, and memory's peek and decide. The pages mount the stage, whose screens are read as their
socket draws them (tests/stage_text.py), and taps are played as a phone's socket plays them. A phone
shows its own hand and nobody else's; while a face is guessed its emotion is on the face-maker's
phone only; in memory the lifted card is on the left neighbour's phone only, and what a screen
sends is checked whole (picture addresses, card values), not only its text. Refusals read as
messages for players."""

from __future__ import annotations

import html
import itertools
import json
import re
import time
from collections import Counter

import pytest

from engine import tables
from engine.games.trading_faces import DEAL, EMOTIONS, GAME
from pages.games.trading_faces import screens as stage
from pages.stage.serve import SERVE, Viewer
from tests import stage_text
from tests.helpers import past_the_reveal, submit
from tests.pages.test_pages import mounted, run

NAMES = ["Ana", "Bo", "Cy", "Di"]

# Two phones share a seat (the audience issue): the second phone's refused move is a note.
OTHER_PHONE = "Your seat's other phone played first: here is what it played."


def word(emotion: str) -> str:
    return emotion.replace("_", " ")


def label(emotion: str) -> str:
    """As on the card: the rulebook's number, then the word ("6 · happy")."""
    return f"{EMOTIONS.index(emotion) + 1} · {word(emotion)}"


# ---- what a screen shows -----------------------------------------------------------------------


def read(markup: str) -> str:
    """What a reader of the screen sees or hears, on one line."""
    return " ".join(stage_text.text(markup).split())


def screen(r, s=None) -> str:
    """The HTML the socket sends to the wall (no seat) or to a seat's phone."""
    return stage_text.screen(r.code, "en", None if s is None else s.token)


def screens(r, seats) -> dict:
    """Every screen of the room: the wall, then each phone."""
    found = {"wall": screen(r)}
    for s in seats:
        found[s.seat] = screen(r, s)
    return found


def _attr(body: str, name: str):
    found = re.search(rf'\s{name}="([^"]*)"', body)
    return None if found is None else html.unescape(found.group(1))


def cards(markup: str) -> list[dict]:
    """The cards of the screen's card grids, in order: the value a tap sends, the classes (glow,
    off), the label a reader hears, the caption under it and its picture."""
    found = []
    for head, body in re.findall(r'<figure data-testid="card"([^>]*)>(.*?)</figure>', markup, re.S):
        caption = re.search(r"<figcaption>(.*?)</figcaption>", body, re.S)
        found.append(
            {
                "value": json.loads(_attr(head, "data-value")),
                "class": set((_attr(head, "class") or "").split()),
                "label": _attr(body, "aria-label") or _attr(body, "alt"),
                "caption": html.unescape(caption.group(1)) if caption else None,
                "src": _attr(body, "src"),
                "off": "off" in (_attr(head, "class") or "").split(),
            }
        )
    return found


def grids(markup: str) -> list[dict]:
    """The screen's card grids: how many cards a tap picks (0: none, the cards are only shown) and
    the grid's nonce (a fresh pick has a fresh one)."""
    return [
        {"pick": int(_attr(head, "data-pick")), "nonce": _attr(head, "data-nonce")}
        for head in re.findall(r'<div class="sm-cards([^>]*)>', markup)
    ]


def confirm(markup: str) -> dict | None:
    """The button under a picking grid: its move, its labels by the count picked, disabled or not."""
    found = re.search(r'<button([^>]*data-testid="confirm-pick"[^>]*)>(.*?)</button>', markup, re.S)
    if found is None:
        return None
    head = found.group(1)
    return {
        "text": html.unescape(found.group(2)).strip(),
        "disabled": bool(re.search(r"\sdisabled(\s|$)", head)),
        "move": json.loads(_attr(head, "data-move")),
        "labels": json.loads(_attr(head, "data-labels")),
    }


def acts(markup: str) -> list[tuple[str, dict]]:
    """The plain buttons: their text and the move each sends."""
    return [
        (html.unescape(text).strip(), json.loads(_attr(head, "data-move")))
        for head, text in re.findall(r'<button([^>]*class="sm-act[^>]*)>(.*?)</button>', markup, re.S)
    ]


def headings(markup: str) -> list[str]:
    return [" ".join(stage_text.text(h).split()) for h in re.findall(r"<h2[^>]*>(.*?)</h2>", markup, re.S)]


def order(markup: str) -> list[tuple[str, set[str]]]:
    """The guessing order as shown: each name (with its guess once made) and its classes."""
    found = re.search(r'<ul class="tf-order">(.*?)</ul>', markup, re.S)
    assert found, "no guessing order"
    return [
        (" ".join(stage_text.text(text).split()), set(classes.split()))
        for classes, text in re.findall(r'<li class="([^"]*)">(.*?)</li>', found.group(1), re.S)
    ]


# An emotion as a whole word: its id (in a picture's address, /pictures/trading_faces/in_love.svg, or a
# card's value) or its word. A token's or a hash's characters around it do not count, so random
# strings never match.
_AROUND = r"[A-Za-z0-9_\-]"
FOUND = {e: re.compile(rf"(?<!{_AROUND})({re.escape(e)}|{re.escape(word(e))})(?!{_AROUND})") for e in EMOTIONS}


def emotions_on(markup: str) -> set[str]:
    """Every emotion all the screen sends names, not only its text: picture addresses, card values,
    labels."""
    sent = html.unescape(markup)
    return {e for e, pattern in FOUND.items() if pattern.search(sent)}


def comparable(markup: str, code: str) -> str:
    """The screen with what only differs between two rooms taken out: the code (and the join link
    made of it)."""
    return markup.replace(code, "CODE")


# ---- taps --------------------------------------------------------------------------------------

_ids = itertools.count()


def tap(r, s, move: dict, at: int | None = None) -> dict:
    """A tap on a seat's phone, as its socket plays it (`at`: the version the phone showed)."""
    who = tables.stage_who(r.code, s.token, None)
    return SERVE.move(r.code, Viewer(who, s.token, "en", s.seat), f"m{next(_ids)}", move, at)


def played(answer: dict) -> None:
    assert "ack" in answer, answer


def tap_after_the_other_phone(r, s, move: dict, first: dict) -> dict:
    """The seat's phone shows its screen; a moment later the seat's other phone plays `first`;
    then this phone's tap arrives, made on the screen it showed."""
    shown_at = tables.version(r.code)
    screen(r, s)  # drawn for this phone: its socket notes when
    time.sleep(0.005)  # the other phone plays after it (moves are timed to the millisecond)
    submit(r.code, s.seat, s.token, first)
    return tap(r, s, move, at=shown_at)


# ---- rooms -------------------------------------------------------------------------------------


def new_room(players: int, seed: int, variant: str = "classic"):
    r = tables.create_room("trading_faces", options={"variant": variant}, seed=seed, language="en")
    seats = [tables.join(r.code, n) for n in NAMES[:players]]
    tables.start(r.code, r.host_token)
    return r, seats


def state(r) -> dict:
    return tables.state_of(r.code)


def dealt_sets(players: int, seed: int) -> list[list[str]]:
    hands = GAME.setup(players, GAME.check_options({"variant": "classic"}), seed, None)["hands"]
    return [[e for e, n in Counter(hands[str(s)]).items() if n >= 3] for s in range(players)]


def seeds_with_one_set(players: int, maker: int, count: int = 2) -> list[int]:
    """Seeds whose deal gives seat `maker` exactly one set and nobody else any, each set of a
    different emotion: the same table with a different secret. Found by dealing seeds in order
    (a few hundred deals, well under a second)."""
    found, emotions = [], set()
    for seed in range(5000):
        sets = dealt_sets(players, seed)
        if len(sets[maker]) == 1 and sum(map(len, sets)) == 1 and sets[maker][0] not in emotions:
            found.append(seed)
            emotions.add(sets[maker][0])
            if len(found) == count:
                return found
    raise AssertionError("no such seeds")


def seed_without_sets(players: int) -> int:
    return next(seed for seed in range(5000) if not any(dealt_sets(players, seed)))


STOP = ("Stop! I have three of a kind", {"type": "stop"})


# ---- the pages mount the stage -----------------------------------------------------------------


def test_the_wall_and_the_phones_are_the_stages():
    r, seats = new_room(3, seed_without_sets(3))
    assert mounted(run("table", room=r.code, host=r.host_token))["kind"] == "wall"
    data = mounted(run("play", room=r.code, seat=1, token=seats[1].token))
    assert data["kind"] == "seat" and data["token"] == seats[1].token


# ---- classic: passing --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_passing_each_phone_shows_its_own_hand_and_nobody_elses(players):
    r, seats = new_room(players, seed_without_sets(players))
    names = NAMES[:players]
    hands = state(r)["hands"]

    markup = screen(r)
    page = read(markup)
    assert "Everyone passes one card to the left, face down" in page
    assert f"Waiting for: {', '.join(names)}" in page and "0 passes so far" in page
    assert emotions_on(markup) == set()  # nobody's card is on the wall
    for s in seats:
        markup = screen(r, s)
        hand = hands[str(s.seat)]
        assert emotions_on(markup) == set(hand), s.seat  # all of its own hand, nothing of the others'
        shown = cards(markup)
        assert [c["value"] for c in shown] == [e for e in EMOTIONS if e in hand]
        assert [c["label"] for c in shown] == [label(e) for e in EMOTIONS if e in hand]
        count = Counter(hand)
        assert [c["caption"] for c in shown] == [
            word(e) + (f" ×{count[e]}" if count[e] > 1 else "") for e in EMOTIONS if e in hand
        ]
        left = names[(s.seat + 1) % players]
        assert f"Choose a card to pass to {left}" in read(markup)
        assert grids(markup) == [{"pick": 1, "nonce": "pass-0"}]
        button = confirm(markup)
        assert button["disabled"] and button["labels"]["0"] == "Choose a card first"
        assert button["labels"]["1"] == f"Pass this card to {left}"
        assert button["move"] == {"type": "pass", "card": "$one"}
        assert STOP not in acts(markup)  # no set, no stop

    # Ana passes a card from her phone: the card leaves her hand, and only she sees where it went.
    given = sorted(hands["0"])[0]
    played(tap(r, seats[0], {"type": "pass", "card": given}))
    markup = screen(r, seats[0])
    page = read(markup)
    assert f"You passed {label(given)} to Bo. It arrives when everyone has chosen." in page
    assert f"Waiting for: {', '.join(names[1:])}" in page
    assert confirm(markup) is None and [g["pick"] for g in grids(markup)] == [0]  # her hand, shown only
    kept = list(hands["0"])
    kept.remove(given)
    assert emotions_on(markup) == set(kept) | {given}
    assert tables.view(r.code)["chosen"] == [0]
    page = read(screen(r))
    assert f"Waiting for: {', '.join(names[1:])}" in page and "Waiting for: Ana" not in page
    for s in seats[1:]:
        # Ana's card is not on its way to them yet
        assert emotions_on(screen(r, s)) == set(hands[str(s.seat)]), s.seat

    # The others choose (the last one on the phone): every card arrives at once.
    passed = {0: given}
    for s in seats[1:-1]:
        passed[s.seat] = hands[str(s.seat)][0]
        submit(r.code, s.seat, s.token, {"type": "pass", "card": passed[s.seat]})
    last = seats[-1]
    passed[last.seat] = hands[str(last.seat)][-1]
    played(tap(r, last, {"type": "pass", "card": passed[last.seat]}))
    page = read(screen(r))
    assert "1 pass so far" in page and f"Waiting for: {', '.join(names)}" in page
    hands = state(r)["hands"]
    for s in seats:
        arrived = passed[(s.seat - 1) % players]
        markup = screen(r, s)
        assert f"New from the right: {label(arrived)}" in read(markup)
        shown = cards(markup)
        assert [c["value"] for c in shown if "glow" in c["class"]] == [arrived]  # the new card stands out
        assert emotions_on(markup) == set(hands[str(s.seat)])
        assert [c["value"] for c in shown] == [e for e in EMOTIONS if e in hands[str(s.seat)]]
        assert grids(markup) == [{"pick": 1, "nonce": "pass-1"}]  # the next pass, picked afresh


def test_a_second_pass_from_the_seats_other_phone_is_a_note():
    r, seats = new_room(3, seed_without_sets(3))
    hands = state(r)["hands"]
    answer = tap_after_the_other_phone(
        r,
        seats[1],
        {"type": "pass", "card": hands["1"][0]},
        first={"type": "pass", "card": hands["1"][1]},  # from another phone
    )
    assert answer["message"] == OTHER_PHONE  # a note, not an error
    assert state(r)["passing"] == {"1": hands["1"][1]} and len(state(r)["hands"]["1"]) == len(hands["1"]) - 1


def test_a_stop_without_a_set_is_refused_in_words():
    r, seats = new_room(3, seed_without_sets(3))
    before = state(r)
    answer = tap(r, seats[0], {"type": "stop"})
    assert answer["message"] == "You need three cards of the same emotion to call stop."
    assert state(r) == before


# ---- classic: a face ---------------------------------------------------------------------------


def clockwise(players: int, seat: int) -> list[int]:
    return [(seat + k) % players for k in range(1, players)]


def rooms_with_a_face(players: int, maker: int):
    """Two rooms dealt alike but for the maker's set: the maker taps Stop! on the phone right
    after the deal. Returns [(room, seats, emotion)]."""
    made = []
    for seed in seeds_with_one_set(players, maker):
        r, seats = new_room(players, seed)
        assert STOP in acts(screen(r, seats[maker]))
        played(tap(r, seats[maker], {"type": "stop"}))
        emotion = state(r)["face"]["emotion"]
        made.append((r, seats, emotion))
    assert made[0][2] != made[1][2]
    return made


def guess_options(markup: str) -> set[str]:
    """The emotions a guesser's grid offers: every one not guessed yet, the secret among them."""
    if not any(g["nonce"].startswith("guess-") for g in grids(markup)):
        return set()
    return {c["value"] for c in cards(markup)}


def assert_only_the_maker_knows(faces, maker: int):
    """The two rooms' screens are the same, the maker's phone apart: nothing else on any screen
    depends on the face's emotion. And the emotion is on the maker's phone."""
    (ra, sa, ea), (rb, sb, eb) = faces
    pa, pb = screens(ra, sa), screens(rb, sb)
    for viewer in pa:
        same = comparable(pa[viewer], ra.code) == comparable(pb[viewer], rb.code)
        assert same == (viewer != maker), viewer
        if viewer != maker:
            for e in (ea, eb):
                assert e not in emotions_on(pa[viewer]) - guess_options(pa[viewer]), viewer
    assert ea in emotions_on(pa[maker]) and label(ea) in read(pa[maker])
    assert f"/pictures/trading_faces/{ea}.svg" in pa[maker]
    return pa


@pytest.mark.parametrize("players,maker", [(3, 0), (3, 2), (4, 1)])
def test_a_face_is_on_the_makers_phone_only_then_revealed(players, maker):
    faces = rooms_with_a_face(players, maker)
    names = NAMES[:players]
    guessers = clockwise(players, maker)
    first, second = guessers[0], guessers[1]
    pages = assert_only_the_maker_knows(faces, maker)

    page = read(pages[maker])
    assert "Make this face! No words, no hands." in page and f"{names[first]} guesses now." in page
    assert emotions_on(pages[maker]) == {faces[0][2]}  # the hand is put away while everyone guesses
    assert cards(pages[maker]) == []
    page = read(pages[first])
    assert f"Your guess: what is {names[maker]} feeling?" in page
    assert [c["value"] for c in cards(pages[first])] == list(EMOTIONS)
    button = confirm(pages[first])
    assert button["disabled"] and button["labels"]["0"] == "Choose an emotion first"
    assert button["move"] == {"type": "guess", "emotion": "$one"}
    for seat in guessers[1:]:
        page = read(pages[seat])
        assert f"{names[maker]} is making a face" in page and "Your cards stay hidden while everyone guesses." in page
        assert order(pages[seat]) == [(names[g], {"tf-now"} if g == first else set()) for g in guessers]
        assert not cards(pages[seat]) and confirm(pages[seat]) is None and "Make this face" not in page
        assert emotions_on(pages[seat]) == set()
    page = read(pages["wall"])
    assert f"{names[maker]} is making a face" in page
    assert f"{names[first]}, your guess: pick an emotion on your phone" in page
    assert emotions_on(pages["wall"]) == set()

    # The first guesser is wrong, in both rooms alike: the guess is public, the emotion still secret.
    wrong = next(e for e in EMOTIONS if e not in (faces[0][2], faces[1][2]))
    for r, seats, _ in faces:
        played(tap(r, seats[first], {"type": "guess", "emotion": wrong}))
    pages = assert_only_the_maker_knows(faces, maker)
    shown = order(pages["wall"])
    assert shown[0] == (f"{names[first]}: {word(wrong)}", {"tf-wrong"})
    assert shown[1] == (names[second], {"tf-now"})
    assert f"{names[second]}, your guess" in read(pages["wall"]) and emotions_on(pages["wall"]) == {wrong}
    assert f"Already wrong: {word(wrong)}" in read(pages[second])
    assert [c["value"] for c in cards(pages[second])] == [e for e in EMOTIONS if e != wrong]
    assert emotions_on(pages[first]) == {wrong}

    # Room A goes on: with 3 players the second guesser reads the face; with 4, nobody does.
    r, seats, emotion = faces[0]
    if players == 3:
        played(tap(r, seats[second], {"type": "guess", "emotion": emotion}))
        line = (
            f"{names[second]} read {names[maker]}'s face: {word(emotion)}. {names[second]} wins 1 card, "
            f"{names[maker]} wins 2."
        )
        scores = {maker: 2, second: 1}
    else:
        for seat in guessers[1:]:
            nope = next(
                e
                for e in EMOTIONS
                if e not in (emotion, wrong) and e not in [g["emotion"] for g in state(r)["face"]["guesses"]]
            )
            played(tap(r, seats[seat], {"type": "guess", "emotion": nope}))
        line = f"Nobody read {names[maker]}'s face: {word(emotion)}. {names[maker]} wins 1 card."
        scores = {maker: 1}
    view = tables.view(r.code)
    assert view["phase"] == "pass" and view["scores"] == [scores.get(s, 0) for s in range(players)]
    pages = screens(r, seats)  # the room holds the reveal: nothing of the pass yet
    assert line in read(pages["wall"]) and "Everyone passes" not in read(pages["wall"])
    assert not any(cards(pages[s.seat]) for s in seats)
    past_the_reveal(r.code)
    pages = screens(r, seats)
    page = read(pages["wall"])
    assert line in page and "Everyone passes one card to the left, face down" in page
    # The face once, revealed at the top (not again under "Faces made so far"); the scores are the
    # side panel's alone.
    revealed = re.search(
        r'<section class="tf-revealed" data-testid="face-revealed">(.*?)</section>', pages["wall"], re.S
    )
    assert (
        revealed and line in read(revealed.group(1)) and f"/pictures/trading_faces/{emotion}.svg" in revealed.group(1)
    )
    assert pages["wall"].count(f"/pictures/trading_faces/{emotion}.svg") == 1 and page.count(line) == 1
    assert "Faces made so far" not in page
    assert re.findall(r'<span class="sm-score">(\d+)</span>', pages["wall"]) == [str(n) for n in view["scores"]]
    hands = state(r)["hands"]
    guessed = {g["emotion"] for g in view["last"]["guesses"]}
    for s in seats:
        assert line in read(pages[s.seat]), s.seat
        own = set(hands[str(s.seat)]) | {emotion}  # its hand is back, and the face is public now
        assert own <= emotions_on(pages[s.seat]) <= own | guessed, s.seat
        assert [c["value"] for c in cards(pages[s.seat])] == [e for e in EMOTIONS if e in hands[str(s.seat)]]
    assert len(hands[str(maker)]) == DEAL[players] - 3 + 1  # the face-maker drew one card


def test_a_guess_from_the_seats_other_phone_is_a_note():
    (r, seats, emotion), _ = rooms_with_a_face(3, 0)
    wrong = next(e for e in EMOTIONS if e != emotion)
    answer = tap_after_the_other_phone(
        r,
        seats[1],
        {"type": "guess", "emotion": wrong},
        first={"type": "guess", "emotion": emotion},  # Bo, from another phone
    )
    assert answer["message"] == OTHER_PHONE  # a note, not an error
    assert state(r)["history"][-1]["guesses"] == [{"guesser": 1, "emotion": emotion}]


def test_a_stop_tapped_on_both_phones_of_a_seat_is_a_note():
    seed = seeds_with_one_set(3, 0, 1)[0]
    r, seats = new_room(3, seed)
    answer = tap_after_the_other_phone(r, seats[0], {"type": "stop"}, first={"type": "stop"})
    assert answer["message"] == OTHER_PHONE  # a note, not an error
    assert "Make this face! No words, no hands." in read(screen(r, seats[0]))


# ---- the end -----------------------------------------------------------------------------------


def test_the_host_ends_the_game_after_a_face():
    (r, seats, emotion), _ = rooms_with_a_face(3, 0)
    submit(r.code, 1, seats[1].token, {"type": "guess", "emotion": emotion})  # Ana 2, Bo 1, Cy 0
    tables.end(r.code, r.host_token)
    view = tables.view(r.code)
    assert view["phase"] == "end" and view["ended_by_host"] and view["scores"] == [2, 1, 0]
    markup = screen(r)
    page = read(markup)
    assert "The game is over" in page and "The host ended the game. 🏆 Ana wins with 2 points" in page
    assert "1 Ana 2 points 2 Bo 1 point 3 Cy 0 points" in page  # the podium
    assert emotions_on(markup) <= {emotion}  # nothing of the hands left
    for s, expected, place in zip(
        seats,
        ["🏆 You win!", "Game over", "Game over"],
        ["1st", "2nd", "3rd"],
        strict=True,
    ):
        markup = screen(r, s)
        assert headings(markup) == [expected], s.seat
        assert s.seat == 0 or "🏆 Ana wins with 2 points" in read(markup)
        count = view["scores"][s.seat]
        assert f"You won {count} card{'s' if count != 1 else ''}: {place} of 3." in read(markup)
        assert not cards(markup) and confirm(markup) is None and not acts(markup)
        assert emotions_on(markup) == {emotion}  # the won cards; no hand any more


def test_the_host_ends_the_game_while_a_face_is_guessed():
    (r, seats, emotion), _ = rooms_with_a_face(3, 0)
    tables.end(r.code, r.host_token)
    assert "The host ended the game. 🏆 Ana & Bo & Cy win with 0 points" in read(screen(r))
    for s in seats:
        markup = screen(r, s)
        assert headings(markup) == ["🏆 You win!"] and "You won 0 cards: tied 1st of 3." in read(markup)
        assert not cards(markup) and confirm(markup) is None


# ---- memory ------------------------------------------------------------------------------------


def shown_faces(markup: str) -> list[int]:
    """The memory grid's cells shown face up (a face's picture, not the back)."""
    return [c["value"] for c in cards(markup) if c["src"] and "/back.svg" not in c["src"]]


def test_memory_the_lifted_card_is_on_the_left_neighbours_phone_only():
    r, seats = new_room(3, seed=3, variant="memory")
    grid = state(r)["grid"]
    pages = screens(r, seats)
    page = read(pages["wall"])
    assert "Ana lifts a card: only Bo sees it" in page and "13 cards in the pile" in page
    for viewer, markup in pages.items():
        assert emotions_on(markup) == set(), viewer  # 26 cards face down
        assert shown_faces(markup) == [], viewer
    assert "Your turn: lift a card. Only Bo will see it." in read(pages[0])
    shown = cards(pages[0])
    assert [c["value"] for c in shown if not c["off"]] == list(range(26))
    assert [c["label"] for c in shown[:26]] == [f"Card {c + 1}" for c in range(26)]
    button = confirm(pages[0])
    assert button["disabled"] and button["move"] == {"type": "peek", "cell": "$one"}
    for seat in (1, 2):
        assert "Ana lifts a card: only Bo sees it" in read(pages[seat])
        assert [g["pick"] for g in grids(pages[seat])] == [0] and confirm(pages[seat]) is None

    # Ana lifts card 5 on her phone: Bo makes its face, and nobody else sees it.
    played(tap(r, seats[0], {"type": "peek", "cell": 4}))
    lifted = grid[4]
    pages = screens(r, seats)
    page = read(pages[1])
    assert "Make this face for Ana! No words, no hands." in page
    assert label(lifted) in page and emotions_on(pages[1]) == {lifted}
    assert "Watch Bo: what is on card 5?" in read(pages[0])
    assert [c["value"] for c in cards(pages[0]) if not c["off"]] == [c for c in range(26) if c != 4]
    assert confirm(pages[0])["move"] == {"type": "flip", "cell": "$one"}
    assert ("End my turn without flipping", {"type": "end_turn"}) in acts(pages[0])
    for viewer in ("wall", 0, 2):
        page = read(pages[viewer])
        assert "Make this face for" not in page and emotions_on(pages[viewer]) == set(), viewer
        if viewer != 0:
            assert "Bo makes the face of the card Ana lifted" in page
    assert [c["value"] for c in cards(pages["wall"]) if "glow" in c["class"]] == [4]  # the lifted card

    # She flips a card that does not match: both are shown to all, Bo and Cy each take one from the pile.
    other = next(c for c in range(26) if grid[c] != lifted)
    played(tap(r, seats[0], {"type": "flip", "cell": other}))
    s = state(r)
    won = {seat: s["won"][str(seat)] for seat in range(3)}
    assert s["scores"] == [0, 1, 1] and s["active"] == 1
    assert "Bo lifts a card" not in read(screen(r))  # the room holds the reveal first
    past_the_reveal(r.code)
    pages = screens(r, seats)
    public = {lifted, grid[other]} | set(won[1]) | set(won[2])
    page = read(pages["wall"])
    assert f"Ana flipped {word(lifted)} and {word(grid[other])}: no pair. The others take a card from the pile." in page
    assert "Bo lifts a card: only Cy sees it" in page and sorted(shown_faces(pages["wall"])) == sorted([4, other])
    for viewer, markup in pages.items():
        assert emotions_on(markup) <= public, viewer

    # Bo lifts a card none of them has seen: only Cy sees it. Then he ends his turn.
    cell = next(c for c in range(26) if grid[c] not in public)
    submit(r.code, 1, seats[1].token, {"type": "peek", "cell": cell})
    pages = screens(r, seats)
    assert "Make this face for Bo! No words, no hands." in read(pages[2]) and grid[cell] in emotions_on(pages[2])
    for viewer in ("wall", 0, 1):
        assert "Make this face for" not in read(pages[viewer]), viewer
        assert grid[cell] not in emotions_on(pages[viewer]), viewer
    assert ("End my turn without flipping", {"type": "end_turn"}) in acts(pages[1])
    played(tap(r, seats[1], {"type": "end_turn"}))
    assert state(r)["active"] == 2 and state(r)["phase"] == "peek"
    past_the_reveal(r.code)
    assert "Cy lifts a card: only Ana sees it" in read(screen(r))
    assert "Make this face for" not in read(screen(r, seats[2]))

    # Cy finds a pair, then the host ends the game.
    first = next(c for c in range(26) if c not in (4, other))
    second = next(c for c in range(26) if c != first and grid[c] == grid[first])
    submit(r.code, 2, seats[2].token, {"type": "peek", "cell": first})
    submit(r.code, 2, seats[2].token, {"type": "flip", "cell": second})
    assert f"Cy found a pair: {word(grid[first])}!" in read(screen(r))
    tables.end(r.code, r.host_token)
    assert state(r)["scores"] == [0, 1, 3]  # Cy: a card from the pile, then the pair
    assert "The host ended the game. 🏆 Cy wins with 3 points" in read(screen(r))
    assert headings(screen(r, seats[2])) == ["🏆 You win!"]
    assert "You won 1 card: 2nd of 3." in read(screen(r, seats[1]))
    assert "You won 0 cards: 3rd of 3." in read(screen(r, seats[0]))


def test_the_wall_shows_who_has_passed_and_who_called_stop_and_the_scores_once():
    r, seats = new_room(3, seed_without_sets(3))
    submit(r.code, 1, seats[1].token, {"type": "pass", "card": state(r)["hands"]["1"][0]})
    markup = screen(r)
    page = read(markup)
    assert "Cards passed this round" in page
    assert "✔️ Bo" in page and "⏳ Ana" in page and "⏳ Cy" in page and "✔️ Ana" not in page
    main = re.search(r'<main class="sm-main"[^>]*>(.*?)</main>', markup, re.S).group(1)
    assert "sm-score" not in main and "point" not in read(main)  # the scores are the side panel's only
    assert re.findall(r'<span class="sm-score">(\d+)</span>', markup) == ["0", "0", "0"]
    # Who called Stop, in the order they make their faces (from a view: two sets at once are rare).
    view = {**tables.view(r.code), "queue": [2, 0]}
    assert "✋ Stop! called by Cy, Ana: their faces come next, in this order." in read(stage.wall(view, "en"))
    assert "Stop! called by" not in read(stage.wall({**view, "queue": []}, "en"))


def test_a_makers_two_faces_are_revealed_one_after_the_other():
    """The maker holds two sets: each face made gets its own reveal, the second after the first."""
    seed = next(s for s in range(20000) if len(dealt_sets(3, s)[0]) == 2 and not any(dealt_sets(3, s)[1:]))
    r, seats = new_room(3, seed)
    played(tap(r, seats[0], {"type": "stop"}))
    for n in (1, 2):
        face = state(r)["face"]
        guesser, emotion = face["guessers"][face["turn"]], face["emotion"]
        played(tap(r, seats[guesser], {"type": "guess", "emotion": emotion}))
        wall = screen(r)
        assert 'data-scene="reveal"' in wall, n
        assert f"{NAMES[guesser]} read Ana's face: {word(emotion)}." in read(wall), n
        assert "✅ You read it!" in read(screen(r, seats[guesser])), n
        assert f"{NAMES[guesser]} read your face!" in read(screen(r, seats[0])), n
        if n == 1:  # the second face is the engine's already, on no screen: its guess waits
            after = state(r)["face"]
            answer = tap(r, seats[after["guessers"][after["turn"]]], {"type": "guess", "emotion": after["emotion"]})
            assert answer.get("message") == "Everyone is watching the reveal: the game goes on when it ends."
            assert state(r)["face"]["guesses"] == []
            assert word(after["emotion"]) not in read(screen(r))  # the second face is still secret
        past_the_reveal(r.code)
        assert 'data-scene="reveal"' not in screen(r)
