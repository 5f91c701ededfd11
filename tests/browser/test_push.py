"""Push updates reach every open tab of a room, without polling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import boots, on_the_new_process

DEMO = Path(__file__).with_name("push_demo_app.py")
CONNECTED = "code => window.__sobremesaPushRooms?.[code]?.connected === true"


def open_room(context, url: str, code: str, query: str = "") -> Page:
    page = context.new_page()
    page.goto(f"{url}/?room={code}{query}")
    expect(page.get_by_text("counter: ")).to_be_visible(timeout=20_000)
    page.wait_for_function(CONNECTED, arg=code, timeout=10_000)
    return page


def push_info(page: Page, code: str) -> dict:
    return page.evaluate("code => window.__sobremesaPushRooms[code]", code)


def test_eight_tabs_all_see_one_bump(serve, browser):
    srv = serve(DEMO)
    context = browser.new_context()
    try:
        # odd tabs say which seat they are (/events/EIGHT?seat=n), as phones do
        pages = [open_room(context, srv.url, "EIGHT", f"&seat={i}" if i % 2 else "") for i in range(8)]
        assert json.loads(srv.get("/live/stats"))["sockets"] == {"EIGHT": 8}

        srv.post("/bump/EIGHT")
        for page in pages:  # the 8th included: WebSockets have no 6-per-host cap
            expect(page.get_by_text("counter: 1", exact=True)).to_be_visible(timeout=5_000)

        for page in pages:
            info = push_info(page, "EIGHT")
            assert info["connects"] == 1, info  # one socket, reused across reruns
            assert info["rendered"] == 1, info
            # listener mounted inside an st.fragment: only the fragment reran
            expect(page.get_by_text("full runs: 1", exact=True)).to_be_visible()

        # a move made in one tab (script thread -> live.notify) reaches the others
        pages[3].get_by_role("button", name="bump").click()
        for page in pages:
            expect(page.get_by_text("counter: 2", exact=True)).to_be_visible(timeout=5_000)
    finally:
        context.close()


def test_top_level_listener_reruns_whole_page(serve, browser):
    srv = serve(DEMO, env={"PUSH_DEMO_MODE": "page"})
    context = browser.new_context()
    try:
        page = open_room(context, srv.url, "PAGE")
        expect(page.get_by_text("full runs: 1", exact=True)).to_be_visible()
        srv.post("/bump/PAGE")
        expect(page.get_by_text("counter: 1", exact=True)).to_be_visible(timeout=5_000)
        expect(page.get_by_text("full runs: 2", exact=True)).to_be_visible()
    finally:
        context.close()


def test_reconnects_after_server_restart(serve, browser):
    srv = serve(DEMO)
    context = browser.new_context()
    try:
        page = open_room(context, srv.url, "BOOT")
        srv.post("/bump/BOOT")
        expect(page.get_by_text("counter: 1", exact=True)).to_be_visible(timeout=5_000)

        old, socket_boot = boots(page, "BOOT")
        assert old and old == socket_boot
        srv.restart()  # same port, same SOBREMESA_DATA: the counter file survives
        # The page was drawn by the process that stopped: its Streamlit session is gone, so the page
        # reloads itself once (pages/assets/push.js) and connects to the new process, unless
        # Streamlit's own reconnection reran it there first.
        # Polled from here: a wait_for_function set up while the page reloads can miss the new page.
        on_the_new_process(page, "BOOT", old, within=40)  # the socket's back-off (up to 10 s), then the reload
        srv.post("/bump/BOOT")
        expect(page.get_by_text("counter: 2", exact=True)).to_be_visible(timeout=10_000)
        info = push_info(page, "BOOT")
        assert info["state"] == "open", info
    finally:
        context.close()


BLOCK_EVENTS_SOCKET = r"""
(() => {
  const Real = window.WebSocket;
  function Patched(url, protocols) {  // /events/ sockets go nowhere; Streamlit's own work
    if (String(url).includes("/events/")) url = "ws://127.0.0.1:9/";
    return new Real(url, protocols);
  }
  Patched.prototype = Real.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Patched[k] = Real[k];
  window.WebSocket = Patched;
})();
"""


def test_falls_back_to_polling_when_websocket_fails(serve, browser):
    srv = serve(DEMO)
    context = browser.new_context()
    context.add_init_script(BLOCK_EVENTS_SOCKET)
    try:
        page = context.new_page()
        page.goto(f"{srv.url}/?room=POLL")
        expect(page.get_by_text("counter: 0", exact=True)).to_be_visible(timeout=20_000)
        page.wait_for_function("c => window.__sobremesaPushRooms?.[c]?.state === 'polling'", arg="POLL", timeout=15_000)
        srv.post("/bump/POLL")
        expect(page.get_by_text("counter: 1", exact=True)).to_be_visible(timeout=6_000)
        assert push_info(page, "POLL")["connects"] == 0
    finally:
        context.close()


def test_route_refuses_malformed_code(serve):
    pytest.importorskip("websockets")
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect  # sync: Playwright owns the loop

    srv = serve(DEMO)
    ws_url = srv.url.replace("http", "ws", 1)
    with connect(f"{ws_url}/events/KQZP", open_timeout=5) as ws:
        assert json.loads(ws.recv(timeout=5))["version"] is None
    with connect(f"{ws_url}/events/not-a-code", open_timeout=5) as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
    assert srv.get("/_stcore/health") == b"ok"
