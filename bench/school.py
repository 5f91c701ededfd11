"""Benchmark: a school's game night on one server process.

    .venv/bin/python bench/school.py [--rooms 10] [--seconds 60]

Ten Dixit rooms of 1 wall + 6 phones play at once. In the first room the wall and 4 phones are
real headless Chromium tabs; every other screen (65 of 70) is a protocol screen
(bench/stage_screens.py: a stage socket each, which proves its seat and gets its screen drawn by the
server for every version, as a phone's does; it draws nothing itself). Each room makes a
move every 2 s on average (exponential gaps), 5 moves a second in all: the seat that moves is drawn
from those the table waits on, and taps in its Chromium tab (the tap's time is the page's own click
event) or on its protocol screen (the move a thumb would make, sent over its socket).

Figures: for the taps in Chromium, tap -> each other Chromium tab shows the move (p95); the
server's CPU over the run as a share of one core (from /proc). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.measure import browser_cpu_seconds, cpu_seconds, figure, pct, revealing  # noqa: E402
from bench.stage_screens import StageScreen, start_all  # noqa: E402
from bench.table_latency import NAMES, RERUNS, open_tabs, tap  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402

REAL_PHONES = 4
BUTTONS = {"claim": "I have a phrase!", "tell": "tell", "give": "give", "vote": "vote"}
FIRST_AT = "([v]) => { const t = Object.entries(window.__renderedAt).filter(([k]) => +k >= v).map(([, at]) => at); return t.length ? Math.min(...t) : null; }"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rooms", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--gap", type=float, default=2.0, help="mean seconds between two moves of a room")
    ap.add_argument(
        "--cluster", type=int, default=0, help="N processes behind nginx on a throwaway PostgreSQL (deploy/cluster.py)"
    )
    args = ap.parse_args()
    data = tempfile.mkdtemp(prefix="sobremesa-bench-")
    os.environ["SOBREMESA_DATA"] = data
    os.environ["SOBREMESA_COMPUTER_PLAYERS"] = "off"
    with contextlib.ExitStack() as stack:
        if args.cluster:
            from deploy.cluster import Cluster, create_database, free_port, throwaway_postgres

            url = create_database(stack.enter_context(throwaway_postgres()), "school")
            os.environ["SOBREMESA_DATABASE_URL"] = url
            srv = Cluster(args.cluster, free_port(), url, Path(data), host="127.0.0.1").start()
        else:
            srv = StreamlitServer(ROOT / "app.py", {**os.environ}, log_path=Path(data) / "server.log").start()
        run(args, srv, [proc.pid for proc in srv.servers.values()] if args.cluster else [srv.pid])


def run(args, srv, pids: list[int]) -> None:
    from engine import tables

    rooms = []
    for i in range(args.rooms):
        room = tables.create_room("dixit", seed=100 + i)
        seats = [tables.join(room.code, n) for n in NAMES[:6]]
        tables.start(room.code, room.host_token)
        rooms.append((room.code, seats))
    from playwright.sync_api import sync_playwright

    screens: list[StageScreen] = []
    rnd = random.Random(7)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            code0, seats0 = rooms[0]
            links0 = [f"room={code0}&seat={s.seat}&token={s.token}" for s in seats0]
            tabs = open_tabs(browser, srv.url, code0, links0[:REAL_PHONES])
            phones = tabs[1:]
            for page in tabs:
                page.set_default_timeout(5000)  # a tap that cannot happen must not hold the other rooms up
            acting: dict[tuple[int, int], StageScreen] = {}
            for r, (code, seats) in enumerate(rooms):
                if r:
                    screens.append(StageScreen(srv.port, code, {}))
                for seat, s in enumerate(seats):
                    if r == 0 and seat < REAL_PHONES:
                        continue
                    acting[(r, seat)] = StageScreen(srv.port, code, {"token": s.token})
                    screens.append(acting[(r, seat)])
            start_all(screens)
            time.sleep(2)
            taps: list[tuple[int, float, int]] = []  # (version, tap time in ms, the tapping tab)
            moves = skipped = 0
            tapping = 0.0
            cpu0, began = [cpu_seconds(pid) for pid in pids], time.monotonic()
            own0, browsers0 = time.process_time(), browser_cpu_seconds()
            due = [began + rnd.expovariate(1 / args.gap) for _ in rooms]
            while time.monotonic() - began < args.seconds:
                r = min(range(len(rooms)), key=due.__getitem__)
                time.sleep(max(0.0, due[r] - time.monotonic()))
                due[r] += rnd.expovariate(1 / args.gap)
                code, _seats = rooms[r]
                view = tables.view(code)
                if view["status"] != "playing" or not view["waiting_for"] or revealing(view):  # the class watches
                    skipped += 1
                    continue
                actor = rnd.choice(view["waiting_for"])
                if r == 0 and actor < REAL_PHONES:
                    t0 = time.monotonic()
                    try:  # the phone first shows the room as it is now, as a player's would before a tap
                        phones[actor].wait_for_function(FIRST_AT, arg=[view["version"]], timeout=5000, polling=20)
                        at, _asked = tap(
                            phones[actor], BUTTONS[view["phase"]], enabled_only=view["phase"] == "vote", timeout=3000
                        )
                    except Exception as exc:  # the screen was a step behind: this room's move waits for its next turn
                        print("a tap could not be made:", view["phase"], repr(exc)[:120])
                        skipped += 1
                        continue
                    finally:
                        tapping += time.monotonic() - t0
                    taps.append((view["version"] + 1, at, actor + 1))
                else:
                    acting[(r, actor)].tap()
                moves += 1
            took = time.monotonic() - began
            each = [cpu_seconds(pid) - c for pid, c in zip(pids, cpu0, strict=True)]
            own, browsers = time.process_time() - own0, browser_cpu_seconds() - browsers0
            cpu = sum(each)
            time.sleep(2)
            delays = []
            for version, at, tapper in taps:
                for i, page in enumerate(tabs):
                    if i == tapper:
                        continue
                    shown = page.evaluate(FIRST_AT, [version])
                    if shown is not None:
                        delays.append(shown - at)
            reruns = sum(page.evaluate(RERUNS, code0) for page in tabs)
            browser.close()
    finally:
        for screen in screens:
            screen.stop()
        srv.stop()
    share = 100 * cpu / took
    screens_n = args.rooms * 7
    where = f"{args.cluster} processes behind nginx, PostgreSQL" if args.cluster else "one process, SQLite"
    print(
        f"{where}: {args.rooms} rooms, {screens_n} screens ({len(tabs)} in Chromium); {moves} moves in {took:.0f} s ({moves / took:.1f} a second)"
    )
    print(
        f"moves not made (a room not playing, a tap that could not be made): {skipped}; {tapping:.1f} s spent tapping in Chromium"
    )
    print(f"server CPU: {cpu:.1f} s, {share:.0f}% of one core, {1000 * cpu / max(moves, 1):.0f} ms per move")
    print("per process: " + ", ".join(f"{100 * c / took:.0f}%" for c in each) + " of one core")
    # The load shares the 2 cores: when they are full, the Chromium tabs' latency says more about
    # the machine than about the server.
    print(
        f"the bench's own protocol screens: {100 * own / took:.0f}% of one core; the Chromium tabs: "
        f"{100 * browsers / took:.0f}%; the machine has {os.cpu_count()} cores"
    )
    print(f"Chromium tabs: {reruns} Streamlit reruns started by pushes (the stage draws every move in place)")
    if delays:
        print(
            f"Chromium tabs, tap -> other tab shown ({len(delays)} samples): median {statistics.median(delays):.0f} ms, p95 {pct(delays, 95):.0f} ms"
        )
        figure(
            f"school, {args.rooms} x (1 + 6) Dixit, {where}: Chromium tap -> other tab shown, p95 (ms)",
            f"{pct(delays, 95):.0f}",
            "<= 300",
            pct(delays, 95) <= 300,
        )
    busiest = 100 * max(each) / took
    figure(
        f"school, {args.rooms} x (1 + 6) Dixit, {where}, {moves / took:.1f} moves/s: busiest process's CPU (% of one core)",
        f"{busiest:.0f}",
        "<= 50",
        busiest <= 50,
    )


if __name__ == "__main__":
    main()
