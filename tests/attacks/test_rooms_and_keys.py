"""What a phone can try against rooms, keepsakes and the laptop's key (issue 47, items 8, 11, 14
and 15): guessing room codes over the stage socket, asking for a keepsake twenty times at once,
keeping the screen of a game erased from the archive, and the laptop's long-lived key."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
import urllib.parse

from engine import laptop, tables
from engine.core.conformance.player import fill
from engine.games import GAMES
from tests.attacks.conftest import bound, closed_with, wall_hello, ws
from tests.engine.tables.test_phone_limits import wrong_codes
from tests.stream import StreamSession


def first_message(client, key: str, within: float = 20) -> dict:
    """The first message carrying `key`, pinging every 3 s meanwhile as a tab does (a socket silent
    for 9 s is taken for half-open and closed)."""
    ends = time.monotonic() + within
    while True:
        try:
            told = json.loads(client.recv(timeout=min(3, max(0.1, ends - time.monotonic()))))
        except TimeoutError:
            assert time.monotonic() < ends, f"no message with {key!r} in {within} s"
            client.send("ping")
            continue
        if key in told:
            return told


def test_room_codes_cannot_be_guessed_over_the_stage_socket(server):
    """Past ten wrong codes a minute, a phone's hello is refused whatever code it names, as the
    pages refuse it; a seat's own token still opens its seat."""
    room = tables.create_room("dixit", language="en")
    ana = tables.join(room.code, "Ana")
    for guess in wrong_codes(12):
        with ws(server.port, f"/stage/{guess}", "127.0.0.10") as s:
            s.send(wall_hello())
            assert closed_with(s) == 4401
    with ws(server.port, f"/stage/{room.code}", "127.0.0.10") as right:
        right.send(wall_hello())
        assert closed_with(right) == 4401  # the real room, now: the same answer
    with ws(server.port, f"/stage/{room.code}", "127.0.0.10") as seat:
        seat.send(json.dumps({"hello": {"token": ana.token, "lang": "en"}}))
        assert "html" in first_message(seat, "html")  # a seat's token proves what no guess does


def play_until_scored(code: str, seats: list, rounds: int = 1) -> None:
    """Random legal moves through the service until `rounds` turns or rounds are closed."""
    rnd = random.Random(4)
    by_seat = {s.seat: s for s in seats}
    while tables.view(code).get("history_length", 0) < rounds:
        view = tables.view(code)
        seat = by_seat[rnd.choice(view["waiting_for"])]
        move = fill(GAMES[view["game"]], rnd.choice(tables.legal(code, seat.seat, seat.token)), rnd)
        tables.submit(code, seat.seat, seat.token, move)


def test_a_rounds_keepsake_is_built_once_however_many_ask_at_once(server):
    room = tables.create_room("pictomania", language="en", seed=2)
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    tables.start(room.code, room.host_token)
    play_until_scored(room.code, seats)
    query = urllib.parse.urlencode({"seat": 0, "game": 1, "round": 1, "token": seats[0].token, "file": "sheet"})
    statuses: list[int] = []
    gate = threading.Barrier(20)

    def ask() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        conn.sock = bound(server.port, "127.0.0.12")
        gate.wait()
        conn.request("GET", f"/keepsakes/{room.code}?{query}")
        statuses.append(conn.getresponse().status)
        conn.close()

    threads = [threading.Thread(target=ask) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    builds = [p for p in server.probed() if "built" in p]
    assert statuses == [200] * 20, statuses
    assert len(builds) == 1, f"the round's keepsake was built {len(builds)} times"


def test_a_game_erased_from_the_archive_leaves_no_screen_on_its_phones(server):
    room = tables.create_room("pebbles", language="en")
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo")]
    tables.start(room.code, room.host_token)
    tables.end(room.code, room.host_token)
    with ws(server.port, f"/stage/{room.code}", "127.0.0.11") as phone:
        phone.send(json.dumps({"hello": {"token": seats[0].token, "lang": "en"}}))
        first_message(phone, "html")
        tables.erase_game(room.code, 1)  # the laptop's Statistics, "Erase from the archive"
        told = first_message(phone, "removed")
        assert "erased" in told["removed"]
        assert closed_with(phone) == 4401


def get(port: int, path: str, cookie: str | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    reply = conn.getresponse()
    reply.read()
    conn.close()
    return reply


def laptop_cookie(reply) -> str | None:
    for name, value in reply.getheaders():
        if name.lower() == "set-cookie" and value.startswith(laptop.COOKIE + "="):
            return value.split(";")[0]
    return None


def test_the_laptops_links_work_once_and_its_key_can_be_renewed(server):
    tables.create_room("dixit")  # a room for the laptop's list
    link = urllib.parse.urlsplit(laptop.one_time_link(f"http://127.0.0.1:{server.port}"))
    path = f"{link.path}?{link.query}"
    assert laptop.key() not in path  # the link is not the key
    first = laptop_cookie(get(server.port, path))
    assert first is not None, "the start command's link did not make this browser the laptop's"
    assert laptop_cookie(get(server.port, path)) is None, "a link worked twice"

    def rooms_listed(cookie: str) -> bool:
        name, value = cookie.split("=", 1)
        with StreamSession(server.port, cookies={name: value}) as tab:
            tab.run()
            return any("Rooms on this computer" in t for t in tab.texts)

    assert rooms_listed(first)
    laptop.rotate()  # the start page's "Sign out every other browser"
    time.sleep(laptop.KEY_SECONDS + 0.2)  # the server reads the key again by then
    assert not rooms_listed(first), "an old key still makes a browser the laptop's"
    again = urllib.parse.urlsplit(laptop.one_time_link(f"http://127.0.0.1:{server.port}"))
    renewed = laptop_cookie(get(server.port, f"{again.path}?{again.query}"))
    assert renewed is not None and renewed != first
    assert rooms_listed(renewed)
