"""Benchmark: what a move costs the server with no browser at all, 1 + 6 Dixit.

    .venv/bin/python bench/headless_table.py [--turns 6]

The wall and six phones are stage sockets (bench/stage_screens.py: each proves who it is and gets its
screen drawn, as a tab does) and each move is the acting phone's tap over its socket; the next move
waits until every screen shows the last one. No Chromium shares the two cores and no card picture is
fetched, so the server's CPU per move (from /proc) is its own work alone: beside
bench/table_latency.py's figure it says how much of that one is the browsers' doing (a busier run
queue and colder caches). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import account  # noqa: E402
from bench.measure import cpu_seconds, figure, next_scene  # noqa: E402
from bench.stage_screens import StageScreen, shown_at, start_all  # noqa: E402
from bench.table_latency import NAMES  # noqa: E402
from tests.browser.conftest import StreamlitServer  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=6)
    ap.add_argument(
        "--account", action="store_true", help="the server's thread CPU by what the stage did (bench/account.py)"
    )
    args = ap.parse_args()
    if args.account:
        account.enable()
    data = tempfile.mkdtemp(prefix="sobremesa-bench-")
    os.environ["SOBREMESA_DATA"] = data
    os.environ["SOBREMESA_COMPUTER_PLAYERS"] = "off"
    from engine import tables

    srv = StreamlitServer(ROOT / "app.py", {**os.environ}, log_path=Path(data) / "server.log").start()
    screens: list[StageScreen] = []
    try:
        room = tables.create_room("dixit", seed=11)
        seats = [tables.join(room.code, name) for name in NAMES[:6]]
        tables.start(room.code, room.host_token)
        code = room.code
        phones = [StageScreen(srv.port, code, {"token": seat.token}) for seat in seats]
        screens = [StageScreen(srv.port, code, {}), *phones]  # the wall first
        start_all(screens)
        time.sleep(2)
        cpu0, left_out, moves = cpu_seconds(srv.pid), 0.0, 0
        spent0 = account.taken() if args.account else {}
        while tables.view(code)["status"] == "playing" and len(tables.view(code)["history"]) < args.turns:
            view = tables.view(code)
            version = view["version"] + 1
            tapped = phones[view["waiting_for"][0]]
            tapped.offering()
            tapped.tap()
            deadline = time.monotonic() + 30
            while any(shown_at(s.shown, version) is None for s in screens):
                if time.monotonic() > deadline:
                    late = {i: (max(s.shown, default=None), s.failed, s.said[-1:]) for i, s in enumerate(screens)}
                    raise TimeoutError(
                        f"version {version} never reached every screen (last version, failure, said): {late}"
                    )
                time.sleep(0.005)
            moves += 1
            s0 = cpu_seconds(srv.pid)
            if next_scene(code, room.host_token):  # the turn's reveal, ended at once and left out
                time.sleep(0.5)
                left_out += cpu_seconds(srv.pid) - s0
        cpu = cpu_seconds(srv.pid) - cpu0 - left_out
        spent = account.lines(spent0, account.taken(wait=True), moves) if args.account else []
    finally:
        for screen in screens:
            screen.stop()
        srv.stop()
    print(f"{moves} moves, 1 + 6 stage sockets, no browser: server CPU {1000 * cpu / moves:.1f} ms a move")
    print("\n".join(spent))  # --account: the reveals the host ends are in it
    figure(
        "server CPU per move, per open tab, 1 + 6 tabs, dixit, no browser (ms)",
        f"{1000 * cpu / moves / 7:.2f}",
    )


if __name__ == "__main__":
    main()
