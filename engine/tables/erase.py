"""Erasing from the archive, so that a school can honour a request to erase: one saved game, or one
person from every saved game. The laptop's: the Statistics page offers it there only.

A person is erased by name (any spelling that is the same person: case, spaces and the host's
merges). Their games stay, so their classmates' results and statistics do not change, but in each
record their name becomes the seat's ("Player 3"; a member's, "Member 2"). The record keeps the
shape of DESIGN.md; no other field of a record names a person. The statistics rows of those games
are packed again from the renamed records; the merges naming them are dropped.
"""

from __future__ import annotations

from engine.core import BadName, TableError
from engine.core.moves import is_whole
from engine.tables import views
from engine.tables.archive import player_key, settle
from engine.tables.base import normalise_code, refusals_only, room_lock, store, time_now
from engine.tables.state import forget_state

SEAT_PLACEHOLDER = "Player {n}"
MEMBER_PLACEHOLDER = "Member {n}"


class NoSavedGame(TableError):
    template = "That game is not in the archive (anymore)."


class NobodyOfThatName(BadName):
    template = "Nobody of that name is in the archive."


def _erased(conn, now: str) -> None:
    """Statistics pages key their copy of the archive on this (`archive_version`)."""
    store().set_setting(conn, "archive_erasures", now)


@refusals_only
def erase_game(code: str, game_no: int) -> None:
    """One saved game gone: its record, statistics rows, move log, turn times, audience picks and
    the devices that played it. If it is the game its room ended on, the room goes too (its seats
    and final state would show the game on the shared screen)."""
    code = normalise_code(code)
    if not code or not is_whole(game_no) or store().record_of(code, game_no) is None:
        raise NoSavedGame()
    settle()  # a statistics row still being written for it would come back after the erasure
    with room_lock(code), store().transaction() as conn:
        store().erase_game(conn, code, game_no)
        room = store().room(code, conn)
        if room is not None and room["status"] == "finished" and room["game_no"] == game_no:
            store().drop_room(conn, code)
        _erased(conn, time_now())
    forget_state(code)
    tell_erased(code)  # its phones still showing the game (another process's: `watch_other_processes`)


def tell_erased(code: str | None = None) -> None:
    """The screens of a room whose game was erased from the archive (its room went with it) are told
    so, with their blank screen: `code`, or every room with sockets on this process that is gone
    (the watcher of other processes' changes calls it when the archive's erasures change)."""
    from engine.push import live

    for room in [code] if code else list(live.stats()["sockets"]):
        if store().room(room) is None:
            forget_state(room)
            views.forget(room)
            live.refresh(room)


def _person(key: str, aliases: dict) -> str:
    """The key a name counts as after the host's merges (chains followed, cycles cut)."""
    seen = {key}
    while key in aliases and aliases[key] not in seen:
        key = aliases[key]
        seen.add(key)
    return key


def _renamed(names: list[str], numbers: list[int], is_them, placeholder: str, taken: set[str]) -> list[str]:
    """`names` with each of the person's replaced by the placeholder of its number, kept apart from
    every other name in the game."""
    out = []
    for name, n in zip(names, numbers, strict=True):
        if is_them(name):
            name = placeholder.format(n=n)
            while player_key(name) in taken:  # someone in the game is called "Player 3" already
                n += len(names)
                name = placeholder.format(n=n)
            taken.add(player_key(name))
        out.append(name)
    return out


@refusals_only
def erase_player(name: str) -> int:
    """The person `name` erased from every saved game (see the module); returns how many games."""
    key = player_key(name) if isinstance(name, str) else ""
    if not key:
        raise NobodyOfThatName()
    aliases = store().aliases()
    them = _person(key, aliases)
    is_them = lambda other: _person(player_key(other), aliases) == them  # noqa: E731
    touched = []
    for record in store().records():
        players, audience = record.get("players") or [], record.get("audience") or []
        if not any(is_them(p["name"]) for p in players) and not any(is_them(m["name"]) for m in audience):
            continue
        taken = {player_key(p["name"]) for p in players} | {player_key(m["name"]) for m in audience}
        seat_names = _renamed(
            [p["name"] for p in players], [p["seat"] + 1 for p in players], is_them, SEAT_PLACEHOLDER, taken
        )
        member_names = _renamed(
            [m["name"] for m in audience], list(range(1, len(audience) + 1)), is_them, MEMBER_PLACEHOLDER, taken
        )
        record["players"] = [{**p, "name": n} for p, n in zip(players, seat_names, strict=True)]
        if "audience" in record:
            record["audience"] = [{**m, "name": n} for m, n in zip(audience, member_names, strict=True)]
        olds = [p["name"] for p in players] + [m["name"] for m in audience]
        touched.append((record, {o: n for o, n in zip(olds, seat_names + member_names, strict=True) if o != n}))
    if not touched:
        raise NobodyOfThatName()
    settle()
    with store().transaction() as conn:
        for record, renames in touched:
            store().insert_record(conn, record["room"], record["game_no"], record)
            store().drop_stat_rows(conn, record["room"], record["game_no"])  # packed again when read
            _rename_in_room(conn, record, renames)
        store().drop_aliases(conn, {k for k in [*aliases, *aliases.values()] if _person(k, aliases) == them} | {key})
        _erased(conn, time_now())
    return len(touched)


def _rename_in_room(conn, record: dict, renames: dict[str, str]) -> None:
    """A room that ended on this game still shows it (the shared screen's final scores): its seats
    and members take the record's new names (names are unique in a room, seats and members alike).
    A room playing again holds the person now: left alone."""
    code = record["room"]
    room = store().room(code, conn)
    if room is None or room["status"] != "finished" or room["game_no"] != record["game_no"]:
        return
    for seat in store().seats(code, conn):
        if seat["name"] in renames:
            store().rename_seat(conn, code, seat["seat"], renames[seat["name"]])
            store().rename_holder(conn, code, "seat", seat["name"], renames[seat["name"]])  # one place per phone
    for member in store().members(code, conn):
        if member["name"] in renames:
            store().rename_member(conn, code, member["id"], renames[member["name"]])
    forget_state(code)
