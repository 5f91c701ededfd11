"""What every benchmark measures with: a process's CPU time and percentiles."""

from __future__ import annotations

import collections
import os
import re


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all its threads), in seconds, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_seconds(pid: int) -> float:
    """How long a process's threads were ready to run and waited for a core, in seconds (the
    second field of each thread's /proc schedstat): the time the browsers sharing the two cores
    took from the server. 0.0 where the kernel keeps no such count."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[1])
        except (OSError, IndexError, ValueError):  # a thread that ended while being read
            continue
    return total / 1e9


def browser_cpu_seconds() -> float:
    """CPU seconds of the Chromium processes this bench started (descendants of this process):
    the headless browsers share the 2 cores with the server, so their rendering is part of every
    latency figure. Each process counts its own time and that of its children that have ended
    (cutime, cstime), so a renderer that exits mid-measure is not lost."""
    total = 0.0
    for pid in _descendants():
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # a process that ended while being read
            continue
        total += sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


def chromium_threads() -> collections.Counter:
    """CPU seconds of this bench's Chromium processes by process type and thread name, from /proc
    (untraced: a trace costs CPU itself). "renderer: chromium" is the pages' main threads (a main thread
    carries the program's name),
    "renderer: ThreadPoolForeg" their image decoding and raster. A thread that ended is not counted."""
    mine = _descendants()
    split: collections.Counter = collections.Counter()
    for pid in mine:
        try:
            with open(f"/proc/{pid}/cmdline") as f:
                command = f.read()
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        kind = re.search(r"--type=([a-z-]+)", command)
        sub = re.search(r"--utility-sub-type=[\w.]*?(\w+)(?:[\x00 ]|$)", command)  # its arguments may be one, spaced
        what = (kind.group(1) if kind else "browser") + (f" {sub.group(1)}" if sub else "")
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/comm") as f:
                    name = f.read().strip().rstrip("0123456789")
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            split[f"{what}: {name}"] += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return split


def _descendants() -> list[int]:
    """The Chromium processes descended from this one."""
    parents, names = {}, {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                head, tail = f.read().rsplit(")", 1)
        except OSError:
            continue
        parents[int(entry.name)], names[int(entry.name)] = int(tail.split()[1]), head.partition("(")[2]
    me, found = os.getpid(), []
    for pid, name in names.items():
        seen, up = set(), pid
        while up in parents and up not in seen and up != me:
            seen.add(up)
            up = parents[up]
        if up == me and "chrom" in name:
            found.append(pid)
    return found


def thread_lines(split: collections.Counter, moves: int, tabs: int, top: int = 12) -> list[str]:
    """The split as lines, in ms per move and open tab."""
    per = moves * tabs / 1000.0
    lines = [
        f"Chromium by process and thread, untraced (/proc): {sum(split.values()) / per:.1f} ms per move and open tab"
    ]
    lines += [f"  {v / per:6.2f}  {k}" for k, v in split.most_common(top)]
    return lines


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of a non-empty list."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))]


def figure(name: str, value: str, target: str = "", met: bool | None = None) -> None:
    """One figure for `make bench`'s table (bench/report.py collects these lines)."""
    mark = "" if met is None else ("yes" if met else "NO")
    print(f"FIGURE\t{name}\t{value}\t{target}\t{mark}", flush=True)


def next_scene(code: str, host_token: str) -> bool:
    """The host's *Next* when a reveal holds the room (issue 49). A bench plays its taps back to
    back, as the peer's (which has no reveal) are played: each reveal is ended at once, and what it
    costs is left out of the figures by the caller. True if a reveal was ended."""
    from engine import tables
    from engine.core import TableError

    if not revealing(tables.view(code)):
        return False
    try:
        tables.next_scene(code, host_token)
    except TableError:  # over meanwhile
        return False
    return True


def revealing(view: dict) -> bool:
    """Whether the room holds a reveal now (its next turn's moves wait for its end)."""
    from engine.store import now

    held = view.get("reveal_held") or (view.get("reveal_until") or "") > now()
    return view["status"] == "playing" and bool(held)
