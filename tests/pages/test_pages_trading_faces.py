"""Trading Faces' pages under AppTest, both variants, in every phase: passing, a face being guessed,
the reveal, the end, and memory's peek and decide. A phone shows its own hand and nobody else's;
while a face is guessed its emotion is on the face-maker's phone only; in memory the lifted card
is on the left neighbour's phone only. Refusals read as messages for players."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from google.protobuf import text_format

from engine import tables
from engine.core import IllegalMove
from engine.games.trading_faces import DEAL, EMOTIONS, GAME
from tests.pages.test_pages import run, shown

NAMES = ["Ana", "Bo", "Cy", "Di"]


# ---- what a page shows -------------------------------------------------------------------------
# Two phones share a seat (the audience issue): the second phone's refused move is a note.
OTHER_PHONE = "Your seat's other phone played first: here is what it played."


def word(emotion: str) -> str:
    return emotion.replace("_", " ")


def label(emotion: str) -> str:
    """As on the card: the rulebook's number, then the word ("6 · happy")."""
    return f"{EMOTIONS.index(emotion) + 1} · {word(emotion)}"


def text_of(at) -> str:
    parts = [m.value for m in at.markdown] + [m.value for m in at.caption] + [m.value for m in at.info]
    parts += [m.value for m in at.success] + [m.value for m in at.error] + [m.value for m in at.warning]
    parts += [h.proto.body for h in at.get("html")] + [b.label for b in at.button]
    for p in at.pills:
        parts += [p.label, *p.options]
    return shown("\n".join(str(p) for p in parts))


def nodes(at):
    """Every element of the page, in order, with what the browser receives for it (from the
    root of the tree: the main area, the sidebar and the block the style sheets go to)."""

    def walk(node):
        proto = getattr(node, "proto", None)
        if proto is not None:
            yield getattr(node, "type", ""), shown(text_format.MessageToString(proto, as_utf8=True))
        for child in (getattr(node, "children", None) or {}).values():
            yield from walk(child)

    yield from walk(at._tree)


def everything(at) -> str:
    """All the page sends to the browser, not only its text: image addresses, widget options..."""
    return "\n".join(body for _, body in nodes(at))


# An emotion as a whole word: its id (in a picture's address, /pictures/trading_faces/in_love.svg) or its word. A
# token's or a hash's characters around it do not count, so random strings never match.
_AROUND = r"[A-Za-z0-9_\-]"
FOUND = {e: re.compile(rf"(?<!{_AROUND})({re.escape(e)}|{re.escape(word(e))})(?!{_AROUND})") for e in EMOTIONS}


def emotions_on(at) -> set[str]:
    page = everything(at)
    return {e for e, pattern in FOUND.items() if pattern.search(page)}


def comparable(at, code: str) -> list[str]:
    """The page as the reader gets it, with what only differs between two rooms taken out: the
    code (and the QR code and link made of it), widget ids, the push socket's ticket."""
    out = []
    for kind, body in nodes(at):
        if kind == "bidi_component" or "sm-qr" in body or "sm-url" in body:
            continue
        body = re.sub(r"\$\$ID-[0-9a-f]+-", "", body.replace(code, "CODE"))
        out.append(body)
    return out


# ---- rooms -------------------------------------------------------------------------------------


def new_room(players: int, seed: int, variant: str = "classic"):
    r = tables.create_room("trading_faces", options={"variant": variant}, seed=seed, language="en")
    seats = [tables.join(r.code, n) for n in NAMES[:players]]
    tables.start(r.code, r.host_token)
    return r, seats


def wall(r):
    return run("table", room=r.code, host=r.host_token)


def phone(r, s):
    return run("play", room=r.code, seat=s.seat, token=s.token)


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


def pick(at, key: str, value):
    """Tap a pill, as a player does before the button under it."""
    at.pills(key=key).set_value(value).run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def tap(at, key: str):
    at.button(key=key).click().run()
    assert not at.exception, [e.message for e in at.exception]
    return at


# ---- classic: passing --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_passing_each_phone_shows_its_own_hand_and_nobody_elses(players):
    r, seats = new_room(players, seed_without_sets(players))
    names = NAMES[:players]
    hands = state(r)["hands"]

    at = wall(r)
    page = text_of(at)
    assert "Everyone passes one card to the left, face down" in page
    assert f"Waiting for: {', '.join(names)}" in page and "0 passes so far" in page
    assert emotions_on(at) == set()  # nobody's card is on the wall
    for s in seats:
        at = phone(r, s)
        hand = hands[str(s.seat)]
        assert emotions_on(at) == set(hand), s.seat  # all of its own hand, nothing of the others'
        page = text_of(at)
        for e, n in Counter(hand).items():
            assert f"<div class='tf-word'>{word(e)}</div>" in page
            if n > 1:
                assert f"×{n}" in page
        left = names[(s.seat + 1) % players]
        pills = at.pills(key="tf-pick-0")
        assert pills.label == f"Choose a card to pass to {left}"
        assert pills.options == [label(e) for e in EMOTIONS if e in hand]
        button = at.button(key="tf-pass-0")
        assert button.label == "Choose a card first" and button.disabled
        assert not [b for b in at.button if b.key == "tf-stop"]  # no set, no stop

    # Ana chooses on her phone: the card leaves her hand, and only she sees where it went.
    given = sorted(hands["0"])[0]
    at = pick(phone(r, seats[0]), "tf-pick-0", given)
    assert at.button(key="tf-pass-0").label == f"Pass {label(given)} to Bo"
    tap(at, "tf-pass-0")
    page = text_of(at)
    assert f"You passed {label(given)} to Bo. It arrives when everyone has chosen." in page
    assert f"Waiting for: {', '.join(names[1:])}" in page
    assert not at.pills and not [b for b in at.button if b.key.startswith("tf-pass")]
    kept = list(hands["0"])
    kept.remove(given)
    assert emotions_on(at) == set(kept) | {given}
    assert tables.view(r.code)["chosen"] == [0]
    page = text_of(wall(r))
    assert f"Waiting for: {', '.join(names[1:])}" in page and "Waiting for: Ana" not in page
    for s in seats[1:]:
        assert emotions_on(phone(r, s)) == set(hands[str(s.seat)]), s.seat  # Ana's card is not on its way to them yet

    # The others choose (the last one on the phone): every card arrives at once.
    passed = {0: given}
    for s in seats[1:-1]:
        passed[s.seat] = hands[str(s.seat)][0]
        tables.submit(r.code, s.seat, s.token, {"type": "pass", "card": passed[s.seat]})
    last = seats[-1]
    passed[last.seat] = hands[str(last.seat)][-1]
    tap(pick(phone(r, last), "tf-pick-0", passed[last.seat]), "tf-pass-0")
    page = text_of(wall(r))
    assert "1 pass so far" in page and f"Waiting for: {', '.join(names)}" in page
    hands = state(r)["hands"]
    for s in seats:
        arrived = passed[(s.seat - 1) % players]
        at = phone(r, s)
        page = text_of(at)
        assert f"New from the right: {label(arrived)}" in page
        assert re.search(rf"tf-card tf-new'><span class='tf-num'>{EMOTIONS.index(arrived) + 1}<", page)
        assert emotions_on(at) == set(hands[str(s.seat)])
        assert at.pills(key="tf-pick-1").options == [label(e) for e in EMOTIONS if e in hands[str(s.seat)]]


def test_a_second_pass_from_the_seats_other_phone_is_a_note():
    r, seats = new_room(3, seed_without_sets(3))
    hands = state(r)["hands"]
    at = pick(phone(r, seats[1]), "tf-pick-0", hands["1"][0])
    tables.submit(r.code, 1, seats[1].token, {"type": "pass", "card": hands["1"][1]})  # from another tab
    tap(at, "tf-pass-0")
    assert not at.error and OTHER_PHONE in [shown(i.value) for i in at.info]  # a note, not an error
    assert state(r)["passing"] == {"1": hands["1"][1]} and len(state(r)["hands"]["1"]) == len(hands["1"]) - 1


def test_a_stop_without_a_set_is_refused_in_words():
    r, seats = new_room(3, seed_without_sets(3))
    before = state(r)
    with pytest.raises(IllegalMove) as refused:
        tables.submit(r.code, 0, seats[0].token, {"type": "stop"})
    assert str(refused.value) == "You need three cards of the same emotion to call stop."
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
        at = phone(r, seats[maker])
        assert at.button(key="tf-stop").label == "Stop! I have three of a kind"
        tap(at, "tf-stop")
        emotion = state(r)["face"]["emotion"]
        made.append((r, seats, emotion))
    assert made[0][2] != made[1][2]
    return made


def screens(r, seats) -> dict:
    found = {"wall": wall(r)}
    for s in seats:
        found[s.seat] = phone(r, s)
    return found


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
    assert ea in emotions_on(pa[maker]) and f"<div class='tf-word'>{word(ea)}</div>" in text_of(pa[maker])
    return pa


def guess_options(at) -> set[str]:
    """The emotions a guesser's pills offer: every one not guessed yet, the secret among them."""
    return {e for e in EMOTIONS for p in at.pills if label(e) in p.options}


@pytest.mark.parametrize("players,maker", [(3, 0), (3, 2), (4, 1)])
def test_a_face_is_on_the_makers_phone_only_then_revealed(players, maker):
    faces = rooms_with_a_face(players, maker)
    names = NAMES[:players]
    guessers = clockwise(players, maker)
    first, second = guessers[0], guessers[1]
    pages = assert_only_the_maker_knows(faces, maker)

    page = text_of(pages[maker])
    assert "Make this face! No words, no hands." in page and f"{names[first]} guesses now." in page
    assert emotions_on(pages[maker]) == {faces[0][2]}  # the hand is put away while everyone guesses
    page = text_of(pages[first])
    assert f"Your guess: what is {names[maker]} feeling?" in page
    assert pages[first].pills[0].options == [label(e) for e in EMOTIONS]
    assert pages[first].button(key="tf-guess-go-0").label == "Choose an emotion first"
    for seat in guessers[1:]:
        page = text_of(pages[seat])
        assert f"{names[maker]} is making a face" in page and "Your cards stay hidden while everyone guesses." in page
        order = re.search(r"<div class='tf-order'>(.*?)</div>", page).group(1)  # the guessing order
        assert re.findall(r"<span[^>]*>([^<]*)</span>", order) == [names[g] for g in guessers]
        assert "<span class='tf-now'>" + names[first] + "</span>" in order
        assert not pages[seat].pills and "Make this face" not in page
        assert emotions_on(pages[seat]) == set()
    page = text_of(pages["wall"])
    assert f"{names[maker]} is making a face" in page
    assert f"{names[first]}, your guess: pick an emotion on your phone" in page
    assert emotions_on(pages["wall"]) == set()

    # The first guesser is wrong, in both rooms alike: the guess is public, the emotion still secret.
    wrong = next(e for e in EMOTIONS if e not in (faces[0][2], faces[1][2]))
    for r, seats, _ in faces:
        at = pick(phone(r, seats[first]), "tf-guess-0", wrong)
        assert at.button(key="tf-guess-go-0").label == f"Guess: {label(wrong)}"
        tap(at, "tf-guess-go-0")
    pages = assert_only_the_maker_knows(faces, maker)
    page = text_of(pages["wall"])
    assert f"<span class='tf-wrong'>{names[first]}: {word(wrong)}</span>" in page
    assert f"{names[second]}, your guess" in page and emotions_on(pages["wall"]) == {wrong}
    assert f"Already wrong: {word(wrong)}" in text_of(pages[second])
    assert pages[second].pills[0].options == [label(e) for e in EMOTIONS if e != wrong]
    assert emotions_on(pages[first]) == {wrong}

    # Room A goes on: with 3 players the second guesser reads the face; with 4, nobody does.
    r, seats, emotion = faces[0]
    if players == 3:
        tap(pick(phone(r, seats[second]), "tf-guess-0", emotion), "tf-guess-go-0")
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
            tap(pick(phone(r, seats[seat]), "tf-guess-0", nope), "tf-guess-go-0")
        line = f"Nobody read {names[maker]}'s face: {word(emotion)}. {names[maker]} wins 1 card."
        scores = {maker: 1}
    view = tables.view(r.code)
    assert view["phase"] == "pass" and view["scores"] == [scores.get(s, 0) for s in range(players)]
    pages = screens(r, seats)
    page = text_of(pages["wall"])
    assert line in page and "Everyone passes one card to the left, face down" in page
    # The face once, under "Faces made so far"; the scores are the side panel's alone (no won cards).
    assert page.count(f"/pictures/trading_faces/{emotion}.svg") == 1 and "Faces made so far" in page
    assert "<div class='tf-won'><span class='tf-who'" not in page
    hands = state(r)["hands"]
    guessed = {g["emotion"] for g in view["last"]["guesses"]}
    for s in seats:
        assert line in text_of(pages[s.seat]), s.seat
        own = set(hands[str(s.seat)]) | {emotion}  # its hand is back, and the face is public now
        assert own <= emotions_on(pages[s.seat]) <= own | guessed, s.seat
    assert len(hands[str(maker)]) == DEAL[players] - 3 + 1  # the face-maker drew one card


def test_a_guess_from_the_seats_other_phone_is_a_note():
    (r, seats, emotion), _ = rooms_with_a_face(3, 0)
    wrong = next(e for e in EMOTIONS if e != emotion)
    at = pick(phone(r, seats[1]), "tf-guess-0", wrong)
    tables.submit(r.code, 1, seats[1].token, {"type": "guess", "emotion": emotion})  # Bo, from another tab
    tap(at, "tf-guess-go-0")
    assert not at.error and OTHER_PHONE in [shown(i.value) for i in at.info]  # a note, not an error
    assert state(r)["history"][-1]["guesses"] == [{"guesser": 1, "emotion": emotion}]


def test_a_stop_tapped_on_both_phones_of_a_seat_is_a_note():
    seed = seeds_with_one_set(3, 0, 1)[0]
    r, seats = new_room(3, seed)
    at = phone(r, seats[0])
    tables.submit(r.code, 0, seats[0].token, {"type": "stop"})  # the first tap, from another tab
    tap(at, "tf-stop")
    assert not at.error and OTHER_PHONE in [shown(i.value) for i in at.info]  # a note, not an error
    assert "Make this face! No words, no hands." in text_of(at)


# ---- the end -----------------------------------------------------------------------------------


def test_the_host_ends_the_game_after_a_face():
    (r, seats, emotion), _ = rooms_with_a_face(3, 0)
    tables.submit(r.code, 1, seats[1].token, {"type": "guess", "emotion": emotion})  # Ana 2, Bo 1, Cy 0
    tables.end(r.code, r.host_token)
    view = tables.view(r.code)
    assert view["phase"] == "end" and view["ended_by_host"] and view["scores"] == [2, 1, 0]
    at = wall(r)
    page = text_of(at)
    assert "The game is over" in page and "The host ended the game. 🏆 Ana wins with 2 points" in page
    assert f"Bo read Ana's face: {word(emotion)}." in page and emotions_on(at) == {emotion}
    for s, expected in zip(
        seats, ["🏆 You win!", "🏆 Ana wins with 2 points", "🏆 Ana wins with 2 points"], strict=True
    ):
        at = phone(r, s)
        page = text_of(at)
        assert f"## {expected}" in [m.value for m in at.markdown], s.seat
        count = view["scores"][s.seat]
        assert f"You won {count} card{'s' if count != 1 else ''}." in page
        assert not at.pills and not [b for b in at.button if b.key and b.key.startswith("tf-")]
        assert emotions_on(at) == {emotion}  # the won cards; no hand any more


def test_the_host_ends_the_game_while_a_face_is_guessed():
    (r, seats, emotion), _ = rooms_with_a_face(3, 0)
    tables.end(r.code, r.host_token)
    page = text_of(wall(r))
    assert "The host ended the game. 🏆 Ana & Bo & Cy win with 0 points" in page
    for s in seats:
        at = phone(r, s)
        assert "## 🏆 You win!" in [m.value for m in at.markdown] and "You won 0 cards." in text_of(at)
        assert not at.pills


# ---- memory ------------------------------------------------------------------------------------


def test_memory_the_lifted_card_is_on_the_left_neighbours_phone_only():
    r, seats = new_room(3, seed=3, variant="memory")
    grid = state(r)["grid"]
    pages = screens(r, seats)
    assert "Ana lifts a card: only Bo sees it" in text_of(pages["wall"]) and "13 cards in the pile" in text_of(
        pages["wall"]
    )
    for viewer, at in pages.items():
        assert emotions_on(at) == set(), viewer  # 26 cards face down
    page = text_of(pages[0])
    assert "Your turn: lift a card. Only Bo will see it." in page
    assert pages[0].pills(key="tf-peek-0").options == [str(c + 1) for c in range(26)]
    assert pages[0].button(key="tf-peek-go-0").disabled
    for seat in (1, 2):
        assert "Ana lifts a card: only Bo sees it" in text_of(pages[seat]) and not pages[seat].pills

    # Ana lifts card 5 on her phone: Bo makes its face, and nobody else sees it.
    at = pick(pages[0], "tf-peek-0", 4)
    assert at.button(key="tf-peek-go-0").label == "Lift card 5"
    tap(at, "tf-peek-go-0")
    lifted = grid[4]
    pages = screens(r, seats)
    page = text_of(pages[1])
    assert "Make this face for Ana! No words, no hands." in page
    assert f"<div class='tf-word'>{word(lifted)}</div>" in page and emotions_on(pages[1]) == {lifted}
    page = text_of(pages[0])
    assert "Watch Bo: what is on card 5?" in page
    assert pages[0].pills(key="tf-flip-0").options == [str(c + 1) for c in range(26) if c != 4]
    assert pages[0].button(key="tf-end-0").label == "End my turn without flipping"
    for viewer in ("wall", 0, 2):
        page = text_of(pages[viewer])
        assert "Make this face for" not in page and emotions_on(pages[viewer]) == set(), viewer
        if viewer != 0:
            assert "Bo makes the face of the card Ana lifted" in page
    assert "tf-cell tf-down tf-lifted" in text_of(pages["wall"])

    # She flips a card that does not match: both are shown to all, Bo and Cy each take one from the pile.
    other = next(c for c in range(26) if grid[c] != lifted)
    tap(pick(at, "tf-flip-0", other), "tf-flip-go-0")
    s = state(r)
    won = {seat: s["won"][str(seat)] for seat in range(3)}
    assert s["scores"] == [0, 1, 1] and s["active"] == 1
    pages = screens(r, seats)
    public = {lifted, grid[other]} | set(won[1]) | set(won[2])
    page = text_of(pages["wall"])
    assert f"Ana flipped {word(lifted)} and {word(grid[other])}: no pair. The others take a card from the pile." in page
    assert "Bo lifts a card: only Cy sees it" in page and page.count("tf-cell tf-shown") == 2
    for viewer, at in pages.items():
        assert emotions_on(at) <= public, viewer

    # Bo lifts a card none of them has seen: only Cy sees it. Then he ends his turn.
    cell = next(c for c in range(26) if grid[c] not in public)
    tables.submit(r.code, 1, seats[1].token, {"type": "peek", "cell": cell})
    pages = screens(r, seats)
    assert "Make this face for Bo! No words, no hands." in text_of(pages[2]) and grid[cell] in emotions_on(pages[2])
    for viewer in ("wall", 0, 1):
        assert "Make this face for" not in text_of(pages[viewer]), viewer
        assert grid[cell] not in emotions_on(pages[viewer]), viewer
    tap(pages[1], "tf-end-1")
    assert state(r)["active"] == 2 and state(r)["phase"] == "peek"
    assert "Cy lifts a card: only Ana sees it" in text_of(wall(r))
    assert "Make this face for" not in text_of(phone(r, seats[2]))

    # Cy finds a pair, then the host ends the game.
    first = next(c for c in range(26) if c not in (4, other))
    second = next(c for c in range(26) if c != first and grid[c] == grid[first])
    tables.submit(r.code, 2, seats[2].token, {"type": "peek", "cell": first})
    tables.submit(r.code, 2, seats[2].token, {"type": "flip", "cell": second})
    assert f"Cy found a pair: {word(grid[first])}!" in text_of(wall(r))
    tables.end(r.code, r.host_token)
    page = text_of(wall(r))
    assert state(r)["scores"] == [0, 1, 3]  # Cy: a card from the pile, then the pair
    assert "The host ended the game. 🏆 Cy wins with 3 points" in page
    assert "## 🏆 You win!" in [m.value for m in phone(r, seats[2]).markdown]
    assert "You won 1 card." in text_of(phone(r, seats[1])) and "You won 0 cards." in text_of(phone(r, seats[0]))


def test_the_wall_shows_who_has_passed_and_who_called_stop_and_the_scores_once():
    r, seats = new_room(3, seed_without_sets(3))
    tables.submit(r.code, 1, seats[1].token, {"type": "pass", "card": state(r)["hands"]["1"][0]})
    at = wall(r)
    page = text_of(at)
    assert "Cards passed this round" in page
    assert "<span class='tf-done'>✔️ Bo</span>" in page and "<span>⏳ Ana</span>" in page
    assert "<span class='tf-who'" not in page  # the scores are the side panel's only
    # Who called Stop, in the order they make their faces (from a view: two sets at once are rare).
    from pages.screens import trading_faces as screen

    view = {**tables.view(r.code), "queue": [2, 0]}
    assert "Stop! called by Cy, Ana: their faces come next, in this order." in shown(screen._stops_html(view))
    assert screen._stops_html({**view, "queue": []}) == ""
