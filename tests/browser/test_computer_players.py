"""One person's phone, two computer players and the shared screen play a full turn of Dixit in
Chromium: the host seats the computer players in the lobby, they give and vote by themselves (the
server's own thread), and the wall shows the reveal."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.browser.conftest import host_menu
from tests.browser.test_dixit_turn import api, pick_and_confirm

WAIT = 30_000


def test_one_person_and_two_computer_players_play_a_full_turn(serve, browser):
    srv = serve("app.py")
    host = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    host.goto(srv.url + "/")
    host.get_by_role("button", name="Create the room").click()
    expect(host.get_by_text("Join Dixit")).to_be_visible(timeout=WAIT)
    code = host.url.split("room=")[1].split("&")[0]
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{srv.url}/play?room={code}")
    phone.get_by_label("Your name").fill("Ana")
    phone.get_by_role("button", name="Take a seat").click()
    expect(phone.get_by_text("You're in as Ana")).to_be_visible(timeout=WAIT)
    host_menu(host)  # the host menu: Esc on the wall (issue 50)
    for _ in range(2):
        host.get_by_role("button", name="Add a computer player").click()
    expect(host.locator(".sm-seat", has_text="🤖")).to_have_count(2, timeout=WAIT)
    host.get_by_role("button", name="Start the game with 3 players").click()
    host.keyboard.press("Escape")  # the menu closes: the stage alone

    phone.get_by_role("button", name="I have a phrase!").click(timeout=WAIT)
    expect(phone.get_by_label("Your phrase (required: the computer players read it")).to_be_visible(timeout=WAIT)
    phone.get_by_label("Your phrase (required").fill("A quiet morning by the sea")
    pick_and_confirm(phone)
    expect(host.get_by_text("“A quiet morning by the sea”")).to_be_visible(timeout=WAIT)
    # The computer players give and vote on their own, after a human-like delay each.
    start = time.monotonic()
    deadline = start + 40
    while api(srv, code)["phase"] != "tell" and time.monotonic() < deadline:
        # the turn closed: its reveal ends as its seconds would (tests play faster than a class watches)
        srv.python("past_the_reveal(sys.argv[1]); print(1)", code)
        time.sleep(0.3)
    stored = api(srv, code)
    assert stored["phase"] == "tell" and stored["history_length"] == 1, stored["phase"]
    assert time.monotonic() - start >= 2, "computer players answered with no human-like delay"
    turn = stored["last_turn"]
    assert turn["phrase"] == "A quiet morning by the sea" and len(turn["votes"]) == 2
    host.wait_for_function("c => window.__sobremesaPushRooms?.[c]?.rendered >= 0", arg=code, timeout=WAIT, polling=100)
    expect(host.get_by_text("Turn 2")).to_be_visible(timeout=WAIT)
