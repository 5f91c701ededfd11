"""The peer, measured in the same run: boardgame.io 0.50 (`../shared/peers/boardgameio`) playing the
same 1 + 6 Dixit taps as bench/table_latency.py. Copies the peer to a scratch folder (the shared
one is never written), runs `npm install` and its build there when Node is present, then its own
latency script, and prints its figures beside ours (`make bench`). Without Node it says so and
prints none. Asserts nothing.

    .venv/bin/python bench/peer.py [--turns 3] [--idle 10] [--throttle 4]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.measure import figure  # noqa: E402

PEER = ROOT.parent / "shared" / "peers" / "boardgameio"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--idle", type=float, default=10.0)
    ap.add_argument("--throttle", type=float, help="slow the last phone's CPU this many times (Chromium's)")
    ap.add_argument(
        "--threads", action="store_true", help="split Chromium's CPU by process and thread (bench/peer_threads.py)"
    )
    args = ap.parse_args()
    if not PEER.is_dir() or shutil.which("npm") is None:
        print(f"no peer measured: {'npm is missing' if PEER.is_dir() else f'{PEER} is missing'}")
        return
    scratch = Path(tempfile.mkdtemp(prefix="sobremesa-peer-")) / "boardgameio"
    shutil.copytree(PEER, scratch, ignore=shutil.ignore_patterns("node_modules", "dist"))
    for step in (["npm", "install", "--no-audit", "--no-fund"], ["npm", "run", "build"]):
        done = subprocess.run(step, cwd=scratch, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            print(f"no peer measured: {' '.join(step)} failed\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
            return
    out = scratch / "result.json"
    done = subprocess.run(
        [
            sys.executable,
            *([str(ROOT / "bench" / "peer_threads.py")] if args.threads else []),
            str(scratch / "latency.py"),
            "--turns",
            str(args.turns),
            "--idle",
            str(args.idle),
            "--json",
            str(out),
        ],
        cwd=ROOT,
        env={**os.environ, **({"THROTTLE": str(args.throttle)} if args.throttle else {})},
        capture_output=True,
        text=True,
        timeout=1200,
    )
    print(done.stdout)
    if done.returncode != 0 or not out.exists():
        print(f"the peer's run failed\n{done.stderr[-3000:]}")
        return
    r = json.loads(out.read_text())
    label = "peer boardgame.io, 1 + 6 tabs, dixit"
    if args.throttle:  # only the slowed phone's figure: the rest is the unthrottled run's
        figure(
            f"one phone {args.throttle:g}x slower: tap -> that phone shown, median / p95, {label} (ms)",
            f"{r['phones_median_ms']:.0f} / {r['phones_p95_ms']:.0f}",
            "peer:slow",
        )
        return
    figure(
        f"tap -> other tab shown, median / p95, {label} (ms)",
        f"{r['tap_to_rendered_median_ms']:.0f} / {r['tap_to_rendered_p95_ms']:.0f}",
        "peer:tap",
    )
    figure(f"server CPU per move, per open tab, {label} (ms)", f"{r['server_cpu_per_move_per_tab_ms']:.2f}", "peer:cpu")
    figure(
        f"Chromium CPU per move, per open tab, {label} (ms)",
        f"{r['chromium_cpu_per_move_per_tab_ms']:.1f}",
        "peer:chromium",
    )
    figure(
        f"idle server CPU, 7 open tabs, {label} (% of one core)",
        f"{r['idle_server_cpu_pct_one_core']:.2f}",
        "peer:idle",
    )


if __name__ == "__main__":
    main()
