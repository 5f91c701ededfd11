"""The wall on the stage: each give is drawn in place (the count and the waiting line), and a wall
whose socket dropped shows the moves it missed once it is back, with no rerun and no reload."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_room_life import WAIT, seated_room, tables_call, told

RERUNS = "code => window.__sobremesaPushRooms?.[code]?.reruns"
SHOWN = "([code, v]) => (window.__sobremesaPushRooms?.[code]?.rendered ?? -1) >= v"


def give(srv, code: str, seat: int, token: str) -> int:
    return tables_call(
        srv,
        f"v = tables.view('{code}', {seat}, '{token}')\n"
        f"print(tables.submit('{code}', {seat}, '{token}', {{'type': 'give', 'cards': v['hand'][:v['gives_per_player']]}}))",
    )


def test_the_wall_draws_each_give_in_place_and_the_vote_with_no_rerun(serve, browser):
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code, tokens = room["code"], room["tokens"]
    told_at = told(srv, code, tokens)
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}")
    wall.wait_for_function(SHOWN, arg=[code, told_at], timeout=WAIT, polling=100)
    foot = wall.locator(".sm-foot")
    expect(foot).to_contain_text("Cards given: 0 of 2", timeout=WAIT)
    expect(foot).to_contain_text("Waiting for: Bo, Cy")
    gave = give(srv, code, 2, tokens[2])
    wall.wait_for_function(SHOWN, arg=[code, gave], timeout=WAIT, polling=100)
    expect(foot).to_contain_text("Cards given: 1 of 2")
    voting = give(srv, code, 1, tokens[1])
    wall.wait_for_function(SHOWN, arg=[code, voting], timeout=WAIT, polling=100)
    expect(wall.get_by_text("Find the storyteller's card: vote on your phone")).to_be_visible(timeout=WAIT)
    expect(foot).to_contain_text("Votes cast: 0 of 2")
    table = tables_call(srv, f"print(len(tables.view('{code}')['table']))")
    expect(wall.locator(".sm-main [data-testid=card]")).to_have_count(table)
    assert wall.evaluate(RERUNS, code) == 0


def test_a_wall_whose_socket_dropped_shows_the_moves_it_missed(serve, browser):
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code, tokens = room["code"], room["tokens"]
    told_at = told(srv, code, tokens)
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}")
    wall.wait_for_function(SHOWN, arg=[code, told_at], timeout=WAIT, polling=100)
    # The socket drops (a proxy restarts, Wi-Fi blinks) and stays down while Cy gives.
    wall.evaluate("() => { const s = [...globalThis.__sobremesaStages.values()][0]; s.gone = true; s.ws.close(); }")
    gave = give(srv, code, 2, tokens[2])
    wall.wait_for_timeout(500)
    expect(wall.locator(".sm-foot")).to_contain_text("Cards given: 0 of 2")  # still the old state
    wall.evaluate(
        "() => { const s = [...globalThis.__sobremesaStages.values()][0]; s.gone = false; s.timer = null; "
        "document.dispatchEvent(new Event('visibilitychange')); }"
    )
    wall.wait_for_function(SHOWN, arg=[code, gave], timeout=WAIT, polling=100)
    expect(wall.locator(".sm-foot")).to_contain_text("Cards given: 1 of 2")
    expect(wall.locator(".sm-foot")).to_contain_text("Waiting for: Bo")
