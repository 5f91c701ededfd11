"""Throwaway demo of push updates: one counter per room, served with /events.

Run:  streamlit run tests/browser/push_demo_app.py   (SOBREMESA_DATA=<dir>)

* page:  /?room=KQZP          shows "counter: N" for that room
* POST   /bump/KQZP           bumps it from outside and calls live.notify
* GET    /live/stats          open sockets per room

Environment knobs (for tests and bench/push_latency.py):
  PUSH_DEMO_MODE=fragment|page   listener inside an st.fragment (default) or top level
  PUSH_DEMO_POLL=0.25            no listener: st.fragment(run_every=0.25) baseline
  PUSH_DEMO_ELEMENTS=markdown:10 ten more elements in the fragment (bench/push_latency.py
                                 --elements): markdown, html or info whose text changes with the
                                 counter, "one-html" (the same text as one st.html) or "static"
                                 (markdown that never changes): what an element costs a rerun
"""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

from starlette.responses import JSONResponse  # noqa: E402
from starlette.routing import Route, WebSocketRoute  # noqa: E402
from streamlit.runtime.scriptrunner import get_script_run_ctx  # noqa: E402
from streamlit.starlette import App  # noqa: E402

from engine.paths import data_dir  # noqa: E402
from engine.push import live  # noqa: E402
from pages.routes import ASSET_ROUTE  # noqa: E402


def read_counter(code: str) -> int:
    try:
        return int((data_dir() / f"push-demo-{code}.txt").read_text() or 0)
    except (FileNotFoundError, ValueError):
        return 0


def bump(code: str) -> int:
    """Increment the room's counter (file-locked: routes and scripts share it)."""
    path = data_dir() / f"push-demo-{code}.txt"
    with open(data_dir() / "push-demo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        n = read_counter(code) + 1
        tmp = path.with_suffix(".tmp")
        tmp.write_text(str(n))
        os.replace(tmp, path)
    live.notify(code, n)  # after the commit
    return n


async def bump_endpoint(request):
    code = request.path_params["code"]
    if not live.valid_code(code):
        return JSONResponse({"error": "bad code"}, status_code=400)
    return JSONResponse({"version": bump(code)})


app = App(
    "push_demo_app.py",
    routes=[
        WebSocketRoute("/events/{code}", live.websocket_endpoint),
        Route("/bump/{code}", bump_endpoint, methods=["POST"]),
        Route("/live/stats", live.stats_endpoint),
        ASSET_ROUTE,
    ],
)


def extra(n: int) -> None:
    import streamlit as st

    kind, _colon, count = os.environ.get("PUSH_DEMO_ELEMENTS", "").partition(":")
    lines = [f"line {i}: counter {n}, " + "some words to read " * 4 for i in range(int(count or 0))]
    if kind == "one-html" and lines:
        st.html("".join(f"<div><b>{line}</b></div>" for line in lines))
        return
    for i, line in enumerate(lines):
        if kind == "markdown":
            st.markdown(f"**{line}**")
        elif kind == "html":
            st.html(f"<div><b>{line}</b></div>")
        elif kind == "info":
            st.info(line)
        elif kind == "static":
            st.markdown(f"**line {i}, the same on every run**")


def _page() -> None:
    import streamlit as st

    from pages.push import listen

    code = st.query_params.get("room", "DEMO")
    mode = os.environ.get("PUSH_DEMO_MODE", "fragment")
    poll = float(os.environ.get("PUSH_DEMO_POLL") or 0)

    st.session_state.full_runs = st.session_state.get("full_runs", 0) + 1
    st.text(f"full runs: {st.session_state.full_runs}")

    def view() -> None:
        n = read_counter(code)
        st.session_state.view_runs = st.session_state.get("view_runs", 0) + 1
        st.text(f"counter: {n}")
        st.text(f"view runs: {st.session_state.view_runs}")
        st.button("bump", key="bump", on_click=bump, args=(code,))
        extra(n)
        if not poll:
            seat = st.query_params.get("seat")
            listen(code, n, seat=int(seat) if seat and seat.isdigit() else None)

    if poll:
        st.fragment(run_every=poll)(view)()
    elif mode == "fragment":
        st.fragment(view)()
    else:
        view()


if get_script_run_ctx(suppress_warning=True) is not None:
    _page()
