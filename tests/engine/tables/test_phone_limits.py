"""What one bored student at the back of a class can do from their phone, and what it must not cost
everyone else: guessing room codes, burying the host's room under others, and asking to come back
in as every player. Devices are `gate.Device`s: a browser's own id and the address it comes from;
a school often puts every phone behind one address."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from engine import gate, tables
from engine.core import BadToken, RoomNotFound, TableError, TooManyRooms, TooManyTries
from engine.tables import holders
from engine.tables.holders import AlreadyHere, TooManyJoins

pytestmark = pytest.mark.usefixtures("plain_cards")

SCHOOL = "10.20.0.1"  # the one address every phone of the class comes from


def phone(name: str, address: str = SCHOOL, kind: str = "Android phone") -> gate.Device:
    return gate.Device(f"device-of-{name}-0123456789", address, kind)


def class_room(names=("Ana", "Bo", "Cy", "Di")):
    room = tables.create_room("dixit", seed=3)
    seats = [tables.join(room.code, n) for n in names]
    tables.start(room.code, room.host_token)
    return room, seats


def wrong_codes(count: int):
    """Codes that name no room."""
    letters = tables.CODE_LETTERS
    return [
        "".join(letters[(i // len(letters) ** k) % len(letters)] for k in range(tables.CODE_LENGTH))
        for i in range(7, 7 + count)
    ]


# ---- guessing codes ------------------------------------------------------------------------------


def test_one_address_needs_over_a_day_to_find_any_of_fifty_rooms():
    codes = len(tables.CODE_LETTERS) ** tables.CODE_LENGTH
    fastest = gate.PROBES.address_limit * 60 / gate.PROBES.window  # guesses a minute, the most an address gets
    hours = gate.hours_to_hit(codes, rooms=50, per_minute=fastest)
    assert hours >= 24, f"{hours:.1f} h"
    assert tables.CODE_LENGTH <= 5  # still typed easily
    room = tables.create_room("dixit")
    assert len(room.code) == tables.CODE_LENGTH and set(room.code) <= set(tables.CODE_LETTERS)


def test_the_limits_hold_per_device_and_per_address():
    probes = gate.Probes(limit=3, window=60, address_limit=5)
    guesser = phone("guesser")
    for t in range(3):
        probes.miss(guesser, now=t)
    assert probes.blocked(guesser, now=10)
    assert not probes.blocked(phone("classmate"), now=10)  # same address, another device
    for i in range(5):  # one device id after another: the address's own cap still holds
        probes.miss(gate.Device(f"fresh-id-{i}-0123456789ab", SCHOOL), now=20)
    assert probes.blocked(phone("classmate"), now=21)
    assert not probes.blocked(phone("classmate"), now=81)  # the window slides
    assert not probes.blocked(gate.Device("x" * 20, "127.0.0.1"), now=21)  # the server's own computer


def test_a_class_behind_one_address_keeps_its_links_while_one_tab_guesses_200_codes():
    room, seats = class_room()
    guesser = phone("guesser")
    refused = 0
    for code in wrong_codes(200):
        try:
            tables.view(code, device=guesser)
        except (RoomNotFound, TooManyTries):
            refused += 1
        for s in seats:  # every seat link keeps working, from the same address, between guesses
            assert tables.view(room.code, s.seat, s.token, device=phone(s.name))["you"] == s.seat
    assert refused == 200
    with pytest.raises(TooManyTries):
        tables.view(room.code, device=guesser)  # the guesser itself is told to wait, even for a real code
    # the shared screen opened elsewhere with the host's key, and the server's own computer
    assert tables.view(room.code, device=guesser, host_token=room.host_token)["code"] == room.code
    assert tables.view(room.code, device=gate.Device(None, "127.0.0.1"))["code"] == room.code
    # a classmate who only now scans the QR code still gets in: one device's guesses are not the address's
    assert tables.view(room.code, device=phone("late"))["code"] == room.code


def test_guesses_spread_over_fresh_device_ids_still_lock_the_address_but_not_the_seats():
    room, seats = class_room()
    for i, code in enumerate(wrong_codes(100)):
        try:
            tables.view(code, device=gate.Device(f"cleared-cookies-{i:04d}-xyz", SCHOOL))
        except (RoomNotFound, TooManyTries):
            pass
    with pytest.raises(TooManyTries):
        tables.view(room.code, device=phone("newcomer"))
    for s in seats:
        assert tables.view(room.code, s.seat, s.token, device=phone(s.name))["you"] == s.seat
    with pytest.raises(TooManyTries):  # a wrong token proves nothing
        tables.view(room.code, 0, "not-a-token", device=phone("Ana"))


# ---- burying the host's room -----------------------------------------------------------------------


def test_a_phone_can_create_only_a_few_rooms():
    attacker = phone("attacker", address="10.30.0.7")
    made = []
    with pytest.raises(TooManyRooms):
        for _ in range(20):
            made.append(tables.create_room("dixit", device=attacker))
    assert len(made) == tables.ROOMS_A_MINUTE[0]
    for i in range(20):  # fresh device ids from the same address: the address's cap
        try:
            made.append(tables.create_room("dixit", device=gate.Device(f"another-device-{i:03d}-xy", "10.30.0.7")))
        except TooManyRooms:
            break
    assert len(made) == tables.ROOMS_A_MINUTE[1]


def test_lobbies_a_device_leaves_waiting_are_capped_even_a_minute_later():
    attacker = phone("slow", address="10.30.0.8")
    later = (datetime(2026, 5, 1, 9, 0, tzinfo=UTC) + timedelta(minutes=2 * i) for i in itertools.count())
    made = 0
    with tables.clock(lambda: next(later).isoformat(timespec="milliseconds")):
        with pytest.raises(TooManyRooms, match="still waiting"):
            for _ in range(10):
                tables.create_room("dixit", device=attacker)
                made += 1
    assert made == tables.OPEN_LOBBIES[0]


def test_the_host_finds_their_room_however_many_others_are_made():
    ticks = (datetime.now(UTC) + timedelta(seconds=i) for i in itertools.count())
    with tables.clock(lambda: next(ticks).isoformat(timespec="milliseconds")):
        mine = tables.create_room("dixit", device=gate.Device(None, "127.0.0.1"))
        for i in range(30):  # thirty phones on thirty addresses, each making a room
            tables.create_room("dixit", device=gate.Device(f"phone-{i:03d}-0123456789", f"10.40.0.{i + 2}"))
        listed = tables.open_rooms()
    assert [r["code"] for r in listed].index(mine.code) == 30  # newest first, and nothing cut off
    assert [r["code"] for r in listed if r["here"]] == [mine.code]  # marked as made on this computer


def test_empty_lobbies_expire_and_played_rooms_do_not():
    then = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
    with tables.clock(lambda: then.isoformat(timespec="milliseconds")):
        empty = tables.create_room("dixit")
        joined = tables.create_room("dixit")
        tables.join(joined.code, "Ana")
    soon = then + timedelta(hours=tables.LOBBY_HOURS - 1)
    with tables.clock(lambda: soon.isoformat(timespec="milliseconds")):
        assert {empty.code, joined.code} <= {r["code"] for r in tables.open_rooms()}
    later = then + timedelta(hours=tables.LOBBY_HOURS + 1)
    with tables.clock(lambda: later.isoformat(timespec="milliseconds")):
        codes = {r["code"] for r in tables.open_rooms()}
    assert empty.code not in codes and joined.code in codes
    with pytest.raises(RoomNotFound):
        tables.view(empty.code)


# ---- asking to come back in as everyone --------------------------------------------------------------


def test_one_phone_cannot_ask_for_every_seat():
    room, seats = class_room()
    prankster = phone("prankster", kind="iPhone")
    for s in seats:
        tables.ask_to_rejoin(room.code, s.name, device=prankster)
    asks = tables.rejoin_requests(room.code, room.host_token)
    assert [(a["seat"], a["kind"]) for a in asks] == [(3, "iPhone")]  # only its last request stands
    assert tables.view(room.code)["asking"] == [3]


def test_two_phones_asking_for_one_seat_are_both_shown_and_one_is_let_in():
    room, seats = class_room()
    prankster = tables.ask_to_rejoin(room.code, "Bo", device=phone("prankster", kind="iPhone"))
    real = tables.ask_to_rejoin(room.code, "Bo", device=phone("Bo-new", kind="Android phone"))  # not refused
    asks = tables.rejoin_requests(room.code, room.host_token)
    assert [(a["seat"], a["name"], a["kind"]) for a in asks] == [(1, "Bo", "Android phone"), (1, "Bo", "iPhone")]
    assert all(0 <= a["seconds"] < 60 for a in asks)
    assert all(real.token not in str(a) and prankster.token not in str(a) for a in asks)
    with pytest.raises(BadToken):
        tables.rejoin_requests(room.code, "not-the-host")
    tables.let_back_in(room.code, room.host_token, 1, request=asks[0]["id"])
    assert tables.view(room.code, 1, real.token)["you"] == 1
    assert tables.rejoin_requests(room.code, room.host_token) == []  # the other request for Bo is dropped
    assert not tables.still_asking(room.code, prankster.token)
    with pytest.raises(BadToken):
        tables.view(room.code, 1, prankster.token)
    with pytest.raises(BadToken):
        tables.view(room.code, 1, seats[1].token)  # the lost link no longer opens the seat


# ---- behind a reverse proxy ----------------------------------------------------------------------


def test_behind_a_proxy_on_the_same_laptop_nobody_is_this_computer():
    # no proxy: the laptop's own browser is this computer, a phone is not
    assert gate.where("127.0.0.1", None, trusted="") == ("127.0.0.1", True)
    assert gate.where("10.0.0.7", None, trusted="") == ("10.0.0.7", False)
    # nginx on the laptop forwards a phone: every request comes from 127.0.0.1, none is this computer
    assert gate.where("127.0.0.1", "10.0.0.7", trusted="") == ("127.0.0.1", False)
    # a trusted proxy names the client, and only the last hop it did not add counts
    assert gate.where("127.0.0.1", "6.6.6.6, 10.0.0.7", trusted="127.0.0.1/32") == ("10.0.0.7", False)
    assert gate.where("127.0.0.1", "127.0.0.1", trusted="127.0.0.1") == ("127.0.0.1", True)
    # a trusted proxy that names nobody: not this computer either
    assert gate.where("127.0.0.1", None, trusted="127.0.0.1") == ("127.0.0.1", False)
    # an untrusted peer's header is not believed
    assert gate.where("10.0.0.9", "127.0.0.1", trusted="127.0.0.1") == ("10.0.0.9", False)


def test_a_phone_through_the_proxy_is_limited_like_any_phone():
    through = gate.Device("phone-behind-the-proxy-1", "127.0.0.1", "Android phone", local=False)
    assert not through.here
    made = []
    with pytest.raises(TooManyRooms):
        for _ in range(10):
            made.append(tables.create_room("dixit", device=through))
    assert len(made) == tables.ROOMS_A_MINUTE[0]
    assert not any(r["here"] for r in tables.open_rooms())


# ---- one phone, one place in a room (issue 37, item 10) ------------------------------------------

PHONE_ADDRESS = "127.0.0.2"  # a phone on the network


def test_one_phone_holds_one_seat_or_one_membership_per_room():
    room = tables.create_room("dixit", seed=3)
    troll = phone("troll", PHONE_ADDRESS)
    tables.join(room.code, "Ana", device=troll)
    with pytest.raises(AlreadyHere) as refused:
        tables.join(room.code, "Bo", device=troll)
    assert "Ana" in refused.value.message
    with pytest.raises(AlreadyHere):
        tables.join_audience(room.code, "Cy", device=troll)
    assert tables.view(room.code)["names"] == ["Ana"]
    assert tables.audience_size(room.code)["count"] == 0
    tables.join(room.code, "Bo", device=phone("classmate", PHONE_ADDRESS))  # another phone, same Wi-Fi
    other = tables.create_room("dixit", seed=4)
    tables.join_audience(other.code, "Ana", device=troll)  # another room: its own place
    tables.kick(room.code, room.host_token, 0)  # removed by the host: the phone may join again
    tables.join(room.code, "Ana", device=troll)


def test_one_address_takes_two_seats_and_asks_the_host_for_more(monkeypatch):
    """With a fresh cookie each time one phone took all six seats, and a classmate was offered only
    the audience. An address now takes two seats of a room; past that the host is asked."""
    room = tables.create_room("dixit", seed=3)
    for i, name in enumerate(("Ana", "Bo")):
        tables.join(room.code, name, device=phone(f"fresh-cookie-{i}", PHONE_ADDRESS))
    with pytest.raises(tables.PhoneHasSeat, match="already has a seat"):
        tables.join(room.code, "Cy", device=phone("fresh-cookie-2", PHONE_ADDRESS))
    tables.join(room.code, "Di", device=phone("classmate", "10.9.0.4"))  # the next phone is not held back
    tables.join(room.code, "Ed")  # nor is the laptop, seating someone without a phone
    asked = tables.ask_to_join(room.code, "Cy", device=phone("fresh-cookie-2", PHONE_ADDRESS, kind="iPad"))
    assert tables.view(room.code)["joining"] == ["Cy"]
    [request] = tables.join_requests(room.code, room.host_token)
    assert request["name"] == "Cy" and request["kind"] == "iPad" and "token" not in str(request)
    with pytest.raises(BadToken):
        tables.find_seat(room.code, asked.token)  # nothing until the host says yes
    tables.let_join(room.code, room.host_token, request["id"])  # a shared tablet: let in
    assert tables.find_seat(room.code, asked.token).name == "Cy"
    assert tables.view(room.code)["joining"] == [] and not tables.still_asking_to_join(room.code, asked.token)
    turned = tables.ask_to_join(room.code, "Flo", device=phone("fresh-cookie-3", PHONE_ADDRESS))
    tables.let_join(room.code, room.host_token, tables.join_requests(room.code, room.host_token)[0]["id"], False)
    assert not tables.still_asking_to_join(room.code, turned.token)
    assert tables.view(room.code)["names"] == ["Ana", "Bo", "Di", "Ed", "Cy"]
    monkeypatch.setenv("SOBREMESA_PUBLIC_URL", "https://games.school.example")  # a class behind the school's NAT
    hall = tables.create_room("odyssey", seed=3)
    for i in range(8):
        tables.join(hall.code, f"P{i}", device=phone(f"student-{i}", PHONE_ADDRESS))


def test_one_address_makes_at_most_120_joins_a_minute_whatever_its_cookies():
    room = tables.create_room("dixit", seed=3, options={"audience_max": 200})
    for i in range(holders.JOINS_A_MINUTE):
        tables.join_audience(room.code, f"M{i}", device=phone(f"renewed-cookie-{i}", PHONE_ADDRESS))
    with pytest.raises(TooManyJoins):
        tables.join_audience(room.code, "One more", device=phone("renewed-cookie-x", PHONE_ADDRESS))
    tables.join_audience(room.code, "Elsewhere", device=phone("other-school", "127.0.0.3"))
    tables.join_audience(room.code, "Laptop", device=gate.Device("laptop-device-0123456789", "127.0.0.1", local=True))
    assert tables.audience_size(room.code)["count"] == holders.JOINS_A_MINUTE + 2


def test_the_host_removes_a_member_and_closes_and_reopens_the_audience():
    room = tables.create_room("dixit", seed=3)
    troll = phone("troll", PHONE_ADDRESS)
    member = tables.join_audience(room.code, "Troll", device=troll)
    with pytest.raises(BadToken):
        tables.remove_member(room.code, "not-the-host", member.id)
    tables.remove_member(room.code, room.host_token, member.id)
    with pytest.raises(BadToken):
        tables.audience_view(room.code, member.id, member.token)
    assert tables.audience_members(room.code, room.host_token) == []
    tables.open_audience(room.code, room.host_token, False)
    with pytest.raises(TableError):
        tables.join_audience(room.code, "Later", device=phone("later", PHONE_ADDRESS))
    tables.open_audience(room.code, room.host_token, True)
    again = tables.join_audience(room.code, "Troll", device=troll)  # removed: the phone may come back
    assert [m["name"] for m in tables.audience_members(room.code, room.host_token)] == ["Troll"]
    assert tables.audience_view(room.code, again.id, again.token)["member"]["name"] == "Troll"


# ---- every way in counts wrong codes alike (issue 37, item 11) -----------------------------------


def test_the_member_link_counts_wrong_codes_and_answers_a_wrong_code_as_a_wrong_token():
    room = tables.create_room("dixit", seed=3)
    member = tables.join_audience(room.code, "Mateo")
    guesser = phone("guesser", PHONE_ADDRESS)
    answers = []
    for code in wrong_codes(gate.PROBES.limit):
        with pytest.raises(BadToken) as wrong:
            tables.audience_view(code, "x", "y", device=guesser)
        answers.append(wrong.value.message)
    with pytest.raises(BadToken) as real:
        tables.audience_view(room.code, "x", "y", device=phone("fresh", "127.0.0.4"))
    assert set(answers) == {real.value.message}  # a real room and a wrong token: the same words
    for code in (room.code, *wrong_codes(3)):  # now blocked: every code, real or not, is refused alike
        with pytest.raises(TooManyTries):
            tables.audience_view(code, "x", "y", device=guesser)
    assert tables.audience_view(room.code, member.id, member.token, device=guesser)["member"]["name"] == "Mateo"


def test_a_seat_link_answers_a_wrong_code_as_a_wrong_token():
    room, seats = class_room()
    with pytest.raises(BadToken) as real:
        tables.view(room.code, 0, "wrong-token", device=phone("a", PHONE_ADDRESS))
    with pytest.raises(BadToken) as fake:
        tables.view(wrong_codes(1)[0], 0, "wrong-token", device=phone("b", PHONE_ADDRESS))
    assert real.value.message == fake.value.message
    with pytest.raises(BadToken):
        tables.find_seat(wrong_codes(1)[0], "wrong-token")


# ---- rooms that never end (issue 37, item 16) ----------------------------------------------------


def test_rooms_a_phone_started_count_against_it_and_idle_rooms_end():
    """Three seats from one phone once turned a lobby into a running room that counted against
    nothing and never expired: with fresh cookies a phone could keep rooms running without limit."""
    start = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
    later = (start + timedelta(minutes=2 * i) for i in itertools.count())
    made = []
    with tables.clock(lambda: next(later).isoformat(timespec="milliseconds")):
        with pytest.raises(TooManyRooms, match="still being played"):
            for i in range(20):
                creator = phone(f"renewed-{i}", PHONE_ADDRESS)
                room = tables.create_room("dixit", device=creator)
                for n in ("A", "B"):  # two seats are all one address takes (`gate.per_address`)
                    tables.join(room.code, n, device=phone(f"renewed-{i}-{n}", PHONE_ADDRESS))
                tables.join(room.code, "C")  # and one the host seats
                tables.start(room.code, room.host_token)
                made.append(room)
    assert len(made) == tables.OPEN_ROOMS[1]
    idle = start + timedelta(hours=tables.IDLE_HOURS + 24)  # the clock above moves 2 minutes a read
    with tables.clock(lambda: idle.isoformat(timespec="milliseconds")):
        assert tables.open_rooms() == []
        assert all(tables.view(r.code)["status"] == "finished" for r in made)
        assert all(tables.record(r.code) for r in made)  # ended and saved: nothing played is lost
        tables.create_room("dixit", device=phone("renewed-again", PHONE_ADDRESS))


def test_a_lobby_with_seats_expires_once_idle_for_hours():
    then = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
    with tables.clock(lambda: then.isoformat(timespec="milliseconds")):
        room = tables.create_room("dixit")
        tables.join(room.code, "Ana")
    with tables.clock(lambda: (then + timedelta(hours=tables.IDLE_HOURS + 1)).isoformat(timespec="milliseconds")):
        assert room.code not in {r["code"] for r in tables.open_rooms()}
    with pytest.raises(RoomNotFound):
        tables.view(room.code)


# ---- a shared seat's QR (issue 37, item 14) ------------------------------------------------------


def test_a_seat_shows_a_second_phone_and_stop_sharing_shuts_it_out():
    room, seats = class_room()
    ana = seats[0]
    hers, photo = phone("ana", PHONE_ADDRESS), phone("photo-of-the-qr", "127.0.0.3")
    assert tables.seen_on_seat(room.code, 0, ana.token, hers) == 0
    assert tables.seen_on_seat(room.code, 0, ana.token, photo) == 1  # the photo's phone plays the seat
    assert tables.seen_on_seat(room.code, 0, ana.token, hers) == 1  # and Ana's phone is told
    renewed = tables.stop_sharing(room.code, 0, ana.token, hers)
    with pytest.raises(BadToken):
        tables.view(room.code, 0, ana.token, device=photo)  # the old link: ask to come back in
    with pytest.raises(BadToken):
        tables.stop_sharing(room.code, 0, ana.token, photo)
    assert tables.view(room.code, 0, renewed)["you"] == 0
    assert tables.seen_on_seat(room.code, 0, renewed, hers) == 0
    assert tables.seen_on_seat(room.code, 1, seats[1].token, photo) == 0  # another seat: its own phones


def test_a_client_without_a_device_cookie_is_counted_by_its_address():
    """A script on the stream socket shows no device cookie: it once joined 300 members and every
    seat from one address. It is one device, its address, now."""
    room = tables.create_room("dixit", seed=3)
    bare = gate.Device(None, PHONE_ADDRESS, local=False)
    tables.join(room.code, "Ana", device=bare)
    with pytest.raises(AlreadyHere):
        tables.join(room.code, "Bo", device=bare)
    with pytest.raises(AlreadyHere):
        tables.join_audience(room.code, "Cy", device=bare)


def test_the_phone_that_stops_sharing_or_is_let_back_in_holds_the_seat():
    """The seat's holder follows the seat: the phone that kept it, or the one let back in, may not
    take a second place; the phone shut out may join as someone else."""
    room = tables.create_room("dixit", seed=3)
    first, second = phone("first", PHONE_ADDRESS), phone("second", "127.0.0.3")
    ana = tables.join(room.code, "Ana", device=first)
    tables.seen_on_seat(room.code, 0, ana.token, second)
    tables.stop_sharing(room.code, 0, ana.token, second)  # the second phone keeps the seat
    with pytest.raises(AlreadyHere):
        tables.join(room.code, "Ana again", device=second)
    tables.join(room.code, "Bo", device=first)  # the first phone is free to join as someone else
    tables.join(room.code, "Cy", device=phone("cy", PHONE_ADDRESS))
    tables.start(room.code, room.host_token)
    lost = phone("lost-link", "127.0.0.4")
    asked = tables.ask_to_rejoin(room.code, "Ana", device=lost)
    tables.let_back_in(room.code, room.host_token, asked.seat)
    with pytest.raises(AlreadyHere):
        tables.join_audience(room.code, "Watcher", device=lost)
    tables.join_audience(room.code, "Watcher", device=second)  # no longer on the seat
