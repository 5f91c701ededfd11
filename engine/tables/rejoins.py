"""Asking the host: someone who lost their link asks for their seat back under the name they played
with (`ask_to_rejoin`), or a phone whose address already holds its seats asks to take one more
(`ask_to_join`: a shared tablet, a class behind one address); the host lets them in, or not."""

from __future__ import annotations

import secrets
import time
from datetime import datetime

from engine import gate
from engine.core import AlreadyStarted, BadName, NameTaken, RoomFull, TableError
from engine.games import GAMES
from engine.tables import holders
from engine.tables.base import (
    Seat,
    changing,
    clean_name,
    hash_token,
    probed,
    prove_host,
    refusals_only,
    room_row,
    store,
    time_now,
    token_ok,
)

ASKS_PER_ADDRESS = 10  # open requests to come back in, per room, from one address


@refusals_only
def ask_to_rejoin(code: str, name: str, device=None) -> Seat:
    """Someone who lost their link asks for their seat back under the name they played with. The
    token returned opens the seat only once the host lets them back in (`let_back_in`).

    Each device (a `gate.Device`; by its address when it has no id) has one open request per room:
    asking again replaces its last one, so one phone cannot ask for every seat. Two devices may ask
    for the same seat: the host sees both (`rejoin_requests`) and lets in the person they saw ask.
    Names that match nobody count as wrong guesses of the device (`gate.PROBES`)."""
    name = clean_name(name)
    code = probed(code, device)["code"]
    asker = gate.Device.of(device if device is not None else "127.0.0.1")
    with changing(code) as change:
        conn, room = change.conn, change.room
        if room["status"] == "lobby":
            raise TableError("The game has not started yet: join with your name.")
        seat = next((s for s in store().seats(code, conn) if s["name"].casefold() == name.casefold()), None)
        if seat is None:
            if device is not None:
                gate.PROBES.miss(device)
            raise BadName("Nobody called {name} is playing here. Type the name exactly as you joined.", name=name)
        key = asker.id or "a:" + asker.address
        others = [a for a in store().asks(code, conn) if a["address"] == asker.address and a["asker"] != key]
        if not asker.here and len(others) >= ASKS_PER_ADDRESS:
            raise TableError(
                "Many people here are already asking to come back in. Wait for the host to answer them, then try again."
            )
        token = secrets.token_urlsafe(16)
        store().ask_rejoin(
            conn,
            code,
            {
                "ask_id": f"{time.time_ns():x}{secrets.token_hex(2)}",
                "seat": seat["seat"],
                "token_hash": hash_token(token),
                "asker": key,
                "address": asker.address,
                "kind": asker.kind,
                "asked_at": time_now(),
            },
        )
    return Seat(code, seat["seat"], token, seat["name"])


@refusals_only
def rejoin_requests(code: str, host_token: str) -> list[dict]:
    """For the host: every open request to come back in, newest first: {id, seat, name, kind,
    seconds} (kind: "Android phone", ...; seconds: how long ago it was made). Never a token."""
    room = room_row(code)
    prove_host(room, host_token)
    names = {s["seat"]: s["name"] for s in store().seats(room["code"])}
    now = datetime.fromisoformat(time_now())
    return [
        {
            "id": a["ask_id"],
            "seat": a["seat"],
            "name": names.get(a["seat"], ""),
            "kind": a["kind"],
            "seconds": max(0, int((now - datetime.fromisoformat(a["asked_at"])).total_seconds())),
        }
        for a in store().asks(room["code"])
    ]


@refusals_only
def still_asking(code: str, token: str) -> bool:
    """Whether the request that handed out `token` still waits for the host (the asking phone
    learns that it was turned away, or that someone else was let in)."""
    room = room_row(code)
    return isinstance(token, str) and any(token_ok(token, a["token_hash"]) for a in store().asks(room["code"]))


@refusals_only
def let_back_in(code: str, host_token: str, seat: int, allow: bool = True, request: str | None = None) -> int:
    """The host's answer to `ask_to_rejoin` for `seat` (the newest request for it, or `request`, an
    id from `rejoin_requests`): the asker's phone becomes the seat (the old link stops working, and
    the other requests for the seat are dropped), or that request is dropped."""
    with changing(code, host_token) as change:
        conn, code = change.conn, change.code
        ask = next(
            (a for a in store().asks(code, conn) if a["seat"] == seat and (request is None or a["ask_id"] == request)),
            None,
        )
        if ask is None:
            raise TableError("Nobody is asking to come back in as that player any more.")
        store().close_rejoin(conn, code, ask, grant=allow)
        if allow:  # the asking phone holds the seat now (engine/tables/holders.py)
            name = next(s["name"] for s in store().seats(code, conn) if s["seat"] == seat)
            holders.moved(conn, code, "seat", name, gate.Device(ask["asker"], ask["address"]))
    version = change.version
    return version


@refusals_only
def ask_to_join(code: str, name: str, device=None) -> Seat:
    """A phone refused a seat because its address holds its seats already (`holders.PhoneHasSeat`)
    asks the host for one. The token returned opens the seat once the host lets it in (`let_join`);
    the seat is `-1` until then. One open request per device, `ASKS_PER_ADDRESS` per address."""
    name = clean_name(name)
    code = probed(code, device)["code"]
    asker = gate.Device.of(device if device is not None else "127.0.0.1")
    with changing(code) as change:
        conn, room = change.conn, change.room
        if room["status"] != "lobby":
            raise AlreadyStarted("This game has already started.")
        _may_seat(conn, code, room, name)
        key = asker.id or "a:" + asker.address
        others = [a for a in store().join_asks(code, conn) if a["address"] == asker.address and a["asker"] != key]
        if not asker.here and len(others) >= ASKS_PER_ADDRESS:
            raise TableError("Many people here are already asking to join. Wait for the host to answer them.")
        token = secrets.token_urlsafe(16)
        store().ask_join(
            conn,
            code,
            {
                "ask_id": f"{time.time_ns():x}{secrets.token_hex(2)}",
                "name": name,
                "token_hash": hash_token(token),
                "asker": key,
                "address": asker.address,
                "kind": asker.kind,
                "asked_at": time_now(),
            },
        )
    return Seat(code, -1, token, name)


def _may_seat(conn, code: str, room: dict, name: str) -> None:
    seats = store().seats(code, conn)
    if len(seats) >= GAMES[room["game"]].max_players:
        raise RoomFull("The room is full ({count} players).", count=len(seats))
    if any(s["name"].casefold() == name.casefold() for s in seats):
        raise NameTaken("Someone is already called {name} here. Pick another name.", name=name)


@refusals_only
def join_requests(code: str, host_token: str) -> list[dict]:
    """For the host: every open request to take a seat, newest first: {id, name, kind, seconds}."""
    room = room_row(code)
    prove_host(room, host_token)
    now = datetime.fromisoformat(time_now())
    return [
        {
            "id": a["ask_id"],
            "name": a["name"],
            "kind": a["kind"],
            "seconds": max(0, int((now - datetime.fromisoformat(a["asked_at"])).total_seconds())),
        }
        for a in store().join_asks(room["code"])
    ]


@refusals_only
def let_join(code: str, host_token: str, request: str, allow: bool = True) -> int:
    """The host's answer to `ask_to_join`: the asking phone gets its seat (its token opens it), or
    the request is dropped."""
    with changing(code, host_token) as change:
        conn, code, room = change.conn, change.code, change.room
        ask = next((a for a in store().join_asks(code, conn) if a["ask_id"] == request), None)
        if ask is None:
            raise TableError("Nobody is asking to join under that name any more.")
        store().close_join_ask(conn, code, request)
        if allow and room["status"] == "lobby":  # once the game started, the request is only dropped
            _may_seat(conn, code, room, ask["name"])
            now = time_now()
            store().insert_seat(conn, code, len(store().seats(code, conn)), ask["name"], ask["token_hash"], now)
            holders.hold(conn, code, gate.Device(ask["asker"], ask["address"]), "seat", ask["name"], now)
    return change.version


@refusals_only
def still_asking_to_join(code: str, token: str) -> bool:
    """Whether the request that handed out `token` still waits for the host."""
    room = room_row(code)
    return isinstance(token, str) and any(token_ok(token, a["token_hash"]) for a in store().join_asks(room["code"]))
