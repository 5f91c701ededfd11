"""A player's tap reruns their own tab once: the run the tap starts renders the move, and the push of
that same move reaches the player's own socket only after it (engine.push.live.ACTOR_GRACE)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_room_life import WAIT, phone, seated_room, tables_call, told

RERUNS = "code => window.__sobremesaPushRooms?.[code]?.reruns"
RENDERED = "([code, v]) => window.__sobremesaPushRooms?.[code]?.rendered >= v"


def test_the_actors_tab_runs_once_per_move_and_the_others_hear_it(serve, browser):
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code, tokens = room["code"], room["tokens"]
    ana, bo = phone(browser), phone(browser)
    for page, seat in ((ana, 0), (bo, 1)):
        page.goto(f"{srv.url}/play?room={code}&seat={seat}&token={tokens[seat]}")
        page.wait_for_function("c => window.__sobremesaPushRooms?.[c]?.connected === true", arg=code, timeout=WAIT)
    ana_before, bo_before = ana.evaluate(RERUNS, code), bo.evaluate(RERUNS, code)

    ana.get_by_role("button", name="I have a phrase!").click()
    expect(ana.get_by_text("You are the storyteller")).to_be_visible(timeout=WAIT)
    bo.wait_for_function(RENDERED, arg=[code, room["version"] + 1], timeout=WAIT)
    ana.wait_for_timeout(2500)  # past ACTOR_GRACE: the late push must find the move already shown

    assert bo.evaluate(RERUNS, code) == bo_before + 1  # the others rerun once, on the push
    assert ana.evaluate(RERUNS, code) == ana_before  # the actor's tab: only the run its tap started
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


def test_a_phone_stays_awake_while_the_table_waits_on_it_and_no_longer(serve, browser):
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code, tokens = room["code"], room["tokens"]
    bo = phone(browser)
    bo.add_init_script(WAKE_LOCK_STUB)
    bo.goto(f"{srv.url}/play?room={code}&seat=1&token={tokens[1]}")
    bo.wait_for_function("() => window.__locks.held === true", timeout=WAIT)  # claim: everyone is waited on

    tables_call(srv, f"print(tables.submit('{code}', 0, '{tokens[0]}', {{'type': 'claim'}}))")
    bo.wait_for_function("() => window.__locks.held === false && window.__locks.released === 1", timeout=WAIT)

    # a phone that comes back from sleep checks its socket at once, and stays connected
    bo.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    bo.wait_for_timeout(4500)
    assert bo.evaluate("c => window.__sobremesaPushRooms[c].connected", code)


UNCHANGED = "code => window.__sobremesaPushRooms?.[code]?.unchanged"


def test_a_move_that_leaves_a_phone_as_it_was_moves_it_on_without_a_rerun(serve, browser):
    srv = serve("app.py")
    room = seated_room(srv, ("Ana", "Bo", "Cy"), start=True)
    code, tokens = room["code"], room["tokens"]
    told_at = told(srv, code, tokens)
    ana, bo = phone(browser), phone(browser)  # Ana told; Bo and Cy are to give
    for page, seat in ((ana, 0), (bo, 1)):
        page.goto(f"{srv.url}/play?room={code}&seat={seat}&token={tokens[seat]}")
        page.wait_for_function(RENDERED, arg=[code, told_at], timeout=WAIT)
    expect(ana.get_by_text("Waiting for: Bo, Cy")).to_be_visible(timeout=WAIT)
    ana_runs, bo_runs = ana.evaluate(RERUNS, code), bo.evaluate(RERUNS, code)
    bo_same = bo.evaluate(UNCHANGED, code)

    gave = tables_call(
        srv,
        f"v = tables.view('{code}', 2, '{tokens[2]}')\n"
        f"print(tables.submit('{code}', 2, '{tokens[2]}', "
        f"{{'type': 'give', 'cards': v['hand'][:v['gives_per_player']]}}))",
    )
    expect(ana.get_by_text("Waiting for: Bo")).to_be_visible(timeout=WAIT)  # the storyteller's screen changed
    bo.wait_for_function(RENDERED, arg=[code, gave], timeout=WAIT)
    # only in its waiting line, a live spot (engine/push/spots.py): drawn in place, no rerun
    assert ana.evaluate(RERUNS, code) == ana_runs
    # Bo still has to give: his screen (the phrase, his hand) is what it was, so no rerun, and it
    # counts as showing the room as it is now.
    assert bo.evaluate(RERUNS, code) == bo_runs
    assert bo.evaluate(UNCHANGED, code) == bo_same + 1
    assert str(gave) in bo.evaluate("c => window.__sobremesaPushRooms[c].shownAt", code)

    # Bo gives (from another device, say): the vote begins, and his phone reruns to show it.
    voted = tables_call(
        srv,
        f"v = tables.view('{code}', 1, '{tokens[1]}')\n"
        f"print(tables.submit('{code}', 1, '{tokens[1]}', "
        f"{{'type': 'give', 'cards': v['hand'][:v['gives_per_player']]}}))",
    )
    bo.wait_for_function(RENDERED, arg=[code, voted], timeout=WAIT)
    expect(bo.get_by_text("Vote for this card")).to_be_visible(timeout=WAIT)
    assert bo.evaluate(RERUNS, code) > bo_runs
