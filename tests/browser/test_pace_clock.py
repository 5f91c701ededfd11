"""The pace clock in a browser: the countdown moves on the wall and on the phone the table waits
for with no rerun (the browser counts it down, pages/assets/push.js), and a brisk turn in which
nobody votes ends on its own: the server's own clock thread (engine/pacer.py) skips the voters, and
the wall says so with the turn's reveal."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.test_room_life import WAIT, phone, tables_call, told

RERUNS = "code => window.__sobremesaPushRooms?.[code]?.reruns"
SHOWN = "([code, v]) => String(v) in (window.__sobremesaPushRooms?.[code]?.shownAt ?? {})"
CLOCK = ".sm-clock"  # on the stage: the browser counts it down (pages/assets/stage.js)


def brisk_room(srv, names) -> dict:
    return tables_call(
        srv,
        "r = tables.create_room('dixit', options={'pace': 'brisk', 'skip_quiet': False})\n"
        f"s = [tables.join(r.code, n).token for n in {tuple(names)!r}]\n"
        "tables.start(r.code, r.host_token)\n"
        "print(json.dumps({'code': r.code, 'host': r.host_token, 'tokens': s}))",
    )


def seconds(text: str) -> int:
    """What a countdown reads, in seconds: "⏱ 0:27" or "⏱ 7 s left!"."""
    found = re.search(r"(\d+):(\d\d)", text)
    if found:
        return int(found[1]) * 60 + int(found[2])
    return int(re.search(r"(\d+) s", text)[1])


def test_the_countdown_moves_without_reruns_and_a_turn_nobody_votes_in_ends_on_its_own(house, browser):
    srv = house
    room = brisk_room(srv, ("Ana", "Bo", "Cy"))
    code, host, tokens = room["code"], room["host"], room["tokens"]
    told_at = told(srv, code, tokens)  # Ana tells: the table waits on Bo and Cy to give, 30 s
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}")
    bo = phone(browser)
    bo.goto(f"{srv.url}/play?room={code}&seat=1&token={tokens[1]}")
    ana = phone(browser)  # the storyteller waits on nobody's card of her own: no countdown for her
    ana.goto(f"{srv.url}/play?room={code}&seat=0&token={tokens[0]}")
    for page in (wall, bo, ana):
        page.wait_for_function(SHOWN, arg=[code, told_at], timeout=WAIT, polling=100)
    expect(wall.locator(CLOCK)).to_have_text(re.compile(r"⏱ 0:[0-3]\d"), timeout=WAIT)
    expect(bo.locator(CLOCK)).to_have_text(re.compile(r"⏱ 0:[0-3]\d"), timeout=WAIT)
    assert ana.locator(CLOCK).count() == 0
    runs = {page: page.evaluate(RERUNS, code) for page in (wall, bo)}
    before = {page: seconds(page.locator(CLOCK).inner_text()) for page in (wall, bo)}
    wall.wait_for_timeout(2500)
    for page in (wall, bo):
        assert seconds(page.locator(CLOCK).inner_text()) <= before[page] - 2, "the countdown stood still"
        assert page.evaluate(RERUNS, code) == runs[page], "the countdown cost a rerun"

    voting = tables_call(  # Bo and Cy give: the vote begins, 25 s, and nobody votes
        srv,
        "\n".join(
            f"v = tables.view('{code}', {s}, '{tokens[s]}')\n"
            f"n = tables.submit('{code}', {s}, '{tokens[s]}', {{'type': 'give', 'cards': v['hand'][:v['gives_per_player']]}})"
            for s in (1, 2)
        )
        + "\nprint(n)",
    )
    wall.wait_for_function(SHOWN, arg=[code, voting], timeout=WAIT, polling=100)
    # The host pauses and the last seconds are near: as if 20 of the 25 had gone by.
    tables_call(
        srv,
        f"tables.pause('{code}', '{host}')\n"
        "from engine.tables.base import store\n"
        f"with store().transaction() as conn:\n"
        f"    c = store().clock('{code}', conn); c['left_ms'] = 5000; store().put_clock(conn, '{code}', c)\n"
        f"print(tables.resume('{code}', '{host}'))",
    )
    expect(wall.locator(CLOCK)).to_have_text(re.compile(r"⏱ [1-5] s left!"), timeout=WAIT)
    expect(wall.locator(f"{CLOCK}.sm-hurry")).to_have_count(1)
    expect(bo.locator(CLOCK)).to_have_text(re.compile(r"⏱ [1-5] s left!"), timeout=WAIT)
    # Nobody votes: the server's clock skips Bo and Cy, the turn scores nothing and passes to Bo.
    expect(wall.get_by_text("Time ran out for Bo, Cy: the table went on.")).to_be_visible(timeout=WAIT)
    view = tables_call(srv, f"print(json.dumps(tables.view('{code}')))")
    assert view["scores"] == [0, 0, 0] and view["phase"] == "tell" and view["waiting_for"] == [1]
    log = tables_call(srv, f"print(json.dumps(tables.move_log('{code}', 1)))")
    assert [(e["move"]["target"], e["actor"]) for e in log if e["move"]["type"] == "skip"] == [
        (1, "clock"),
        (2, "clock"),
    ]
    expect(bo.locator(CLOCK)).to_have_text(re.compile(r"⏱ 0:[0-4]\d"), timeout=WAIT)  # Bo tells now: 45 s
