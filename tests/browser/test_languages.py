"""Languages in a real browser: the start page follows the browser's language, a room's language is
its players' default, and a player can switch their own tab."""

from __future__ import annotations

from playwright.sync_api import expect

from engine import i18n
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
