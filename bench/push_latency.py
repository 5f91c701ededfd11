"""Benchmark: push latency to other tabs, and the server's idle CPU.

    .venv/bin/python bench/push_latency.py                 # push (WebSocket)
    .venv/bin/python bench/push_latency.py --poll 0.25     # baseline: st.fragment(run_every=0.25)
    .venv/bin/python bench/push_latency.py --elements markdown:10   # what ten changing elements add

Starts tests/browser/push_demo_app.py with `streamlit run`, opens 1 actor tab +
--tabs other tabs on one room in headless Chromium, bumps the counter --n times
(clicking the actor's button, or --via http for POST /bump/<code>), and measures
for every other tab the time from the bump to the new value appearing in its DOM
(a MutationObserver stamps Date.now(); same clock as the bump).  Then all tabs
sit idle for --idle seconds while the server's CPU is read from /proc/<pid>/stat.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.measure import browser_cpu_seconds, cpu_seconds, figure, pct  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "browser"))
from conftest import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402

DEMO = ROOT / "tests" / "browser" / "push_demo_app.py"
CODE = "BNCH"

OBSERVER = r"""
window.__seen = {};
const scan = () => {
  for (const el of document.querySelectorAll('[data-testid="stText"]')) {
    const m = /^counter: (\d+)$/.exec(el.textContent.trim());
    if (m && !(m[1] in window.__seen)) window.__seen[m[1]] = Date.now();
  }
};
new MutationObserver(scan).observe(document, {subtree: true, childList: true, characterData: true});
"""

PROBE = r"""([n, code]) => {
  const info = window.__sobremesaPushRooms?.[code];
  return [window.__seen[n], info && info.version === Number(n) ? info.pushedAt : null];
}"""

CLICK = r"""() => {
  const b = [...document.querySelectorAll('[data-testid="stButton"] button')]
    .find((x) => x.textContent.trim() === "bump");
  const t = Date.now(); b.click(); return t;
}"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=50, help="bumps (default 50)")
    ap.add_argument("--tabs", type=int, default=6, help="tabs besides the actor (default 6)")
    ap.add_argument("--idle", type=float, default=30, help="idle window in s (default 30)")
    ap.add_argument("--poll", type=float, default=0, help="polling baseline: run_every seconds")
    ap.add_argument("--via", choices=["button", "http"], default="button")
    ap.add_argument("--script", default=str(DEMO))
    ap.add_argument(
        "--elements",
        default="",
        help="more elements in the fragment, e.g. markdown:10 "
        "(markdown, html, info, one-html, static: see push_demo_app.py)",
    )
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    mode = f"polling run_every={args.poll}s" if args.poll else "push (WebSocket)"
    env = {**os.environ, "SOBREMESA_DATA": tempfile.mkdtemp(prefix="push-bench-")}
    if args.poll:
        env["PUSH_DEMO_POLL"] = str(args.poll)
    if args.elements:
        env["PUSH_DEMO_ELEMENTS"] = args.elements
    srv = StreamlitServer(args.script, env, log_path=Path(env["SOBREMESA_DATA"]) / "server.log")
    srv.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context()
            context.add_init_script(OBSERVER)
            pages = []
            for _ in range(1 + args.tabs):
                page = context.new_page()
                page.goto(f"{srv.url}/?room={CODE}")
                page.wait_for_function("() => '0' in window.__seen", timeout=90_000)
                if not args.poll:
                    page.wait_for_function("c => window.__sobremesaPushRooms?.[c]?.connected", arg=CODE, timeout=10_000)
                pages.append(page)
                print(
                    f"tab {len(pages)} loaded; server CPU so far {cpu_seconds(srv.pid):.1f}s",
                    file=sys.stderr,
                    flush=True,
                )
            actor, others = pages[0], pages[1:]
            time.sleep(1)

            lat: list[float] = []
            deliver: list[float] = []  # bump -> WebSocket message in the tab
            worst: list[float] = []
            quiet0, quiet_at = browser_cpu_seconds(), time.monotonic()
            time.sleep(3)  # the browsers with the measuring in place and nothing happening
            quiet = (browser_cpu_seconds() - quiet0) / (time.monotonic() - quiet_at)
            t_start = time.time()
            server0, browsers0 = cpu_seconds(srv.pid), browser_cpu_seconds()
            for i in range(1, args.n + 1):
                if args.via == "button":
                    t0 = actor.evaluate(CLICK)
                else:
                    t0 = time.time() * 1000
                    srv.post(f"/bump/{CODE}")
                stamps = []
                for page in others:
                    page.wait_for_function("n => n in window.__seen", arg=str(i), timeout=15_000, polling=50)
                    seen, pushed = page.evaluate(PROBE, [str(i), CODE])
                    stamps.append(seen - t0)
                    if pushed is not None:
                        deliver.append(pushed - t0)
                actor.wait_for_function("n => n in window.__seen", arg=str(i), timeout=15_000, polling=50)
                lat += stamps
                worst.append(max(stamps))
                time.sleep(0.05)
            bump_wall = time.time() - t_start
            server_cpu = cpu_seconds(srv.pid) - server0
            browsers_cpu = browser_cpu_seconds() - browsers0 - quiet * bump_wall  # less what measuring costs

            stats = json.loads(srv.get("/live/stats")) if not args.poll else None
            time.sleep(2)  # settle
            c0, w0 = cpu_seconds(srv.pid), time.monotonic()
            time.sleep(args.idle)
            c1, w1 = cpu_seconds(srv.pid), time.monotonic()
            idle_cpu = 100 * (c1 - c0) / (w1 - w0)
            browser.close()
    finally:
        srv.stop()

    print(f"mode:                {mode}; bump via {args.via}; 1 actor + {args.tabs} tabs")
    print(f"bumps:               {args.n} in {bump_wall:.1f}s")
    print(
        f"latency, all tabs:   median {statistics.median(lat):.0f} ms, "
        f"p95 {pct(lat, 95):.0f} ms, max {max(lat):.0f} ms  (n={len(lat)})"
    )
    if deliver:
        print(
            f"  of which delivery: median {statistics.median(deliver):.0f} ms, "
            f"p95 {pct(deliver, 95):.0f} ms (bump -> socket message; the rest is rerun + render)"
        )
    tabs = args.tabs + 1
    print(
        f"CPU per bump, per tab: server {1000 * server_cpu / args.n / tabs:.1f} ms, "
        f"Chromium {1000 * browsers_cpu / args.n / tabs:.1f} ms (the measuring's own {100 * quiet:.0f}% of a "
        f"core at rest left out)"
    )
    print(f"latency, last tab:   median {statistics.median(worst):.0f} ms, p95 {pct(worst, 95):.0f} ms")
    if stats is not None:
        print(f"open sockets:        {stats['sockets']}")
    print(
        f"server idle CPU:     {idle_cpu:.2f}% of one core over {w1 - w0:.0f}s "
        f"({c1 - c0:.2f} CPU-s) with {1 + args.tabs} tabs open"
    )
    if args.via == "button" and not args.poll and not args.elements:  # for make bench: the floor under the game benches
        figure(
            f"for comparison: a one-line page's tap -> {args.tabs} other tabs re-rendered, p95 (ms; "
            f"Streamlit's push and rerun with nothing to draw)",
            f"{pct(lat, 95):.0f}",
        )
        figure(
            "for comparison: the same, CPU per tap and tab, server / Chromium (ms)",
            f"{1000 * server_cpu / args.n / tabs:.1f} / {1000 * browsers_cpu / args.n / tabs:.1f}",
        )


if __name__ == "__main__":
    main()
