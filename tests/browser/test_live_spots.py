"""Live spots (engine/push/spots.py): a move that changes only whom the table waits for, how many
cards are given, or who is connected is drawn in place on the wall and on the phones that show it,
with no Streamlit rerun; a phase change reruns every other tab once."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_room_life import WAIT, phone, seated_room, tables_call, told

RERUNS = "code => window.__sobremesaPushRooms?.[code]?.reruns"
SHOWN = "([code, v]) => String(v) in (window.__sobremesaPushRooms?.[code]?.shownAt ?? {})"
SPOT = "[data-sm-spot$=':{}']"


def give(srv, code: str, seat: int, token: str) -> int:
    return tables_call(
        srv,
        f"v = tables.view('{code}', {seat}, '{token}')\n"
        f"print(tables.submit('{code}', {seat}, '{token}', "
        f"{{'type': 'give', 'cards': v['hand'][:v['gives_per_player']]}}))",
    )


def test_the_wall_and_a_waiting_phone_draw_each_give_in_place_and_rerun_at_the_vote(serve, browser):
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy", "Di"), start=True)
    code, tokens = room["code"], room["tokens"]
    told_at = told(srv, code, tokens)
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}")
    ana = phone(browser)  # the storyteller: she waits on everyone else
    ana.goto(f"{srv.url}/play?room={code}&seat=0&token={tokens[0]}")
    for page in (wall, ana):
        page.wait_for_function(SHOWN, arg=[code, told_at], timeout=WAIT)
    waiting, count = wall.locator(SPOT.format("waiting")), wall.locator(SPOT.format("count"))
    expect(waiting).to_have_text("Waiting for: Bo, Cy, Di", timeout=WAIT)
    expect(count).to_have_text("Cards given: 0 of 3")
    expect(ana.locator(SPOT.format("waiting"))).to_have_text("Waiting for: Bo, Cy, Di")
    # Ana's phone has a socket open: her dot on the wall is green; Bo's is not
    seats = wall.locator(SPOT.format("seats"))
    expect(seats.locator(".sm-seat.on")).to_have_count(1, timeout=WAIT)
    expect(seats.locator(".sm-seat.on")).to_contain_text("Ana")
    wall_runs, ana_runs = wall.evaluate(RERUNS, code), ana.evaluate(RERUNS, code)

    gave = None
    for seat, left, given in ((2, "Bo, Di", 1), (3, "Bo", 2)):
        gave = give(srv, code, seat, tokens[seat])
        for page in (wall, ana):
            page.wait_for_function(SHOWN, arg=[code, gave], timeout=WAIT)
        expect(waiting).to_have_text(f"Waiting for: {left}")
        expect(count).to_have_text(f"Cards given: {given} of 3")
        expect(ana.locator(SPOT.format("waiting"))).to_have_text(f"Waiting for: {left}")
        assert "⏳" not in seats.locator(".sm-seat").nth(seat).inner_text()
    assert wall.evaluate(RERUNS, code) == wall_runs  # every give drawn in place
    assert ana.evaluate(RERUNS, code) == ana_runs

    bo = phone(browser)  # Bo's phone connects: news for the wall's seats, still no rerun
    bo.goto(f"{srv.url}/play?room={code}&seat=1&token={tokens[1]}")
    expect(seats.locator(".sm-seat.on")).to_have_count(2, timeout=WAIT)
    assert wall.evaluate(RERUNS, code) == wall_runs

    voting = give(srv, code, 1, tokens[1])  # the last give: the vote begins, a new screen everywhere
    for page in (wall, ana):
        page.wait_for_function(SHOWN, arg=[code, voting], timeout=WAIT)
    expect(wall.get_by_text("Find the storyteller's card: vote on your phone")).to_be_visible(timeout=WAIT)
    expect(count).to_have_text("Votes cast: 0 of 3")
    assert wall.evaluate(RERUNS, code) == wall_runs + 1
    assert ana.evaluate(RERUNS, code) == ana_runs + 1


def test_a_wall_whose_socket_dropped_shows_the_moves_it_missed(serve, browser):
    """Moves made while the wall's socket is down reach it on reconnecting: the waiting line and the
    count show the room as it is, not as the last spots left it."""
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code, tokens = room["code"], room["tokens"]
    told_at = told(srv, code, tokens)
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}")
    wall.wait_for_function(SHOWN, arg=[code, told_at], timeout=WAIT)
    expect(wall.locator(SPOT.format("waiting"))).to_have_text("Waiting for: Bo, Cy", timeout=WAIT)
    # the socket drops (a proxy restarts, Wi-Fi blinks) and stays down while Cy gives
    wall.evaluate(
        """(code) => { const c = globalThis.__sobremesaPushRegistry.get(code);
        c.closing = true; c.ws.close(); }""",
        code,
    )
    gave = give(srv, code, 2, tokens[2])
    wall.wait_for_timeout(500)
    expect(wall.locator(SPOT.format("count"))).to_have_text("Cards given: 0 of 2")  # still the old state
    wall.evaluate(
        """(code) => { const c = globalThis.__sobremesaPushRegistry.get(code);
        c.closing = false; c.resync = true; c.gotHello = false; c.ws = null; c.attempt = 0; c.retryTimer = null;
        document.dispatchEvent(new Event('visibilitychange')); }""",
        code,
    )
    wall.wait_for_function(SHOWN, arg=[code, gave], timeout=WAIT)
    expect(wall.locator(SPOT.format("waiting"))).to_have_text("Waiting for: Bo")
    expect(wall.locator(SPOT.format("count"))).to_have_text("Cards given: 1 of 2")
