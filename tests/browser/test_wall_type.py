"""The shared screen read from across the room, in Chromium at 1280 × 720 (a small projector): for
every game of the registry, in the lobby, no text in the main area is smaller than 24 px, and the
join link under the QR code stays on one line. On a 1920 × 1080 projector the link is 32 px or more;
its short address leads to the join page.

Once a game starts, the wall is the stage: test_stage_sizes.py and test_stage_every_variant.py
check every scene of every game and variant at five sizes, 24 px at 1280 × 720 included.

The rooms are made through engine.tables in this process, on the server's database (the server
passes on what other processes commit). The wall is opened without the host's token, as the room
sees it: the host's panel is the laptop's, not the room's."""

from __future__ import annotations

import http.client as http_client

import pytest

from engine import tables
from engine.games import GAMES

WIDE = {"width": 1280, "height": 720}
LOAD = 45_000  # a fresh server's first pages, on a busy machine
SMALLEST = 24  # px: every text on the wall
LINK_SMALLEST = 32  # px: the join link under the QR code, at 1920 x 1080
PROJECTOR = {"width": 1920, "height": 1080}

# Every visible text node of the main area, and the computed size of its element; shadow roots of
# components are walked too. Hidden elements (display none, no box, visibility hidden) are left out.
SIZES = """(root) => {
  const found = [];
  const visible = (el) => {
    if (!el || !el.getClientRects().length) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const walk = (node) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let n = walker.currentNode; n; n = walker.nextNode()) {
      if (n.nodeType === Node.ELEMENT_NODE) {
        if (n.shadowRoot) walk(n.shadowRoot);
        continue;
      }
      const el = n.parentElement;
      const text = n.textContent.trim();
      if (!text || !el || ['STYLE', 'SCRIPT', 'TITLE'].includes(el.tagName) || !visible(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const box = range.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      found.push({text: text.slice(0, 60), px: parseFloat(getComputedStyle(el).fontSize),
                  where: (el.className && el.className.baseVal === undefined ? String(el.className) : el.tagName)
                         .slice(0, 60)});
    }
  };
  walk(root);
  return found;
}"""

# The join link: its size, and how many lines its text takes.
LINK = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
  return {text: el.textContent, px: parseFloat(getComputedStyle(el).fontSize), lines: tops.size,
          overflows: el.scrollWidth > el.clientWidth + 1, spare: el.clientWidth - range.getBoundingClientRect().width};
}"""


def rendered(page, version: int, timeout: int = LOAD) -> None:
    page.wait_for_function(
        "v => Object.values(window.__sobremesaPushRooms ?? {}).some(r => r.rendered >= v)",
        arg=version,
        timeout=timeout,
        polling=100,
    )


def seated_room(name: str) -> tuple[tables.Room, list]:
    game = GAMES[name]
    room = tables.create_room(name, seed=7, language="en")
    fewest = min(game.seat_counts(game.check_options({})))
    names = ["Ana", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Hal"]
    return room, [tables.join(room.code, n) for n in names[: max(fewest, 3)]]


def too_small(page, code: str) -> list[dict]:
    texts = page.locator("[data-testid=stMain]").evaluate(SIZES)
    assert any(t["text"] == code for t in texts), "the measure saw no room code: it measured nothing"
    return [t for t in texts if t["px"] < SMALLEST - 0.01]


def opened_wall(browser, srv, code: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{srv.url}/table?room={code}")
    rendered(page, tables.version(code))
    page.wait_for_timeout(300)  # the last element's layout after the listener's render
    return context, page


def link_problems(page, moment: str, smallest: float) -> list[str]:
    link = page.locator(".sm-url").evaluate(LINK)
    if link["px"] < smallest or link["lines"] != 1 or link["overflows"]:
        return [f"{moment}: the join link {link}"]
    return []


def check_wall(browser, srv, code: str, moment: str) -> list[str]:
    context, page = opened_wall(browser, srv, code, WIDE)
    try:
        problems = [f"{moment}: {t['px']:.1f} px {t['where']!r}: {t['text']!r}" for t in too_small(page, code)]
        return problems + link_problems(page, moment, SMALLEST)
    finally:
        context.close()


@pytest.mark.parametrize("name", list(GAMES))
def test_every_text_on_the_lobby_wall_reads_from_the_back_of_the_room(name, serve, browser, monkeypatch):
    # A LAN address as long as a home network's usually is (the port, five digits here, is longer).
    srv = serve("app.py", env={"SOBREMESA_COMPUTER_PLAYERS": "off", "SOBREMESA_HOST": "192.168.1.20"})
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])
    tables.reset()
    room, _seats = seated_room(name)
    problems = check_wall(browser, srv, room.code, "lobby")
    assert not problems, "\n".join(problems)


def test_the_join_link_reads_from_the_back_and_leads_to_the_join_page(serve, browser, monkeypatch):
    srv = serve("app.py", env={"SOBREMESA_COMPUTER_PLAYERS": "off", "SOBREMESA_HOST": "192.168.1.20"})
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])
    tables.reset()
    name = next(iter(GAMES))
    room, seats = seated_room(name)
    problems = []
    for moment in ("lobby", "in play"):
        if moment == "in play":
            tables.start(room.code, room.host_token)
        context, page = opened_wall(browser, srv, room.code, PROJECTOR)
        try:
            problems += link_problems(page, moment, LINK_SMALLEST)
            shown = page.locator(".sm-url").inner_text()
        finally:
            context.close()
        assert shown == f"192.168.1.20:{srv.port}/{room.code}"  # host and code: no scheme, no page
    assert not problems, "\n".join(problems)

    # /<code>, in any case, is the join page; a path that is no room code is left to Streamlit.
    for typed in (room.code, room.code.lower()):
        answer = http(srv, f"/{typed}")
        assert (answer.status, answer.getheader("Location")) == (307, f"/play?room={room.code}")
    for longer in ("KGPBX", "kgpbxz"):  # codes may grow to 5 or 6 letters; the join page checks them
        assert http(srv, f"/{longer}").getheader("Location") == f"/play?room={longer.upper()}"
    for other in ("/table", "/play", "/rules", "/stats", "/BCDFGHJ", "/BCD", "/KGPA"):
        assert http(srv, other).status == 200, other  # Streamlit's own answer: the app's page
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        phone = context.new_page()
        phone.goto(f"{srv.url}/{room.code.lower()}")
        phone.wait_for_url(f"**/play?room={room.code}*")
        phone.get_by_text("This game has already started").first.wait_for(timeout=LOAD)
    finally:
        context.close()


def http(srv, path: str):
    """One GET, its redirect not followed."""
    connection = http_client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    connection.request("GET", path)
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return answer
