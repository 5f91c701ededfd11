"""The peer's own latency script (a copy `bench/peer.py` built) run with Chromium's CPU split by process
and thread, untraced, as `bench/table_latency.py --threads` splits ours:

    .venv/bin/python bench/peer.py --threads

Its `browser_cpu_seconds` is wrapped: it is called while the browsers sit quiet (twice), as the moves
begin and as they end; the split takes the same differences, less the quiet rate. Prints the peer's
own report and the split; asserts nothing.
"""

from __future__ import annotations

import collections
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.measure import chromium_threads, thread_lines  # noqa: E402


def main() -> None:
    script = Path(sys.argv[1])
    sys.argv = [str(script), *sys.argv[2:]]
    marks: list[tuple[float, collections.Counter]] = []
    names = {"__name__": "peer_latency", "__file__": str(script)}
    exec(compile(script.read_text(), str(script), "exec"), names)  # noqa: S102 - the peer's own script
    counted = names["browser_cpu_seconds"]

    def browser_cpu_seconds() -> float:
        marks.append((time.monotonic(), chromium_threads()))
        return counted()

    names["browser_cpu_seconds"] = browser_cpu_seconds
    names["main"]()
    if len(marks) != 4:  # quiet, quiet, the moves begin, they end: the script changed
        print(f"no split: the peer's script read the browsers' CPU {len(marks)} times, not 4")
        return
    (q0, quiet0), (q1, quiet1), (began, busy0), (ended, busy1) = marks
    split = collections.Counter(busy1)
    split.subtract(busy0)
    split.subtract({k: (quiet1[k] - quiet0[k]) / (q1 - q0) * (ended - began) for k in quiet1})
    out = Path(sys.argv[sys.argv.index("--json") + 1]) if "--json" in sys.argv else None
    moves = json.loads(out.read_text())["moves"] if out and out.exists() else 0
    if moves:
        print("\n".join(thread_lines(split, moves, 7)))


if __name__ == "__main__":
    main()
