"""The host's remote (issue 50): the teacher's phone, at another address, takes the host's key from
the laptop's one-time QR only once the laptop allows it, and drives every control of the room from
there; a second scan, a wrong key and an old key get what a wrong code gets; a renewed key blanks it."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from playwright.sync_api import expect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.browser.test_accessibility import assert_accessible
from tests.browser.test_room_life import phone, told
from tests.faults.proxy import Proxy

WAIT = 20_000

ROOM = """
r = tables.create_room("dixit", options={"audience": True, "pace": "relaxed"}, language="en", seed=5)
tokens = [tables.join(r.code, n).token for n in ("Ana", "Bo", "Cy", "Dee")]
member = tables.join_audience(r.code, "Zoe")
print(json.dumps({"code": r.code, "host": r.host_token, "tokens": tokens, "member": member.id}))
"""
VIEW = "v = tables.view(sys.argv[1]); print(json.dumps({k: v.get(k) for k in sys.argv[2:]}))"


def view(srv, code: str, *fields: str) -> dict:
    return json.loads(srv.python(VIEW, code, *fields))


def hello_answer(srv, code: str, hello: dict):
    """What a stage socket is told for `hello`: a close code, or "screen"."""
    try:
        with connect(f"ws://127.0.0.1:{srv.port}/stage/{code}", open_timeout=5) as ws:
            ws.send(json.dumps({"hello": hello}))
            while True:
                if '"html"' in ws.recv(timeout=5):
                    return "screen"
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def open_(remote, label: str) -> None:
    """Open a question of the remote (a <details>: what discards play asks first)."""
    remote.locator("summary", has_text=label).click()


def tap(remote, testid: str) -> None:
    button = remote.get_by_test_id(testid)
    expect(button).to_be_enabled(timeout=WAIT)
    button.click()


def test_the_teachers_phone_hosts_from_the_laptops_qr_and_drives_every_control(house, browser):
    srv = house  # rooms of its own on the worker's server
    proxy = Proxy(srv.port)  # the teacher's phone: another address of the laptop (127.0.0.2)
    try:
        room = json.loads(srv.python(ROOM))
        code = room["code"]
        wall = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        wall.goto(f"{srv.url}/table?room={code}&host={room['host']}")
        expect(wall.locator(".sm-lobby")).to_be_visible(timeout=WAIT)
        wall.keyboard.press("Escape")  # the host menu
        wall.get_by_role("button", name="Host from your phone").click()
        link = wall.locator("a.sm-pair-link").get_attribute("href", timeout=WAIT)
        scanned = proxy.url + urlsplit(link).path + "?" + urlsplit(link).query

        teacher = phone(browser)
        teacher.goto(scanned)
        expect(teacher.get_by_text("Waiting for the laptop to allow this phone")).to_be_visible(timeout=WAIT)
        thief = phone(browser)  # the same QR scanned again: nothing
        thief.goto(scanned)
        expect(thief.get_by_text("This host QR code no longer works", exact=False)).to_be_visible(timeout=WAIT)
        expect(wall.get_by_text("A phone wants to host this room", exact=False)).to_be_visible(timeout=WAIT)
        wall.get_by_role("button", name="Allow").click()
        remote = teacher.locator("[data-testid=remote]")
        expect(remote).to_be_visible(timeout=WAIT)
        expect(thief.locator("[data-testid=remote]")).to_have_count(0)
        # a teacher who plays: the seat's page on that phone has a Host tab, another phone none
        seat = teacher.context.new_page()
        seat.goto(f"{proxy.url}/play?room={code}&seat=0&token={room['tokens'][0]}")
        expect(seat.get_by_test_id("host-tab")).to_have_attribute("href", f"/remote?room={code}", timeout=WAIT)
        other = thief.context.new_page()
        other.goto(f"{proxy.url}/play?room={code}&seat=1&token={room['tokens'][1]}")
        expect(other.get_by_text("You're in as Bo")).to_be_visible(timeout=WAIT)
        expect(other.get_by_test_id("host-tab")).to_have_count(0)
        seat.close()
        other.close()
        wall.keyboard.press("Escape")
        assert_accessible(teacher, "the remote in the lobby")
        assert_accessible(wall, "the wall's lobby")
        # the host's count is the wall's
        expect(teacher.get_by_test_id("remote-audience")).to_have_text("1 in the audience")
        expect(wall.get_by_test_id("audience-size")).to_have_text("👀 1 in the audience")

        # every control once, each seen in the room
        tap(teacher, "remote-audience-close")
        expect(teacher.get_by_test_id("remote-audience-open")).to_be_visible(timeout=WAIT)
        tap(teacher, "remote-audience-open")
        open_(teacher, "Remove someone from the audience")
        open_(teacher, "Remove Zoe")
        tap(teacher, "yes-sm-member-0")
        expect(teacher.get_by_test_id("remote-audience")).to_have_text("0 in the audience", timeout=WAIT)
        open_(teacher, "Remove a player")
        open_(teacher, "Remove Dee")
        tap(teacher, "yes-sm-kick-3")
        expect(wall.locator(".sm-lobby-names li")).to_have_count(3, timeout=WAIT)
        tap(teacher, "remote-start")
        expect(wall.locator(".sm-stage:not(.sm-lobby)")).to_be_visible(timeout=WAIT)
        tap(teacher, "remote-pause")
        tap(teacher, "remote-more")  # paused: 30 s more when it runs again
        tap(teacher, "remote-resume")
        teacher.get_by_text("Español", exact=True).click()  # the reader's own language, turning mid-game
        expect(teacher.get_by_test_id("remote-next")).to_have_text("⏭ Siguiente", timeout=WAIT)
        assert_accessible(teacher, "the remote during play, in Spanish")
        teacher.get_by_text("English", exact=True).click()
        expect(teacher.get_by_test_id("remote-next")).to_have_text("⏭ Next", timeout=WAIT)
        tap(teacher, "remote-pace-brisk")
        expect(teacher.get_by_test_id("remote-pace-brisk")).to_have_attribute("aria-pressed", "true", timeout=WAIT)
        # the wall's own host menu follows: its page runs again, and shows the room's pace
        chosen = wall.locator(".st-key-clock-pace button[aria-checked='true']")
        expect(chosen).to_have_text("Brisk", timeout=WAIT)
        tap(teacher, "remote-hold")
        tap(teacher, "remote-next")
        told(srv, code, room["tokens"])  # Ana tells: the table waits for Bo and Cy
        open_(teacher, "Skip a player who went away")
        open_(teacher, "Skip Bo")
        tap(teacher, "yes-sm-skip-1")
        expect(teacher.locator("summary", has_text="Skip Bo")).to_have_count(0, timeout=WAIT)
        tap(teacher, "remote-mute")
        expect(teacher.get_by_test_id("remote-unmute")).to_be_visible(timeout=WAIT)
        tap(teacher, "remote-quieter")
        expect(wall.locator(".sm-sound-setting")).to_have_attribute("data-muted", "1", timeout=WAIT)
        expect(wall.locator(".sm-sound-setting")).to_have_attribute("data-volume", "60")
        tap(teacher, "remote-unmute")
        open_(teacher, "End the game now")
        tap(teacher, "yes-sm-end")
        tap(teacher, "remote-again")  # a new game at once, the same seats
        expect(teacher.locator("summary", has_text="End the game now")).to_be_visible(timeout=WAIT)
        seen = view(srv, code, "status", "names", "pace", "game_no")
        assert seen == {"status": "playing", "names": ["Ana", "Bo", "Cy"], "pace": "brisk", "game_no": 2}, seen
        assert "host" not in teacher.url and room["host"] not in teacher.url

        # a wrong key gets what a wrong code gets; the right one a screen; an old one, once renewed, nothing
        wrong_code = hello_answer(srv, "ZZZZ", {"host": room["host"], "remote": True, "lang": "en"})
        assert hello_answer(srv, code, {"host": "junk-key", "remote": True, "lang": "en"}) == wrong_code == 4401
        assert hello_answer(srv, code, {"host": room["host"], "remote": True, "lang": "en"}) == "screen"
        srv.python("tables.renew_host_token(sys.argv[1]); print(1)", code)
        expect(teacher.get_by_test_id("removed")).to_be_visible(timeout=WAIT)
        expect(teacher.get_by_text("no longer has the host controls", exact=False)).to_be_visible()
        assert hello_answer(srv, code, {"host": room["host"], "remote": True, "lang": "en"}) == 4401
    finally:
        proxy.close()
