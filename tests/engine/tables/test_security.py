"""Each attack found by trying the app as an attacker on the same network, reproduced and refused.

The routes are driven through their real handlers (`pages.routes`); tests/browser/test_security_routes.py
does the same over real sockets against a running server, and checks what a browser loads."""

from __future__ import annotations

import asyncio
import io
import json
import re
import types

import pytest
from PIL import Image

from engine import gate, presence, tables
from engine.core import BadName, BadToken, IllegalMove, RoomNotFound, TooManyTries
from pages.ui import esc
from tests.engine.push.test_live import run

pytestmark = pytest.mark.usefixtures("plain_cards")


class Socket:
    """What the stage's socket uses of Starlette's WebSocket, recording what it does."""

    def __init__(self, code: str, hello: dict, host: str = "10.0.0.9") -> None:
        self.path_params = {"code": code}
        self.headers: dict = {}
        self.client = types.SimpleNamespace(host=host, port=5000)
        self.calls: list = []
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.incoming.put_nowait({"type": "websocket.receive", "text": json.dumps({"hello": hello})})

    async def accept(self) -> None:
        self.calls.append("accept")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.calls.append(("close", code))

    async def send_text(self, data: str) -> None:
        self.calls.append(("send", json.loads(data)))

    async def receive(self) -> dict:
        return await self.incoming.get()


def answer(code: str, hello: dict | None = None, host: str = "10.0.0.9", during=None) -> list:
    """What the stage's socket does for one tab that says `hello` and, if let in, hangs up (after
    `during()`, called while it is open)."""
    from engine.push.stage import endpoint
    from pages.stage.serve import SERVE

    ws = Socket(code, {"lang": "en", **(hello or {})}, host)

    async def scenario():
        task = asyncio.create_task(endpoint(ws, SERVE))
        for _ in range(100):
            if task.done() or any(c[0] == "send" and "html" in c[1] for c in ws.calls if isinstance(c, tuple)):
                break
            await asyncio.sleep(0.02)
        if during is not None:
            await asyncio.to_thread(during)
        await ws.incoming.put({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(task, 5)

    run(scenario)
    return ws.calls


def seated(n=3, game="dixit", seed=None):
    room = tables.create_room(game, seed=seed)
    seats = [tables.join(room.code, name) for name in ("Ana", "Bo", "Cy", "Di")[:n]]
    return room, seats


# ---- the stage's hello: no enumeration, no spoofed presence -----------------------------------


def test_a_room_that_exists_and_one_that_does_not_get_the_same_answer():
    from engine.push.stage import CLOSE_REFUSED

    room, _ = seated()
    missing = next(c for c in ("BCDFG", "BCDGH", "BCDHJ") if c != room.code)
    for bad in ("", "x", "-.99999999999.AAAAAAAAAAAAAAAAAAAAAA", "²." * 30, 12, None):
        hello = {"token": bad} if bad is not None else {"member": "m1", "token": "t"}
        assert answer(room.code, hello) == answer(missing, hello) == ["accept", ("close", CLOSE_REFUSED)]


def test_a_phone_locked_out_for_guessing_still_opens_its_own_seat():
    room, seats = seated()
    for i in range(gate.PROBES.limit):  # codes guessed over the stage lock the phone out of lookups...
        answer(f"Q{i:04d}", host="10.0.0.66")
    with pytest.raises(TooManyTries):
        tables.view(room.code, device="10.0.0.66")
    assert ("close", 4401) in answer(room.code, host="10.0.0.66")  # the wall's hello proves nothing
    said = answer(room.code, {"token": seats[0].token}, host="10.0.0.66")  # ...but not out of its own seat
    assert any(c[0] == "send" and "html" in c[1] for c in said if isinstance(c, tuple)), said


def test_pages_limit_wrong_codes_per_device():
    room, _ = seated()
    for i in range(gate.PROBES.limit):
        with pytest.raises(RoomNotFound):
            tables.view(f"Z{i:03d}", device="10.1.1.1")
    with pytest.raises(TooManyTries) as refused:
        tables.view(room.code, device="10.1.1.1")  # a real room, after too many wrong ones
    assert "wait a minute" in str(refused.value).lower()
    assert tables.view(room.code, device="10.1.1.2")["code"] == room.code
    assert not gate.Probes(limit=2, window=60).blocked("x")
    probes = gate.Probes(limit=2, window=60)
    probes.miss("x", now=0)
    probes.miss("x", now=1)
    assert probes.blocked("x", now=30) and not probes.blocked("x", now=61)


def test_only_a_seats_own_token_marks_it_connected():
    room, seats = seated()
    seen: list = []
    answer(room.code, during=lambda: seen.append(presence.present(room.code)))  # the wall marks no seat
    answer(room.code, {"token": seats[2].token.upper()}, during=lambda: seen.append(presence.present(room.code)))
    answer(room.code, {"token": seats[1].token}, during=lambda: seen.append(presence.present(room.code)))
    assert seen == [set(), set(), {1}], seen  # marked while it was open
    assert presence.present(room.code) == set()  # and gone after


# ---- seeds: nothing about the next game follows from a finished one --------------------------


def finish_and_play_again(seed: int) -> dict:
    room, seats = seated(3, seed=seed)
    tables.start(room.code, room.host_token)
    tables.end(room.code, room.host_token)
    assert tables.record(room.code)["seed"] is not None  # a finished game may show its seed
    tables.play_again(room.code, room.host_token)
    return tables.state_of(room.code)


def test_the_next_game_cannot_be_predicted_from_the_last_record():
    # Two rooms with the same first seed, the same players and the same moves: if game 2's seed were
    # derived from game 1's, their deals would be the same.
    first = finish_and_play_again(7)
    second = finish_and_play_again(7)
    assert first["hands"] != second["hands"]
    assert first["rng"]["seed"] != second["rng"]["seed"]


# ---- player text is text ----------------------------------------------------------------------

HOSTILE = [
    "![i](//127.0.0.1:9/)",
    "<img src=//127.0.0.1:9/x>",
    "[a](javascript:alert(1))",
    "**bold** _it_ `code`",
    ":red[x] :material/home:",
    "$x^2$",
    "# big",
    "<script>x</script>",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_player_text_has_no_markup_left(text):
    shown = esc(text)
    assert not set(re.sub(r"&#[0-9]+;", "", shown)) & set("<>[]()!*_`:$#\\&"), shown
    import html

    assert html.unescape(shown) == text


@pytest.mark.parametrize("name", ["a\u200bb", "a\x00b", "ab\u202e", "\u2066x", "\x1b[31m"])
def test_invisible_or_control_characters_in_names_are_refused(name):
    room = tables.create_room("dixit")
    with pytest.raises(BadName) as refused:
        tables.join(room.code, name)
    assert "name" in str(refused.value).lower()
    assert tables.view(room.code)["names"] == []


def test_a_hostile_name_shows_as_text_on_every_page():
    from tests import stage_text
    from tests.pages.test_pages import run

    room = tables.create_room("dixit")
    seats = [tables.join(room.code, n) for n in ("![i](//127.0.0.1:9/)", "Bo", "<b>Cy</b>")]
    tables.start(room.code, room.host_token)
    pages = [run("table", room=room.code)] + [run("play", room=room.code, seat=s.seat, token=s.token) for s in seats]
    for at in pages:  # what Streamlit still draws around the stage (Markdown there would render the name)
        raw = [m.value for m in at.markdown] + [m.value for m in at.caption] + [m.value for m in at.info]
        raw += [h.proto.body for h in at.get("html")] + [m.value for m in at.error]
        markup = "\n".join(str(r) for r in raw)
        assert "](//127" not in markup and "<b>Cy" not in markup  # never sent as markup
    # The game's screens are the stage's HTML (not Markdown): the names are escaped text in it.
    # The wall shows every name, a phone its own.
    wall, names = stage_text.screen(room.code, "en"), ["![i](//127.0.0.1:9/)", "<b>Cy</b>"]
    screens = [(wall, names)] + [(stage_text.screen(room.code, "en", s.token), [s.name]) for s in seats]
    for markup, shows in screens:
        assert "<b>Cy" not in markup  # never a tag
        assert "//127.0.0.1:9" not in " ".join(re.findall(r'(?:src|href)="([^"]*)"', markup))  # nothing loaded
        said = stage_text.text(markup)
        assert all(name in said for name in shows), shows  # but shown as typed
    assert wall.count("&lt;b&gt;Cy&lt;/b&gt;") >= 2 and screens[3][0].count("&lt;b&gt;Cy&lt;/b&gt;") >= 1


# ---- the host ---------------------------------------------------------------------------------


def test_the_host_token_never_reaches_the_projected_page():
    from streamlit.testing.v1 import AppTest

    from tests.pages.test_pages import ROOT, TIMEOUT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    next(b for b in at.button if b.label == "Create the room").click().run()
    assert not at.exception
    code = next(iter(at.session_state["hosting"]))
    token = at.session_state["hosting"][code]
    tables.check_host(code, token)
    assert dict(at.query_params) == {"room": [code]} or dict(at.query_params) == {"room": code}
    shown = [m.value for m in at.markdown] + [m.value for m in at.caption] + [h.proto.body for h in at.get("html")]
    assert not any(token in str(s) for s in shown)
    assert any(b.label.startswith("Start the game") for b in at.button)  # still the host here


def test_an_old_host_link_is_taken_off_the_address_at_once():
    from tests.pages.test_pages import run

    room = tables.create_room("dixit")
    at = run("table", room=room.code, host=room.host_token)
    assert "host" not in at.query_params
    assert any(b.label.startswith("Start the game") for b in at.button)


def test_only_the_servers_laptop_offers_deck_uploads(monkeypatch):
    from pages import ui
    from tests.pages.test_pages import run, text_of

    monkeypatch.setattr(ui, "is_local_request", lambda: True)
    assert any("Upload your own deck" in e.label for e in run("home").expander)
    monkeypatch.setattr(ui, "is_local_request", lambda: False)
    at = run("home")
    assert not any("Upload your own deck" in e.label for e in at.expander)
    assert "added on the laptop" in text_of(at)


def png(w: int, h: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


def test_an_upload_is_refused_by_its_headers_before_anything_is_decoded(monkeypatch):
    from engine import pictures
    from engine.pictures import upload

    big = png(8000, 5000)  # the 131 KB single-colour 40-megapixel picture
    decoded = []
    monkeypatch.setattr(upload, "_open_image", lambda *a: decoded.append(a) or None)
    with pytest.raises(pictures.DeckRejected, match="too large"):
        pictures.import_deck("Bomb", [("bomb.png", big)])
    assert decoded == []
    monkeypatch.setattr(upload, "MAX_UPLOAD_PIXELS", 3 * 640 * 640)
    with pytest.raises(pictures.DeckRejected, match="megapixels in all"):
        pictures.import_deck("Many", [(f"{i}.png", png(640, 640 + i)) for i in range(4)])
    assert decoded == []
    assert pictures.deck_names() == [pictures.DEFAULT_DECK]


def test_an_upload_that_takes_too_long_is_refused_whole(monkeypatch):
    from engine import pictures
    from engine.pictures import upload

    monkeypatch.setattr(upload, "MAX_SECONDS", -1)
    with pytest.raises(pictures.DeckRejected, match="took more than"):
        pictures.import_deck("Slow", [(f"{i}.png", png(100, 100 + i)) for i in range(3)])
    assert pictures.deck_names() == [pictures.DEFAULT_DECK]
    steps = []
    monkeypatch.setattr(upload, "MAX_SECONDS", 90)
    pictures.import_deck(
        "Quick",
        [(f"{i}.png", png(100, 100 + i)) for i in range(3)],
        progress=lambda done, total: steps.append((done, total)),
    )
    assert steps == [(0, 3), (1, 3), (2, 3), (3, 3)]


# ---- moves ------------------------------------------------------------------------------------


def test_what_one_move_can_store_is_bounded_and_the_refusal_says_so(monkeypatch):
    from engine.core import moves

    room, seats = seated(3)
    tables.start(room.code, room.host_token)
    before = tables.version(room.code)
    tables.submit(room.code, 0, seats[0].token, {"type": "claim"})
    state = tables.state_of(room.code)
    card = state["hands"][0][0]
    monkeypatch.setattr(moves, "MOVE_MAX", 40)
    with pytest.raises(IllegalMove) as refused:
        tables.submit(room.code, 0, seats[0].token, {"type": "tell", "card": card, "phrase": "a tide that forgets"})
    assert "too much for one move" in str(refused.value) and "at most 40" in str(refused.value)
    assert tables.version(room.code) == before + 1


def test_a_room_code_made_of_markup_is_not_rendered_as_markup():
    from tests.pages.test_pages import run

    for page in ("play", "table"):
        at = run(page, room="![A](/CARDS)")
        raw = "\n".join(str(m.value) for m in [*at.markdown, *at.error, *at.caption])
        assert "](" not in raw and "![" not in raw


def test_the_laptop_gets_the_host_controls_back_without_a_token_in_the_address(monkeypatch):
    from streamlit.testing.v1 import AppTest

    from pages import ui
    from tests.pages.test_pages import ROOT, TIMEOUT

    room = tables.create_room("dixit")
    tables.join(room.code, "Ana")
    monkeypatch.setattr(ui, "is_local_request", lambda: True)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    next(b for b in at.button if b.label == "Open shared screen").click().run()
    assert not at.exception
    assert "host" not in at.query_params
    assert any(b.label.startswith("Start the game") for b in at.button)
    with pytest.raises(BadToken):
        tables.check_host(room.code, room.host_token)  # the old host link was replaced


def test_a_phone_connected_to_another_process_shows_as_connected():
    """Presence is kept in the store as well: a seat whose socket is open on another server process
    (here, a row that process wrote) is connected on this process's wall, until its word expires."""
    from engine import presence

    room, _ = seated()
    assert presence.present(room.code) == set()
    store = tables.store()
    with store.transaction() as conn:
        store.mark_present(conn, room.code, 2, "another-process", presence._at(presence.EXPIRE))
    assert presence.present(room.code) == {2}
    with store.transaction() as conn:  # that process died long ago: its word has expired
        store.mark_present(conn, room.code, 2, "another-process", presence._at(-1))
    assert presence.present(room.code) == set()
