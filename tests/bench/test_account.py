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
    _burn(0.2)
    return [], -1, []


def _put_back(monkeypatch) -> None:
    for cls, name in (
        (stage._Batch, "_work"),
        (stage._Socket, "send"),
        (stage._Socket, "settle"),
        (stage._Socket, "_move_and_draw"),
    ):
        monkeypatch.setattr(cls, name, getattr(cls, name))  # put back after the test


def _burn(seconds: float) -> None:
    began = time.thread_time()
    while time.thread_time() - began < seconds:
        pass


def test_a_batch_job_is_counted_in_its_threads_cpu_under_its_kind(monkeypatch):
    _put_back(monkeypatch)
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


class _Stage:
    """A stage whose move burns 0.1 s of CPU, and whose screen after it another 0.1 s."""

    def move(self, code, viewer, move_id, move, at=None) -> dict:
        _burn(0.1)
        return {"ack": move_id, "version": 2}

    def draw(self, code, viewer):
        _burn(0.1)
        return None


def test_a_seats_move_is_counted_whole_and_its_transaction_alone(monkeypatch):
    _put_back(monkeypatch)
    monkeypatch.setattr(account, "_spent", {})
    account.patch(stage, None)
    sock = stage._Socket.__new__(stage._Socket)
    sock.stage, sock.code, sock.viewer, sock.crowd, sock.key = _Stage(), "BCDFG", None, None, None

    async def play():
        batch = stage._Batch(asyncio.get_running_loop())
        answer, _drawn = await batch.submit(functools.partial(sock._move_and_draw, "m1", {"type": "x"}, None))
        assert answer == {"ack": "m1", "version": 2}

    run(play)
    whole, alone = (
        account._spent["batch: a seat's move and its screen"],
        account._spent["  of which a seat's move alone (its transaction)"],
    )
    assert whole[1] == alone[1] == 1
    assert 0.095 <= alone[0] < 0.15
    assert 0.19 <= whole[0] < 0.3
    assert isinstance(sock.stage, _Stage)  # the socket's own stage again once the move is counted
