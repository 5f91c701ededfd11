"""bench.measure.chromium_threads: the untraced split of Chromium's CPU (bench/table_latency.py
--threads) counts this process's Chromium children by process type and thread name."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from bench.measure import chromium_threads, thread_lines

BUSY = "import time\nt = time.thread_time()\nwhile time.thread_time() - t < 0.3: pass\ntime.sleep(30)"


def test_a_busy_renderer_thread_is_counted_by_its_type_and_name(tmp_path):
    fake = tmp_path / "chromium"  # its thread is named after the file it was started as
    os.symlink(os.path.realpath(sys.executable), fake)
    child = subprocess.Popen([str(fake), "-c", BUSY, "--type=renderer"])
    try:
        deadline = time.monotonic() + 20
        while chromium_threads()["renderer: chromium"] < 0.25:
            assert time.monotonic() < deadline, chromium_threads()
            time.sleep(0.05)
        split = chromium_threads()
        assert set(split) == {"renderer: chromium"}  # one thread, and nothing else of this test's
    finally:
        child.kill()
        child.wait()
    assert chromium_threads() == {}
    lines = thread_lines(split, moves=2, tabs=1)
    assert lines[1].split() == [f"{split['renderer: chromium'] * 500:.2f}", "renderer:", "chromium"]
