"""Where the server's CPU goes, by what the stage did with it, in each thread's own CPU time
(`time.thread_time`): the room's batch jobs (a seat's move and its screen, a member's pick, the
crowd's draw, a socket's pushed draw) and the event loop's sends. py-spy samples a thread that
holds the GIL while the browsers have taken its core, so under contention its shares lean to
whatever ran just before (a socket write that woke a browser); a thread's CPU time does not.

    .venv/bin/python bench/classroom.py --audience 300 --account
    .venv/bin/python bench/headless_table.py --account

`enable()` before the bench starts its server (it puts bench/account_site on the server's
PYTHONPATH); `taken()` at the start and at the end of what is measured; `lines()` prints the
difference. The server writes its counts twice a second, so an end read is taken 0.6 s later.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
import threading
import time
from pathlib import Path

SITE = Path(__file__).resolve().parent / "account_site"
ROOT = Path(__file__).resolve().parents[1]


def enable() -> None:
    fd, path = tempfile.mkstemp(prefix="sobremesa-account-", suffix=".json")
    os.close(fd)
    os.environ["SOBREMESA_BENCH_ACCOUNT"] = path
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(SITE), str(ROOT), os.environ.get("PYTHONPATH", "")) if p)


def taken(wait: bool = False) -> dict:
    """The server's counts now ({kind: [seconds, times]}); `wait`: after its next write."""
    if wait:
        time.sleep(0.6)
    try:
        return json.loads(Path(os.environ["SOBREMESA_BENCH_ACCOUNT"]).read_text() or "{}")
    except (KeyError, OSError, ValueError):
        return {}


def lines(before: dict, after: dict, moves: int) -> list[str]:
    rows = []
    for kind, (spent, times) in after.items():
        was = before.get(kind, [0.0, 0])
        if times - was[1]:
            rows.append((spent - was[0], times - was[1], kind))
    rows.sort(reverse=True)
    total = sum(r[0] for r in rows)
    out = [f"server thread CPU by what the stage did, {1000 * total / max(moves, 1):.1f} ms per move accounted:"]
    for spent, times, kind in rows:
        out.append(
            f"  {1000 * spent / max(moves, 1):7.2f} ms a move  {times:6d} x {1e6 * spent / times:7.1f} us  {kind}"
        )
    return out


# ---- in the server (bench/account_site/sitecustomize.py) -----------------------------------------
_spent: dict[str, list] = {}
_lock = threading.Lock()


def _add(kind: str, seconds: float) -> None:
    with _lock:
        row = _spent.setdefault(kind, [0.0, 0])
        row[0] += seconds
        row[1] += 1


def _kind(compute) -> str:
    fn = compute.func if isinstance(compute, functools.partial) else compute
    name = getattr(fn, "__name__", "job")
    sock = getattr(fn, "__self__", None)
    member = getattr(sock, "crowd", None) is not None
    if name == "_move_and_draw":
        return "batch: a member's pick and its screen" if member else "batch: a seat's move and its screen"
    if name == "drawn_now":
        return "batch: a member's own draw" if member else "batch: a pushed draw (seat, wall)"
    if name == "_draw_all":
        return "batch: the crowd's draw (stamps and changed members)"
    return f"batch: {name}"


class _Played:
    """A stage whose `move` is counted: everything else is the stage's own."""

    def __init__(self, stage, move) -> None:
        self.stage, self.move = stage, move

    def __getattr__(self, name):
        return getattr(self.stage, name)


def patch(stage, path: str | None) -> None:
    """Wrap the stage's batch jobs and sends so that each adds its thread's CPU time; written to
    `path` twice a second (None: kept here only, for a test)."""

    def _work(self, jobs) -> None:
        for compute, future in jobs:
            began = time.thread_time()
            try:
                result, error = compute(), None
            except BaseException as exc:
                result, error = None, exc
            _add(_kind(compute), time.thread_time() - began)
            self.loop.call_soon_threadsafe(stage._settle, future, result, error)

    send = stage._Socket.send

    async def counted_send(self, payload) -> None:
        began = time.thread_time()
        await send(self, payload)
        what = (
            "pong"
            if "pong" in payload
            else "screen"
            if ("html" in payload or "frags" in payload)
            else "version or answer"
        )
        _add(
            f"loop: send {'a member' if self.crowd is not None else 'a seat or wall'}: {what}",
            time.thread_time() - began,
        )

    settle = stage._Socket.settle

    def counted_settle(self, drawn, html):
        began = time.thread_time()
        try:
            return settle(self, drawn, html)
        finally:
            _add("loop: settle a drawn screen (what to send)", time.thread_time() - began)

    move_and_draw = stage._Socket._move_and_draw

    def counted_move_and_draw(self, move_id, move, at):
        # inside its job's count: the move alone (a seat's screen after it is the rest of the job)
        began, play = time.thread_time(), self.stage.move

        def move_only(*args):
            try:
                return play(*args)
            finally:
                member = "a member's pick" if self.crowd is not None else "a seat's move"
                _add(f"  of which {member} alone (its transaction)", time.thread_time() - began)

        self.stage = _Played(self.stage, move_only)
        try:
            return move_and_draw(self, move_id, move, at)
        finally:
            self.stage = self.stage.stage

    counted_move_and_draw.__name__ = "_move_and_draw"  # its job's kind (`_kind`)
    stage._Batch._work = _work
    stage._Socket._move_and_draw = counted_move_and_draw
    stage._Socket.send = counted_send
    stage._Socket.settle = counted_settle

    def write(to: Path) -> None:
        while True:
            time.sleep(0.5)
            with _lock:
                text = json.dumps(_spent)
            to.write_text(text)

    if path is not None:
        threading.Thread(target=write, args=(Path(path),), name="bench-account-write", daemon=True).start()
