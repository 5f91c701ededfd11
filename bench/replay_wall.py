"""The wall replaying six drawings of the largest size at once, in headless Chromium: the frame
times (requestAnimationFrame intervals) during the replay. Used by bench/replay.py.

The replay is the stage's reveal: every path of every drawing is a CSS dash animation at its
stroke's time (pages/games/pictomania/screens.py). The round is closed once the wall is open, so the reveal
is the one a class sees, and frames are counted from its first path to its last animation's end."""

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
    """A room whose first round has `players` drawings of the largest size, all but the last
    player finished (`close()` finishes it, and the round is scored)."""
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
        if s is not seats[-1]:
            tables.submit(room.code, s.seat, s.token, {"type": "finish", "token": None})
    last = seats[-1]
    return {
        "code": room.code,
        "host": room.host_token,
        "close": lambda: tables.submit(room.code, last.seat, last.token, {"type": "finish", "token": None}),
    }


# rAF times from the replay's first frame until its last animation ends (read once: asking for the
# page's animations on every frame costs more than the frame).
FRAMES = """() => new Promise((done) => {
  const left = document.getAnimations().map((a) => a.effect.getComputedTiming().endTime - (a.currentTime ?? 0));
  const end = performance.now() + Math.max(0, ...left);
  const stamps = [];
  const step = (now) => {
    stamps.push(now);
    if (now < end && stamps.length < 20000) requestAnimationFrame(step); else done(stamps);
  };
  requestAnimationFrame(step);
})"""


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
            page.locator(".sm-stage-root svg[data-seat]").first.wait_for(state="attached", timeout=60_000)
            room["close"]()
            page.locator(".pm-replay path").first.wait_for(state="attached", timeout=60_000)
            stamps = page.evaluate(FRAMES)
            shown = page.locator(".pm-replay").evaluate_all("(s) => s.map((x) => x.querySelectorAll('path').length)")
            browser.close()
    finally:
        srv.stop()
    print(f"replayed {len(shown)} drawings, {shown} paths each, over {(stamps[-1] - stamps[0]) / 1000:.1f} s")
    return [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
