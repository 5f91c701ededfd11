"""One app socket per tab (issue 48): besides Streamlit's own (/_stcore/stream), the wall's tab (in
its lobby and in play, with the host's controls) and a Pictomania drawer's phone (its drawing pad
above the stage) each hold one socket of the app's: the stage's. What the old push socket carried
(the lobby's names, the host's reruns, the pad coming and going) comes over it."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.browser.conftest import host_menu
from tests.browser.test_room_life import WAIT, tables_call

COUNT_SOCKETS = """
(() => {
  const seen = (window.__sockets = { open: 0, most: 0, paths: [] });
  const Real = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Real(url) : new Real(url, protocols);
    const path = new URL(url).pathname;
    if (!path.startsWith("/_stcore/")) {
      seen.paths.push(path);
      ws.addEventListener("open", () => { seen.open++; seen.most = Math.max(seen.most, seen.open); });
      ws.addEventListener("close", () => { seen.open--; });
    }
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
"""


def sockets(page) -> dict:
    return page.evaluate("window.__sockets")


def test_the_walls_tab_and_a_drawers_phone_hold_one_app_socket_each(serve, browser):
    srv = serve("app.py")
    host = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    host.add_init_script(COUNT_SOCKETS)
    host.goto(srv.url + "/")
    host.get_by_role("combobox", name="Game").click()
    host.get_by_role("option", name="Pictomania", exact=False).click()
    host.get_by_role("button", name="Create the room").click()
    expect(host.get_by_text("Join Pictomania")).to_be_visible(timeout=WAIT)
    code = host.url.split("room=")[1].split("&")[0]
    tokens = tables_call(srv, f"print(json.dumps([tables.join('{code}', n).token for n in ('Ana', 'Bo', 'Cy')]))")
    for name in ("Ana", "Bo", "Cy"):  # the lobby's names come over the stage's socket
        expect(host.locator(".sm-seat", has_text=name)).to_be_visible(timeout=WAIT)
    assert sockets(host)["open"] == 1 and set(sockets(host)["paths"]) == {f"/stage/{code}"}
    ana = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    ana.add_init_script(COUNT_SOCKETS)
    ana.goto(f"{srv.url}/play?room={code}&seat=0&token={tokens[0]}")
    host_menu(host)  # the host menu: Esc on the wall (issue 50)
    host.get_by_role("button", name="Start the game with 3 players").click()
    host.keyboard.press("Escape")  # the menu closes: the stage alone
    deadline = time.monotonic() + WAIT / 1000  # the click's run has started the game
    while tables_call(srv, f"print(json.dumps(tables.view('{code}')['status']))") != "playing":
        assert time.monotonic() < deadline, "the game never started"
        time.sleep(0.2)
    ready = "; ".join(f"tables.submit('{code}', {s}, '{t}', {{'type': 'ready'}})" for s, t in enumerate(tokens))
    tables_call(srv, ready + "; print(0)")
    expect(ana.get_by_text("Only you see this", exact=False)).to_be_visible(timeout=WAIT)  # the drawing pad came
    expect(host.locator(".sm-stage")).to_be_visible(timeout=WAIT)  # the wall is the game's stage now
    for page in (host, ana):
        seen = sockets(page)
        assert seen["open"] == 1 and seen["most"] == 1, seen
        assert {p.split("/")[1] for p in seen["paths"]} == {"stage"}, seen
