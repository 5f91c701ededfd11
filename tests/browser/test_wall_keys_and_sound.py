"""The bare wall (issue 50): nothing but the stage, no host control over it, at 1280 x 720 and
1024 x 768; the host's keys (N, H, P, M) work only on a wall whose socket proved the host's key;
the wall plays its cues (a join, everyone in, the last seconds, the reveal's steps, the podium),
no phone does, and a muted wall plays none. Chromium's autoplay policy is pinned by a flag."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM_ARGS
from tests.browser.test_room_life import told

WAIT = 20_000
ROOM = """
r = tables.create_room("dixit", options={"pace": "relaxed"}, language="en", seed=11)
tokens = [tables.join(r.code, n).token for n in ("Ana", "Bo")]
print(json.dumps({"code": r.code, "host": r.host_token, "tokens": tokens}))
"""
# The countdown's last seconds, now: the room's deadline moved to a few seconds from now.
SOON = """
from engine.store import store
from engine.tables.base import changing
from engine.tables.deadlines import later
from engine.store import now
with changing(sys.argv[1]) as change:
    clock = store().clock(change.code, change.conn)
    store().put_clock(change.conn, change.code, {**clock, "deadline": later(now(), float(sys.argv[2]))})
print(1)
"""
GIVE_AND_VOTE = """
code, tokens = sys.argv[1], json.loads(sys.argv[2])
for seat in (1, 2):
    tables.submit(code, seat, tokens[seat], tables.legal(code, seat, tokens[seat])[0])
print(1)
"""
VOTE = """
code, tokens = sys.argv[1], json.loads(sys.argv[2])
for seat in (1, 2):
    moves = tables.legal(code, seat, tokens[seat])
    tables.submit(code, seat, tokens[seat], moves[0])
print(1)
"""


def cues(page) -> list[str]:
    return page.evaluate("(window.__sobremesaSounds || []).map((c) => c.cue)")


def heard(page, cue: str) -> None:
    try:
        page.wait_for_function(
            "(c) => (window.__sobremesaSounds || []).some((s) => s.cue === c)", arg=cue, timeout=WAIT, polling=100
        )
    except Exception as exc:
        raise AssertionError(f"no {cue!r} among {cues(page)}") from exc


def view(srv, code: str) -> dict:
    return json.loads(srv.python("print(json.dumps(tables.view(sys.argv[1])))", code))


def bare(wall) -> None:
    """Nothing but the stage: no sidebar, no toggle, no button, and nothing over the title."""
    for testid in ("stSidebar", "stSidebarCollapsedControl", "stExpandSidebarButton"):
        expect(wall.get_by_test_id(testid)).to_be_hidden()
    expect(wall.locator(".st-key-host-menu")).to_be_hidden()
    assert wall.locator("button:visible").count() == 0
    over = wall.evaluate(
        """() => { const t = document.querySelector('.sm-stage .sm-title'); const r = t.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return t.contains(at); }"""
    )
    assert over, "something lies over the stage's title"


def test_the_bare_wall_takes_the_hosts_keys_and_plays_the_cues(house, browser):
    srv = house  # rooms of its own on the worker's server
    room = json.loads(srv.python(ROOM))
    code, tokens = room["code"], room["tokens"]
    # the suite's Chromium, its autoplay policy pinned by a flag (CHROMIUM_ARGS)
    assert "--autoplay-policy=no-user-gesture-required" in CHROMIUM_ARGS
    host = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    host.goto(f"{srv.url}/table?room={code}&host={room['host']}")
    plain = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    plain.goto(f"{srv.url}/table?room={code}")  # the room's code alone: no key
    ana = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    ana.goto(f"{srv.url}/play?room={code}&seat=0&token={tokens[0]}")
    for wall in (host, plain):
        expect(wall.locator(".sm-lobby-names li")).to_have_count(2, timeout=WAIT)
        bare(wall)
    tokens.append(json.loads(srv.python("print(json.dumps(tables.join(sys.argv[1], 'Cy').token))", code)))
    for wall in (host, plain):
        heard(wall, "join")
    for wall in (host, plain):  # then the audio rests (a running context renders silence all the time)
        wall.wait_for_function("() => window.__sobremesaAudio.state === 'suspended'", timeout=WAIT, polling=200)
    srv.python("tables.start(sys.argv[1], sys.argv[2]); print(1)", code, room["host"])
    expect(host.locator(".sm-stage .sm-title")).to_be_visible(timeout=WAIT)
    bare(host)
    bare(plain)
    told(srv, code, tokens)
    expect(host.locator("[data-scene=give]")).to_be_visible(timeout=WAIT)  # a phase the class sees
    srv.python(GIVE_AND_VOTE, code, json.dumps(tokens))  # everyone gave: the vote
    heard(host, "everyone")
    srv.python(SOON, code, "4.5")
    heard(host, "countdown")
    heard(plain, "countdown")

    # P on the host's wall pauses and resumes; on the plain wall it does nothing
    plain.keyboard.press("p")
    host.wait_for_timeout(600)
    assert not view(srv, code)["paused"]
    host.keyboard.press("p")
    expect(host.locator(".sm-clock[data-paused='1']")).to_be_visible(timeout=WAIT)
    host.keyboard.press("p")
    expect(host.locator(".sm-clock[data-paused='0']")).to_be_visible(timeout=WAIT)

    srv.python(VOTE, code, json.dumps(tokens))  # the reveal
    expect(host.locator("[data-scene=reveal]")).to_be_visible(timeout=WAIT)
    heard(host, "reveal")
    before = view(srv, code)["version"]
    for key in ("h", "n", "m"):  # the plain wall ignores the host's keys
        plain.keyboard.press(key)
    host.wait_for_timeout(600)
    assert view(srv, code)["version"] == before
    host.keyboard.press("h")
    host.wait_for_timeout(600)
    assert view(srv, code)["reveal_held"]
    host.keyboard.press("n")
    expect(host.locator("[data-scene=reveal]")).to_have_count(0, timeout=WAIT)
    expect(plain.locator("[data-scene=reveal]")).to_have_count(0, timeout=WAIT)

    host.keyboard.press("m")  # muted: every wall follows, and plays nothing
    expect(plain.locator(".sm-sound-setting")).to_have_attribute("data-muted", "1", timeout=WAIT)
    quiet = len(cues(plain))
    srv.python(SOON, code, "4.5")
    plain.wait_for_timeout(1500)
    assert len(cues(plain)) == quiet
    host.keyboard.press("m")
    expect(plain.locator(".sm-sound-setting")).to_have_attribute("data-muted", "0", timeout=WAIT)
    srv.python("tables.end(sys.argv[1], sys.argv[2]); print(1)", code, room["host"])
    heard(host, "podium")
    heard(plain, "podium")
    for wall in (host, plain):  # every cue played woke the context from its rest
        wall.wait_for_function("() => window.__sobremesaSounds.every((c) => c.ran)", timeout=WAIT, polling=200)
    assert ana.evaluate("(window.__sobremesaSounds || []).length") == 0  # phones stay silent


# Headless Chromium lets Web Audio start whatever its --autoplay-policy says (measured: "running"
# under all three policies, in both headless modes), so the test makes the wall's audio start
# blocked, as a browser's autoplay policy does on a tab nobody clicked: suspended until a gesture on
# the page resumes it.
BLOCKED = """
const Real = window.AudioContext;
window.AudioContext = class extends Real { constructor(...a) { super(...a); this.suspend(); } };
"""


def test_a_wall_with_no_gesture_asks_for_a_click_for_sound(house, browser):
    srv = house  # rooms of its own on the worker's server
    room = json.loads(srv.python(ROOM))
    wall = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    wall.add_init_script(BLOCKED)
    wall.goto(f"{srv.url}/table?room={room['code']}")
    gate = wall.get_by_test_id("sound-gate")
    expect(gate).to_be_visible(timeout=WAIT)
    expect(gate).to_have_text("🔈 Click for sound")
    gate.click()
    expect(gate).to_be_hidden(timeout=WAIT)
