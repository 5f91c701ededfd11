"""Benchmark: what one move costs a tab, with one tab open and nothing else running.

    .venv/bin/python bench/rerun_cost.py [--moves 16]

The latency benches run every tab at once on two cores, so their figures swing with the machine.
This one opens a single tab at a time (a Dixit phone, the Dixit shared screen as anyone and as the
host opens it), makes moves from this process, and reads from Chromium (the DevTools protocol's
Performance.getMetrics) how long the tab's main thread worked for each move that redrew it: all of
it (tasks) and the JavaScript part (script); medians, as a machine that is shared swings single runs
by a fifth. The Dixit screens are on the stage: a move is a morph of the screen the socket sent, and
no Streamlit rerun (the count of reruns they made is a figure too, and should be 0). The server's
share is in table_latency.py. Prints figures; asserts nothing.
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
from bench.measure import figure, next_scene  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
RERUNS = "(c) => window.__sobremesaPushRooms?.[c]?.reruns ?? 0"
# Screens the stage drew (a version only acknowledged, its screen unchanged, is no redraw).
SHOWN = "(c) => window.__sobremesaPushRooms?.[c]?.morphs ?? 0"


def metrics(cdp) -> dict:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def measure(browser, url: str, code: str, moves: int, move, viewport) -> tuple[float, float, int]:
    """Medians over the moves that redrew the tab at `url` (its stage's screen morphed): (main thread
    ms, of it script ms, Streamlit reruns over all the moves)."""
    page = browser.new_context(viewport=viewport).new_page()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(url)
    page.wait_for_function("(c) => window.__sobremesaPushRooms?.[c]?.connected", arg=code, timeout=30000)
    time.sleep(3)  # the first load's late work (fonts, lazy chunks) is not a rerun's
    tasks, scripts, reruns = [], [], 0
    for _ in range(moves):
        before, runs, shown = metrics(cdp), page.evaluate(RERUNS, code), page.evaluate(SHOWN, code)
        move()
        time.sleep(0.7)  # one redraw at a time: nothing else on the cores
        after = metrics(cdp)
        reran = page.evaluate(RERUNS, code) - runs
        reruns += reran
        if page.evaluate(SHOWN, code) > shown:  # a move this screen had no need to redraw: none
            tasks.append(1000 * (after["TaskDuration"] - before["TaskDuration"]))
            scripts.append(1000 * (after["ScriptDuration"] - before["ScriptDuration"]))
    page.context.close()
    return statistics.median(tasks), statistics.median(scripts), reruns


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
            next_scene(code, room.host_token)  # a reveal holds the room: the host's Next
            seat = seats[tables.view(code)["waiting_for"][0]]
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=16)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        table = dixit(browser, args.moves)
        browser.close()
    print("per redraw (median), one tab open at a time: Chromium main thread (of it JavaScript), Streamlit reruns")
    for label, (task, script, reruns) in (
        ("Dixit phone", table["phone"]),
        ("Dixit shared screen", table["wall"]),
        ("the same, the host's", table["host"]),
    ):
        print(f"  {label:24} {task:6.1f} ms ({script:5.1f} ms)  {reruns} reruns")
    figure("one move morphed on a Dixit phone, one tab alone, Chromium main thread (ms)", f"{table['phone'][0]:.1f}")
    figure(
        "one move morphed on the Dixit shared screen, one tab alone, Chromium main thread (ms)",
        f"{table['wall'][0]:.1f}",
    )
    figure(
        "the same with the host's controls, one tab alone, Chromium main thread (ms)",
        f"{table['host'][0]:.1f}",
    )
    reruns = sum(table[k][2] for k in ("phone", "wall", "host"))
    figure(f"Streamlit reruns of the Dixit screens over {3 * args.moves} moves", str(reruns), "0", reruns == 0)


if __name__ == "__main__":
    main()
