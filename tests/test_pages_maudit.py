"""Maudit Mot Dit's pages under AppTest, each phase: the secret word shows on the holder's phone
only, until the round is over; clues and answers show on the shared screen as they arrive."""
from __future__ import annotations

import pytest

from engine import tables
from tests.test_pages import run, shown

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
    assert all(w in shown_now[0] for w in words)                     # the holder reads the card
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
    assert "Your answer" in shown_now[2] and "Your answer" not in shown_now[1]           # Giulia answered
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
    assert "shares a root with your word" in text_of(at)                 # warned, not sent
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
