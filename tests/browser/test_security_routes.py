"""The attacks on the routes and on rendered text, against a real server: hostile names are shown as
typed and load nothing, and malformed codes, tickets, seats and frames leave no trace."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.parse
import urllib.request

from playwright.sync_api import expect

from tests.browser.conftest import host_menu

WAIT = 20_000
# At most 20 characters each, as names are; each would load a URL if it were read as markup.
HOSTILE = ["![i](//127.0.0.1:9/)", "<img src=//[::1]:9>", "**Bo** <b>x</b>"]


def tables_call(srv, expr: str):
    """Evaluate `expr` with engine.tables in another process on the server's database."""
    return json.loads(srv.python(f"print(json.dumps({expr}))").strip().splitlines()[-1])


def test_hostile_names_show_as_typed_and_load_nothing(serve, browser):
    srv = serve("app.py")
    requested: list[str] = []
    host = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    host.on("request", lambda r: requested.append(r.url))
    host.goto(srv.url + "/")
    host.get_by_role("button", name="Create the room").click()
    expect(host.get_by_text("Join Dixit")).to_be_visible(timeout=WAIT)
    assert "host=" not in host.url  # the projected page's address holds no host token
    code = host.url.split("room=")[1].split("&")[0]

    phones = []
    for name in HOSTILE:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.on("request", lambda r: requested.append(r.url))
        page.goto(f"{srv.url}/play?room={code}")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Take a seat").click()
        expect(page.get_by_text(f"You're in as {name}.")).to_be_visible(timeout=WAIT)
        phones.append(page)
    for name in HOSTILE:  # the wall shows each name exactly as typed
        expect(host.get_by_text(name, exact=True)).to_be_visible(timeout=WAIT)

    host_menu(host)  # the host menu: Esc on the wall (issue 50)
    host.get_by_role("button", name="Start the game with 3 players").click()
    host.keyboard.press("Escape")  # the menu closes: the stage alone
    phones[0].get_by_role("button", name="I have a phrase!").click(timeout=WAIT)
    # another phone names the storyteller, as typed
    expect(phones[1].get_by_text(f"{HOSTILE[0]} is the storyteller", exact=False)).to_be_visible(timeout=WAIT)
    expect(host.get_by_text(f"{HOSTILE[0]} is the storyteller", exact=False)).to_be_visible(timeout=WAIT)
    for page in [host, *phones]:
        assert page.locator("b:text-is('x'), strong:text-is('Bo')").count() == 0  # no markup made of a name
    loaded = [u for u in requested if "127.0.0.1:9/" in u or "[::1]:9" in u]
    assert loaded == [], loaded


def test_malformed_codes_tokens_and_frames_leave_no_trace(serve):
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    srv = serve("app.py")
    room = tables_call(srv, "(lambda r: [r.code, r.host_token])(tables.create_room('dixit'))")
    code = room[0]
    tables_call(srv, f"[tables.join('{code}', n).seat for n in ('Ana', 'Bo', 'Cy')]")
    before = tables_call(srv, f"tables.version('{code}')")
    ws_url = srv.url.replace("http", "ws", 1)
    rnd = random.Random(14)
    junk = [
        "",
        "²",
        "-1",
        "999999999999999999",
        "1e9",
        "None",
        "../../etc",
        "%00",
        "\u202e",
        "a" * 3000,
        "-.1.AAAAAAAAAAAAAAAAAAAAAA",
        "0.9999999999.AAAAAAAAAAAAAAAAAAAAAA",
    ]
    junk += [
        "".join(rnd.choice("0123456789.-_²%&=?#/\\'\"<> abcXYZ") for _ in range(rnd.randint(1, 60))) for _ in range(40)
    ]
    codes = [code, code.lower(), "ZZZZ", "A", "x" * 200, "%2e%2e", code + "SEEN"]
    answers = set()
    for i, value in enumerate(junk):
        target = codes[i % len(codes)]
        hello = {"hello": {rnd.choice(["token", "member"]): value, "token": value, "lang": "en"}}
        try:
            with connect(f"{ws_url}/stage/{urllib.parse.quote(target, safe='%')}", open_timeout=5) as ws:
                try:
                    ws.send(rnd.choice([json.dumps(hello), "{", "x" * 10_000, json.dumps({"version": 99})]))
                    while True:  # the process's name comes first to every socket let in: then a screen
                        got = ws.recv(timeout=5)
                        if '"boot"' not in got:
                            answers.add(("message", got))
                            break
                except ConnectionClosed as closed:
                    answers.add(("closed", closed.rcvd.code if closed.rcvd else None))
        except InvalidStatus as refused:
            answers.add(("http", refused.response.status_code))
    # nobody with a junk token saw a screen, and every refusal was a close code
    assert not any(kind == "message" for kind, _ in answers), answers
    assert ("closed", 4401) in answers and all(kind == "closed" for kind, _ in answers), answers

    def fetch(path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(srv.url + path, timeout=5) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            return refused.code, b""

    for path in [
        "/cards/..%2f..%2fetc%2fpasswd",
        "/cards/%00",
        "/cards/" + "a" * 2000,
        "/assets/..%2fui.py",
        "/assets/push.js%00",
        "/cards/dreams%2f..%2f..%2fpush.key",
        "/assets/" + "%2e" * 300,
    ]:
        assert fetch(path)[0] in (400, 403, 404, 405), path
    # a plain GET of /stage is Streamlit's page shell, the same for a live room and a missing one
    assert fetch("/stage/" + code) == fetch("/stage/ZZZZ")

    assert srv.get("/_stcore/health") == b"ok"
    assert tables_call(srv, f"tables.version('{code}')") == before
    assert tables_call(srv, f"tables.view('{code}')['names']") == ["Ana", "Bo", "Cy"]
    assert "Traceback" not in srv.log(), srv.log()[-3000:]
