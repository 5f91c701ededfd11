"""Benchmark: a whole class in one room.

    .venv/bin/python bench/classroom.py [--turns 2] [--audience 40]

One Dixit Odyssey room, 12 seats. The wall and 4 phones are real headless Chromium tabs; the other
8 seats' phones are stage sockets (bench/stage_screens.py: each proves its seat and gets its screen
drawn by the server, as a phone does), and so are 40 audience members' phones, each joined
through `tables.join_audience`: 1 + 12 + 40 screens. `--audience 300` is the hall (an assembly,
an all-hands). When a vote begins every member taps a card on their phone (its card grid, sent
over its socket as a phone sends it): their picks add server CPU, not moves. `--stand-ins seat` or `wall`
opens the 40 on seat links or on the shared screen instead (the figures from before the audience).

Each move is a tap by the seat the table waits on first: in its Chromium tab (the tap's time is the
page's own click event), or on its protocol screen (the widget's trigger, sent in a rerun of the
fragment as a browser sends it). The next move waits until every screen shows the last one; a
member's screen is told only what it shows (engine/push/stage.py's crowd), so it is waited on at
each phase change, when it shows a new one.

Figures:
- the server's CPU over the turns (from /proc) divided by the players' moves in them;
- for each phase-changing move, from its commit (taken as the first push that reached any screen)
  to the moment the last screen showed it (for a protocol screen: its rerun finished), p95;
- reruns the pushes started per move, beside the floor (every screen but the actor's once at each
  phase change);
- the Chromium tabs' tap -> other tab shown, for the moves their phones tapped.
Prints figures; asserts nothing.
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
from bench import account  # noqa: E402
from bench.measure import cpu_seconds, figure, next_scene, pct  # noqa: E402
from bench.stage_screens import StageScreen, shown_at  # noqa: E402
from bench.table_latency import NAMES, RERUNS, open_tabs, tap  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, StreamlitServer  # noqa: E402

REAL_PHONES = 4
SHOWN = "(v) => Object.keys(window.__sobremesaPushRooms?.[window.__code]?.shownAt ?? {}).some((k) => +k >= v)"


def profile(pid: int, out: str):
    """py-spy on the server, sampling only threads that hold the GIL and without stopping it."""
    import subprocess

    spy = str(Path(sys.executable).parent / "py-spy")
    args = [spy, "record", "-p", str(pid), "-o", out, "-f", "raw", "-r", "200", "--gil", "--nonblocking"]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--seats", type=int, default=12)
    ap.add_argument("--audience", type=int, default=40)
    ap.add_argument(
        "--stand-ins",
        choices=["member", "seat", "wall"],
        default="member",
        help="what the 40 screens open: members' links (the audience), seat links or the shared screen",
    )
    ap.add_argument("--profile", help="record the server with py-spy during the turns (raw stacks, CPU only)")
    ap.add_argument(
        "--account", action="store_true", help="the server's thread CPU by what the stage did (bench/account.py)"
    )
    args = ap.parse_args()
    if args.account:
        account.enable()
    data = tempfile.mkdtemp(prefix="sobremesa-bench-")
    os.environ["SOBREMESA_DATA"] = data
    os.environ["SOBREMESA_COMPUTER_PLAYERS"] = "off"
    from engine import tables

    srv = StreamlitServer(ROOT / "app.py", {**os.environ}, log_path=Path(data) / "server.log").start()
    room = tables.create_room("odyssey", seed=11)
    seats = [tables.join(room.code, n) for n in (NAMES * 2)[: args.seats]]
    members = [tables.join_audience(room.code, f"Member {i}") for i in range(args.audience)]
    tables.start(room.code, room.host_token)
    code = room.code
    link = [f"room={code}&seat={s.seat}&token={s.token}" for s in seats]
    from playwright.sync_api import sync_playwright

    screens: list[StageScreen] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            tabs = open_tabs(browser, srv.url, code, link[:REAL_PHONES])
            phones = tabs[1:]
            for page in tabs:
                page.evaluate("(c) => { window.__code = c; }", code)
            own = {
                seat: StageScreen(srv.port, code, {"token": seats[seat].token})
                for seat in range(REAL_PHONES, args.seats)
            }
            if args.stand_ins == "member":
                crowd = [StageScreen(srv.port, code, {"token": m.token, "member": m.id}) for m in members]
            elif args.stand_ins == "seat":
                crowd = [
                    StageScreen(srv.port, code, {"token": seats[i % args.seats].token}) for i in range(args.audience)
                ]
            else:
                crowd = [StageScreen(srv.port, code, {}) for _ in range(args.audience)]
            screens = [*own.values(), *crowd]
            members_at = set(crowd) if args.stand_ins == "member" else set()
            seat_of = {id(s): seat for seat, s in own.items()} | {
                id(s): i % args.seats if args.stand_ins == "seat" else None for i, s in enumerate(crowd)
            }
            for screen in screens:  # one at a time: a class does not open 48 tabs in the same second
                screen.start()
                screen.ready.wait(60)
                if screen.failed:
                    raise screen.failed
                time.sleep(0.01)
            time.sleep(2)
            reruns0 = sum(page.evaluate(RERUNS, code) for page in tabs) + sum(s.reruns for s in screens)
            spy = profile(srv.pid, args.profile) if args.profile else None
            cpu0, began = cpu_seconds(srv.pid), time.monotonic()
            spent0 = account.taken() if args.account else {}
            sent0 = [sum(s.messages for s in crowd), sum(s.bytes for s in crowd)]
            moves = shifts = 0
            left_out = [0.0, 0.0]  # the reveals the host ends: server CPU, seconds
            browser_delays: list[float] = []
            settle: list[float] = []  # phase-changing moves: commit -> the last screen shows it
            while tables.view(code)["status"] == "playing" and len(tables.view(code)["history"]) < args.turns:
                view = tables.view(code)
                actor = view["waiting_for"][0]
                version = view["version"] + 1
                if actor < REAL_PHONES:
                    button = {"claim": "I have a phrase!", "tell": "tell", "give": "give", "vote": "vote"}[
                        view["phase"]
                    ]
                    tapped, _asked = tap(phones[actor], button, enabled_only=view["phase"] == "vote")
                    tapped /= 1000
                else:
                    own[actor].tap()
                    tapped = time.time()
                others = [s for s in screens if seat_of[id(s)] != actor]
                told = [s for s in others if s not in members_at]  # a member is told only what it shows
                deadline = time.monotonic() + 60
                while any(shown_at(s.shown, version) is None for s in told):
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"version {version} never reached every screen")
                    time.sleep(0.02)
                for i, page in enumerate(tabs):
                    page.wait_for_function(SHOWN, arg=version, timeout=30000, polling=50)
                    if i - 1 != actor and actor < REAL_PHONES:
                        at = page.evaluate("(v) => window.__renderedAt[v]", version)
                        if at:
                            browser_delays.append(at - 1000 * tapped)
                after = tables.view(code)
                phased = after["phase"] != view["phase"] or len(after["history"]) != len(view["history"])
                if phased:  # every member's screen shows the new phase
                    others = told + [s for s in others if s in members_at]
                    while any(shown_at(s.shown, version) is None for s in others):
                        if time.monotonic() > deadline:
                            raise TimeoutError(f"version {version} never reached every member's screen")
                        time.sleep(0.02)
                if phased and after["phase"] == "vote" and args.stand_ins == "member":
                    for member in crowd:  # the audience picks while the players vote
                        member.tap()
                if phased:
                    shifts += 1
                    commit = min(s.pushed[version] for s in others if version in s.pushed)
                    last = max(shown_at(s.shown, version) for s in others)
                    settle.append(last - commit)
                moves += 1
                # The turn closed: the host's Next ends its reveal at once, out of what is measured.
                s0, t0 = cpu_seconds(srv.pid), time.monotonic()
                if next_scene(code, room.host_token):
                    time.sleep(1.0)  # every screen shows the next turn
                    left_out[0] += cpu_seconds(srv.pid) - s0
                    left_out[1] += time.monotonic() - t0
            time.sleep(1.5)
            cpu = cpu_seconds(srv.pid) - cpu0 - left_out[0]
            spent = account.lines(spent0, account.taken(wait=True), moves) if args.account else []
            sent = [sum(s.messages for s in crowd) - sent0[0], sum(s.bytes for s in crowd) - sent0[1]]
            if spy is not None:
                spy.send_signal(2)
                spy.wait(timeout=30)
            took = time.monotonic() - began - left_out[1]
            reruns = sum(page.evaluate(RERUNS, code) for page in tabs) + sum(s.reruns for s in screens) - reruns0
            browser.close()
    finally:
        for screen in screens:
            screen.stop()
        srv.stop()
    everyone = 1 + args.seats + args.audience
    floor = shifts * (everyone - 1) / moves
    per_move = 1000 * cpu / moves
    print(
        f"{everyone} screens (1 wall, {args.seats} seats, {args.audience} on {args.stand_ins} screens); {moves} moves, {shifts} phase changes, {took:.0f} s"
    )
    print(
        f"server CPU: {cpu:.1f} s, {per_move:.0f} ms per player's move, {per_move / everyone:.1f} ms per move and screen"
    )
    print(
        f"messages to the {args.audience} {args.stand_ins} screens: {sent[0] / moves:.0f} per player's move, "
        f"{sent[1] / moves / 1000:.0f} KB of screens (the reveals the host ends included)"
    )
    print(f"reruns the pushes started: {reruns / moves:.2f} per move (floor {floor:.2f})")
    print("\n".join(spent))  # --account: the reveals the host ends are in it
    print(
        f"phase change, commit -> last screen shows it: median {statistics.median(settle) * 1000:.0f} ms, p95 {pct(settle, 95) * 1000:.0f} ms"
    )
    if browser_delays:
        print(
            f"Chromium tabs, tap -> other tab shown: median {statistics.median(browser_delays):.0f} ms, p95 {pct(browser_delays, 95):.0f} ms"
        )
    picks = sum(len(s.acted) for s in screens) - sum(len(s.acted) for s in own.values())
    if args.stand_ins == "member":
        print(f"audience picks: {picks} (no moves: they bump no version)")
    hall = args.audience > 100
    label = f"{'hall' if hall else 'classroom'}, 1 + {args.seats} + {args.audience} on {args.stand_ins} {'links' if args.stand_ins == 'seat' else 'screens'}"
    cpu_target, settle_target = (30, 300) if hall else (15, 150)
    figure(f"{label}: server CPU per player's move (ms)", f"{per_move:.0f}", f"<= {cpu_target}", per_move <= cpu_target)
    p = pct(settle, 95) * 1000
    figure(
        f"{label}: phase change, commit -> last screen shown, p95 (ms)",
        f"{p:.0f}",
        f"<= {settle_target}",
        p <= settle_target,
    )
    figure(f"{label}: push-started Streamlit reruns per move", f"{reruns / moves:.2f}", "0", reruns == 0)
    if browser_delays:
        figure(f"{label}: Chromium tabs, tap -> other tab shown, p95 (ms)", f"{pct(browser_delays, 95):.0f}")


if __name__ == "__main__":
    main()
