"""Benchmark: what one rerun costs, with one tab open and nothing else running.

    .venv/bin/python bench/rerun_cost.py [--moves 16]

The latency benches run every tab at once on two cores, so their figures swing with the machine.
This one opens a single tab at a time (a Dixit phone, the Dixit shared screen as anyone and as the
host opens it, and for comparison the one-line page of bench/push_latency.py), makes moves from this process, and reads from Chromium
(the DevTools protocol's Performance.getMetrics) how long the tab's main thread worked for each
move that reran it: all of it (tasks) and the JavaScript part (script); medians, as a machine that
is shared swings single runs by a fifth. What one element costs is the difference ten
changing markdown elements make on the one-line page. The server's share is in table_latency.py:
here its CPU would mostly be the watch on other processes' moves.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.measure import figure  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
RERUNS = "(c) => window.__sobremesaPushRooms?.[c]?.reruns ?? 0"


def metrics(cdp) -> dict:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def measure(browser, url: str, code: str, moves: int, move, viewport) -> tuple[float, float]:
    """Medians over the moves that reran the tab at `url` once: (main thread ms, of it script ms)."""
    page = browser.new_context(viewport=viewport).new_page()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(url)
    page.wait_for_function("(c) => window.__sobremesaPushRooms?.[c]?.connected", arg=code, timeout=30000)
    time.sleep(3)  # the first load's late work (fonts, lazy chunks) is not a rerun's
    tasks, scripts = [], []
    for _ in range(moves):
        before, runs = metrics(cdp), page.evaluate(RERUNS, code)
        move()
        time.sleep(0.7)  # one rerun at a time: nothing else on the cores
        after = metrics(cdp)
        if page.evaluate(RERUNS, code) - runs == 1:  # a move this screen had no need to redraw: none
            tasks.append(1000 * (after["TaskDuration"] - before["TaskDuration"]))
            scripts.append(1000 * (after["ScriptDuration"] - before["ScriptDuration"]))
    page.context.close()
    return statistics.median(tasks), statistics.median(scripts)


def dixit(browser, moves: int) -> dict:
    os.environ["SOBREMESA_DATA"] = tempfile.mkdtemp(prefix="sobremesa-bench-")
    from engine import tables

    srv = StreamlitServer(ROOT / "app.py", {**os.environ}).start()
    try:
        room = tables.create_room("dixit", seed=11)
        seats = [tables.join(room.code, n) for n in NAMES]
        tables.start(room.code, room.host_token)
        code = room.code

        def move() -> None:
            """The next move of whoever the table waits on, made here; the tab only hears it."""
            table = tables.view(code)
            if table["status"] != "playing":
                return
            seat = seats[table["waiting_for"][0]]
            chosen = tables.legal(code, seat.seat, seat.token)[0]
            tables.submit(code, seat.seat, seat.token, chosen)

        out = {}
        # Ana tells every other turn and waits on the others' gives and votes: her phone redraws on
        # most moves, like any phone whose player is done choosing.
        out["phone"] = measure(
            browser,
            f"{srv.url}/play?room={code}&seat=0&token={seats[0].token}",
            code,
            moves,
            move,
            {"width": 390, "height": 844},
        )
        out["wall"] = measure(
            browser, f"{srv.url}/table?room={code}", code, moves, move, {"width": 1920, "height": 1080}
        )
        # The laptop's own tab: the same wall with the host's controls (folded away during play).
        out["host"] = measure(
            browser,
            f"{srv.url}/table?room={code}&host={room.host_token}",
            code,
            moves,
            move,
            {"width": 1920, "height": 1080},
        )
        return out
    finally:
        srv.stop()


def one_line(browser, moves: int, elements: str = "") -> tuple[float, float]:
    env = {**os.environ, "SOBREMESA_DATA": tempfile.mkdtemp(prefix="sobremesa-bench-")}
    if elements:
        env["PUSH_DEMO_ELEMENTS"] = elements
    srv = StreamlitServer(ROOT / "tests" / "browser" / "push_demo_app.py", env).start()
    try:
        return measure(
            browser,
            f"{srv.url}/?room=BNCH",
            "BNCH",
            moves,
            lambda: srv.post("/bump/BNCH"),
            {"width": 390, "height": 844},
        )
    finally:
        srv.stop()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=16)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        floor = one_line(browser, args.moves)
        ten = one_line(browser, args.moves, "markdown:10")
        table = dixit(browser, args.moves)
        browser.close()
    print("per rerun (median), one tab open at a time: Chromium main thread (of it JavaScript)")
    for label, (task, script) in (
        ("one-line page", floor),
        ("the same + 10 markdown", ten),
        ("Dixit phone", table["phone"]),
        ("Dixit shared screen", table["wall"]),
        ("the same, the host's", table["host"]),
    ):
        print(f"  {label:24} {task:6.1f} ms ({script:5.1f} ms)")
    element = (ten[0] - floor[0]) / 10
    figure("for comparison: one rerun of a one-line page, one tab alone, Chromium main thread (ms)", f"{floor[0]:.1f}")
    figure("one rerun of a Dixit phone, one tab alone, Chromium main thread (ms)", f"{table['phone'][0]:.1f}")
    figure("one rerun of the Dixit shared screen, one tab alone, Chromium main thread (ms)", f"{table['wall'][0]:.1f}")
    figure(
        "one rerun of the Dixit shared screen with the host's controls, one tab alone, Chromium main thread (ms)",
        f"{table['host'][0]:.1f}",
    )
    figure("what one more element whose text changes adds to a rerun, Chromium main thread (ms)", f"{element:.1f}")


if __name__ == "__main__":
    main()
