"""Maudit Mot Dit in Safari's engine: on an iPhone-sized WebKit phone the box holder picks a word and
types the first clue; the shared screen, another WebKit window, shows the clue and never the word;
a second WebKit phone answers and the wall shows the answer. The third seat waits (engine.tables)."""

from __future__ import annotations

import pytest

from engine import tables
from tests.webkit.drive import body_text, button, rendered, shows, tap_until, type_into, until

pytestmark = pytest.mark.webkit

NAMES = ["Anna", "Giulia", "Carlo"]
CLUE = "bakery"
ANSWER = "oven"


def test_a_clue_typed_on_the_phone_shows_on_the_wall(serve, webkit, monkeypatch):
    srv = serve()
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])  # this process, the server's database
    tables.reset()
    room = tables.create_room("maudit_mot_dit", seed=6, language="en")
    seats = [tables.join(room.code, name) for name in NAMES]
    tables.start(room.code, room.host_token)
    code = room.code
    assert tables.view(code)["holder"] == 0

    wall = webkit.wall()
    wall.get(f"{srv.url}/table?room={code}")
    anna, giulia = webkit.phone(), webkit.phone()
    for phone, seat in ((anna, seats[0]), (giulia, seats[1])):
        phone.get(f"{srv.url}/play?room={code}&seat={seat.seat}&token={seat.token}")
        rendered(phone, code, tables.version(code))

    # Anna holds the box: she taps a word ("🔥 word, in 3 clues"), which only her phone shows.
    shows(anna, "You hold the box")
    choice = lambda d: next(
        (
            b
            for b in d.find_elements("css selector", "button")  # noqa: E731
            if ", in " in b.text and "clue" in b.text
        ),
        None,
    )
    word = until(anna, choice, "no word to choose").text.split(" ", 1)[1].split(", in ")[0]
    tap_until(
        anna, choice, lambda d: d.find_element("css selector", ".mm-secret").text == word, "the word never showed"
    )
    shows(wall, "the first clue is coming")
    assert CLUE != word and ANSWER != word

    # The first clue, typed and tapped: on the wall at once (pushed), the word nowhere but on her phone.
    type_into(anna, "Clue 1 (one word)", CLUE)
    tap_until(anna, lambda d: button(d, "Give this clue"), lambda d: tables.view(code)["clues"], "the clue never went")
    until(
        wall,
        lambda d: any(el.text.strip() == CLUE for el in d.find_elements("css selector", ".mm-word")),
        "the clue never showed on the wall",
    )
    assert [c["clue"] for c in tables.view(code)["clues"]] == [CLUE]

    # Giulia answers on her phone; the wall shows the answer.
    type_into(giulia, "Your answer", ANSWER)
    tap_until(
        giulia,
        lambda d: button(d, "Answer"),
        lambda d: tables.view(code)["clues"][0]["answers"],
        "Giulia's answer never went",
    )
    until(
        wall,
        lambda d: any(f"Giulia: {ANSWER}" in el.text for el in d.find_elements("css selector", ".mm-answer")),
        "Giulia's answer never showed on the wall",
    )
    rendered(wall, code, tables.version(code))
    assert word not in body_text(wall) and word not in body_text(giulia)
