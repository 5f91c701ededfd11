"""Every page runs under AppTest without an exception, in each state a room goes through."""

import html
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine import tables
from tests import stage_text

pytestmark = pytest.mark.usefixtures("plain_cards")
TIMEOUT = 30
ROOT = Path(__file__).resolve().parents[2]


def run(page, **params):
    """Through the real entry point and its navigation, as a browser would open /page?params."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    for k, v in params.items():
        at.query_params[k] = str(v)
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def open_host_controls(host, status: str = "playing"):
    """Open the host's panel: once a game is under way it is folded, and draws nothing until opened."""
    host.session_state[f"host-controls-{status}"] = True
    host.run()
    assert not host.exception, [e.message for e in host.exception]
    return host


def text_of(at):
    parts = [m.value for m in at.markdown] + [m.value for m in at.caption] + [m.value for m in at.info]
    parts += [m.value for m in at.success] + [m.value for m in at.error] + [m.value for m in at.warning]
    return shown("\n".join(str(p) for p in parts))


def mounted(at) -> dict | None:
    """What the page's stage component is given (room, who looks, language), or None with no stage."""
    found = [c for c in at.get("bidi_component") if c.proto.component_name == "sobremesa_stage"]
    assert len(found) <= 1, "two stages on one page"
    return json.loads(found[0].proto.json) if found else None


def stage_markup(at) -> str:
    """The HTML the page's stage shows, drawn as its socket would for who the page mounted it for."""
    data = mounted(at)
    assert data is not None, "the page has no stage"
    return stage_text.screen(data["code"], data["lang"], data["token"], data["member"])


def stage_of(at) -> str:
    """The text a reader sees on the page's stage (see `stage_markup`)."""
    return stage_text.text(stage_markup(at))


def shown(markup: str) -> str:
    """Text as a reader sees it: player text is sent as character references (pages.ui.esc)."""
    return html.unescape(markup)


def test_the_app_entry_runs_home():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT).run()
    assert not at.exception, [e.message for e in at.exception]
    assert any(b.label == "Create the room" for b in at.button)


def test_home_and_rules_run():
    at = run("home")
    assert any(b.label == "Create the room" for b in at.button)
    run("rules")


def test_a_room_through_lobby_play_and_end():
    room = tables.create_room("dixit", seed=3)
    run("table", room=room.code, host=room.host_token)
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy", "Di")]
    at = run("table", room=room.code, host=room.host_token)
    assert all(n in stage_of(at) for n in ("Ana", "Bo", "Cy", "Di"))  # the lobby's names are the stage's
    run("play", room=room.code, seat=1, token=seats[1].token)
    tables.start(room.code, room.host_token)
    for s in seats:
        run("play", room=room.code, seat=s.seat, token=s.token)
    tables.submit(room.code, 0, seats[0].token, {"type": "claim"})
    at = run("play", room=room.code, seat=0, token=seats[0].token)
    assert "You are the storyteller" in stage_of(at)  # the phone's screen is the stage's
    run("table", room=room.code)
    tables.end(room.code, room.host_token)
    run("table", room=room.code, host=room.host_token)
    run("play", room=room.code, seat=2, token=seats[2].token)


def test_bad_links_get_a_clear_message():
    at = run("play", room="ZZZZ", seat=0, token="nope")
    assert "no room" in text_of(at).lower() or "not valid" in text_of(at).lower()
    room = tables.create_room("dixit")
    tables.join(room.code, "Ana")
    at = run("play", room=room.code, seat=0, token="wrong")
    assert "not valid" in text_of(at)
    at = run("table", room="QQQQ")
    assert "no room" in text_of(at).lower()
    at = run("play")
    assert "room code" in text_of(at)


def test_joining_through_the_form_puts_the_seat_in_the_link():
    room = tables.create_room("dixit")
    at = run("play", room=room.code)
    at.text_input[0].input("Ana")
    at.button[0].click().run()
    assert not at.exception
    assert at.query_params["seat"] == ["0"] or at.query_params["seat"] == "0"
    assert tables.view(room.code)["names"] == ["Ana"]


def test_a_seat_shared_with_another_phone_says_so_and_stops_sharing():
    from engine import gate

    room = tables.create_room("dixit")
    ana = tables.join(room.code, "Ana")
    tables.join(room.code, "Bo")
    tables.join(room.code, "Cy")
    tables.start(room.code, room.host_token)
    tables.seen_on_seat(room.code, 0, ana.token, gate.Device("photo-of-the-qr-0123456", "127.0.0.2"))
    at = run("play", room=room.code, seat=0, token=ana.token)
    assert "Another phone is playing this seat too." in text_of(at)
    next(b for b in at.button if b.label == "Stop sharing").click().run()
    assert not at.exception
    renewed = at.query_params["token"]
    renewed = renewed[0] if isinstance(renewed, list) else renewed
    assert renewed != ana.token and tables.view(room.code, 0, renewed)["you"] == 0
    assert "Another phone is playing this seat too." not in text_of(at)
    with pytest.raises(tables.SobremesaError):
        tables.view(room.code, 0, ana.token)
