"""Who holds a seat or a membership in a room, by device (the store's `holders`).

One phone once took every seat of a lobby and filled a 100-member audience in ten seconds. So a
device holds at most one seat or one membership per room at a time, an address at most
`gate.per_address().seats` seats of a room (past that the host is asked), and one address makes at
most `JOINS_A_MINUTE` joins a minute: a hall of phones behind one school address still fills the audience
in minutes, but a phone that renews its cookie cannot fill it in seconds. The laptop that runs the
server (the host seating people without a phone) is not limited; neither is a caller that names no
device (the engine's own API, computer players, tests).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from engine import gate
from engine.core import TableError
from engine.store import now
from engine.tables.base import store

JOINS_A_MINUTE = 120


class AlreadyHere(TableError):
    template = "This phone is already in this room, as {name}. Open it with that link, or ask the host."


class PhoneHasSeat(TableError):
    template = "This phone already has a seat at this table."


class TooManyJoins(TableError):
    template = "Many people have just joined from this network. Wait a minute, then try again."


def _counted(device) -> gate.Device | None:
    """The device to count, or None for the laptop and callers that name none. A client that shows
    no device cookie (a script on the stream socket: every browser has one from its first page) is
    counted as its address, so leaving the cookie out gains nothing."""
    if device is None:
        return None
    found = gate.Device.of(device)
    if found.here:
        return None
    return found if found.id else gate.Device("a:" + found.address, found.address, found.kind, found.local)


def check(conn, code: str, device, now: str, name_of) -> None:
    """Refuses a join by a device that holds something in the room already, or from a busy address.
    `name_of(kind, ref)` gives the name the device holds, for the message."""
    found = _counted(device)
    if found is None:
        return
    held = store().holder(code, found.id, conn)
    if held is not None:
        raise AlreadyHere(name=name_of(held["kind"], held["ref"]))
    since = (datetime.fromisoformat(now) - timedelta(seconds=60)).isoformat(timespec="milliseconds")
    if store().joins_since(found.address, since, conn) >= JOINS_A_MINUTE:
        raise TooManyJoins()


def check_seats(conn, code: str, device) -> None:
    """Refuses a seat to an address that holds `gate.per_address().seats` of the room's already: one
    phone took all six seats of a lobby with a fresh cookie each time. The page then asks the host
    (`tables.ask_to_join`), who may let a shared tablet, or a class behind one address, in."""
    found = _counted(device)
    if found is None or gate.is_local(found.address):  # the laptop's own address is never limited
        return
    if store().seats_held_at(code, found.address, conn) >= gate.per_address().seats:
        raise PhoneHasSeat()


def name_of(conn, code: str):
    """`name_of(kind, ref)` for `check`: the seat's name is its ref; a member's is read."""

    def named(kind: str, ref: str) -> str:
        if kind == "seat":
            return ref
        return next((m["name"] for m in store().members(code, conn) if m["id"] == ref), ref)

    return named


def hold(conn, code: str, device, kind: str, ref: str, now: str) -> None:
    """The device now holds `kind` ("seat": ref is the seat's name; "member": ref is the member's id)."""
    found = _counted(device)
    if found is not None:
        store().hold(conn, code, found.id, found.address, kind, ref, now)


def moved(conn, code: str, kind: str, ref: str, device) -> None:
    """The seat went to another phone (Stop sharing, or let back in): that phone holds it now."""
    found = _counted(device)
    store().release(conn, code, kind, ref)
    if found is not None:
        store().release_device(conn, code, found.id)  # what it held here before is given up
        store().hold(conn, code, found.id, found.address, kind, ref, now())


def release(conn, code: str, kind: str, ref: str) -> None:
    """The seat or membership is gone (removed by the host): its device may join again."""
    store().release(conn, code, kind, ref)
