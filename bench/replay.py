"""Drawing replays: (a) the wall replaying six drawings of the largest size at once in headless
Chromium (frame times' median and p95; target ≥ 50 fps), (b) the keepsake of a 6-player round of
such drawings (build time ≤ 2 s, largest image ≤ 1 MB).

    .venv/bin/python bench/replay.py [--no-browser]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.measure import figure, pct  # noqa: E402
from engine.pictures import pictomania_keepsake as keepsake  # noqa: E402
from engine.pictures.pictomania_keepsake_sample import largest_round  # noqa: E402


def keepsake_figures() -> None:
    turn = largest_round(6)
    names = {s: f"Player {s + 1}" for s in range(6)}
    times = []
    for _ in range(3):
        start = time.perf_counter()
        files = keepsake.round_files("bench", turn, names)
        times.append(time.perf_counter() - start)
    built = min(times)
    largest = max(len(v) for n, v in files.items() if n.endswith(".gif"))
    print(f"keepsake of 6 largest drawings: {', '.join(f'{t:.2f}' for t in times)} s; largest GIF {largest} bytes")
    figure("keepsake build, 6 largest drawings", f"{built:.2f} s", "≤ 2 s", built <= 2)
    figure("keepsake largest animated image", f"{largest / 1e6:.2f} MB", "≤ 1 MB", largest <= 1_000_000)


def browser_figures() -> None:
    from bench.replay_wall import frame_times

    times = frame_times()
    median, p95 = pct(times, 50), pct(times, 95)
    print(f"wall replay of 6 largest drawings: {len(times)} frames, median {median:.1f} ms, p95 {p95:.1f} ms")
    figure("wall replay frame time, median", f"{median:.1f} ms", "≤ 20 ms (≥ 50 fps)", median <= 20)
    figure("wall replay frame time, p95", f"{p95:.1f} ms", "≤ 20 ms", p95 <= 20)


if __name__ == "__main__":
    keepsake_figures()
    if "--no-browser" not in sys.argv:
        browser_figures()
