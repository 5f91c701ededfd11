"""Two server processes behind nginx on one PostgreSQL database (deploy/cluster.py, as `make cluster`
starts them). Chromium tabs on both processes play a Dixit turn; mid-way through the next one the
process that serves the host's wall and two players is killed (kill -9). Those tabs come back through
the proxy on the other process, with their seats and the host's controls, the turn is played out,
the host ends the game, and its record is the replay of its move log: no acknowledged move is lost."""

from __future__ import annotations

import secrets
import time
import uuid
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from deploy.cluster import Cluster, create_database, free_port
from engine import tables
from tests.browser.conftest import host_menu

WAIT = 30_000
SHOWN = "([c, v]) => Object.keys(window.__sobremesaPushRooms?.[c]?.shownAt ?? {}).some((k) => +k >= v)"


def phone(browser, url: str, device: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "sobremesa_device", "value": device, "url": url}])
    return context.new_page()


def process_of(code: str, seat: int, deadline: float = 20) -> str:
    """Which process holds this seat's push socket, as the presence rows say."""
    until = time.monotonic() + deadline
    while time.monotonic() < until:
        now = datetime.now(UTC).isoformat(timespec="milliseconds")  # a socket closed leaves a row in the past
        rows = tables.store()._run(
            None, "SELECT process FROM presence WHERE code = ? AND seat = ? AND until > ?", (code, seat, now)
        )
        found = {r["process"] for r in rows}
        if len(found) == 1:
            return found.pop()
        time.sleep(0.2)
    raise AssertionError(f"seat {seat} is held by {found or 'no process'}")


def elsewhere(browser, url: str, link: str, code: str, seat: int, process: str):
    """A phone for this seat link on a process other than `process`: new device ids until the proxy
    sends one there."""
    for _ in range(12):
        page = phone(browser, url, secrets.token_urlsafe(18))
        page.goto(link)
        if process_of(code, seat) != process:
            return page
        page.context.close()
    pytest.fail("the proxy sent every device to one process")


def held_elsewhere(code: str, seat: int, dead: str, deadline: float = 60) -> None:
    """Wait until a process other than `dead` holds this seat's push socket (the dead one's rows
    stay until they expire)."""
    until = time.monotonic() + deadline
    while time.monotonic() < until:
        rows = tables.store()._run(None, "SELECT process FROM presence WHERE code = ? AND seat = ?", (code, seat))
        if any(r["process"] != dead for r in rows):
            return
        time.sleep(0.2)
    raise AssertionError(f"seat {seat} did not come back on another process")


def pick(page) -> None:
    """Pick cards until the grid's button may be pressed (two each with three players), then press it."""
    confirm = page.locator("[data-testid=confirm-pick]")
    confirm.wait_for(timeout=WAIT)
    free = page.locator("[data-testid=card]:not(.off):not(.picked):visible")
    for _ in range(6):
        if confirm.is_enabled():
            break
        if page.locator("[data-testid=card-zoom]").count():
            page.keyboard.press("Escape")  # a tap that enlarged a card instead of picking it
        free.first.click()
        page.wait_for_timeout(100)
    confirm.click()


def started_room(cluster, browser, game: str):
    """Ana, Bo and Cy at a started room of `game`, and its wall with the host's controls, opened
    through the proxy with a new device id: (code, url, seat -> link, that device id, the wall)."""
    room = tables.create_room(game, seed=5, language="en")
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    tables.start(room.code, room.host_token)
    code, url = room.code, cluster.url
    shared = secrets.token_urlsafe(18)
    # A projector, not a phone: Streamlit folds a mobile page's sidebar (the host's controls) after each tap.
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.add_cookies([{"name": "sobremesa_device", "value": shared, "url": url}])
    wall = context.new_page()
    wall.goto(f"{url}/table?room={code}&host={room.host_token}")
    return code, url, lambda s: f"{url}/play?room={code}&seat={s}&token={seats[s].token}", shared, wall


@pytest.fixture(autouse=True)
def tabs_closed(browser):
    """Every tab a test here opened is closed after it: a stage tab left open keeps reconnecting, and
    a later cluster on the same port number would be asked to wait for its socket when it stops."""
    yield
    for context in list(browser.contexts):
        context.close()


@pytest.fixture
def cluster(postgres_server, tmp_path, monkeypatch):
    url = create_database(postgres_server, "c" + uuid.uuid4().hex[:12])
    monkeypatch.setenv("SOBREMESA_DATABASE_URL", url)
    tables.reset()
    running = Cluster(
        2, free_port(), url, tmp_path, env={"SOBREMESA_COMPUTER_PLAYERS": "off"}, host="127.0.0.1"
    ).start()
    yield running
    running.stop()
    tables.reset()


def test_two_processes_behind_the_proxy_lose_nothing_when_one_is_killed(cluster, browser):
    # The wall, Ana and Bo share one browser's device id, so one process serves all three;
    # Cy's phone is given ids until the proxy sends it to the other process.
    code, url, link, shared, wall = started_room(cluster, browser, "dixit")
    ana, bo = phone(browser, url, shared), phone(browser, url, shared)
    ana.goto(link(0))
    bo.goto(link(1))
    doomed = process_of(code, 0)
    assert process_of(code, 1) == doomed
    cy = elsewhere(browser, url, link(2), code, 2, doomed)
    pages = (wall, ana, bo, cy)
    host_menu(wall)  # Esc on the wall (issue 50)
    expect(wall.get_by_text("Host controls", exact=True)).to_be_visible(timeout=WAIT)

    # A whole Dixit turn, tapped on both processes.
    ana.get_by_role("button", name="I have a phrase!").click()
    expect(ana.get_by_text("You are the storyteller")).to_be_visible(timeout=WAIT)
    pick(ana)
    for page in (bo, cy):
        pick(page)
    for page in (bo, cy):
        expect(page.locator("[data-testid=confirm-pick]")).to_be_attached(timeout=WAIT)
        pick(page)
    deadline = time.monotonic() + 30
    while len(tables.view(code)["history"]) < 1:
        assert time.monotonic() < deadline, "the first turn did not end"
        time.sleep(0.2)

    # The next turn, half played: its storyteller tells, one player gives.
    view = tables.view(code)
    teller = view["storyteller"]
    pick(pages[teller + 1])
    giver = next(s for s in (0, 1, 2) if s != teller)
    version = tables.version(code)
    pick(pages[giver + 1])
    for page in pages:
        page.wait_for_function(SHOWN, arg=[code, version + 1], timeout=WAIT, polling=100)
    acknowledged = len(tables.move_log(code, 1))

    port = next(p for p, proc in cluster.servers.items() if doomed.startswith(f"{proc.pid}-"))
    cluster.kill(port)  # kill -9 the process of the wall, Ana and Bo

    # Everyone comes back on the other process, through the same address.
    for s, page in ((0, ana), (1, bo)):
        held_elsewhere(code, s, doomed)
        expect(page.get_by_text(f"{('Ana', 'Bo')[s]} ·").first).to_be_visible(timeout=WAIT)  # its own seat
    last = next(s for s in (0, 1, 2) if s not in (teller, giver))
    expect(pages[last + 1].locator("[data-testid=confirm-pick]")).to_be_attached(timeout=60_000)
    pick(pages[last + 1])
    for s in (0, 1, 2):
        if s != teller:
            expect(pages[s + 1].locator("[data-testid=confirm-pick]")).to_be_attached(timeout=60_000)
            pick(pages[s + 1])
    deadline = time.monotonic() + 30
    while len(tables.view(code)["history"]) < 2:
        assert time.monotonic() < deadline, "the second turn did not end"
        time.sleep(0.2)

    # The host's controls came back with the wall: the host ends the game from it.
    host_menu(wall, 60_000)
    expect(wall.get_by_text("Host controls", exact=True)).to_be_visible(timeout=60_000)
    wall.get_by_role("button", name="End the game now…").click()
    wall.get_by_role("button", name="Yes: end the game now").click()
    deadline = time.monotonic() + 30
    while tables.view(code)["status"] != "finished":
        assert time.monotonic() < deadline, "the host's end did not reach the game"
        time.sleep(0.2)

    log = tables.move_log(code, 1)
    assert len(log) >= acknowledged + 1 + 2  # nothing acknowledged was lost: the last give and two votes after
    record = tables.record(code)
    replayed = tables.replay(code)
    assert [t["scores"] for t in record["turns"]] == [t["scores"] for t in replayed["history"]]
    assert record["final_scores"] == {str(s): p for s, p in enumerate(replayed["scores"])}


def test_a_pictomania_round_across_two_processes(cluster, browser):
    """Strokes drawn on one process reach the sheets on the other live, and the round is scored."""
    from tests.browser.test_pictomania_round import finish, mouse_stroke, ready, sheet

    code, url, link, shared, wall = started_room(cluster, browser, "pictomania")
    players = []
    for s in (0, 1):
        page = phone(browser, url, shared)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(link(s))
        players.append(page)
    here = process_of(code, 0)
    cy = elsewhere(browser, url, link(2), code, 2, here)
    cy.set_viewport_size({"width": 1280, "height": 900})
    players.append(cy)

    for page in players:
        ready(page)
    expect(wall.locator("svg[data-seat]")).to_have_count(3, timeout=WAIT)
    mouse_stroke(players[0], [(0.1, 0.1), (0.9, 0.9)])  # on one process...
    mouse_stroke(players[2], [(0.9, 0.1), (0.1, 0.9)])  # ...and on the other
    expect(sheet(players[2], 0)).to_have_attribute("data-strokes", "1", timeout=WAIT)
    expect(sheet(players[0], 2)).to_have_attribute("data-strokes", "1", timeout=WAIT)
    expect(sheet(wall, 2)).to_have_attribute("data-strokes", "1", timeout=WAIT)

    for page in players:  # everyone is done without guessing: the round is scored
        finish(page)
    expect(wall.get_by_text("Round 1 — the answers")).to_be_visible(timeout=WAIT)
    replayed = tables.replay(code)
    assert replayed["history"] == tables.state_of(code)["history"] and len(replayed["history"]) == 1
