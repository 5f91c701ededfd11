"""`make bench`: every benchmark, then one table of its figures, their targets and whether each is met.

`--only peer table_latency classroom`: only the scripts whose command has one of these words (the
peer's targets are met against its figures from the same run, so run it with ours).

Each script prints its own report (kept in out/bench/<script>.log) and its figures as `FIGURE`
lines (bench.measure.figure). Run one script directly for its full report.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = [
    ["bench/engine_cost.py"],
    ["bench/rerun_cost.py"],
    ["bench/peer.py"],  # boardgame.io, the same taps, in the same run: the aim beside our figures
    ["bench/peer.py", "--throttle", "4", "--idle", "0"],  # one phone slowed 4x (Lighthouse's mid-range phone)
    ["bench/table_latency.py", "--idle", "30"],
    ["bench/headless_table.py"],  # the same room with no browser: the server's own part of the figure above
    ["bench/table_latency.py", "--throttle", "4", "--idle", "0"],
    ["bench/table_latency.py", "--game", "odyssey", "--players", "12", "--turns", "2", "--idle", "30"],
    ["bench/stage_games.py", "--game", "maudit_mot_dit"],
    ["bench/stage_games.py", "--game", "trading_faces"],
    ["bench/classroom.py"],
    ["bench/classroom.py", "--stand-ins", "wall"],
    ["bench/classroom.py", "--audience", "300"],  # the hall: an assembly, an all-hands
    ["bench/school.py"],
    ["bench/school.py", "--rooms", "20"],
    ["bench/school.py", "--cluster", "2"],
    ["bench/school.py", "--cluster", "2", "--rooms", "20"],
    ["bench/cross_process.py"],
    ["bench/stroke_latency.py"],
    ["bench/faults.py"],  # the school's Wi-Fi: latency, a stall, cuts, a half-open phone, an outage, a restart
    ["bench/replay.py"],
    ["bench/stats_build.py"],
    ["bench/stats_page.py"],
    ["bench/soak.py"],
    ["bench/bots.py"],
]


def _numbers(text: str) -> list[float]:
    try:
        return [float(part) for part in text.split("/")]
    except ValueError:
        return []


def against_the_peer(rows: list[list[str]]) -> list[list[str]]:
    """A target "<= peer:KEY" is the peer's figure of that key in this same run (bench/peer.py prints
    its figures with the target "peer:KEY"): met when ours is at or under it, each part of "a / b"."""
    peer = {r[2]: r[1] for r in rows if len(r) >= 3 and r[2].startswith("peer:")}
    out = []
    for row in rows:
        row = (row + ["", "", "", ""])[:4]
        if row[2].startswith("peer:"):
            row[2] = "(the aim)"
        elif row[2].startswith("<= peer:"):
            key = row[2].split()[1]
            theirs, ours = _numbers(peer.get(key, "")), _numbers(row[1])
            if theirs and len(theirs) == len(ours):
                row[2] = f"<= {peer[key]} (the peer's)"
                row[3] = "yes" if all(a <= b for a, b in zip(ours, theirs, strict=True)) else "NO"
            else:
                row[2], row[3] = "<= the peer's (not measured)", ""
        out.append(row)
    return out


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", default=[], help="run only the scripts whose command has one of these")
    only = ap.parse_args().only
    out = ROOT / "out" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for script in [s for s in SCRIPTS if not only or any(o in " ".join(s) for o in only)]:
        name = Path(script[0]).stem + "".join(f"-{a.lstrip('-')}" for a in script[1:])
        print(f"running {' '.join(script)} ...", flush=True)
        done = subprocess.run([sys.executable, *script], cwd=ROOT, capture_output=True, text=True)
        (out / f"{name}.log").write_text(done.stdout + done.stderr)
        found = [line.split("\t")[1:] for line in done.stdout.splitlines() if line.startswith("FIGURE\t")]
        if done.returncode != 0 or not found:
            rows.append([f"{script[0]} failed (see out/bench/)", "", "", "NO"])
        rows += found
    rows = against_the_peer(rows)
    widths = [max(len(r[i]) for r in rows + [["figure", "measured", "target", "met"]]) for i in range(4)]
    print()
    for row in [["figure", "measured", "target", "met"], *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)))


if __name__ == "__main__":
    main()
