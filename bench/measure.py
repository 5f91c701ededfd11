"""What every benchmark measures with: a process's CPU time and percentiles."""
from __future__ import annotations

import os


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def browser_cpu_seconds() -> float:
    """utime + stime of every Chromium process on the machine (the benches' headless browsers share
    the 2 cores with the server: their rendering is part of every latency figure)."""
    total = 0.0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/comm") as f:
                if "chrom" not in f.read():
                    continue
            total += cpu_seconds(int(entry.name))
        except (OSError, ValueError, IndexError):  # a process that ended while being read
            continue
    return total


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of a non-empty list."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))]


def figure(name: str, value: str, target: str = "", met: bool | None = None) -> None:
    """One figure for `make bench`'s table (bench/report.py collects these lines)."""
    mark = "" if met is None else ("yes" if met else "NO")
    print(f"FIGURE\t{name}\t{value}\t{target}\t{mark}", flush=True)
