"""Languages in a real browser: the start page follows the browser's language, a room's language is
its players' default, and a player can switch their own tab."""

from __future__ import annotations

from playwright.sync_api import expect

from engine import i18n
from tests.browser.conftest import boots, host_menu, on_the_new_process
from tests.browser.test_room_life import WAIT, seated_room


def test_a_spanish_browser_sees_the_start_page_in_spanish(serve, browser):
    srv = serve("app.py")
    page = browser.new_context(locale="es-ES", viewport={"width": 390, "height": 844}).new_page()
    page.goto(srv.url + "/")
    expect(page.get_by_text(i18n.translate("es", "Join a game"), exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_role("button", name=i18n.translate("es", "Create the room"))).to_be_visible()
    assert page.get_by_text("Join a game", exact=True).count() == 0


def test_an_italian_room_speaks_italian_and_a_player_can_switch_their_own_tab(serve, browser):
    srv = serve("app.py")
    room = seated_room(srv, ("Ana",), language="it")
    page = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{srv.url}/play?room={room['code']}&seat=0&token={room['tokens'][0]}")
    waiting = "The host starts the game when everyone has joined ({count} so far)."
    expect(page.get_by_text(i18n.translate("it", waiting, count=1))).to_be_visible(timeout=WAIT)
    page.get_by_text("Español", exact=True).click()
    expect(page.get_by_text(i18n.translate("es", waiting, count=1))).to_be_visible(timeout=WAIT)


def test_a_tabs_language_comes_back_after_a_reload_and_a_restart(serve, browser):
    """The reader's choice is kept by the browser (pages/i18n.py, a cookie): the wall reloaded, or
    reconnected to a restarted server, and a phone reloaded, keep the language their reader chose."""
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy"))
    code = room["code"]
    controls = i18n.translate("es", "Host controls")
    start = i18n.translate_plural("es", "Start the game with {n} player", "Start the game with {n} players", 3)
    wall = browser.new_context(locale="en-GB", viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}&host={room['host']}")
    host_menu(wall)  # Esc on the wall (issue 50)
    expect(wall.get_by_role("button", name="Start the game with 3 players")).to_be_visible(timeout=WAIT)
    wall.get_by_text("Español", exact=True).click()
    expect(wall.get_by_role("button", name=start)).to_be_visible(timeout=WAIT)
    wall.wait_for_function("() => document.cookie.includes('sobremesa_lang=es')", timeout=WAIT, polling=100)

    for again in (wall.reload, srv.restart):  # the tab reloaded; the server restarted under it
        old = boots(wall, code)[0]
        again()
        if again == srv.restart:  # the page may reload itself once it reaches the new process
            on_the_new_process(wall, code, old)
        host_menu(wall, 60_000)
        expect(wall.get_by_role("button", name=start)).to_be_visible(timeout=60_000)
        expect(wall.get_by_text(controls, exact=True)).to_be_visible()
        expect(wall.get_by_text("Host controls", exact=True)).to_have_count(0)
    other = seated_room(srv, ("Di", "Ed", "Flo"))  # the next room's wall opens in that room's language
    wall.goto(f"{srv.url}/table?room={other['code']}&host={other['host']}")
    host_menu(wall)
    expect(wall.get_by_role("button", name="Start the game with 3 players")).to_be_visible(timeout=WAIT)

    phone = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    phone.goto(f"{srv.url}/play?room={code}&seat=1&token={room['tokens'][1]}")
    waiting = "The host starts the game when everyone has joined ({count} so far)."
    expect(phone.get_by_text(i18n.translate("en", waiting, count=3))).to_be_visible(timeout=WAIT)
    phone.get_by_text("Italiano", exact=True).click()
    expect(phone.get_by_text(i18n.translate("it", waiting, count=3))).to_be_visible(timeout=WAIT)
    phone.wait_for_function("() => document.cookie.includes('sobremesa_lang=it')", timeout=WAIT, polling=100)
    phone.reload()
    expect(phone.get_by_text(i18n.translate("it", waiting, count=3))).to_be_visible(timeout=WAIT)
