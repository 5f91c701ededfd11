"""The host's say over the audience once the room exists: who is in it, removing a member, and
closing or reopening it (a room made with the audience off can be opened too)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.core import TableError
from engine.push import live
from engine.tables import audience, holders
from engine.tables.audience import CAP, audience_setting, points
from engine.tables.base import prove_host, refusals_only, room_lock, room_row, store


@contextmanager
def _hosting(code: str, host_token: str) -> Iterator[tuple[str, Any]]:
    """The host's change of the audience: under the room's lock, in one transaction; like a pick it
    bumps no version, and the wall's audience spot is refreshed once it is committed."""
    room = room_row(code)
    prove_host(room, host_token)
    with room_lock(room["code"]), store().transaction() as conn:
        yield room["code"], conn
    live.refresh(room["code"])


@refusals_only
def audience_members(code: str, host_token: str) -> list[dict]:
    """The members in the order they joined, with their points in this game: for the host's panel."""
    room = room_row(code)
    prove_host(room, host_token)
    scored = points(room["code"], room["game_no"])
    return [{"id": m["id"], "name": m["name"], "points": scored.get(m["id"], 0)} for m in store().members(room["code"])]


@refusals_only
def remove_member(code: str, host_token: str, member: str) -> None:
    """The member leaves the audience: their link stops working, and their device may join again."""
    with _hosting(code, host_token) as (code, conn):
        if not any(m["id"] == member for m in store().members(code, conn)):
            raise TableError("That person is no longer in the audience.")
        store().drop_member(conn, code, member)
        holders.release(conn, code, "member", member)
    audience.changed(code)  # the member's open phone looks again: its link no longer holds
    live.refresh(code)


@refusals_only
def open_audience(code: str, host_token: str, open_: bool) -> None:
    """Close the audience to newcomers (members already in it stay), or open it again."""
    with _hosting(code, host_token) as (code, conn):
        setting = audience_setting(code, conn)
        store().put_audience_room(conn, code, bool(open_), setting.get("cap", CAP))
