"""The host's Next and Hold on the host's page (pages/clock.py `reveal_controls`): there all through
the game, so a reveal's start draws nothing again; Next ends the reveal on, Hold keeps it, and a tap
with no reveal on says so and changes nothing."""

from __future__ import annotations

from engine import tables
from tests.pages.test_pages import run, text_of


def button(at, label: str):
    return next(b for b in at.button if b.label.endswith(label))


def closed_turn(room, seats) -> None:
    while not tables.view(room.code)["history"]:
        seat = tables.view(room.code)["waiting_for"][0]
        move = tables.legal(room.code, seat, seats[seat].token)[0]
        tables.submit(room.code, seat, seats[seat].token, {k: v for k, v in move.items() if k != "seat"})


def test_next_and_hold_on_the_hosts_page(plain_cards):
    room = tables.create_room("dixit", seed=3, language="en")
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    tables.start(room.code, room.host_token)
    host = run("table", room=room.code, host=room.host_token)
    button(host, "Hold").click().run()  # no reveal yet: said, and nothing held
    assert "There is no reveal to hold now." in text_of(host)
    assert not tables.view(room.code)["reveal_held"]

    closed_turn(room, seats)
    host = run("table", room=room.code, host=room.host_token)
    button(host, "Hold").click().run()
    assert tables.view(room.code)["reveal_held"]  # the class argues: the reveal waits
    button(host, "Next").click().run()
    view = tables.view(room.code)
    assert not view["reveal_held"] and view["reveal_until"] is None  # the next turn is on
    assert tables.legal(room.code, view["storyteller"], seats[view["storyteller"]].token)
