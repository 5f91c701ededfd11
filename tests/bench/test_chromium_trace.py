"""The Chromium trace's split (bench/chromium_trace.py): a thread's outermost top-level tasks in the
moving window, the spans left out not counted, and a renderer main thread's events by their own CPU."""

from __future__ import annotations

import json

from bench.chromium_trace import split


def _x(name, ts, dur, tdur, pid=1, tid=1, cat="devtools.timeline"):
    return {"ph": "X", "name": name, "cat": cat, "ts": ts, "dur": dur, "tdur": tdur, "pid": pid, "tid": tid}


def test_the_split_counts_outer_tasks_in_the_window_and_events_by_their_own_cpu(tmp_path):
    meta = [
        {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "Renderer"}},
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}},
        {"ph": "M", "name": "process_name", "pid": 2, "args": {"name": "Browser"}},
        {"ph": "M", "name": "thread_name", "pid": 2, "tid": 5, "args": {"name": "CrBrowserMain"}},
    ]
    s = 1_000_000  # one second in the trace's µs
    events = [
        _x("RunTask", 10 * s, 900, 800, cat="toplevel"),  # a task: a script in it, a layout in that
        _x("RunTask", 10 * s + 100, 700, 700, cat="toplevel"),  # nested top-level: not counted again
        _x("FunctionCall", 10 * s + 100, 600, 500),
        _x("Layout", 10 * s + 200, 300, 200),
        _x("RunTask", 12 * s, 400, 400, cat="toplevel"),  # in the span left out
        _x("RunTask", 30 * s, 400, 400, cat="toplevel"),  # after the window
        _x("RunTask", 11 * s, 100, 90, pid=2, tid=5, cat="toplevel"),
    ]
    path = tmp_path / "trace.json"
    path.write_text(json.dumps({"traceEvents": meta + events}))
    parts = split(path, (9.0, 20.0), [(11.5, 12.5)])
    assert parts["threads"] == {("Renderer", "CrRendererMain"): 800, ("Browser", "CrBrowserMain"): 90}
    main = parts["main"]
    assert main["Layout"] == 200
    assert main["FunctionCall"] == 300, "its own CPU, less the layout's"
    assert main["RunTask"] == 800 - 700 + 700 - 500, "each of the two tasks less what ran inside it"
