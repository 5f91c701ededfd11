"""A player's tap on the stage: the acting tab and the others show the move from the socket, with
no Streamlit rerun; a move redraws a screen in place (the morph keeps its nodes); a phone stays
awake while the table waits on it, and no longer."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_room_life import WAIT, phone, seated_room, tables_call, told

RERUNS = "code => window.__sobremesaPushRooms?.[code]?.reruns"
RENDERED = "([code, v]) => window.__sobremesaPushRooms?.[code]?.rendered >= v"


def test_the_actors_tab_and_the_others_show_a_move_with_no_rerun(house, browser):
    srv = house
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code, tokens = room["code"], room["tokens"]
    ana, bo = phone(browser), phone(browser)
    for page, seat in ((ana, 0), (bo, 1)):
        page.goto(f"{srv.url}/play?room={code}&seat={seat}&token={tokens[seat]}")
        page.wait_for_function(
            "c => window.__sobremesaPushRooms?.[c]?.connected === true", arg=code, timeout=WAIT, polling=100
        )

    ana.get_by_role("button", name="I have a phrase!").click()
    expect(ana.get_by_text("You are the storyteller")).to_be_visible(timeout=WAIT)
    bo.wait_for_function(RENDERED, arg=[code, room["version"] + 1], timeout=WAIT, polling=100)
    expect(bo.get_by_text("Ana is the storyteller", exact=False)).to_be_visible(timeout=WAIT)
    assert bo.evaluate(RERUNS, code) == 0
    assert ana.evaluate(RERUNS, code) == 0
    assert ana.evaluate("c => window.__sobremesaPushRooms[c].version", code) == room["version"] + 1


WAKE_LOCK_STUB = """
window.__locks = {requested: 0, released: 0, held: false};
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  request: async (kind) => {
    window.__locks.requested++; window.__locks.held = true;
    return {release: async () => { window.__locks.released++; window.__locks.held = false; },
            addEventListener: () => {}};
  }}});
"""


def test_a_phone_stays_awake_while_the_table_waits_on_it_and_no_longer(house, browser):
    srv = house
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code, tokens = room["code"], room["tokens"]
    bo = phone(browser)
    bo.add_init_script(WAKE_LOCK_STUB)
    bo.goto(f"{srv.url}/play?room={code}&seat=1&token={tokens[1]}")
    bo.wait_for_function(
        "() => window.__locks.held === true", timeout=WAIT, polling=100
    )  # claim: everyone is waited on

    tables_call(srv, f"print(tables.submit('{code}', 0, '{tokens[0]}', {{'type': 'claim'}}))")
    bo.wait_for_function(
        "() => window.__locks.held === false && window.__locks.released === 1", timeout=WAIT, polling=100
    )


MARK = "() => { document.querySelector('[data-testid=card]').__kept = true; }"
KEPT = "() => document.querySelector('[data-testid=card]').__kept === true"


def test_a_move_redraws_a_phone_in_place(house, browser):
    srv = house
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code, tokens = room["code"], room["tokens"]
    told_at = told(srv, code, tokens)
    ana, bo = phone(browser), phone(browser)  # Ana told; Bo and Cy are to give
    for page, seat in ((ana, 0), (bo, 1)):
        page.goto(f"{srv.url}/play?room={code}&seat={seat}&token={tokens[seat]}")
        page.wait_for_function(RENDERED, arg=[code, told_at], timeout=WAIT, polling=100)
    expect(ana.get_by_text("Waiting for: Bo, Cy")).to_be_visible(timeout=WAIT)
    bo.locator("[data-testid=card] .sm-card-pick").first.click()  # Bo has picked a card, not confirmed yet
    bo.evaluate(MARK)

    gave = tables_call(
        srv,
        f"v = tables.view('{code}', 2, '{tokens[2]}')\n"
        f"print(tables.submit('{code}', 2, '{tokens[2]}', "
        f"{{'type': 'give', 'cards': v['hand'][:v['gives_per_player']]}}))",
    )
    expect(ana.get_by_text("Waiting for: Bo", exact=True)).to_be_visible(timeout=WAIT)
    bo.wait_for_function(RENDERED, arg=[code, gave], timeout=WAIT, polling=100)
    # Bo's hand is the same nodes, his pick still there: the screen was morphed, not replaced.
    assert bo.evaluate(KEPT)
    expect(bo.locator("[data-testid=card].picked")).to_have_count(1)
    assert bo.evaluate(RERUNS, code) == 0 and ana.evaluate(RERUNS, code) == 0
