"""Benchmark: how much later a move made on one server process shows on a tab served by another.

    .venv/bin/python bench/cross_process.py [--moves 40]

Two processes of the app on one throwaway PostgreSQL (deploy/cluster.py). One Dixit room of 6 seats,
whose phones are protocol screens (bench/stage_screens.py: a stage socket each) on process A; three
shared screens on A and three on B, stage sockets too, each connected straight to its process. Each move is a tap on the
acting seat's screen (on A); the next waits until every wall shows it. For each move: the median time
the walls on B showed it, less the median on A. The move reaches B through PostgreSQL NOTIFY.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.measure import figure, pct  # noqa: E402
from bench.stage_screens import StageScreen, shown_at  # noqa: E402
from bench.table_latency import NAMES  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=40)
    args = ap.parse_args()
    data = Path(tempfile.mkdtemp(prefix="sobremesa-bench-"))
    os.environ["SOBREMESA_DATA"] = str(data)
    os.environ["SOBREMESA_COMPUTER_PLAYERS"] = "off"
    from deploy.cluster import Cluster, create_database, free_port, throwaway_postgres

    screens: list[StageScreen] = []
    with contextlib.ExitStack() as stack:
        url = create_database(stack.enter_context(throwaway_postgres()), "crossing")
        os.environ["SOBREMESA_DATABASE_URL"] = url
        cluster = Cluster(2, free_port(), url, data, host="127.0.0.1").start()
        stack.callback(cluster.stop)
        stack.callback(lambda: [s.stop() for s in screens])
        from engine import tables

        a, b = cluster.ports
        room = tables.create_room("dixit", seed=3)
        seats = [tables.join(room.code, n) for n in NAMES[:6]]
        tables.start(room.code, room.host_token)
        code = room.code
        phones = [StageScreen(a, code, {"token": s.token}) for s in seats]
        walls = {port: [StageScreen(port, code, {}) for _ in range(3)] for port in (a, b)}
        screens.extend([*phones, *walls[a], *walls[b]])
        for screen in screens:
            screen.start()
            screen.ready.wait(60)
            if screen.failed:
                raise screen.failed
        time.sleep(1)
        later: list[float] = []
        for _ in range(args.moves):
            view = tables.view(code)
            if view["status"] != "playing":
                break
            version = view["version"] + 1
            phones[view["waiting_for"][0]].offering()
            phones[view["waiting_for"][0]].tap()
            deadline = time.monotonic() + 30
            while any(shown_at(w.shown, version) is None for w in walls[a] + walls[b]):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"version {version} did not reach every wall")
                time.sleep(0.01)
            here = statistics.median(shown_at(w.shown, version) for w in walls[a])
            there = statistics.median(shown_at(w.shown, version) for w in walls[b])
            later.append(1000 * (there - here))
            time.sleep(0.2)
    print(f"{len(later)} moves made on process A; walls on B showed them later than walls on A by:")
    print(f"median {statistics.median(later):.0f} ms, p95 {pct(later, 95):.0f} ms (negative: B was first)")
    figure(
        "a move on process A: tab on B minus tab on A, median (ms)",
        f"{statistics.median(later):.0f}",
        "<= 50",
        statistics.median(later) <= 50,
    )
    figure("a move on process A: tab on B minus tab on A, p95 (ms)", f"{pct(later, 95):.0f}")


if __name__ == "__main__":
    main()
