"""bench/account.py (a bench's `--account`): the server's thread CPU by what the stage did. A job of
a room's batch that burns 0.2 s of CPU is counted as about 0.2 s under its kind, and the printed
lines are the difference between two reads."""

from __future__ import annotations

import asyncio
import functools
import time

from bench import account
from engine.push import stage
from tests.helpers import run


def _draw_all(ready: list) -> tuple:  # the crowd's draw, as the batch names it: 0.2 s of CPU
    began = time.thread_time()
    while time.thread_time() - began < 0.2:
        pass
    return [], -1, []


def test_a_batch_job_is_counted_in_its_threads_cpu_under_its_kind(monkeypatch):
    for cls, name in ((stage._Batch, "_work"), (stage._Socket, "send"), (stage._Socket, "settle")):
        monkeypatch.setattr(cls, name, getattr(cls, name))  # put back after the test
    monkeypatch.setattr(account, "_spent", {})
    monkeypatch.setattr(stage, "_draw_all", _draw_all)
    account.patch(stage, None)
    before = {k: list(v) for k, v in account._spent.items()}

    async def play():
        batch = stage._Batch(asyncio.get_running_loop())
        await batch.submit(functools.partial(stage._draw_all, []))
        await asyncio.sleep(0.3)  # the loop is idle meanwhile: nothing else is counted

    run(play)  # a loop of its own: another test's (Playwright's) may be live in this thread
    kind = "batch: the crowd's draw (stamps and changed members)"
    spent, times = account._spent[kind]
    assert times == 1
    assert 0.19 <= spent < 0.3
    lines = account.lines(before, account._spent, moves=2)
    assert any(kind in line and " 1 x " in line for line in lines[1:])
    assert lines[0].startswith("server thread CPU by what the stage did")
    assert f"{1000 * spent / 2:.1f} ms per move accounted" in lines[0]
