"""Trading Faces in Safari's engine: on an iPhone-sized WebKit phone Ana taps a card and passes it;
the shared screen, another WebKit window, follows the pass. Bo and Cy pass through engine.tables on
the server's database."""

from __future__ import annotations

import pytest

from engine import tables
from engine.games.trading_faces import EMOTIONS
from tests.webkit.drive import body_text, find, rendered, showing, shows, tap_until, until

pytestmark = pytest.mark.webkit

NAMES = ["Ana", "Bo", "Cy"]
# Seed 8, classic, three players (as tests/browser/test_trading_faces.py): each seat holds its card to
# pass, and no pass makes a set anywhere.
SEED = 8
PASSES = {0: "happy", 1: "tired", 2: "in_love"}


def label(emotion: str) -> str:
    return f"{EMOTIONS.index(emotion) + 1} · {emotion.replace('_', ' ')}"


def waiting(wall) -> str:
    return " ".join(el.text for el in wall.find_elements("css selector", ".sm-waiting"))


def test_a_pass_tapped_on_the_phone_and_seen_on_the_wall(serve, webkit, monkeypatch):
    srv = serve()
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])  # this process, the server's database
    tables.reset()
    room = tables.create_room("trading_faces", options={"variant": "classic"}, seed=SEED, language="en")
    seats = [tables.join(room.code, name) for name in NAMES]
    tables.start(room.code, room.host_token)
    code, ana = room.code, seats[0]
    hands = tables.state_of(code)["hands"]
    assert all(PASSES[s] in hands[str(s)] for s in range(3))

    wall = webkit.wall()
    wall.get(f"{srv.url}/table?room={code}")
    phone = webkit.phone()
    phone.get(f"{srv.url}/play?room={code}&seat=0&token={ana.token}")
    until(wall, lambda d: waiting(d) == "Waiting for: Ana, Bo, Cy", "the wall never waited for everyone")

    rendered(phone, code, tables.version(code))

    # Ana taps the card, then the button under the cards once it names Bo, and passes it.
    mine = label(PASSES[0])
    pass_button = lambda d: next(  # noqa: E731
        (b for b in d.find_elements("css selector", "[data-testid=confirm-pick]") if b.is_enabled()), None
    )
    tap_until(
        phone,
        lambda d: find(d, f"figure[data-value='\"{PASSES[0]}\"'] .sm-card-pick"),
        pass_button,
        "the pass button never took Ana's card",
    )
    assert phone.find_element("css selector", "[data-testid=confirm-pick]").text == "Pass this card to Bo"
    tap_until(phone, pass_button, showing(f"You passed {mine}"), "Ana's pass never went")
    until(wall, lambda d: waiting(d) == "Waiting for: Bo, Cy", "the wall never saw Ana's pass")
    assert tables.view(code)["pass_no"] == 0  # the pass waits for the others

    # Bo and Cy pass through the service: the pass goes round, the wall counts it, Ana's phone shows
    # Cy's card coming in from her right.
    for seat in seats[1:]:
        tables.submit(code, seat.seat, seat.token, {"type": "pass", "card": PASSES[seat.seat]})
    shows(wall, "1 pass so far")
    until(wall, lambda d: waiting(d) == "Waiting for: Ana, Bo, Cy", "the next pass never began on the wall")
    shows(phone, f"New from the right: {label(PASSES[2])}")
    assert tables.view(code)["pass_no"] == 1
    hand = tables.state_of(code)["hands"]["0"]
    assert hand.count(PASSES[2]) == hands["0"].count(PASSES[2]) + 1
    rendered(wall, code, tables.version(code))
    assert PASSES[0] not in body_text(wall)  # the wall shows nobody's hand
