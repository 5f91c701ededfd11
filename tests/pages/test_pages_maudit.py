"""Maudit Mot Dit's pages under AppTest, each phase: the secret word shows on the holder's phone
only, until the round is over; clues and answers show on the shared screen as they arrive."""

from __future__ import annotations

import pytest

from engine import tables
from tests.pages.test_pages import run, shown

NAMES = ["Anna", "Giulia", "Carlo", "Dario"]


def text_of(at) -> str:
    parts = [m.value for m in at.markdown] + [m.value for m in at.caption] + [m.value for m in at.info]
    parts += [m.value for m in at.success] + [m.value for m in at.error] + [m.value for m in at.warning]
    parts += [h.proto.body for h in at.get("html")] + [b.label for b in at.button]
    parts += [t.label for t in at.text_input]
    return shown("\n".join(str(p) for p in parts))


@pytest.fixture
def room():
    r = tables.create_room("maudit_mot_dit", seed=8, language="en")
    seats = [tables.join(r.code, n) for n in NAMES]
    tables.start(r.code, r.host_token)
    return r, seats


def pages(r, seats):
    """Every screen of the room: the wall, then each phone."""
    found = {"wall": text_of(run("table", room=r.code, host=r.host_token))}
    for s in seats:
        found[s.seat] = text_of(run("play", room=r.code, seat=s.seat, token=s.token))
    return found


def holder_card(r, seats):
    return tables.view(r.code, 0, seats[0].token)


def test_the_word_card_and_the_chosen_word_show_on_the_holders_phone_only(room):
    r, seats = room
    card = holder_card(r, seats)
    words = [c["word"] for c in card["card"]]
    shown_now = pages(r, seats)
    assert all(w in shown_now[0] for w in words)  # the holder reads the card
    assert any("clue" in b.label for b in run("play", room=r.code, seat=0, token=seats[0].token).button)
    for viewer in ("wall", 1, 2, 3):
        assert not [w for w in words if w in shown_now[viewer]], viewer
    choice = card["back"][1]
    tables.submit(r.code, 0, seats[0].token, {"type": "choose", "symbol": choice["symbol"]})
    secret = next(c["word"] for c in card["card"] if c["symbol"] == choice["symbol"])
    tables.submit(r.code, 0, seats[0].token, {"type": "clue", "text": "zebra-crossing"})
    tables.submit(r.code, 1, seats[1].token, {"type": "answer", "text": "stripes"})
    shown_now = pages(r, seats)
    assert secret in shown_now[0] and "zebra-crossing" in shown_now["wall"] and "Giulia: stripes" in shown_now["wall"]
    for viewer in ("wall", 1, 2, 3):
        assert secret not in shown_now[viewer], viewer
        assert "in 2 clues" not in shown_now[viewer] and "of 5" not in shown_now[viewer]  # the count stays secret
    assert "Your answer" in shown_now[2] and "Your answer" not in shown_now[1]  # Giulia answered
    # The round closes unfound once every clue is given and answered; then the word is public.
    for n in range(1, choice["count"]):
        tables.submit(r.code, 0, seats[0].token, {"type": "clue", "text": f"hint{n}"})
    for s in seats[1:]:
        view = tables.view(r.code, s.seat, s.token)
        if s.seat in view["may_answer"]:
            tables.submit(r.code, s.seat, s.token, {"type": "answer", "text": "nothing"})
    assert tables.view(r.code)["phase"] == "verdict"
    shown_now = pages(r, seats)
    assert secret in shown_now["wall"] and "not found" in shown_now["wall"]
    assert "A clue was unrelated to the word" in shown_now[1] and "A clue was unrelated" not in shown_now[0]


def test_a_near_miss_is_offered_to_the_holder_and_a_clue_warning_shows_before_it_is_sent(room):
    r, seats = room
    card = holder_card(r, seats)
    choice = card["back"][1]
    secret = next(c["word"] for c in card["card"] if c["symbol"] == choice["symbol"])
    tables.submit(r.code, 0, seats[0].token, {"type": "choose", "symbol": choice["symbol"]})
    at = run("play", room=r.code, seat=0, token=seats[0].token)
    at.text_input[0].input(secret + "s")
    next(b for b in at.button if b.label == "Give this clue").click().run()
    assert "shares a root with your word" in text_of(at)  # warned, not sent
    assert tables.view(r.code)["clues"] == []
    next(b for b in at.button if b.label == "Give it anyway").click().run()
    assert [c["clue"] for c in tables.view(r.code)["clues"]] == [secret + "s"]
    tables.submit(r.code, 1, seats[1].token, {"type": "answer", "text": secret + "x"})
    at = run("play", room=r.code, seat=0, token=seats[0].token)
    accept = [b for b in at.button if b.label.startswith("Accept")]
    assert accept and "Giulia" in accept[0].label


def test_bad_input_from_a_phone_gets_a_message_and_changes_nothing(room):
    r, seats = room
    card = holder_card(r, seats)
    tables.submit(r.code, 0, seats[0].token, {"type": "choose", "symbol": card["back"][0]["symbol"]})
    before = tables.version(r.code)
    at = run("play", room=r.code, seat=0, token=seats[0].token)
    at.text_input[0].input("two words")
    next(b for b in at.button if b.label == "Give this clue").click().run()
    assert "A clue is one word" in text_of(at) and tables.version(r.code) == before
    tables.submit(r.code, 0, seats[0].token, {"type": "clue", "text": "one"})
    at = run("play", room=r.code, seat=1, token=seats[1].token)
    at.text_input[0].input("x" * 40)
    at.text_input[0].set_value("   ")
    next(b for b in at.button if b.label == "Answer").click().run()
    assert "Type an answer first." in text_of(at)


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
    wall = text_of(run("table", room=r.code))
    assert "Next to hold the box: Giulia" in wall and "Nobody has the curse yet" in wall
    assert "Each spell a player holds is 1 point off. 10 spells left to give." in wall
    assert "Earlier rounds" not in wall
    # Anna's round: one clue, not found, and the others judge it unrelated: she takes the curse.
    card = holder_card(r, seats)
    choice = min(card["back"], key=lambda b: b["count"])
    first = next(c["word"] for c in card["card"] if c["symbol"] == choice["symbol"])
    tables.submit(r.code, 0, seats[0].token, {"type": "choose", "symbol": choice["symbol"]})
    for n in range(choice["count"]):
        tables.submit(r.code, 0, seats[0].token, {"type": "clue", "text": f"hint{n}"})
        for s in seats[1:]:
            if s.seat in tables.view(r.code)["may_answer"]:
                tables.submit(r.code, s.seat, s.token, {"type": "answer", "text": f"nope{s.seat}"})
    for s in seats[1:]:
        tables.submit(r.code, s.seat, s.token, {"type": "verdict", "unrelated": True})
    # Giulia's round is under way: her word stays hers, Anna's is public now.
    card = tables.view(r.code, 1, seats[1].token)
    tables.submit(r.code, 1, seats[1].token, {"type": "choose", "symbol": card["back"][0]["symbol"]})
    secret = tables.view(r.code, 1, seats[1].token)["chosen"]["word"]
    tables.submit(r.code, 1, seats[1].token, {"type": "clue", "text": "sunny"})
    wall = text_of(run("table", room=r.code))
    assert "Earlier rounds" in wall and "Next to hold the box: Carlo" in wall
    assert f"Anna's word <b>{first}</b>, in {choice['count']} clue" in wall and "hint0" in wall and "Not found." in wall
    assert "Anna has the curse: 4 points off at the end." in wall
    assert secret not in wall.replace("sunny", "")


def test_names_on_the_walls_box_order_stay_text():
    r = tables.create_room("maudit_mot_dit", seed=8, language="en")
    [tables.join(r.code, n) for n in ("<b>Anna</b>", "Giulia", "Carlo")]
    tables.start(r.code, r.host_token)
    at = run("table", room=r.code)
    assert "<b>Anna</b>" in text_of(at)  # as typed, once the character references are read
    bodies = "".join(h.proto.body for h in at.get("html"))
    assert "<b>Anna</b>" not in bodies and "&#60;b&#62;Anna&#60;&#47;b&#62;" in bodies
