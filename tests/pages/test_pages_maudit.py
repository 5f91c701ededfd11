"""Maudit Mot Dit's screens, each phase, read as the players read them: the pages run under
AppTest and mount the stage, whose screens are read as their socket draws them
(tests/stage_text.py). The secret word shows on the holder's phone only, until the round is over;
clues and answers show on the shared screen as they arrive."""

from __future__ import annotations

import pytest

from engine import tables
from pages.stage.serve import SERVE, Viewer
from tests import stage_text
from tests.helpers import submit
from tests.pages.test_pages import mounted, run, stage_of

NAMES = ["Anna", "Giulia", "Carlo", "Dario"]


@pytest.fixture
def room():
    r = tables.create_room("maudit_mot_dit", seed=8, language="en")
    seats = [tables.join(r.code, n) for n in NAMES]
    tables.start(r.code, r.host_token)
    return r, seats


def read(markup: str) -> str:
    return " ".join(stage_text.text(markup).split())


def wall(r) -> str:
    return read(stage_text.screen(r.code, "en"))


def phone(r, s) -> str:
    return read(stage_text.screen(r.code, "en", s.token))


def pages(r, seats):
    """Every screen of the room: the wall, then each phone."""
    found = {"wall": wall(r)}
    for s in seats:
        found[s.seat] = phone(r, s)
    return found


def tap(r, s, move: dict, move_id: str) -> dict:
    """A tap on a seat's phone, as its socket plays it."""
    who = tables.stage_who(r.code, s.token, None)
    return SERVE.move(r.code, Viewer(who, s.token, "en", s.seat), move_id, move)


def test_the_wall_and_the_phones_are_the_stages(room):
    r, seats = room
    assert mounted(run("table", room=r.code, host=r.host_token))["kind"] == "wall"
    data = mounted(run("play", room=r.code, seat=1, token=seats[1].token))
    assert data["kind"] == "seat" and data["token"] == seats[1].token
    assert "Anna holds the box and is choosing a word" in stage_of(
        run("play", room=r.code, seat=1, token=seats[1].token)
    )


def holder_card(r, seats):
    return tables.view(r.code, 0, seats[0].token)


def test_the_word_card_and_the_chosen_word_show_on_the_holders_phone_only(room):
    r, seats = room
    card = holder_card(r, seats)
    words = [c["word"] for c in card["card"]]
    shown_now = pages(r, seats)
    assert all(w in shown_now[0] for w in words)  # the holder reads the card
    assert all(
        f"{w}, in" in shown_now[0]
        for w in [c["word"] for c in card["card"] if c["symbol"] in {b["symbol"] for b in card["back"]}]
    )
    for viewer in ("wall", 1, 2, 3):
        assert not [w for w in words if w in shown_now[viewer]], viewer
    choice = card["back"][1]
    submit(r.code, 0, seats[0].token, {"type": "choose", "symbol": choice["symbol"]})
    secret = next(c["word"] for c in card["card"] if c["symbol"] == choice["symbol"])
    submit(r.code, 0, seats[0].token, {"type": "clue", "text": "zebra-crossing"})
    submit(r.code, 1, seats[1].token, {"type": "answer", "text": "stripes"})
    shown_now = pages(r, seats)
    assert secret in shown_now[0] and "zebra-crossing" in shown_now["wall"] and "Giulia: stripes" in shown_now["wall"]
    for viewer in ("wall", 1, 2, 3):
        assert secret not in shown_now[viewer], viewer
        assert "in 2 clues" not in shown_now[viewer] and "of 5" not in shown_now[viewer]  # the count stays secret
    assert "Your answer" in shown_now[2] and "Your answer" not in shown_now[1]  # Giulia answered
    # The round closes unfound once every clue is given and answered; then the word is public.
    for n in range(1, choice["count"]):
        submit(r.code, 0, seats[0].token, {"type": "clue", "text": f"hint{n}"})
    for s in seats[1:]:
        view = tables.view(r.code, s.seat, s.token)
        if s.seat in view["may_answer"]:
            submit(r.code, s.seat, s.token, {"type": "answer", "text": "nothing"})
    assert tables.view(r.code)["phase"] == "verdict"
    shown_now = pages(r, seats)
    assert secret in shown_now["wall"] and "not found" in shown_now["wall"]
    assert "A clue was unrelated to the word" in shown_now[1] and "A clue was unrelated" not in shown_now[0]


def test_a_near_miss_is_offered_to_the_holder_and_a_clue_warning_shows_before_it_is_sent(room):
    r, seats = room
    card = holder_card(r, seats)
    choice = card["back"][1]
    secret = next(c["word"] for c in card["card"] if c["symbol"] == choice["symbol"])
    submit(r.code, 0, seats[0].token, {"type": "choose", "symbol": choice["symbol"]})
    answer = tap(r, seats[0], {"type": "clue", "text": secret + "s"}, "c1")
    assert "shares a root with your word" in answer["message"]  # warned, not sent
    assert answer["again_label"] == "Give it anyway" and answer["again"]["anyway"] is True
    assert tables.view(r.code)["clues"] == []
    assert tap(r, seats[0], answer["again"], "c2")["ack"] == "c2"
    assert [c["clue"] for c in tables.view(r.code)["clues"]] == [secret + "s"]
    submit(r.code, 1, seats[1].token, {"type": "answer", "text": secret + "x"})
    markup = stage_text.screen(r.code, "en", seats[0].token)
    assert "Accept “" in read(markup) and "from Giulia: close enough" in read(markup)
    assert "mm-near" in markup


def test_bad_input_from_a_phone_gets_a_message_and_changes_nothing(room):
    r, seats = room
    card = holder_card(r, seats)
    submit(r.code, 0, seats[0].token, {"type": "choose", "symbol": card["back"][0]["symbol"]})
    before = tables.version(r.code)
    answer = tap(r, seats[0], {"type": "clue", "text": "two words"}, "c1")
    assert "A clue is one word" in answer["message"] and tables.version(r.code) == before
    submit(r.code, 0, seats[0].token, {"type": "clue", "text": "one"})
    assert "Type an answer first." in tap(r, seats[1], {"type": "answer", "text": "   "}, "a1")["message"]
    assert tables.version(r.code) == before + 1
    # An empty field is caught on the phone itself (pages/assets/stage.js), with this message.
    assert 'data-need="Type your answer first."' in stage_text.screen(r.code, "en", seats[1].token)


def test_the_host_creates_a_room_with_a_word_list_of_their_own():
    from engine import words

    lines = "\n".join(", ".join(f"mot{c}n{i}" for i in range(8)) for c in range(12))
    list_id, _count = words.import_word_list("Class words", lines.encode())
    at = run("home")
    at.selectbox(key="host-game").select("maudit_mot_dit").run()
    assert at.selectbox(key="mm-words").options[0] == "Ours, in the room's language"
    at.selectbox(key="mm-words").select(list_id).run()
    next(b for b in at.button if b.label == "Create the room").click().run()
    assert not at.exception, [e.message for e in at.exception]
    code = tables.open_rooms()[0]["code"]
    assert tables.view(code)["options"]["words"] == list_id


def test_the_wall_shows_the_box_order_the_curse_the_spells_and_the_rounds_before(room):
    """While clues are written the wall's lower half has what the room follows: whose box is next,
    the curse and the spells, and the closed rounds' words and clues; never the word in play."""
    r, seats = room
    shown_now = wall(r)
    assert "Next to hold the box: Giulia" in shown_now and "Nobody has the curse yet" in shown_now
    assert "10 spells left" in shown_now
    assert "Earlier rounds" not in shown_now
    # Anna's round: one clue, not found, and the others judge it unrelated: she takes the curse.
    card = holder_card(r, seats)
    choice = min(card["back"], key=lambda b: b["count"])
    first = next(c["word"] for c in card["card"] if c["symbol"] == choice["symbol"])
    submit(r.code, 0, seats[0].token, {"type": "choose", "symbol": choice["symbol"]})
    for n in range(choice["count"]):
        submit(r.code, 0, seats[0].token, {"type": "clue", "text": f"hint{n}"})
        for s in seats[1:]:
            if s.seat in tables.view(r.code)["may_answer"]:
                submit(r.code, s.seat, s.token, {"type": "answer", "text": f"nope{s.seat}"})
    for s in seats[1:]:
        submit(r.code, s.seat, s.token, {"type": "verdict", "unrelated": True})
    # Giulia's round is under way: her word stays hers, Anna's is public now.
    card = tables.view(r.code, 1, seats[1].token)
    submit(r.code, 1, seats[1].token, {"type": "choose", "symbol": card["back"][0]["symbol"]})
    secret = tables.view(r.code, 1, seats[1].token)["chosen"]["word"]
    submit(r.code, 1, seats[1].token, {"type": "clue", "text": "sunny"})
    shown_now = wall(r)
    assert "Earlier rounds" in shown_now and "Next to hold the box: Carlo" in shown_now
    assert f"Anna's word {first} , in {choice['count']} clue" in shown_now and "hint0" in shown_now
    assert "Not found." in shown_now and "💀 Anna has the curse." in shown_now and "Anna 💀" in shown_now
    assert secret not in shown_now.replace("sunny", "")


def test_names_on_the_walls_box_order_stay_text():
    r = tables.create_room("maudit_mot_dit", seed=8, language="en")
    [tables.join(r.code, n) for n in ("<b>Anna</b>", "Giulia", "Carlo")]
    tables.start(r.code, r.host_token)
    markup = stage_text.screen(r.code, "en")
    assert "<b>Anna</b> holds the box" in read(markup)  # as typed, once the character references are read
    assert "<b>Anna</b>" not in markup and "&lt;b&gt;Anna&lt;/b&gt;" in markup
