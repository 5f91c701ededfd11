"""What gets a real room stuck, in real browsers: a seat that moves under an open tab, and a player
who lost their link getting back in through the host."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.browser.conftest import host_menu

WAIT = 20_000


def tables_call(srv, code: str):
    """Run Python with engine.tables in another process on the server's database; print JSON."""
    return json.loads(srv.python(code).strip().splitlines()[-1])


def seated_room(srv, names, *, start=False, language="en") -> dict:
    """A Dixit room made in another process: {code, host, tokens, version}."""
    return tables_call(
        srv,
        f"r = tables.create_room('dixit', language={language!r})\n"
        f"s = [tables.join(r.code, n).token for n in {tuple(names)!r}]\n"
        + ("tables.start(r.code, r.host_token)\n" if start else "")
        + "print(json.dumps({'code': r.code, 'host': r.host_token, 'tokens': s, "
        "'version': tables.version(r.code)}))",
    )


def told(srv, code: str, tokens: list) -> int:
    """Ana (seat 0) claims the first turn and tells, from another process; returns the version."""
    return tables_call(
        srv,
        f"tables.submit('{code}', 0, '{tokens[0]}', {{'type': 'claim'}})\n"
        f"v = tables.view('{code}', 0, '{tokens[0]}')\n"
        f"print(tables.submit('{code}', 0, '{tokens[0]}', "
        f"{{'type': 'tell', 'card': v['hand'][0], 'phrase': 'the sea'}}))",
    )


def phone(browser):
    return browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()


def test_a_lobby_removal_moves_the_next_tab_to_its_new_seat_without_a_reload(house, browser):
    srv = house
    room = seated_room(srv, ("Ana", "Bo", "Cy", "Di"))
    code, tokens = room["code"], room["tokens"]
    cy = phone(browser)
    cy.goto(f"{srv.url}/play?room={code}&seat=2&token={tokens[2]}")
    expect(cy.get_by_text("You're in as Cy.")).to_be_visible(timeout=WAIT)
    loads = []
    cy.on("load", lambda _: loads.append(1))

    kicked = tables_call(srv, f"print(tables.kick('{code}', '{room['host']}', 1))")  # Bo leaves the lobby
    # The stage follows Cy by her link, whatever her seat's number: she is still in, at seat 1 now.
    cy.wait_for_function(
        "([c, v]) => (window.__sobremesaPushRooms?.[c]?.rendered ?? -1) >= v",
        arg=[code, kicked],
        timeout=WAIT,
        polling=100,
    )
    expect(cy.get_by_text("You're in as Cy.")).to_be_visible(timeout=WAIT)

    tables_call(srv, f"print(tables.start('{code}', '{room['host']}'))")
    expect(cy.get_by_text("Look at your cards")).to_be_visible(timeout=WAIT)
    expect(cy.locator("[data-testid=card]").first).to_be_visible(timeout=WAIT)
    assert cy.get_by_text("not valid").count() == 0
    hand = tables_call(srv, f"print(json.dumps(sorted(tables.view('{code}', 1, '{tokens[2]}')['hand'])))")
    shown = sorted(cy.locator("[data-testid=card]").evaluate_all("cards => cards.map(c => c.dataset.id)"))
    assert shown == hand  # Cy's own hand, at her new seat
    assert loads == []  # and no reload got her there

    # ⤢ enlarges a card over the whole phone; a tap closes it
    cy.locator("[data-testid=card] .zoom").first.click()
    zoomed = cy.locator("[data-testid=card-zoom] img")
    expect(zoomed).to_be_visible(timeout=WAIT)
    box = zoomed.bounding_box()
    assert box["width"] > 300 and box["height"] > 450, box
    cy.locator("[data-testid=card-zoom]").click()
    expect(cy.locator("[data-testid=card-zoom]")).to_have_count(0)


def test_a_lost_link_comes_back_through_the_host_and_the_wall_shows_no_token(house, browser):
    srv = house
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code = room["code"]
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}&host={room['host']}")
    expect(wall.get_by_text("who has a phrase?")).to_be_visible(timeout=WAIT)
    wall.wait_for_url(lambda url: "host=" not in url, timeout=WAIT)  # the address keeps no token

    lost = phone(browser)  # Ana's phone died; she borrows another and scans the QR code again
    lost.goto(f"{srv.url}/play?room={code}")
    lost.get_by_label("The name you played under").fill("Ana")
    lost.get_by_role("button", name="Ask to come back in").click()
    expect(lost.get_by_text("Asked to come back in as Ana.")).to_be_visible(timeout=WAIT)

    expect(wall.get_by_test_id("waiting-badge")).to_have_text("🙋 1 waiting", timeout=WAIT)  # in a corner
    host_menu(wall)  # the host answers in the host menu (Esc), or on the remote
    expect(wall.get_by_text("asks to come back in")).to_be_visible(timeout=WAIT)
    wall.get_by_role("button", name="Let them in").click()
    lost.wait_for_url("**token=**", timeout=WAIT)
    expect(lost.get_by_text("Ana", exact=True)).to_be_visible(timeout=WAIT)
    expect(lost.get_by_role("button", name="I have a phrase!")).to_be_visible(timeout=WAIT)
    new_token = lost.url.split("token=")[1].split("&")[0]
    html = wall.content()
    assert new_token not in html and room["tokens"][0] not in html and room["host"] not in html
    assert "token=" not in wall.url and "host=" not in wall.url
