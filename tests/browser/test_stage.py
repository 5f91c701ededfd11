"""The stage in Chromium: Dixit and Odyssey turns played by taps over the socket while the wall and
a member follow, with no Streamlit rerun; a double tap and a retried tap each played once; a seat
taken out mid-turn gets the blank screen with its hand gone from the page; a phone whose socket
dropped shows the current screen once it is back."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.browser import reveal

WAIT = 20_000
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def run(srv, script: str, *args) -> dict:
    """The service on the server's database, as a script or a bot would use it."""
    return json.loads(srv.python(script, *args))


def room(srv, game: str, names: list[str], options: dict | None = None) -> dict:
    return run(
        srv,
        "r = tables.create_room(sys.argv[1], options=json.loads(sys.argv[3]), seed=4)\n"
        "s = [tables.join(r.code, n) for n in json.loads(sys.argv[2])]\n"
        "m = tables.join_audience(r.code, 'Lu')\n"
        "tables.start(r.code, r.host_token)\n"
        "print(json.dumps({'code': r.code, 'host': r.host_token, 'tokens': [x.token for x in s],"
        " 'member': [m.id, m.token]}))",
        game,
        json.dumps(names),
        json.dumps(options or {}),
    )


def view(srv, code: str) -> dict:
    return run(srv, "print(json.dumps(tables.view(sys.argv[1])))", code)


def moves(srv, code: str) -> list:
    return run(srv, "print(json.dumps(tables.move_log(sys.argv[1], 1)))", code)


def shown(page, code: str, version: int) -> None:
    page.wait_for_function(
        "([c, v]) => (window.__sobremesaPushRooms?.[c]?.rendered ?? -1) >= v",
        arg=[code, version],
        timeout=WAIT,
        polling=100,
    )


def reruns(page, code: str) -> int:
    return page.evaluate("(c) => window.__sobremesaPushRooms?.[c]?.reruns ?? -1", code)


def pick(page, n: int = 1, enabled_only: bool = False) -> None:
    cards = page.locator(
        "[data-testid=card]:not(.off) .sm-card-pick" if enabled_only else "[data-testid=card] .sm-card-pick"
    )
    expect(cards.first).to_be_visible(timeout=WAIT)
    for i in range(n):
        cards.nth(i).click()
    expect(page.locator("[data-testid=card].picked")).to_have_count(n, timeout=WAIT)
    page.locator("[data-testid=confirm-pick]").click()


def open_table(srv, browser, r: dict):
    code = r["code"]
    wall = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    wall.goto(f"{srv.url}/table?room={code}")
    phones = []
    for seat, token in enumerate(r["tokens"]):
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{srv.url}/play?room={code}&seat={seat}&token={token}")
        phones.append(page)
    member = browser.new_context(**PHONE).new_page()
    member.goto(f"{srv.url}/play?room={code}&member={r['member'][0]}&token={r['member'][1]}")
    version = view(srv, code)["version"]
    for page in (wall, *phones, member):
        shown(page, code, version)
    return wall, phones, member


def test_a_dixit_turn_by_taps_over_the_socket_with_no_rerun(house, browser):
    srv = house
    r = room(srv, "dixit", ["Ana", "Bo", "Cy", "Di"])
    code = r["code"]
    wall, phones, member = open_table(srv, browser, r)
    ana, others = phones[0], phones[1:]
    ana.get_by_role("button", name="I have a phrase!").click()
    ana.get_by_label("Your phrase").fill("Where is happiness?")
    pick(ana)
    expect(wall.get_by_text("“Where is happiness?”")).to_be_visible(timeout=WAIT)
    for page in others:
        pick(page)
    expect(member.get_by_text("Which card is the storyteller's?")).to_be_visible(timeout=WAIT)
    pick(member)
    expect(member.get_by_text("Your pick: card", exact=False)).to_be_visible(timeout=WAIT)
    for page in others:
        pick(page, enabled_only=True)
    reveal.hold(srv, code, r["host"])  # the class talks it over
    # The wall plays the reveal; the member learns how their pick went.
    expect(wall.get_by_text("the storyteller's card was", exact=False)).to_be_visible(timeout=WAIT)
    expect(member.locator("[data-testid=member-result]")).to_be_visible(timeout=WAIT)
    stored = view(srv, code)
    assert stored["phase"] == "tell" and len(stored["history"]) == 1
    for page in (wall, *phones, member):
        shown(page, code, stored["version"])
        assert reruns(page, code) == 0
    # The whole room holds the reveal: Bo's phone shows his side of it, and his tap of the next
    # turn waits. After the reveal, every screen shows the next storyteller on its own.
    reveal.holds([wall, *phones, member])
    expect(phones[1].locator(".sm-mine")).to_contain_text("was Ana's", timeout=WAIT)
    reveal.refuses(srv, code, phones[1], {"type": "claim"})
    reveal.next_scene(srv, code, r["host"])
    expect(wall.locator(".sm-stage[data-scene=tell]")).to_be_visible(timeout=WAIT)
    reveal.moves_on([wall, *phones, member])
    # Every tab followed the turn in fragments; a tab opened now gets the whole screen, the same.
    version = view(srv, code)["version"]
    for page in (wall, phones[1], member):
        assert page.evaluate("(c) => window.__sobremesaPushRooms[c].patches", code) > 0
        fresh = page.context.new_page()
        fresh.goto(page.url)
        shown(fresh, code, version)
        assert screen_of(fresh) == screen_of(page)
        fresh.close()


NORMAL = r"""() => {
  const root = document.querySelector(".sm-stage-root").cloneNode(true);
  for (const el of root.querySelectorAll("[style*=animation-delay]")) el.style.removeProperty("animation-delay");
  for (const el of root.querySelectorAll("[style='']")) el.removeAttribute("style");
  return root.innerHTML.replace(/>\s+</g, "><").trim();
}"""


def screen_of(page) -> str:
    """A tab's screen as its DOM holds it, less what the page sets as time passes (the steps' delays)."""
    return page.evaluate(NORMAL)


def test_an_odyssey_turn_by_taps(house, browser):
    srv = house
    r = room(srv, "odyssey", ["Ana", "Bo", "Cy"])
    code = r["code"]
    wall, phones, member = open_table(srv, browser, r)
    phones[1].get_by_role("button", name="I have a phrase!").click()
    pick(phones[1])
    gives = view(srv, code)["gives_per_player"]
    for seat in (0, 2):
        pick(phones[seat], gives)
    for seat in (0, 2):
        pick(phones[seat], enabled_only=True)
    reveal.hold(srv, code, r["host"])
    expect(wall.locator(".sm-stage[data-scene=reveal]")).to_be_visible(timeout=WAIT)
    stored = view(srv, code)
    assert len(stored["history"]) == 1
    for page in (wall, *phones, member):
        shown(page, code, stored["version"])
        assert reruns(page, code) == 0
    reveal.holds([wall, *phones, member])
    reveal.refuses(srv, code, phones[0], {"type": "claim"})
    reveal.next_scene(srv, code, r["host"])  # the host's Next: every screen on to the next turn
    reveal.moves_on([wall, *phones, member])


SEND_TWICE = """([id, move]) => {
  const s = [...globalThis.__sobremesaStages.values()][0];
  s.ws.send(JSON.stringify({ id, move }));
  s.ws.send(JSON.stringify({ id, move }));
}"""

DROP = "() => { const s = [...globalThis.__sobremesaStages.values()][0]; s.ws.close(); }"


def test_a_double_tap_and_a_retried_tap_play_once(house, browser):
    srv = house
    r = room(srv, "dixit", ["Ana", "Bo", "Cy"])
    code = r["code"]
    wall, phones, member = open_table(srv, browser, r)
    ana = phones[0]
    claim = ana.get_by_role("button", name="I have a phrase!")
    claim.dblclick()
    expect(ana.get_by_role("button", name="Tell with this card")).to_be_visible(timeout=WAIT)
    assert [m["move"]["type"] for m in moves(srv, code)] == ["claim"]
    # The same id sent twice on one socket, then again on the next one: one move.
    hand = run(srv, "print(json.dumps(tables.view(sys.argv[1], 0, sys.argv[2])['hand']))", code, r["tokens"][0])
    tell = {"type": "tell", "card": hand[0], "phrase": "Again"}
    ana.evaluate(SEND_TWICE, ["retry-2", tell])
    expect(ana.get_by_text("You told. Your card for the story:")).to_be_visible(timeout=WAIT)
    ana.evaluate(DROP)
    ana.wait_for_function("() => window.__sobremesaPush.connects >= 2", timeout=WAIT, polling=100)
    ana.evaluate(SEND_TWICE, ["retry-2", tell])
    ana.wait_for_timeout(500)
    assert [m["move"]["type"] for m in moves(srv, code)] == ["claim", "tell"]


def test_a_seat_taken_out_gets_the_blank_screen_and_a_dropped_phone_catches_up(house, browser):
    srv = house
    r = room(srv, "dixit", ["Ana", "Bo", "Cy", "Di"])
    code = r["code"]
    wall, phones, member = open_table(srv, browser, r)
    di = phones[3]
    expect(di.locator("[data-testid=card]").first).to_be_visible(timeout=WAIT)
    # Bo's socket drops; meanwhile Ana claims: back, Bo's phone shows the storyteller choosing.
    phones[1].evaluate("() => { const s = [...globalThis.__sobremesaStages.values()][0]; s.ws.close(); }")
    phones[0].get_by_role("button", name="I have a phrase!").click()
    expect(phones[1].get_by_text("Ana is the storyteller", exact=False)).to_be_visible(timeout=WAIT)
    run(srv, "tables.kick(sys.argv[1], sys.argv[2], 3); print('{}')", code, r["host"])
    expect(di.locator("[data-testid=removed]")).to_be_visible(timeout=WAIT)
    assert di.locator("[data-testid=card]").count() == 0
    assert "dream-" not in di.content()


TO_THE_REVEAL = """
import random
code, tokens = sys.argv[1], json.loads(sys.argv[2])
rnd = random.Random(1)
while not tables.view(code)["history"]:
    seat = tables.view(code)["waiting_for"][0]
    move = rnd.choice(tables.legal(code, seat, tokens[seat]))
    move.pop("seat", None)
    tables.submit(code, seat, tokens[seat], move)
print(json.dumps(tables.view(code)["reveal_since"]))
"""

DELAYS = "(els) => els.map((e) => parseFloat(e.style.animationDelay))"


def test_a_wall_reloaded_mid_reveal_joins_it_at_the_step_the_room_is_at(house, browser):
    """At the host's pace the reveal holds; a wall opened (or reloaded) 2.5 s into it starts each
    step's animation part way, from the reveal's own start: the cards' owners are long shown, the
    points still to come (Dixit's steps: cards 0 s, votes 1.5 s, points 3.5 s, sort 5 s)."""
    srv = house
    r = room(srv, "dixit", ["Ana", "Bo", "Cy"], {"pace": "host"})
    code = r["code"]
    wall = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    wall.goto(f"{srv.url}/table?room={code}")
    run(srv, TO_THE_REVEAL, code, json.dumps(r["tokens"]))
    expect(wall.locator(".sm-stage[data-scene=reveal]")).to_be_visible(timeout=WAIT)
    wall.wait_for_timeout(2500)
    wall.reload()
    expect(wall.locator(".sm-stage[data-scene=reveal]")).to_be_visible(timeout=WAIT)
    wall.wait_for_function("() => document.querySelector('.sm-owner')?.style.animationDelay", timeout=WAIT, polling=100)
    owners = wall.locator(".sm-stage .sm-owner").evaluate_all(DELAYS)
    points = wall.locator(".sm-stage .od-pts.sm-in").evaluate_all(DELAYS)
    assert owners and all(d <= -2000 for d in owners), owners  # joined late: not started again
    assert points and all(abs(p - o - 3500) < 250 for p, o in zip(points, owners, strict=False)), (points, owners)
    reveal.next_scene(srv, code, r["host"])
    reveal.moves_on([wall])
