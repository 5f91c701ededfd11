"""bench.measure.chromium_threads: the untraced split of Chromium's CPU (bench/table_latency.py
--threads) counts this process's Chromium children by process type and thread name."""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import time

from bench.measure import chromium_threads, thread_lines

BUSY = "import time\nt = time.thread_time()\nwhile time.thread_time() - t < 0.3: pass\ntime.sleep(30)"
KEY = "fake-renderer: chromium-fake"  # a worker of the suite may hold a real Chromium: its own keys


def test_a_busy_thread_is_counted_by_its_process_type_and_name(tmp_path):
    fake = tmp_path / "chromium-fake"  # its thread is named after the file it was started as
    os.symlink(os.path.realpath(sys.executable), fake)
    child = subprocess.Popen([str(fake), "-c", BUSY, "--type=fake-renderer"])
    try:
        deadline = time.monotonic() + 20
        while chromium_threads()[KEY] < 0.25:
            assert time.monotonic() < deadline, chromium_threads()
            time.sleep(0.05)
        counted = chromium_threads()[KEY]
    finally:
        child.kill()
        child.wait()
    assert KEY not in chromium_threads()  # gone with its process
    lines = thread_lines(collections.Counter({KEY: counted}), moves=2, tabs=1)
    assert lines[1].split() == [f"{counted * 500:.2f}", "fake-renderer:", "chromium-fake"]
