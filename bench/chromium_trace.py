"""Where Chromium's CPU goes while a bench plays its moves: a trace of every Chromium process (the
browser-wide trace, `browser.start_tracing`), split by process and thread, per move and tab.

    .venv/bin/python bench/table_latency.py --idle 0 --trace out/bench/chromium.json

A thread's time is the CPU time (`tdur`) of its outermost top-level tasks (category `toplevel`)
that start in the moving window and outside the spans left out (the reveals the host ends). A
trace's clock is the system's monotonic clock, as `time.monotonic()` (Linux). The renderers' main
threads are split further by what ran there, each event's CPU less its children's. Tracing costs
CPU itself: compare splits with each other, not with the bench's untraced figure.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute"]


def _events(path: Path) -> list[dict]:
    data = json.loads(Path(path).read_text())
    return data["traceEvents"] if isinstance(data, dict) else data


def split(path: Path, window: tuple[float, float], left_out: list[tuple[float, float]]) -> dict:
    """{(process, thread): CPU µs} and {renderer main thread's event: its own CPU µs}, in the window
    (monotonic seconds) less the spans left out."""
    start, end = window[0] * 1e6, window[1] * 1e6
    gaps = [(a * 1e6, b * 1e6) for a, b in left_out]

    def counted(ts: float) -> bool:
        return start <= ts <= end and not any(a <= ts <= b for a, b in gaps)

    events = _events(path)
    process, thread = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            name = e["args"]["name"]
            process[e["pid"]] = "Renderer" if name.startswith("Renderer") else name
        elif e.get("ph") == "M" and e.get("name") == "thread_name":
            thread[(e["pid"], e["tid"])] = e["args"]["name"]
    by_thread: dict[tuple, list] = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and "tdur" in e:
            by_thread[(e["pid"], e["tid"])].append(e)
    threads: collections.Counter = collections.Counter()
    main: collections.Counter = collections.Counter()
    for key, evs in by_thread.items():
        evs.sort(key=lambda e: (e["ts"], -e.get("dur", 0)))
        where = (process.get(key[0], str(key[0])), thread.get(key, str(key[1])))
        renderer_main = where == ("Renderer", "CrRendererMain")
        outer_end, stack = -1.0, []  # stack: (end, name) of the events around this one
        for e in evs:
            ts, stop = e["ts"], e["ts"] + e.get("dur", 0)
            if e.get("cat") == "toplevel" and ts >= outer_end:
                outer_end = stop
                if counted(ts):
                    threads[where] += e["tdur"]
            if renderer_main:
                while stack and stack[-1][0] <= ts:
                    stack.pop()
                if counted(ts):
                    main[e["name"]] += e["tdur"]
                    if stack:
                        main[stack[-1][1]] -= e["tdur"]
                stack.append((stop, e["name"]))
    return {"threads": threads, "main": main}


def report(path: Path, window: tuple[float, float], left_out: list, moves: int, tabs: int) -> list[str]:
    """The split as lines, in ms per move and open tab."""
    parts = split(path, window, left_out)
    per = 1000.0 * moves * tabs  # µs -> ms per move and tab
    total = sum(parts["threads"].values())
    lines = [f"Chromium's trace ({path}): {total / per:.1f} ms of CPU per move and open tab, by thread:"]
    lines += [f"  {v / per:6.2f}  {p} / {t}" for (p, t), v in parts["threads"].most_common(10)]
    lines.append("  the renderers' main threads, by what ran (each event's own CPU):")
    lines += [f"  {v / per:6.2f}  {name}" for name, v in parts["main"].most_common(12)]
    return lines
