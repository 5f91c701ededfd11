"""Views: what each viewer sees of a room at a version, built once and shared by every socket that
asks (a hundred sockets of one room read its rows once a version); only each room's latest version
is kept (at most `ROOMS_VIEWED` rooms). Callers treat them as read-only.

Every view starts with one header built by the service, whatever the game and whether it has
started: `code`, `game`, `title`, `status`, `version`, `names`, `you`, `language`, `options`,
`turn_word`, `phase` ("lobby" before the start), `waiting_for`, `scores`, `skippable`, `out`,
`ended_by_host`, `asking` (seats someone asked to get back into), `joining` (names waiting for the
host to seat them), the clock's `deadline`, `paused`, `left`, `pace` and `skip_quiet`, the
audience's reveal and top, and in the lobby `seats_allowed` and `seat_counts` (the counts the
variant plays with). What every viewer's header reads from the store is read once per version
(`_shared_header`)."""

from __future__ import annotations

import json

from engine.core import (
    SHARED,
    BadToken,
    RoomNotFound,
    table_view,
)
from engine.games import GAMES
from engine.push import live
from engine.tables import audience, deadlines
from engine.tables.base import BOT_MARK, probed, proves, refusals_only, room_lock, room_row, seat_row, store
from engine.tables.state import states_guard, under_way

# Views are computed once per (room, version, viewer) and shared by every tab that asks: a move
# makes each open tab ask once. Only the room's latest version is kept. Callers treat them as
# read-only.
_views: dict[str, tuple[int, dict]] = {}  # code -> (version, {viewer: view})


ROOMS_VIEWED = 512  # rooms whose views are kept; the oldest is dropped first


@refusals_only
def view(
    code: str, seat: int | None = None, token: str | None = None, device=None, host_token: str | None = None
) -> dict:
    """A seat's view (with its token), or the shared screen's (no seat). Never another's secret.

    Every view starts with the same header, whatever the game and whether it has started: code,
    game, title, status, version, game_no, names, you, language, options, turn_word, bots, handed,
    asking, phase, waiting_for, scores, skippable (who the host may skip now), out and ended_by_host;
    in the lobby also seats_allowed and seat_counts; a seat's view also has waiting_on_you. The
    game's own view follows. A page passes the `device` asking (a `gate.Device`, or an address), so that it
    may try only a few wrong codes a minute; a seat's token, or the `host_token`, always opens it."""
    try:
        room = probed(code, device, proof=lambda r: proves(r, seat, token, host_token))
    except RoomNotFound:
        if token is None and host_token is None:
            raise
        raise BadToken("player" if token is not None else "host") from None  # a wrong code reads as a wrong link
    seats = store().seats(room["code"])
    if seat is not None:
        seat_row(room, seat, token, seats=seats)
    return dict(kept_view(room, seats, seat))


def kept_view(room: dict, seats: list, seat) -> dict:
    """The view of this room's version for `seat`, built once per (version, viewer); not a copy."""
    code, version = room["code"], room["version"]
    with states_guard:
        kept = _views.get(code)
        shown = kept[1].get(seat) if kept and kept[0] == version else None
    if shown is None:
        shown = _build_view(room, seats, seat)
        with states_guard:
            kept = _views.get(code)
            if kept is None or kept[0] < version:
                _views.pop(code, None)  # re-inserted last: the dict's order is the rooms' age
                kept = _views[code] = (version, {})
                while len(_views) > ROOMS_VIEWED:
                    _views.pop(next(iter(_views)))
            if kept[0] == version:
                kept[1][seat] = shown
    return shown


_rows: dict[str, tuple[dict, list]] = {}  # code -> (room row, seats) as the last look read them


def forget_all() -> None:
    """Every room's rows and views (tests switch databases)."""
    with states_guard:
        _rows.clear()
        _views.clear()
        _shared.clear()


def forget(code: str) -> None:
    """Drop what this process keeps of a room's rows and views (its room is gone: erased)."""
    with states_guard:
        _rows.pop(code, None)
        _views.pop(code, None)
        _shared.pop(code, None)


def looked_rows(code: str) -> tuple[dict, list]:
    """The room's row and seats for a push socket's look. Right after a move every socket of the
    room looks at the same version: they are read once for it, and again when this process hears of
    a newer version (`live.latest`; every change to a room's seats or host key bumps it)."""
    kept = _rows.get(code)
    if kept is not None and kept[0]["version"] == live.latest(kept[0]["code"]):
        return kept
    room = room_row(code)
    kept = (room, store().seats(room["code"]))
    with states_guard:
        _rows.pop(code, None)
        _rows[code] = kept
        while len(_rows) > ROOMS_VIEWED:
            _rows.pop(next(iter(_rows)))
    return kept


_shared: dict[str, tuple[int, dict]] = {}  # code -> (version, the header's part every viewer shares)


def _shared_header(room: dict) -> dict:
    """What every viewer's header reads from the store (computer players, requests to come back in,
    the clock, the audience), read once per version, not once per viewer: after a move every open
    screen of the room asks for its view."""
    code, version = room["code"], room["version"]
    with states_guard:
        kept = _shared.get(code)
    if kept is not None and kept[0] == version:
        return kept[1]
    robots = store().bots(code)
    shared = {
        "robots": robots,
        "asking": [] if room["status"] == "lobby" else sorted({a["seat"] for a in store().asks(code)}),
        # names asking to take a seat the phone's address may not take alone (`tables.ask_to_join`)
        "joining": [a["name"] for a in store().join_asks(code)] if room["status"] == "lobby" else [],
        "clock": deadlines.header(code),  # deadline, paused, left, pace, skip_quiet, reveal_until
        "audience": audience.header(room),  # audience_reveal, audience_top, audience_more
    }
    with states_guard:
        _shared.pop(code, None)
        _shared[code] = (version, shared)
        while len(_shared) > ROOMS_VIEWED:
            _shared.pop(next(iter(_shared)))
    return shared


def _build_view(room: dict, seats: list, seat) -> dict:
    game = GAMES[room["game"]]
    shared = _shared_header(room)
    robots = shared["robots"]
    bots = [b["seat"] for b in robots]
    names = [s["name"] + (BOT_MARK if s["seat"] in bots else "") for s in seats]
    header = {
        "code": room["code"],
        "game": room["game"],
        "title": game.title,
        "status": room["status"],
        "version": room["version"],
        "names": names,
        "you": seat,
        "language": room["language"],
        "options": room["options"],
        "turn_word": game.turn_word,
        "bots": bots,
        "game_no": room["game_no"],
        "handed": [b["seat"] for b in robots if not b["seated"]],
        "asking": shared["asking"],
        "joining": shared["joining"],
        **shared["clock"],
        **shared["audience"],
    }
    if room["status"] == "lobby":
        fewest, most = game.seat_range(room["options"])
        return {
            **header,
            "phase": "lobby",
            "waiting_for": [],
            "scores": [0] * len(names),
            "skippable": [],
            "out": [],
            "ended_by_host": False,
            "seats_allowed": [fewest, most],
            "seat_counts": list(game.seat_counts(room["options"])),
            **({} if seat is None else {"waiting_on_you": False, "waiting_on_you_alone": False}),
        }
    with room_lock(room["code"]):
        # A copy: tabs keep it while later moves change this process's state in place.
        shown = _copied(room, table_view(game, under_way(room).state, SHARED if seat is None else seat))
    if seat is not None:  # what most of a phone's screen hangs on, without the list of everyone else
        header["waiting_on_you"] = seat in shown.get("waiting_for", [])
        # the table waits on this seat alone ("Everyone is waiting for you")
        header["waiting_on_you_alone"] = shown.get("waiting_for", []) == [seat] and len(names) > 1
    return {**shown, **header}


_copies: dict[str, tuple[int, dict]] = {}  # code -> (version, {(field, id): (the state's value, its copy)})


_PLAIN = (str, int, float, bool, type(None))  # exactly these types: a subclass goes through JSON


def as_json(value):
    """`json.loads(json.dumps(value))` for the JSON values a view holds, four times faster: lists
    and dicts copied, tuples made lists, keys made strings as JSON writes them. A plain value in a
    list or dict is taken as it is, without a call (most of a view is numbers and words)."""
    kind = type(value)
    if kind is dict:
        return {
            (k if type(k) is str else _json_key(k)): (v if type(v) in _PLAIN else as_json(v)) for k, v in value.items()
        }
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else as_json(v) for v in value]
    if kind in _PLAIN:
        return value
    return json.loads(json.dumps(value))  # anything else as JSON itself would have it


def _json_key(key) -> str:
    if isinstance(key, str):
        return str.__str__(key)
    if key is None or isinstance(key, bool | float):
        return json.dumps(key)
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _copied(room: dict, raw: dict) -> dict:
    """A view's copy (json round trip), whose fields taken as they are from the state (the same
    object for every viewer: Pictomania's drawings) are copied once per version and shared: seven
    screens of a room drawn after a stroke copied every drawing seven times. Called under the
    room's lock, so the state does not move while a version's copies are made."""
    code, version = room["code"], room["version"]
    kept = _copies.get(code)
    if kept is None or kept[0] != version:
        kept = _copies[code] = (version, {})
        while len(_copies) > ROOMS_VIEWED:
            _copies.pop(next(iter(_copies)))
    memo = kept[1]
    shown = {}
    for field, value in raw.items():
        if not isinstance(value, dict | list):
            shown[field] = value
            continue
        hit = memo.get((field, id(value)))
        if hit is None or hit[0] is not value:
            hit = memo[(field, id(value))] = (value, as_json(value))
        shown[field] = hit[1]
    return shown


@refusals_only
def version(code: str, device=None) -> int:
    return probed(code, device)["version"]
