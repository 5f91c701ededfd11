"""Which pages may open a socket (issue 47, items 1 and 5; item 12's /events is retired): a socket's Origin must be the page's
own (scheme, host and port equal to its Host), or one of the server's own addresses. A phone that
opened the laptop at another of its addresses plays; a foreign page is refused with a close code,
on the app's sockets and on Streamlit's own, where it no longer makes the laptop look itself up on
the internet (on a Wi-Fi whose DNS is down that froze every socket for seconds)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import tables
from tests.attacks.conftest import closed_with, wall_hello, ws

ROOT = Path(__file__).resolve().parents[2]


def test_a_page_at_another_address_of_the_laptop_opens_its_socket(server):
    """The page at http://127.0.0.2:PORT (another interface, the laptop's .local name): its socket's
    Origin equals its Host, so it is taken; a page of another site is accepted, then closed 4403."""
    from websockets.sync.client import connect

    from tests.attacks.conftest import bound

    code = tables.create_room("dixit", language="en").code
    other = f"127.0.0.2:{server.port}"
    with connect(
        f"ws://{other}/stage/{code}", sock=bound(server.port, "127.0.0.2"), origin=f"http://{other}", open_timeout=20
    ) as phone:
        phone.send(wall_hello())
        assert json.loads(phone.recv(timeout=20)).get("boot")
        assert "html" in json.loads(phone.recv(timeout=20))
    with ws(server.port, f"/stage/{code}", "127.0.0.2", origin="http://games.elsewhere.example") as foreign:
        assert closed_with(foreign) == 4403
    with ws(server.port, f"/stage/{code}", "127.0.0.2", origin=f"http://127.0.0.2:{server.port + 1}") as port:
        assert closed_with(port) == 4403  # the same host on another port is another origin


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("ip"), reason="needs root and iproute2 (CI has both)")
def test_a_foreign_origin_never_makes_the_laptop_look_itself_up(tmp_path):
    """In a network namespace with only loopback and a DNS that never answers: a phone opens
    Streamlit's socket with a foreign Origin. Streamlit would ask checkip.amazonaws.com who the
    laptop is, on the event loop, and every socket froze while the DNS did not answer. The guard
    refuses the socket first: no look-up, and the wall's pongs keep coming."""
    name = f"sobremesa{os.getpid()}"
    etc = Path("/etc/netns") / name
    etc.mkdir(parents=True)
    (etc / "resolv.conf").write_text("nameserver 127.0.0.53\noptions timeout:4 attempts:1\n")
    subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        subprocess.run(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"], check=True)
        done = subprocess.run(
            ["ip", "netns", "exec", name, sys.executable, "-m", "tests.attacks.in_namespace", str(tmp_path / "data")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=240,
        )
    finally:
        subprocess.run(["ip", "netns", "del", name], check=False)
        shutil.rmtree(etc, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"foreign origins in a namespace with no DNS: slowest pong {seen['slowest_pong']:.2f} s")
    assert seen["refused"], seen
    assert not any("checkip" in host for host in seen["lookups"]), seen
    assert seen["slowest_pong"] < 2, seen
