"""Benchmark: the real app, one shared screen and a phone per player in headless Chromium.

    .venv/bin/python bench/table_latency.py [--turns 3] [--idle 30]              # Dixit, 1 + 6 tabs
    .venv/bin/python bench/table_latency.py --game odyssey --players 12 --turns 2  # 1 + 12 tabs
    .venv/bin/python bench/table_latency.py --throttle 4 --idle 0  # the last phone 4x slower
    .venv/bin/python bench/table_latency.py --idle 0 --trace out/bench/chromium.json  # where Chromium's CPU goes

Each move is made by tapping in the acting player's tab (claim, tell, give, vote). For each
of the six other tabs it measures the time from the tap (as the page received it) to that tab
showing the room at the new version (pages/assets/stage.js tells the page's `__sobremesaShown` as
a version first shows, whole, in fragments or unchanged; every tab shares the browser's clock), and
the screen messages' characters each phone received. The bench splits the figures by moves that
change the phase (or end a turn) and the others. With `--throttle N` the last phone's CPU is N
times slower (Chromium's throttling, as the peer's bench does) and only its figure is printed.
Then all the tabs sit idle and the server's CPU is read from /proc/<pid>/stat. Prints
figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import account, chromium_trace, measure  # noqa: E402
from bench.measure import browser_cpu_seconds, cpu_seconds, figure, pct, waited_seconds  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402

RERUNS = "(c) => window.__sobremesaPushRooms?.[c]?.reruns ?? 0"
# All a move's figures from one tab in one call: each call is the browser's work too, which the
# Chromium figure counts (the peer's bench reads each tab once a move).
READ = """(a) => {
  const r = window.__sobremesaPushRooms?.[a.c] || {};
  return { at: window.__renderedAt[a.v], pushed: window.__pushedAt[a.v], morphs: r.morphs || 0,
           bytes: r.bytes || 0, reruns: r.reruns || 0 };
}"""  # bytes: the screen messages' characters (stage.js)
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gil", "Hal", "Ivo", "Jo", "Kim", "Lu"]

STAMP = r"""(code) => {
  window.__renderedAt = {};
  window.__pushedAt = {};
  // The times are stage.js's own, told as each version first shows (no polling: the tab's CPU counts).
  window.__sobremesaShown = (c, v, at, pushed) => {
    if (c !== code) return;
    if (!(v in window.__renderedAt)) window.__renderedAt[v] = at;
    if (!(v in window.__pushedAt)) window.__pushedAt[v] = pushed;
  };
  // The tap's own moment, as the page receives it: Playwright's click first waits for the button
  // to be visible and still (two animation frames or more), which is the robot's time, not the app's.
  window.addEventListener("click", () => { window.__tapAt = Date.now(); }, true);
}"""


def tap(page, button: str, enabled_only: bool = False, timeout: int = 20000) -> tuple[int, int]:
    """Select a card if the screen asks for one, then press the button; returns the time the page
    received the tap, and the time Playwright was asked to make it."""
    cards = page.locator("[data-testid=card]:not(.off)" if enabled_only else "[data-testid=card]")
    if button != "I have a phrase!":
        cards.first.wait_for(timeout=timeout)
        if page.locator("[data-testid=card].picked").count() == 0:
            cards.first.click()
        target = page.locator("[data-testid=confirm-pick]")
    else:
        target = page.get_by_role("button", name=button)
    target.wait_for(timeout=timeout)
    asked = page.evaluate("Date.now()")
    target.click()
    return page.evaluate("window.__tapAt"), asked


def open_tabs(browser, url: str, code: str, links: list[str]) -> list:
    """The wall at projector size and a phone per seat link (`room=...&seat=...&token=...`), each
    connected to the room's push and measuring (STAMP): [wall, *phones]."""
    wall = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{url}/table?room={code}")
    tabs = [wall]
    for link in links:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"{url}/play?{link}")
        tabs.append(page)
    for page in tabs:
        page.wait_for_function("(c) => window.__sobremesaPushRooms?.[c]?.connected", arg=code, timeout=60000)
        page.evaluate(STAMP, code)
    return tabs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--game", default="dixit", choices=["dixit", "odyssey"])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--idle", type=float, default=30.0)
    ap.add_argument("--profile", help="record the server with py-spy during the moves (collapsed stacks)")
    ap.add_argument("--trace", help="trace every Chromium process during the moves to this file, and split it")
    ap.add_argument(
        "--threads", action="store_true", help="split Chromium's CPU by process and thread from /proc (untraced)"
    )
    ap.add_argument(
        "--throttle", type=float, help="slow the last phone's CPU this many times (as the peer's bench does)"
    )
    ap.add_argument(
        "--account", action="store_true", help="the server's thread CPU by what the stage did (bench/account.py)"
    )
    args = ap.parse_args()
    if args.account:
        account.enable()
    data = tempfile.mkdtemp(prefix="sobremesa-bench-")
    os.environ["SOBREMESA_DATA"] = data
    from engine import tables

    srv = StreamlitServer(ROOT / "app.py", {**os.environ}, log_path=Path(data) / "server.log").start()
    room = tables.create_room(args.game, seed=11)
    seats = [tables.join(room.code, n) for n in NAMES[: args.players]]
    tables.start(room.code, room.host_token)
    code = room.code
    from playwright.sync_api import sync_playwright

    delays: list[float] = []
    pushes: list[float] = []
    firsts: list[float] = []  # per move: the quickest of the other tabs
    robot: list[float] = []  # Playwright's own wait before each tap reached the page
    reran: list[float] = []  # the delays of the tabs whose screen was drawn (the rest were told it stood)
    phase_delays: list[float] = []  # moves that change the phase (or end a turn): every other tab reruns once
    still_delays: list[float] = []  # the others: live spots alone should show them
    own: list[float] = []  # tap -> the acting tab shows its result
    slow: list[float] = []  # tap -> the throttled phone shows the move (--throttle)
    sent: list[int] = []  # per move and phone: the screen messages' characters it received
    shifts = still_reruns = 0
    left_out = [0.0, 0.0, 0.0, 0.0]  # the reveals the host ends: server CPU, browser CPU, seconds, server's wait
    spans: list[tuple[float, float]] = []  # and when (monotonic), for --trace
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            tabs = open_tabs(browser, srv.url, code, [f"room={code}&seat={s.seat}&token={s.token}" for s in seats])
            phones = tabs[1:]
            if args.throttle:  # Chromium's CPU throttling, as Lighthouse's mid-range phone (4x); one only:
                # a throttled renderer keeps a core busy, and six would fill a 2-core machine
                cdp = phones[-1].context.new_cdp_session(phones[-1])
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
            moves = 0
            spy = None
            if args.profile:
                import subprocess

                spy = subprocess.Popen(
                    [
                        str(Path(sys.executable).parent / "py-spy"),
                        "record",
                        "-p",
                        str(srv.pid),
                        "-o",
                        args.profile,
                        "-f",
                        "raw",
                        "-r",
                        "200",
                        "--gil",  # CPU only: a thread waiting is not a cost
                        "--nonblocking",  # without it each sample stops the server, and tripled its CPU
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            pushed_reruns = sum(page.evaluate(RERUNS, code) for page in tabs)
            split = measure.chromium_threads if args.threads else collections.Counter  # --threads: as the figure
            quiet0, quiet_at, split0 = browser_cpu_seconds(), time.monotonic(), split()
            time.sleep(3)  # the browsers with the measuring in place and nothing happening
            quiet = (browser_cpu_seconds() - quiet0) / (time.monotonic() - quiet_at)
            split_quiet = split() - split0
            split_quiet = collections.Counter({k: v / (time.monotonic() - quiet_at) for k, v in split_quiet.items()})
            if args.trace:
                browser.start_tracing(categories=chromium_trace.CATEGORIES)
            busy0, browsers0, began, split_busy0 = (
                cpu_seconds(srv.pid),
                browser_cpu_seconds(),
                time.monotonic(),
                split(),
            )
            split_left: collections.Counter = collections.Counter()
            spent0 = account.taken() if args.account else {}
            waited0 = waited_seconds(srv.pid)
            last = {page: page.evaluate(READ, {"c": code, "v": -1}) for page in tabs}
            while tables.view(code)["status"] == "playing" and len(tables.view(code)["history"]) < args.turns:
                view = tables.view(code)
                actor = view["waiting_for"][0]
                version = view["version"] + 1
                button = {"claim": "I have a phrase!", "tell": "tell", "give": "give", "vote": "vote"}[view["phase"]]
                start, asked = tap(phones[actor], button, enabled_only=view["phase"] == "vote")
                robot.append(start - asked)
                others = [t for i, t in enumerate(tabs) if i != actor + 1]
                actor_page = phones[actor]
                actor_page.wait_for_function("(v) => window.__renderedAt[v]", arg=version, timeout=20000, polling=50)
                got = {actor_page: actor_page.evaluate(READ, {"c": code, "v": version})}
                own.append(got[actor_page]["at"] - start)
                firsts.append(None)
                for page in others:
                    page.wait_for_function("(v) => window.__renderedAt[v]", arg=version, timeout=20000, polling=50)
                    got[page] = now = page.evaluate(READ, {"c": code, "v": version})
                    delays.append(now["at"] - start)
                    if now["morphs"] != last[page]["morphs"]:
                        reran.append(delays[-1])
                    if now["pushed"]:
                        pushes.append(now["pushed"] - start)
                    firsts[-1] = min(firsts[-1] or 1e9, delays[-1])
                    if args.throttle and page is phones[-1]:
                        slow.append(delays[-1])
                sent.extend(got[page]["bytes"] - last[page]["bytes"] for page in phones)
                after = tables.view(code)
                phased = after["phase"] != view["phase"] or len(after["history"]) != len(view["history"])
                shifts += phased
                (phase_delays if phased else still_delays).extend(delays[-len(others) :])
                if not phased:
                    still_reruns += sum(got[page]["reruns"] - last[page]["reruns"] for page in others)
                last.update(got)
                moves += 1
                # The turn closed: the host's Next ends its reveal at once, out of what is measured.
                s0, b0, t0, w0 = cpu_seconds(srv.pid), browser_cpu_seconds(), time.monotonic(), waited_seconds(srv.pid)
                split_b0 = split()
                if measure.next_scene(code, room.host_token):
                    shown = tables.view(code)["version"]
                    for page in tabs:
                        page.wait_for_function("(v) => window.__renderedAt[v]", arg=shown, timeout=20000, polling=50)
                    time.sleep(0.6)  # the next turn's screens settle
                    last = {page: page.evaluate(READ, {"c": code, "v": -1}) for page in tabs}
                    left_out[0] += cpu_seconds(srv.pid) - s0
                    left_out[1] += browser_cpu_seconds() - b0
                    split_left.update(split())
                    split_left.subtract(split_b0)
                    left_out[2] += time.monotonic() - t0
                    left_out[3] += waited_seconds(srv.pid) - w0
                    spans.append((t0, time.monotonic()))
            time.sleep(1.5)  # let the last reruns finish before reading the CPU
            pushed_reruns = sum(page.evaluate(RERUNS, code) for page in tabs) - pushed_reruns
            ended = time.monotonic()
            busy = cpu_seconds(srv.pid) - busy0 - left_out[0]
            spent = account.lines(spent0, account.taken(wait=True), moves) if args.account else []
            waited = waited_seconds(srv.pid) - waited0 - left_out[3]
            moving = time.monotonic() - began - left_out[2]
            browsers = browser_cpu_seconds() - browsers0 - left_out[1] - quiet * moving  # less what measuring costs
            by_thread = split()
            for part in (split_busy0, split_left, collections.Counter({k: v * moving for k, v in split_quiet.items()})):
                by_thread.subtract(part)
            if args.trace:
                Path(args.trace).parent.mkdir(parents=True, exist_ok=True)
                Path(args.trace).write_bytes(browser.stop_tracing())
            if spy is not None:
                spy.send_signal(2)
                spy.wait(timeout=30)
            for page in tabs if args.idle > 0 else ():  # idle without the measuring backstop
                page.reload()
            for page in tabs if args.idle > 0 else ():
                page.wait_for_function("(c) => window.__sobremesaPushRooms?.[c]?.connected", arg=code, timeout=30000)
            time.sleep(3 if args.idle > 0 else 0)
            c0, t0 = cpu_seconds(srv.pid), time.monotonic()
            time.sleep(args.idle)
            c1, t1 = cpu_seconds(srv.pid), time.monotonic()
            browser.close()
    finally:
        srv.stop()
    p95 = pct(delays, 95)
    print(f"moves tapped: {moves}; samples (move x other tab): {len(delays)}")
    print("\n".join(spent))  # --account: the reveals the host ends are in it
    print(
        f"tap -> other tab re-rendered: median {statistics.median(delays):.0f} ms, p95 {p95:.0f} ms, "
        f"max {max(delays):.0f} ms"
    )
    print(
        f"(from the moment the page received the tap; Playwright's own checks before it took a median "
        f"{statistics.median(robot):.0f} ms more, p95 {pct(robot, 95):.0f} ms, left out)"
    )
    if reran:
        print(
            f"of these, {len(reran)} drew (p95 {pct(reran, 95):.0f} ms); the other {len(delays) - len(reran)} were "
            "told by the server that the move left their screen as it was, and drew nothing"
        )
    floor = shifts * args.players / moves
    print(
        f"reruns the pushes started: {pushed_reruns / moves:.2f} per move, for {args.players} other tabs "
        f"(the floor, every other tab once at each of the {shifts} phase changes: {floor:.2f})"
    )
    print(f"reruns started by the {moves - shifts} moves that changed no phase: {still_reruns}")
    if still_delays:
        print(
            f"a move that changes no phase, tap -> other tab shown: median {statistics.median(still_delays):.0f} ms, "
            f"p95 {pct(still_delays, 95):.0f} ms"
        )
    if phase_delays:
        print(
            f"a phase-changing move, tap -> other tab shown: median {statistics.median(phase_delays):.0f} ms, "
            f"p95 {pct(phase_delays, 95):.0f} ms"
        )
    if firsts:
        print(f"tap -> the first other tab re-rendered: median {statistics.median(firsts):.0f} ms")
    if pushes:
        print(
            f"tap -> push arrived in the other tab: median {statistics.median(pushes):.0f} ms, "
            f"p95 {pct(pushes, 95):.0f} ms"
        )
    print(
        f"server CPU per move: {1000 * busy / moves:.0f} ms; per move and open tab: "
        f"{1000 * busy / moves / (args.players + 1):.1f} ms"
    )
    tabs = args.players + 1
    # The browsers render every rerun on the same two cores: what a move costs the whole machine sets
    # a floor under the latency that no server change removes.
    print(
        f"Chromium CPU per move: {1000 * browsers / moves:.0f} ms; per move and open tab: "
        f"{1000 * browsers / moves / tabs:.1f} ms (server {1000 * busy / moves / tabs:.1f} ms; the measuring's "
        f"own {100 * quiet:.0f}% of a core while nothing happens is left out)"
    )
    print(
        f"machine busy while moving (measuring left out): {100 * (busy + browsers) / moving / (os.cpu_count() or 1):.0f}% of "
        f"{os.cpu_count()} cores; a move's CPU, server and browsers, spread over every core: "
        f"{1000 * (busy + browsers) / moves / (os.cpu_count() or 1):.0f} ms"
    )
    # A draw of 1 ms of CPU took up to 70 ms at a phase change: its thread was ready and waited for a
    # core (schedstat), not for the GIL or a lock; raising the server's priority did not shorten it.
    print(
        f"the server's threads waited for a core: {1000 * waited / moves:.1f} ms per move, summed over them (ready to run while "
        "the browsers held both cores)"
    )
    per_tab = 1000 * busy / moves / tabs
    small = tabs <= 7
    label = f"1 + {args.players} tabs, {args.game}"
    if args.throttle:  # only the slowed phone's figure: the rest is the unthrottled run's
        figure(
            f"one phone {args.throttle:g}x slower: tap -> that phone shown, median / p95, {label} (ms)",
            f"{statistics.median(slow):.0f} / {pct(slow, 95):.0f}",
            "<= peer:slow",
        )
        return
    figure(f"server threads waiting for a core, per move, {label} (ms)", f"{1000 * waited / moves:.1f}")
    per_move = pushed_reruns / moves
    med = statistics.median(delays)
    figure(
        f"tap -> every other tab shown, all moves, median / p95, {label} (ms)",
        f"{med:.0f} / {p95:.0f}",
        "<= 15 / <= 30" if small else "<= 15 / <= 40",
        med <= 15 and p95 <= (30 if small else 40),
    )
    if small:
        figure(
            f"tap -> other tab shown, median / p95, as the peer's, {label} (ms)",
            f"{med:.0f} / {p95:.0f}",
            "<= peer:tap",
        )
    figure(f"push-started Streamlit reruns per move, {label}", f"{per_move:.2f}", "0", per_move == 0)
    mine = pct(own, 95)
    figure(f"tap -> the acting tab shows its result, p95, {label} (ms)", f"{mine:.0f}", "<= 50", mine <= 50)
    cpu_target = 1.0 if small else 0.8
    figure(
        f"server CPU per move, per open tab, {label} (ms)", f"{per_tab:.2f}", f"<= {cpu_target}", per_tab <= cpu_target
    )
    chromium = 1000 * browsers / moves / tabs
    figure(
        f"Chromium CPU per move, per open tab, {label} (ms)",
        f"{chromium:.1f}",
        "<= peer:chromium" if small else "<= 20",
        None if small else chromium <= 20,
    )
    if args.threads:
        print("\n".join(measure.thread_lines(by_thread, moves, tabs)))
    if args.trace:
        print("\n".join(chromium_trace.report(Path(args.trace), (began, ended), spans, moves, tabs)))
    typical = statistics.median(sent)
    figure(
        f"screen characters per move to a phone, median (p95 {pct(sent, 95):.0f}), {label}",
        f"{typical:.0f}",
        "<= 1024",
        typical <= 1024,
    )
    if still_delays:
        figure(
            f"tap -> other tab shown, no phase change, median / p95, {label} (ms)",
            f"{statistics.median(still_delays):.0f} / {pct(still_delays, 95):.0f}",
        )
    if phase_delays:
        figure(
            f"tap -> other tab shown, phase change, median / p95, {label} (ms)",
            f"{statistics.median(phase_delays):.0f} / {pct(phase_delays, 95):.0f}",
        )
    if args.idle <= 0:
        return
    idle = 100 * (c1 - c0) / (t1 - t0)
    figure(
        f"idle server CPU, {tabs} open tabs (% of one core)",
        f"{idle:.2f}",
        "<= 0.3" if small else "<= 1",
        idle <= (0.3 if small else 1),
    )
    print(
        f"server CPU while {args.players + 1} tabs idle for {args.idle:.0f} s: {100 * (c1 - c0) / (t1 - t0):.2f}% of one core "
        f"({c1 - c0:.2f} CPU-s)"
    )


if __name__ == "__main__":
    main()
