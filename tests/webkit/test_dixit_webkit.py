"""Dixit in Safari's engine: two iPhone-sized WebKit phones join by taps and play one turn (the
storyteller tells, the other gives and votes), a third seat plays through engine.tables on the
server's database, and the shared screen, another WebKit window, follows each step to the reveal."""

from __future__ import annotations

import time

import pytest

from engine import tables
from tests.webkit.drive import button, deep, find, showing, shows, tap_until, type_into, until

pytestmark = pytest.mark.webkit

PHRASE = "Where is happiness?"


def pick_and_confirm(phone, done: str, count: int = 1, enabled_only: bool = False) -> None:
    """Tap `count` cards, each until it shows as picked (a tap can land on a grid a rerun has just
    replaced), then the confirm button under them until the phone says `done` (the cards live in the
    card component's shadow root)."""
    free = "[data-testid=card]:not(.picked)" + (":not(.off)" if enabled_only else "")
    for n in range(1, count + 1):
        tap_until(
            phone,
            lambda d: find(d, free),
            lambda d, n=n: len(deep(d, "[data-testid=card].picked")) == n,
            f"{n} card(s) never showed as picked",
        )
    confirm = lambda d: next((b for b in deep(d, "[data-testid=confirm-pick]") if b.is_enabled()), None)  # noqa: E731
    tap_until(
        phone,
        lambda d: until(d, confirm, "the confirm button never came on"),
        showing(done),
        f"{done!r} never showed after confirming",
    )


def api_move(code: str, seat, kind: str) -> None:
    """The third seat's move through the service, like any client: its first legal one."""
    move = next(m for m in tables.legal(code, seat.seat, seat.token) if m["type"] == kind)
    tables.submit(code, seat.seat, seat.token, move)


def seat_row(wall, name: str) -> str:
    rows = [el.get_attribute("innerText") for el in deep(wall, ".sm-seat")]
    return next((r for r in rows if name in r), "")


def open_host_menu(wall) -> None:
    """Esc on the host's wall, as the teacher presses it, until its host menu shows."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    until(wall, lambda d: d.execute_script("return document.querySelector('.sm-stage') !== null"), "no stage")
    for _ in range(40):
        if wall.execute_script("return document.body.classList.contains('sm-menu-open')"):
            return
        ActionChains(wall).send_keys(Keys.ESCAPE).perform()
        time.sleep(0.25)
    raise AssertionError("Esc never opened the host menu")


def test_a_dixit_turn_by_taps_with_the_wall_following(serve, webkit, monkeypatch):
    srv = serve()
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])  # this process, the server's database
    tables.reset()
    room = tables.create_room("dixit", seed=4, language="en")
    code = room.code

    wall = webkit.wall()
    wall.get(f"{srv.url}/table?room={code}&host={room.host_token}")  # moved into the tab's session
    shows(wall, "Join Dixit")

    phones = []
    for name in ("Ana", "Bo"):
        phone = webkit.phone()
        phone.get(f"{srv.url}/play?room={code}")
        type_into(phone, "Your name", name)
        tap_until(
            phone, lambda d: button(d, "Take a seat"), showing(f"You're in as {name}"), f"{name} never got a seat"
        )
        phones.append(phone)
    ana, bo = phones
    cy = tables.join(code, "Cy")
    for name in ("Ana", "Bo", "Cy"):  # pushed to the wall
        until(wall, lambda d, name=name: name in seat_row(d, name), f"{name} never showed on the wall")
    open_host_menu(wall)  # Esc on the wall (issue 50): the start button is in the host menu
    tap_until(
        wall,
        lambda d: button(d, "Start the game with 3 players"),
        lambda d: tables.view(code)["status"] == "playing",
        "the game never started",
    )

    # Tell: Ana claims the first turn, types her phrase and taps a card.
    tap_until(
        ana,
        lambda d: button(d, "I have a phrase!"),
        lambda d: deep(d, "input[aria-label^='Your phrase']"),
        "the phrase box never showed",
    )
    type_into(ana, "Your phrase", PHRASE)
    pick_and_confirm(ana, "You told. Your card for the story:")
    shows(wall, f"“{PHRASE}”")
    assert tables.view(code)["storyteller"] == 0

    # Give: Bo by taps, Cy through the service; with three players each gives two cards.
    button(bo, "Give these cards")
    pick_and_confirm(bo, "You gave:", 2)
    api_move(code, cy, "give")

    # Vote: the wall shows the five cards face up; Bo taps one that is not his own.
    shows(wall, "Find the storyteller's card: vote on your phone")
    until(wall, lambda d: len(deep(d, "[data-testid=card]")) == 5, "the wall never showed the 5 cards")
    button(bo, "Vote for this card")
    pick_and_confirm(bo, "You voted for card", 1, enabled_only=True)
    api_move(code, cy, "vote")

    # Reveal: the wall turns the cards over by itself (pushed) and shows the stored scores.
    shows(wall, "the storyteller's card was")
    stored = tables.view(code)
    turn = stored["history"][0]
    assert turn["phrase"] == PHRASE and len(turn["votes"]) == 2 and stored["phase"] == "tell"
    story = next(p["card"] for p in turn["table"] if p["owner"] == 0)
    shown = until(
        wall,
        lambda d: [c.get_attribute("data-id") for c in deep(d, "[data-testid=card]")] or None,
        "no revealed cards on the wall",
    )
    assert sorted(shown) == sorted(p["card"] for p in turn["table"])
    glowing = deep(wall, "[data-testid=card].glow")  # the storyteller's card, named on its badge
    assert [c.get_attribute("data-id") for c in glowing] == [story]
    assert "storyteller Ana" in glowing[0].get_attribute("innerText")
    for seat, name in enumerate(("Ana", "Bo", "Cy")):
        score = str(stored["scores"][seat])
        until(
            wall,
            lambda d, score=score, name=name: score in seat_row(d, name).replace(name, ""),
            f"{name}'s score {score} never showed on the wall",
        )
    assert sum(stored["scores"]) > 0
