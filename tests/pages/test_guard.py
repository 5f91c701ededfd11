"""The guard's adoption of the laptop's browser (pages/guard.py, engine/laptop.py), as an ASGI app
sees it: the key becomes a cookie only on this computer, and the redirect always leads to the start
page, without the key (a path taken from the request made an open redirect)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from engine import laptop
from pages.guard import Guard


def adopt(path: str, query: str, client: str = "127.0.0.1", headers=()):
    sent = []

    async def app(scope, receive, send):  # what the guard lets through
        sent.append({"type": "passed"})

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "query_string": query.encode(),
        "headers": list(headers),
        "client": (client, 50000),
    }
    # In a thread of its own: a browser test before this one, in the same process, leaves
    # Playwright's event loop marked as running in this thread.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, Guard(app)(scope, receive, send)).result()
    start = sent[0]
    return start, dict(start.get("headers", []))


def test_the_laptop_link_sets_the_cookie_and_leaves_the_address():
    start, headers = adopt("/", f"laptop={laptop.key()}&room=KQZPB")
    assert start["status"] == 303 and headers[b"location"] == b"/?room=KQZPB"
    assert headers[b"set-cookie"].startswith(f"{laptop.COOKIE}={laptop.key()};".encode())
    assert b"HttpOnly" in headers[b"set-cookie"] and b"SameSite=Strict" in headers[b"set-cookie"]


@pytest.mark.parametrize(
    "client,headers,key",
    [
        ("127.0.0.2", (), "right"),  # a phone on the network
        ("127.0.0.1", ((b"x-forwarded-for", b"127.0.0.2"),), "right"),  # through a proxy we do not trust
        ("127.0.0.1", (), "wrong-key"),
    ],
)
def test_no_cookie_without_the_key_on_this_computer(client, headers, key):
    start, sent = adopt("/", f"laptop={laptop.key() if key == 'right' else key}", client, headers)
    assert start["status"] == 303 and b"set-cookie" not in sent and b"laptop" not in sent[b"location"]


@pytest.mark.parametrize("path", ["//evil.example", "/%2F%2Fevil.example", "/\\evil.example", "/%E2%82%AC", "/play"])
def test_the_redirect_leads_to_the_start_page_whatever_the_path(path):
    start, headers = adopt(path, "laptop=x")
    assert start["status"] == 303 and headers[b"location"] == b"/"


def test_a_parameter_that_only_ends_in_laptop_is_passed_through():
    start, _ = adopt("/", "xlaptop=1")
    assert start == {"type": "passed"}
