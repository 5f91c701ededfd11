"""Run inside a network namespace with only loopback, whose DNS never answers (test_origins.py makes
it): a server, a wall that pings it every 0.2 s, and a phone that opens Streamlit's own socket with
a foreign Origin. Prints one JSON line: whether the foreign socket was refused, the slowest pong the
wall waited for meanwhile, and the host names the server looked up.

    ip netns exec NAME python -m tests.attacks.in_namespace DATA_DIR
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

from tests.attacks.conftest import attacked, ws

SILENT_DNS = ("127.0.0.53", 53)


def silent_dns(stop: threading.Event) -> None:
    """A name server that reads every question and answers none: a classroom Wi-Fi whose DNS is down."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as dns:
        dns.bind(SILENT_DNS)
        dns.settimeout(0.2)
        while not stop.is_set():
            try:
                dns.recv(4096)
            except TimeoutError:
                pass


def main(data: Path) -> None:
    os.environ["SOBREMESA_DATA"] = str(data)  # this process plays in the server's store
    stop = threading.Event()
    threading.Thread(target=silent_dns, args=(stop,), daemon=True).start()
    srv = attacked(data)
    try:
        from engine import tables

        code = tables.create_room("dixit", language="en").code
        wall = ws(srv.port, f"/stage/{code}", "127.0.0.1", origin=f"http://127.0.0.1:{srv.port}")
        wall.send(json.dumps({"hello": {"lang": "en"}}))
        pongs: list[float] = []

        def ping() -> None:
            while not stop.is_set():
                sent = time.monotonic()
                wall.send("ping")
                while '"pong"' not in wall.recv(timeout=30):
                    pass
                pongs.append(time.monotonic() - sent)
                time.sleep(0.2)

        pinger = threading.Thread(target=ping, daemon=True)
        pinger.start()
        time.sleep(1)
        before = len(srv.probed())
        refused = False
        try:
            foreign = ws(srv.port, "/_stcore/stream", "127.0.0.2", origin="http://games.elsewhere.example")
        except Exception:  # the handshake was refused (403)
            refused = True
        else:
            try:
                foreign.recv(timeout=10)
            except Exception:
                refused = True
        time.sleep(3)
        stop.set()
        pinger.join(15)
        lookups = [p["lookup"] for p in srv.probed()[before:] if "lookup" in p]
        print(json.dumps({"refused": refused, "slowest_pong": max(pongs), "lookups": lookups}))
    finally:
        stop.set()
        srv.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
