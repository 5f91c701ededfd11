"""A host and four players, each in their own Chromium context (one at phone size), join through
the QR link and play one full turn of Dixit through the UI: tell, give, vote, reveal."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import ROOT, boots, host_menu, on_the_new_process

NAMES = ["Ana", "Bo", "Cy", "Di"]
WAIT = 20_000


def api(srv, code: str) -> dict:
    """The room as the server stored it, read by a separate process on the same database."""
    script = (
        "import json,sys; from engine import tables; code=sys.argv[1]; print(json.dumps({'view': tables.view(code)}))"
    )
    return json.loads(srv.python(script, code))["view"]


def pick_and_confirm(page, nth: int = 0, enabled_only: bool = False):
    cards = page.locator("[data-testid=card]:not(.off)" if enabled_only else "[data-testid=card]")
    expect(cards.first).to_be_visible(timeout=WAIT)
    picked = page.locator("[data-testid=card].picked")
    for _ in range(3):  # the highlight is what a player looks for before confirming
        if picked.count():
            break
        cards.nth(nth).click()
        try:
            expect(picked.first).to_be_visible(timeout=3000)
        except AssertionError:
            continue
    page.locator("[data-testid=confirm-pick]").click(timeout=WAIT)


def test_host_and_four_players_play_one_turn(serve, browser):
    srv = serve("app.py")
    host = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    host.goto(srv.url + "/")
    host.get_by_role("button", name="Create the room").click()
    expect(host.get_by_text("Join Dixit")).to_be_visible(timeout=WAIT)
    code = host.url.split("room=")[1].split("&")[0]

    players = []
    for i, name in enumerate(NAMES):
        if i == 0:
            ctx = browser.new_context(
                viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2
            )
        else:
            ctx = browser.new_context(viewport={"width": 1000, "height": 900})
        page = ctx.new_page()
        page.goto(f"{srv.url}/play?room={code}")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Take a seat").click()
        expect(page.get_by_text(f"You're in as {name}")).to_be_visible(timeout=WAIT)
        players.append(page)

    # Pushed to the shared screen: every name arrives without a reload, and shows as connected.
    for name in NAMES:
        expect(host.locator(".sm-seat.on", has_text=name)).to_be_visible(timeout=WAIT)
    host_menu(host)  # the host menu: Esc on the wall (issue 50)
    host.get_by_role("button", name="Start the game with 4 players").click()
    host.keyboard.press("Escape")  # the menu closes: the stage alone

    ana = players[0]
    ana.get_by_role("button", name="I have a phrase!").click(timeout=WAIT)
    ana.get_by_label("Your phrase").fill("Where is happiness?")
    pick_and_confirm(ana)
    expect(host.get_by_text("“Where is happiness?”")).to_be_visible(timeout=WAIT)

    for page in players[1:]:
        expect(page.get_by_role("button", name="Give this card")).to_be_visible(timeout=WAIT)
        pick_and_confirm(page)
    for page in players[1:]:
        expect(page.get_by_role("button", name="Vote for this card")).to_be_visible(timeout=WAIT)
        pick_and_confirm(page, enabled_only=True)

    # The shared screen reveals the turn by itself (pushed), then shows the stored scores.
    expect(host.get_by_text("the storyteller's card was", exact=False)).to_be_visible(timeout=WAIT)
    stored = api(srv, code)
    turn = stored["history"][0]
    assert stored["phase"] == "tell" and len(turn["votes"]) == 3 and turn["phrase"] == "Where is happiness?"
    panel = host.locator(".sm-seat")
    for seat, name in enumerate(NAMES):
        expect(panel.filter(has_text=name)).to_contain_text(str(stored["scores"][seat]), timeout=WAIT)
    assert sum(stored["scores"]) > 0
    os.environ.get("KEEP_SHOTS") and host.screenshot(path=str(ROOT / "docs" / "shared-screen.png"))


def test_a_restart_mid_game_loses_nothing_and_tabs_reconnect(serve, browser):
    srv = serve("app.py")
    script = (
        "import json,sys; from engine import tables; r=tables.create_room('dixit', seed=4); "
        "s=[tables.join(r.code, n) for n in ('Ana','Bo','Cy')]; tables.start(r.code, r.host_token); "
        "print(json.dumps({'code': r.code, 'seats': [[x.seat, x.token] for x in s]}))"
    )
    room = json.loads(srv.python(script))
    code, (_, ana_token) = room["code"], room["seats"][0]
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(f"{srv.url}/play?room={code}&seat=0&token={ana_token}")
    page.get_by_role("button", name="I have a phrase!").click(timeout=WAIT)
    expect(page.get_by_role("button", name="Tell with this card")).to_be_visible(timeout=WAIT)
    expect(page.get_by_label("Your phrase")).to_be_visible(timeout=WAIT)  # every script loaded
    old, socket_boot = boots(page, code)
    assert old and old == socket_boot
    srv.restart()
    # The same tab, with no reload by hand, comes back on the new process and goes on from the exact
    # state. A tap made while it was still reconnecting may be lost, so tap again as a player would.
    on_the_new_process(page, code, old, within=WAIT / 1000 + 20)
    told = page.get_by_text("You told. Your card for the story:")
    for _ in range(3):
        pick_and_confirm(page)
        try:
            expect(told).to_be_visible(timeout=5000)
            break
        except AssertionError:
            continue
    expect(told).to_be_visible(timeout=WAIT)
    assert api(srv, code)["phase"] == "give"


def test_moves_from_another_process_reach_open_tabs(serve, browser):
    """A bot or script using the Python API in its own process: the server passes it on."""
    srv = serve("app.py")
    script = "import sys; from engine import tables; r=tables.create_room('dixit'); print(r.code)"
    code = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=srv.env, capture_output=True, text=True, check=True
    ).stdout.strip()
    screen = browser.new_page()
    screen.goto(f"{srv.url}/table?room={code}")
    expect(screen.get_by_text("Join Dixit")).to_be_visible(timeout=WAIT)
    subprocess.run(
        [sys.executable, "-c", f"from engine import tables; tables.join('{code}', 'Zoé')"],
        cwd=ROOT,
        env=srv.env,
        check=True,
    )
    expect(screen.locator(".sm-seat", has_text="Zoé")).to_be_visible(timeout=5000)


def test_eight_tabs_in_one_browser_all_get_pushed_updates(serve, browser):
    """A host's laptop with the shared screen and several tabs open: HTTP/1.1's six connections per
    host would starve a seventh event stream; WebSockets do not share that limit."""
    srv = serve("app.py")
    script = (
        "import json; from engine import tables; r=tables.create_room('dixit'); "
        "s=[tables.join(r.code, n) for n in ('Ana','Bo','Cy')]; tables.start(r.code, r.host_token); "
        "print(json.dumps([r.code, s[0].token]))"
    )
    code, ana_token = json.loads(srv.python(script))
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    ana = context.new_page()
    ana.goto(f"{srv.url}/play?room={code}&seat=0&token={ana_token}")
    screens = []
    for _ in range(7):
        page = context.new_page()
        page.goto(f"{srv.url}/table?room={code}")
        screens.append(page)
    for page in screens:
        page.wait_for_function(
            "(c) => window.__sobremesaPushRooms?.[c]?.connected", arg=code, timeout=WAIT, polling=100
        )
    ana.get_by_role("button", name="I have a phrase!").click(timeout=WAIT)
    for page in reversed(screens):  # the eighth tab first
        expect(page.get_by_text("Ana is the storyteller")).to_be_visible(timeout=WAIT)
