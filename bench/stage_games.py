"""Benchmark: Maudit Mot Dit (1 + 6 tabs) or Trading Faces (1 + 5) on the stage, in headless Chromium.

    .venv/bin/python bench/stage_games.py --game maudit_mot_dit [--moves 30]
    .venv/bin/python bench/stage_games.py --game trading_faces [--moves 30]

Every move is a tap in the acting player's tab, as a player makes it (a word typed and its button,
a card picked and the button under the cards). For each other tab it measures the time from the tap
(as the page received it) to that tab showing the room's new version (pages/assets/stage.js notes
the moment in `__sobremesaPushRooms[code].shownAt`; every tab shares the browser's clock), and the
Streamlit reruns the pushes started (none, on the stage). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.measure import browser_cpu_seconds, cpu_seconds, figure, next_scene, pct  # noqa: E402
from bench.table_latency import NAMES, RERUNS, open_tabs  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402

CLUES = ["harbour", "lantern", "meadow", "thunder", "velvet", "compass", "orchard", "glacier"]
GUESSES = ["pebble", "saddle", "walnut", "kettle", "ribbon", "tunnel", "parrot", "quiver"]
PLAYERS = {"maudit_mot_dit": 6, "trading_faces": 5}


def maudit_tap(tables, code: str, tokens: list, phones: list, n: int):
    """The next move of a Maudit Mot Dit round nobody finds: the holder chooses and gives clues, the
    others answer (wrongly), then judge. Returns (seat, a function that taps it)."""
    view = tables.view(code)
    holder = view["holder"]
    if view["phase"] == "choose":
        return holder, lambda page: page.locator(".sm-act[data-move*='choose']").first.click()
    if view["phase"] == "clues":
        mine = tables.view(code, holder, tokens[holder])
        if mine.get("can_clue") and not view["may_answer"]:

            def clue(page):
                page.locator("input[name=clue]").fill(CLUES[n % len(CLUES)] + "s" * (n // len(CLUES)))
                page.locator("[data-testid=give-clue]").click()

            return holder, clue
        seat = view["may_answer"][0]

        def answer(page):
            page.locator("input[name=answer]").fill(GUESSES[(n + seat) % len(GUESSES)])
            page.locator("[data-testid=send-answer]").click()

        return seat, answer
    if view["phase"] == "verdict":
        return view["waiting_for"][0], lambda page: page.locator(".sm-act[data-move*='verdict']").first.click()
    if view["phase"] == "spell":
        return holder, lambda page: page.locator(".sm-act[data-move*='give_spell']").first.click()
    return None, None


def faces_tap(tables, code: str, tokens: list, phones: list, n: int):
    """The next move of Passing cards: a Stop! whenever a seat may call it, a pass, a guess."""
    view = tables.view(code)
    for seat, token in enumerate(tokens):
        if view["phase"] != "face" and tables.view(code, seat, token).get("sets"):
            return seat, lambda page: page.get_by_role("button", name="Stop! I have three of a kind").first.click()
    if view["phase"] not in ("pass", "face") or not view["waiting_for"]:
        return None, None
    seat = view["waiting_for"][0]

    def pick(page):
        page.locator("figure:not(.off) .sm-card-pick").first.click()
        page.locator("[data-testid=confirm-pick]:not([disabled])").click()

    return seat, pick


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="maudit_mot_dit", choices=sorted(PLAYERS))
    ap.add_argument("--moves", type=int, default=30)
    args = ap.parse_args()
    os.environ["SOBREMESA_DATA"] = tempfile.mkdtemp(prefix="sobremesa-bench-")
    from engine import tables

    players = PLAYERS[args.game]
    srv = StreamlitServer(ROOT / "app.py", {**os.environ}).start()
    options = {"variant": "classic"} if args.game == "trading_faces" else {}
    room = tables.create_room(args.game, options=options, seed=11, language="en")
    seats = [tables.join(room.code, name) for name in NAMES[:players]]
    tables.start(room.code, room.host_token)
    code, tokens = room.code, [s.token for s in seats]
    next_tap = maudit_tap if args.game == "maudit_mot_dit" else faces_tap
    from playwright.sync_api import sync_playwright

    delays: list[float] = []
    own: list[float] = []
    moves = 0
    left_out = [0.0, 0.0, 0.0]  # the reveals the host ends: server CPU, browser CPU, seconds
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            tabs = open_tabs(browser, srv.url, code, [f"room={code}&seat={s.seat}&token={s.token}" for s in seats])
            phones = tabs[1:]
            reruns0 = sum(page.evaluate(RERUNS, code) for page in tabs)
            busy0, browsers0, began = cpu_seconds(srv.pid), browser_cpu_seconds(), time.monotonic()
            while moves < args.moves:
                seat, tap = next_tap(tables, code, tokens, phones, moves)
                if seat is None:
                    break
                version = tables.version(code) + 1
                page = phones[seat]
                tap(page)
                page.wait_for_function("(v) => window.__renderedAt[v]", arg=version, timeout=20000, polling=20)
                start = page.evaluate("window.__tapAt")
                own.append(page.evaluate("(v) => window.__renderedAt[v]", version) - start)
                for other in (t for t in tabs if t is not page):
                    other.wait_for_function("(v) => window.__renderedAt[v]", arg=version, timeout=20000, polling=20)
                    delays.append(other.evaluate("(v) => window.__renderedAt[v]", version) - start)
                moves += 1
                # A closed turn or face: the host's Next ends its reveal at once, out of what is measured.
                s0, b0, t0 = cpu_seconds(srv.pid), browser_cpu_seconds(), time.monotonic()
                if next_scene(code, room.host_token):
                    time.sleep(1.0)  # every screen shows the next turn
                    left_out[0] += cpu_seconds(srv.pid) - s0
                    left_out[1] += browser_cpu_seconds() - b0
                    left_out[2] += time.monotonic() - t0
            time.sleep(1.0)
            busy = cpu_seconds(srv.pid) - busy0 - left_out[0]
            browsers = browser_cpu_seconds() - browsers0 - left_out[1]
            moving = time.monotonic() - began - left_out[2]
            reruns = sum(page.evaluate(RERUNS, code) for page in tabs) - reruns0
            browser.close()
    finally:
        srv.stop()
    tabs_n = players + 1
    label = f"1 + {players} tabs, {args.game}"
    med, p95 = statistics.median(delays), pct(delays, 95)
    print(f"moves tapped: {moves} in {moving:.0f} s; samples (move x other tab): {len(delays)}")
    print(f"tap -> other tab shown: median {med:.0f} ms, p95 {p95:.0f} ms, max {max(delays):.0f} ms")
    print(f"tap -> the acting tab shows its result: median {statistics.median(own):.0f} ms, p95 {pct(own, 95):.0f} ms")
    print(f"server CPU per move and open tab: {1000 * busy / moves / tabs_n:.1f} ms")
    print(f"Chromium CPU per move and open tab: {1000 * browsers / moves / tabs_n:.1f} ms")
    figure(
        f"tap -> every other tab shown, all moves, median / p95, {label} (ms)",
        f"{med:.0f} / {p95:.0f}",
        "<= 15 / <= 40",
        med <= 15 and p95 <= 40,
    )
    figure(f"push-started Streamlit reruns per move, {label}", f"{reruns / moves:.2f}", "0", reruns == 0)
    figure(f"server CPU per move, per open tab, {label} (ms)", f"{1000 * busy / moves / tabs_n:.2f}")


if __name__ == "__main__":
    main()
