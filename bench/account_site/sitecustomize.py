"""Loaded by a server a bench starts with `bench/account.py` (this folder on its PYTHONPATH): the
server's thread CPU (`time.thread_time`), by what the stage did with it, written to the file
SOBREMESA_BENCH_ACCOUNT names twice a second. Never part of the app: a bench's server only."""

from __future__ import annotations

import os

if os.environ.get("SOBREMESA_BENCH_ACCOUNT"):
    import threading
    import time

    def _wait_and_patch() -> None:
        import sys

        while "engine.push.stage" not in sys.modules or not hasattr(sys.modules["engine.push.stage"], "endpoint"):
            time.sleep(0.05)
        from bench import account

        account.patch(sys.modules["engine.push.stage"], os.environ["SOBREMESA_BENCH_ACCOUNT"])

    threading.Thread(target=_wait_and_patch, name="bench-account", daemon=True).start()
