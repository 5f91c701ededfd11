"""The guard's adoption of the laptop's browser (pages/guard.py, engine/laptop.py), as an ASGI app
sees it: the key becomes a cookie only on this computer, and the redirect always leads to the start
page, without the key (a path taken from the request made an open redirect)."""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine import laptop
from pages.guard import Guard


def served(make, path: str, method: str = "GET", query: str = "", headers=(), client: str = "127.0.0.2") -> list:
    """What an ASGI app sends for one request: `make(inner)` is the app, given the app behind it
    (which notes {"type": "passed"}). In a thread of its own: a browser test before this one, in the
    same process, leaves Playwright's event loop marked as running in this thread."""
    sent: list = []

    async def inner(scope, receive, send):  # what the guard lets through
        sent.append({"type": "passed"})

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "asgi": {"version": "3.0", "spec_version": "2.4"},  # a file is sent whole, no disconnect watched
        "query_string": query.encode(),
        "headers": list(headers),
        "client": (client, 50000),
    }
    app = make(inner)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    return sent


def known_browser() -> list:
    from pages.guard import DEVICE_COOKIE

    return [(b"cookie", f"{DEVICE_COOKIE}={'d' * 24}".encode())]


def adopt(path: str, query: str, client: str = "127.0.0.1", headers=()):
    start = served(Guard, path, query=query, headers=headers, client=client)[0]
    return start, dict(start.get("headers", []))


def ticket() -> str:
    return laptop.one_time_link("http://localhost:8501").split("laptop=", 1)[1]


def test_the_laptop_link_sets_the_cookie_and_leaves_the_address():
    link = ticket()
    start, headers = adopt("/", f"laptop={link}&room=KQZPB")
    assert start["status"] == 303 and headers[b"location"] == b"/?room=KQZPB"
    assert headers[b"set-cookie"].startswith(f"{laptop.COOKIE}={laptop.key()};".encode())
    assert b"HttpOnly" in headers[b"set-cookie"] and b"SameSite=Strict" in headers[b"set-cookie"]
    start, again = adopt("/", f"laptop={link}")  # a link works once
    assert start["status"] == 303 and b"set-cookie" not in again


def test_the_key_itself_and_an_old_link_make_nobody_the_laptop():
    start, sent = adopt("/", f"laptop={laptop.key()}")  # the key is the cookie's, never a link's
    assert b"set-cookie" not in sent
    old = laptop.one_time_link("http://localhost:8501", seconds=-1).split("laptop=", 1)[1]
    start, sent = adopt("/", f"laptop={old}")
    assert b"set-cookie" not in sent


def test_a_renewed_key_signs_every_other_browser_out():
    before = laptop.key()
    assert laptop.proves(before)
    after = laptop.rotate()
    assert after != before and laptop.proves(after) and not laptop.proves(before)


@pytest.mark.parametrize(
    "client,headers,key",
    [
        ("127.0.0.2", (), "right"),  # a phone on the network
        ("127.0.0.1", ((b"x-forwarded-for", b"127.0.0.2"),), "right"),  # through a proxy we do not trust
        ("127.0.0.1", (), "wrong-key"),
    ],
)
def test_no_cookie_without_the_key_on_this_computer(client, headers, key):
    start, sent = adopt("/", f"laptop={ticket() if key == 'right' else key}", client, headers)
    assert start["status"] == 303 and b"set-cookie" not in sent and b"laptop" not in sent[b"location"]


@pytest.mark.parametrize("path", ["//evil.example", "/%2F%2Fevil.example", "/\\evil.example", "/%E2%82%AC", "/play"])
def test_the_redirect_leads_to_the_start_page_whatever_the_path(path):
    start, headers = adopt(path, "laptop=x")
    assert start["status"] == 303 and headers[b"location"] == b"/"


def test_a_parameter_that_only_ends_in_laptop_is_passed_through():
    start, _ = adopt("/", "xlaptop=1")
    assert start == {"type": "passed"}


def test_a_card_is_answered_at_the_guard_for_a_browser_it_knows():
    """A known browser's card comes straight from the guard, past Streamlit's middleware; a HEAD
    gets the headers alone; a wrong id is the card route's 404; a browser with no device id yet
    goes the whole way (and gets its id)."""
    from pages.routes import card_answer

    card = sorted(__import__("engine.pictures", fromlist=["x"]).builtin_words())[0]

    def fetch(path: str, method: str = "GET", known: bool = True):
        guard = functools.partial(Guard, fast={"/cards/": card_answer})
        return served(guard, path, method, headers=known_browser() if known else ())

    sent = fetch(f"/cards/{card}")
    start, body = sent
    headers = dict(start["headers"])
    assert start["status"] == 200 and headers[b"content-type"] == b"image/jpeg"
    assert body["body"][:2] == b"\xff\xd8" and headers[b"content-length"] == str(len(body["body"])).encode()
    start, body = fetch(f"/cards/{card}", "HEAD")
    assert start["status"] == 200 and body["body"] == b""
    assert fetch("/cards/../../etc/passwd")[0]["status"] == 404
    assert fetch(f"/cards/{card}", known=False) == [{"type": "passed"}]


def test_a_cookie_header_is_parsed_once_and_a_huge_one_is_not_kept():
    from pages import guard

    guard._jars.clear()
    header = f"{guard.DEVICE_COOKIE}={'d' * 24}; other=1"
    first = guard.cookies_of(header)
    first["other"] = "changed by a caller"
    assert guard.cookies_of(header) == {guard.DEVICE_COOKIE: "d" * 24, "other": "1"}  # a copy each time
    assert list(guard._jars) == [header]
    huge = f"{guard.DEVICE_COOKIE}={'d' * 24}; pad={'x' * 5000}"
    assert guard.cookies_of(huge)[guard.DEVICE_COOKIE] == "d" * 24
    assert huge not in guard._jars


def test_streamlits_own_assets_are_answered_at_the_guard_as_streamlit_answers_them():
    """Every file of Streamlit's built frontend (its scripts, styles and fonts) is answered from
    memory for a browser the guard knows, with the status, type, caching and bytes Streamlit's own
    static files give it; a path that is not one of them goes on to Streamlit."""
    from streamlit import file_util
    from streamlit.web import bootstrap
    from streamlit.web.server.starlette.starlette_static_routes import create_streamlit_static_handler

    from pages.routes import _static_files, static_answer

    bootstrap._initialize_mimetypes()  # as the server starts: .js is application/javascript there
    streamlit = create_streamlit_static_handler(file_util.get_static_dir(), None)

    def fetch(app, path: str, known: bool = True) -> list:
        make = functools.partial(Guard, fast={"/static/": static_answer}) if app is None else lambda inner: app
        return served(make, path, headers=known_browser() if known else ())

    def seen(sent: list) -> tuple:
        headers = dict(sent[0]["headers"])
        body = b"".join(m.get("body", b"") for m in sent[1:])
        return sent[0]["status"], headers[b"content-type"], headers[b"cache-control"], body

    files = sorted(_static_files())
    assert len(files) > 100 and "/static/js/" not in files[0]
    for path in files:
        assert seen(fetch(None, "/static" + path)) == seen(fetch(streamlit, "/static" + path)), path
    for path in ("/static/js/no-such-file.js", "/static/../index.html", "/static/", "/static//etc/passwd"):
        assert fetch(None, path) == [{"type": "passed"}], path
    assert fetch(None, "/static" + files[0], known=False) == [{"type": "passed"}]
