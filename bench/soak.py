"""Benchmark: the server's memory over a long evening, with Streamlit's post-run GC switched off.

    .venv/bin/python bench/soak.py [--rooms 10] [--moves 2000]

The real app runs with one shared screen open per room in headless Chromium. Moves are made
through the table service from this process (the server hears of them through the database, as it
would of a second server), round-robin over the rooms, a finished game followed by "play again".
Every shared screen reruns as its room moves. The server's resident memory is read after 200 moves
and at the end. Prints figures; asserts nothing. Target: at the end at most 1.2 x what it was at 200.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.measure import next_scene  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rooms", type=int, default=10)
    ap.add_argument("--moves", type=int, default=2000)
    ap.add_argument("--pace", type=float, default=0.05, help="seconds between two moves")
    args = ap.parse_args()
    os.environ["SOBREMESA_DATA"] = tempfile.mkdtemp(prefix="sobremesa-soak-")
    from playwright.sync_api import sync_playwright

    from engine import tables

    srv = StreamlitServer(ROOT / "app.py", {**os.environ}, log_path=Path(os.environ["SOBREMESA_DATA"]) / "s.log")
    srv.start()
    rnd = random.Random(1)
    rooms = []
    for _ in range(args.rooms):
        room = tables.create_room("dixit")
        seats = [tables.join(room.code, name) for name in ("Ana", "Bo", "Cy", "Di")]
        tables.start(room.code, room.host_token)
        rooms.append((room, seats))
    marks = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for room, _ in rooms:
                page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
                page.goto(f"{srv.url}/table?room={room.code}")
                page.wait_for_function(
                    "(c) => window.__sobremesaPushRooms?.[c]?.connected", arg=room.code, timeout=60000
                )
            began = time.monotonic()
            for n in range(1, args.moves + 1):
                room, seats = rooms[n % len(rooms)]
                view = tables.view(room.code)
                if view["status"] == "finished":
                    tables.play_again(room.code, room.host_token)
                    view = tables.view(room.code)
                if next_scene(room.code, room.host_token):  # a reveal holds the room: the host's Next
                    view = tables.view(room.code)
                seat = seats[rnd.choice(view["waiting_for"])]
                tables.submit(
                    room.code, seat.seat, seat.token, rnd.choice(tables.legal(room.code, seat.seat, seat.token))
                )
                time.sleep(args.pace)
                if n in (200, args.moves):
                    time.sleep(3)  # the last reruns finish
                    marks[n] = rss_mb(srv.pid)
                    print(
                        f"after {n} moves ({time.monotonic() - began:.0f} s): server RSS {marks[n]:.0f} MB", flush=True
                    )
            browser.close()
    finally:
        srv.stop()
    ratio = marks[args.moves] / marks[200]
    from bench.measure import figure

    figure(
        f"server memory after {args.moves} moves in {args.rooms} rooms vs after 200",
        f"{ratio:.2f}x",
        "<= 1.2x",
        ratio <= 1.2,
    )
    print(
        f"server memory after {args.moves} moves in {args.rooms} rooms / after 200: {ratio:.2f}x "
        f"(target <= 1.2x: {'met' if ratio <= 1.2 else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
