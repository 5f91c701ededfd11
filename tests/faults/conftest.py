"""The fault tests' fixtures: the browser tests' server and Chromium, and a fault proxy per phone
(tests/faults/proxy.py), each phone a client at an address of its own (127.0.0.2, 127.0.0.3, ...),
as phones on a Wi-Fi are, that the server does not take for the laptop. Every byte stays on loopback."""

from __future__ import annotations

import os
import signal

import pytest

from tests.browser.conftest import browser, close_pages, serve  # noqa: F401  (the fixtures, shared)
from tests.faults.proxy import Proxy

PHONE_ADDRESS = "127.0.0.2"  # the first phone's; the next ones are 127.0.0.3, ...


@pytest.fixture
def proxies():
    """Factory: `proxies(srv)` -> a new Proxy to that server for one phone; all closed after."""
    made: list[Proxy] = []

    def make(srv) -> Proxy:
        proxy = Proxy(srv.port, listen=f"127.0.0.{2 + len(made)}", seed=len(made))
        made.append(proxy)
        return proxy

    yield make
    for proxy in made:
        proxy.close()


def kill(srv) -> None:
    """kill -9 the server (no goodbye to any socket), then start it again on its port and data."""
    proc, srv.proc = srv.proc, None
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)
    srv.start()


FAULT_ENV = {"SOBREMESA_COMPUTER_PLAYERS": "off"}
