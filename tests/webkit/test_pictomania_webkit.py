"""Pictomania in Safari's engine: an iPhone-sized WebKit phone taps Ready and drags a stroke across
its pad with WebDriver's touch pointer (which WebKitGTK, with no touch screen under Xvfb, delivers
as pointer and mouse events); the shared screen, another WebKit window, shows the stroke as it
arrives. The two other seats play through engine.tables on the server's database."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput

from engine import tables
from tests.webkit.drive import button, deep, rendered, showing, shows, tap_until, until, visible

pytestmark = pytest.mark.webkit

NAMES = ["Ana", "Bo", "Cy"]


def pad(phone):
    """The drawing pad's top canvas (fabric's, which takes the pointer), once it is on screen."""
    return until(
        phone,
        lambda d: next((c for c in deep(d, "canvas.upper-canvas") if visible(d, c)), None),
        "no drawing pad on the phone",
    )


def finger_stroke(phone, canvas, points) -> None:
    """A finger drags through `points` (fractions of the pad) in one touch: down, moves, up."""
    phone.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    w, h = canvas.size["width"], canvas.size["height"]
    at = [(round((fx - 0.5) * w), round((fy - 0.5) * h)) for fx, fy in points]  # offsets from the centre
    actions = ActionBuilder(phone, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=30)
    actions.pointer_action.move_to(canvas, *at[0]).pointer_down()
    for x, y in at[1:]:
        actions.pointer_action.move_to(canvas, x, y)
    actions.pointer_action.pointer_up()
    actions.perform()


def sheet(wall, seat: int):
    return next(iter(deep(wall, f"svg[data-seat='{seat}']")), None)


def test_a_finger_stroke_on_the_phone_shows_on_the_wall(serve, webkit, monkeypatch):
    srv = serve()
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])  # this process, the server's database
    tables.reset()
    room = tables.create_room("pictomania", seed=5, language="en")
    seats = [tables.join(room.code, name) for name in NAMES]
    tables.start(room.code, room.host_token)
    code, ana = room.code, seats[0]

    wall = webkit.wall()
    wall.get(f"{srv.url}/table?room={code}")
    phone = webkit.phone()
    phone.get(f"{srv.url}/play?room={code}&seat=0&token={ana.token}")

    rendered(phone, code, tables.version(code))

    # Words: Ana reads them and taps Ready on her phone; Bo and Cy through the service.
    tap_until(phone, lambda d: button(d, "I've read them: Ready"), showing("You're ready."), "Ana never got ready")
    for seat in seats[1:]:
        tables.submit(code, seat.seat, seat.token, {"type": "ready"})
    shows(phone, "Draw ")
    until(wall, lambda d: len(deep(d, "svg[data-seat]")) == 3, "the wall never showed the three sheets")
    assert sheet(wall, 0).get_attribute("data-strokes") == "0"
    rendered(phone, code, tables.version(code))  # the pad is the page's own now, not a rerun's

    # Draw: one finger stroke across the pad, left to right.
    canvas = pad(phone)
    finger_stroke(phone, canvas, [(0.1, 0.2), (0.3, 0.3), (0.5, 0.45), (0.7, 0.6), (0.9, 0.8)])

    until(wall, lambda d: sheet(d, 0).get_attribute("data-strokes") == "1", "the phone's stroke never reached the wall")
    drawn = tables.view(code)["drawings"]["0"]
    assert len(drawn) == 1
    points = drawn[0]["points"]
    assert points[0][0] < points[-1][0] and points[0][1] < points[-1][1], points  # left to right, downwards
    assert len(points) >= 3
    # On the wall the stroke is drawn: a path in Ana's sheet, and nothing in the others'.
    paths = until(
        wall,
        lambda d: sheet(d, 0).find_elements("css selector", "path, polyline") or None,
        "Ana's sheet on the wall has no path",
    )
    assert any((p.get_attribute("d") or p.get_attribute("points") or "").strip() for p in paths)
    for seat in (1, 2):
        assert sheet(wall, seat).get_attribute("data-strokes") == "0"
