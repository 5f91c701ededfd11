"""The wall replaying six drawings of the largest size at once, in headless Chromium: the frame
times (requestAnimationFrame intervals) during the replay. Used by bench/replay.py."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from conftest import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402


def setup_round(players: int = 6) -> dict:
    """A room whose first round is scored with `players` drawings of the largest size."""
    from engine import tables
    from engine.pictures.pictomania_keepsake_sample import largest_drawing

    room = tables.create_room("pictomania", seed=9, language="en")
    seats = [tables.join(room.code, f"P{i + 1}") for i in range(players)]
    tables.start(room.code, room.host_token)
    for s in seats:
        tables.submit(room.code, s.seat, s.token, {"type": "ready"})
    for s in seats:
        for stroke in largest_drawing(s.seat, timed=False):
            tables.submit(room.code, s.seat, s.token, {"type": "stroke", **stroke})
        tables.submit(room.code, s.seat, s.token, {"type": "finish", "token": None})
    return {"code": room.code, "host": room.host_token}


def frame_times(players: int = 6) -> list[float]:
    from playwright.sync_api import sync_playwright

    data = tempfile.mkdtemp(prefix="replay-bench-")
    os.environ["SOBREMESA_DATA"] = data
    os.environ.pop("SOBREMESA_DATABASE_URL", None)
    start = time.perf_counter()
    room = setup_round(players)
    print(f"set up {players} drawings of the largest size in {time.perf_counter() - start:.1f} s")
    srv = StreamlitServer("app.py", dict(os.environ), log_path=Path(data) / "server.log")
    srv.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"{srv.url}/table?room={room['code']}&host={room['host']}")
            page.locator("svg[data-replaying]").first.wait_for(state="attached", timeout=60_000)
            page.evaluate("() => { globalThis.__sobremesaReplayFrames.length = 0; }")
            page.wait_for_function("() => !globalThis.__sobremesaReplays.size", timeout=60_000, polling=500)
            stamps = page.evaluate("() => [...globalThis.__sobremesaReplayFrames]")
            shown = page.locator("svg[data-seat]").evaluate_all(
                "(s) => s.map((x) => x.querySelectorAll('path').length)"
            )
            browser.close()
    finally:
        srv.stop()
    print(f"replayed {len(shown)} drawings, {shown} paths each, over {(stamps[-1] - stamps[0]) / 1000:.1f} s")
    return [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
