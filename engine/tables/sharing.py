"""Two phones on one seat: which phones the seat's link is open on, and "Stop sharing".

A seat's link is the seat, so a photo of its Share QR played that seat for the rest of the game,
and nobody could see that two phones were on it. Each seat page tells the service which device
shows it (`seen_on_seat`, at most every `SEEN_EVERY` seconds per tab); the seat's phone says so when
another device showed it within `SHARED_SECONDS`. `stop_sharing` gives the seat a new link: the
phone that asked keeps it, every other must ask to come back in.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from engine import gate
from engine.tables import holders
from engine.tables.base import changing, hash_token, refusals_only, room_row, seat_row, store, time_now

SEEN_EVERY = 30  # seconds between a tab's reports (pages)
SHARED_SECONDS = 600  # another phone seen this recently is on the seat


@refusals_only
def seen_on_seat(code: str, seat: int, token: str, device) -> int:
    """This device shows the seat now; how many other devices showed it lately."""
    room = room_row(code)
    seat_row(room, seat, token)
    found = gate.Device.of(device) if device is not None else None
    now = time_now()
    with store().transaction() as conn:
        if found is not None:  # a client without a device cookie is known by its address
            store().saw_seat_phone(conn, room["code"], seat, _key(found), now)
        since = (datetime.fromisoformat(now) - timedelta(seconds=SHARED_SECONDS)).isoformat(timespec="milliseconds")
        others = [d for d in store().seat_phones(room["code"], seat, since, conn) if not found or d != _key(found)]
    return len(others)


def _key(device: gate.Device) -> str:
    return device.id or "a:" + device.address


@refusals_only
def stop_sharing(code: str, seat: int, token: str, device=None) -> str:
    """A new link for the seat, returned to the phone that asked; the old link stops working."""
    found = gate.Device.of(device) if device is not None else None
    new = secrets.token_urlsafe(16)
    with changing(code) as change:  # news: the other phone's next run finds its link gone
        seat_row(change.room, seat, token, change.conn)
        store().renew_seat_token(change.conn, change.code, seat, hash_token(new), _key(found) if found else None)
        name = next(s["name"] for s in store().seats(change.code, change.conn) if s["seat"] == seat)
        holders.moved(change.conn, change.code, "seat", name, found)  # the seat is this phone's now
    return new
