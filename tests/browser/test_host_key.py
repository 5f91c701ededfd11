"""The host's key outlives the server process that served the tab (pages/hostkey.py): it is kept in
the browser's storage, never in the address, and a host tab that reconnects to a new process takes
its controls back from there."""

from __future__ import annotations

import os
import signal

from playwright.sync_api import expect

from tests.browser.conftest import boots, host_menu, on_the_new_process
from tests.browser.test_room_life import WAIT, seated_room


def test_the_host_tab_keeps_its_controls_when_its_server_process_dies(serve, browser):
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy"))
    code = room["code"]
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}&host={room['host']}")  # an old host link: taken in, then removed
    host_menu(wall)  # Esc on the wall (issue 50)
    expect(wall.get_by_text("Host controls", exact=True)).to_be_visible(timeout=WAIT)
    assert "host=" not in wall.url
    wall.wait_for_function(
        "(c) => localStorage.getItem('sobremesa-host:' + c) !== null", arg=code, timeout=WAIT, polling=100
    )
    assert wall.evaluate("(c) => localStorage.getItem('sobremesa-host:' + c)", code) == room["host"]
    old, socket_boot = boots(wall, code)
    assert old and old == socket_boot

    os.killpg(srv.proc.pid, signal.SIGKILL)  # kill -9: its sessions die with it
    srv.proc.wait(10)
    srv.proc = None
    srv.start()  # a new process on the same address and database
    # The page may reload itself once its socket reaches the new process (stage.js `booted`): a
    # menu opened before that reload closes with it (CI, under load).
    on_the_new_process(wall, code, old, within=60)
    host_menu(wall, 60_000)
    expect(wall.get_by_role("button", name="Start the game with 3 players")).to_be_visible(timeout=60_000)
    assert "host=" not in wall.url

    other = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()  # another browser: no key
    other.goto(f"{srv.url}/table?room={code}")
    expect(other.get_by_text("Join Dixit")).to_be_visible(timeout=WAIT)
    expect(other.get_by_text("Host controls", exact=True)).to_have_count(0)


def test_a_link_with_a_wrong_host_key_replaces_nothing(serve, browser):
    """`/table?room=CODE&host=junk` once wrote 'junk' over the browser's real key for the room."""
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy"))
    code = room["code"]
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}&host={room['host']}")
    wall.wait_for_function(
        "(c) => localStorage.getItem('sobremesa-host:' + c) !== null", arg=code, timeout=WAIT, polling=100
    )

    wall.goto(f"{srv.url}/table?room={code}&host=junk-from-a-link")
    expect(wall.locator(".sm-menu-flash")).to_contain_text("That host link is not valid", timeout=WAIT)  # menu closed
    host_menu(wall)
    expect(
        wall.locator(".st-key-host-menu").get_by_text("That host link is not valid for this room any more")
    ).to_be_visible(timeout=WAIT)
    expect(wall.get_by_role("button", name="Start the game with 3 players")).to_be_visible(timeout=WAIT)
    assert wall.evaluate("(c) => localStorage.getItem('sobremesa-host:' + c)", code) == room["host"]
