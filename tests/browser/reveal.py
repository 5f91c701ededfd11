"""The reveal as the class sees it in Chromium (issue 49), for every game's browser test: every
screen holds it (its stage root says `data-scene="reveal"`), no countdown shows anywhere, a tap of
the next turn is refused with a message and changes nothing; the host's Next moves every screen on."""

from __future__ import annotations

import json

from playwright.sync_api import expect

WAIT = 20_000
ON = 2_000  # every screen shows the next turn within 1 s of the reveal's end (a loaded CI: 2 s)
WATCHING = "Everyone is watching the reveal: the game goes on when it ends."

# A tap made on a screen from before the reveal, sent on the page's own socket.
STALE = """([id, move]) => {
  const s = [...globalThis.__sobremesaStages.values()][0];
  s.ws.send(JSON.stringify({ id, move }));
}"""


def version(srv, code: str) -> int:
    return json.loads(srv.python("print(json.dumps(tables.view(sys.argv[1])['version']))", code))


def holds(pages) -> None:
    """Every screen plays the reveal, and none shows a countdown."""
    for page in pages:
        expect(page.locator("[data-scene=reveal]").first).to_be_visible(timeout=WAIT)
    for page in pages:
        expect(page.locator(".sm-clock")).to_have_count(0)


def refuses(srv, code: str, phone, move: dict) -> None:
    """A tap of the next turn during the reveal: the phone says why, and the room is unchanged."""
    before = version(srv, code)
    phone.evaluate(STALE, ["stale-tap", move])
    expect(phone.locator(".sm-flash")).to_have_text(WATCHING, timeout=WAIT)
    assert version(srv, code) == before


def next_scene(srv, code: str, host: str) -> None:
    """The host's Next, as the host's controls call it."""
    srv.python("tables.next_scene(sys.argv[1], sys.argv[2]); print(1)", code, host)


def moves_on(pages) -> None:
    """Every screen leaves the reveal for the next turn."""
    for page in pages:
        expect(page.locator("[data-scene=reveal]")).to_have_count(0, timeout=ON)


HOLD = """
import time
from engine.core import TableError
code, host = sys.argv[1], sys.argv[2]
for _ in range(400):
    v = tables.view(code)
    if v["reveal_held"] or v["reveal_until"]:
        try:
            tables.hold(code, host)
        except TableError:  # held already
            pass
        break
    time.sleep(0.05)
print(json.dumps(tables.view(code)["reveal_held"]))
"""


def hold(srv, code: str, host: str) -> None:
    """The host's Hold as soon as the closing tap has started the reveal: a loaded machine takes
    longer than a reveal's few seconds to check every screen, and the class would still be watching."""
    assert json.loads(srv.python(HOLD, code, host)), "no reveal came to hold"
