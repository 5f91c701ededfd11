"""A Dixit table on the school's Wi-Fi: each phone through its own fault proxy (tests/faults/proxy.py).
Each test asserts what happened, not how fast: every move applied once (the record is the replay of
the move log, one card and one vote per seat per turn) and every screen current within a generous
bound. How fast is bench/faults.py's (`make bench`)."""

from __future__ import annotations

import re
import threading
import time

from playwright.sync_api import expect

from engine import tables
from engine.store import now
from engine.tables.deadlines import later
from tests.faults.table import Table, server_env

ON = re.compile(r"\bon\b")  # a seat's dot: connected
BOUND = 15  # seconds: every screen current after a fault heals (the bench measures the real figure)


def test_latency_and_jitter_on_every_phone_lose_nothing(serve, browser, proxies):
    table = Table(serve("app.py", env=server_env()), browser, proxies)
    for proxy in table.proxies:
        proxy.latency(150, 50)
    table.turn()
    table.converged(BOUND)
    table.check_record()


def test_a_phone_stalled_mid_vote_votes_once_when_released(serve, browser, proxies):
    table = Table(serve("app.py", env=server_env()), browser, proxies)
    table.until("vote")
    table.converged(BOUND)  # every phone shows the vote
    voter = table.view()["waiting_for"][0]
    table.proxies[voter].stall()
    table.tap(voter, "vote")  # sent into the stall: the phone says "sending…" and retries
    expect(table.phones[voter].get_by_text("sending…")).to_be_visible(timeout=5000)
    time.sleep(8)
    assert voter in table.view()["waiting_for"]  # nothing reached the server
    table.proxies[voter].release()
    deadline = time.monotonic() + BOUND
    while voter in table.view()["waiting_for"]:
        assert time.monotonic() < deadline, "the stalled vote never arrived"
        time.sleep(0.1)
    table.converged(BOUND)
    table.turn()  # the turn closes on it
    table.check_record()


def test_a_phone_cut_twenty_times_plays_each_move_once(serve, browser, proxies):
    table = Table(serve("app.py", env=server_env()), browser, proxies)
    cutter = table.proxies[1]
    stop = threading.Event()

    def cut() -> None:
        while not stop.is_set() and cutter.cuts < 20:
            time.sleep(0.6)
            cutter.reset()

    thread = threading.Thread(target=cut, daemon=True)
    thread.start()
    try:
        while cutter.cuts < 20:
            table.turn()
    finally:
        stop.set()
        thread.join()
    table.converged(BOUND)
    table.turn()  # and the game goes on
    table.check_record()


def test_a_half_open_phone_shows_as_gone_then_comes_back(serve, browser, proxies):
    table = Table(serve("app.py", env=server_env()), browser, proxies)
    bo = table.wall.locator(".sm-seat", has_text="Bo")
    expect(bo).to_have_class(ON, timeout=BOUND * 1000)
    table.proxies[1].black_hole()  # packets dropped both ways, nobody told
    expect(bo).not_to_have_class(ON, timeout=BOUND * 1000)
    table.proxies[1].heal()
    expect(bo).to_have_class(ON, timeout=BOUND * 1000)
    table.converged(BOUND)
    table.check_record()


def test_the_laptops_wifi_dropping_skips_nobody(serve, browser, proxies):
    """Every phone cut off at once for 20 s (the laptop's own Wi-Fi; the wall on the laptop stays
    up), with 15 s left on the vote's clock: the clock pauses instead of skipping the voters."""
    table = Table(serve("app.py", env=server_env()), browser, proxies, pace="brisk")
    table.until("vote")
    table.converged(BOUND)
    voters = table.view()["waiting_for"]
    with tables.store().transaction() as conn:  # 15 s left (the brisk vote has 25)
        clock = tables.store().clock(table.code, conn)
        tables.store().put_clock(conn, table.code, {**clock, "deadline": later(now(), 15)})
    for proxy in table.proxies:
        proxy.black_hole()
    expect(table.wall.locator("[data-paused='1']").first).to_be_attached(timeout=BOUND * 1000)
    time.sleep(20 - 9)  # 20 s in all since the cut: the vote's deadline would have passed
    for proxy in table.proxies:
        proxy.heal()
    table.converged(BOUND)
    assert table.view()["waiting_for"] == voters  # nobody skipped: they vote now
    assert [e for e in tables.move_log(table.code, 1) if e["move"]["type"] == "skip"] == []
    tables.set_pace(table.code, table.host, "off")  # (the votes below, at any test machine's speed)
    table.turn()
    table.check_record()


SLEEP = """() => {  // the phone's screen goes off: the page is hidden (its timers slow), then wakes
  const hidden = (on) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => on ? 'hidden' : 'visible' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => on });
    document.dispatchEvent(new Event('visibilitychange'));
  };
  window.__sleep = hidden;
  hidden(true);
}"""


def test_a_phone_that_slept_wakes_to_the_current_screen(serve, browser, proxies):
    """Its screen off and its Wi-Fi gone while the table plays on without it; it wakes with its
    seat, its hand and the turn as they are now, by itself."""
    table = Table(serve("app.py", env=server_env()), browser, proxies)
    sleeper = 3
    table.proxies[sleeper].black_hole()
    table.phones[sleeper].evaluate(SLEEP)
    table.play_until(
        lambda view: view["phase"] not in ("claim", "tell") and view["waiting_for"] == [sleeper],
        "everyone but the sleeper to give",
        without={sleeper},
    )
    assert table.view()["waiting_for"] == [sleeper]
    table.proxies[sleeper].heal()
    table.phones[sleeper].evaluate("() => window.__sleep(false)")
    table.converged(BOUND, [table.phones[sleeper]])
    table.tap(sleeper, "give")  # its hand, as it is now
    deadline = time.monotonic() + BOUND
    while table.view()["phase"] != "vote":
        assert time.monotonic() < deadline, "the sleeper's card never arrived"
        time.sleep(0.1)
    table.check_record()
