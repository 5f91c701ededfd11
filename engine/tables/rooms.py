"""Rooms and seats: creating rooms (with the limits on devices), joining, starting, removing,
playing again, asking to come back in, push tickets, the host's laptop list and key, the join address."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from engine import gate
from engine.core import (
    LANGUAGES,
    AlreadyStarted,
    BadOptions,
    BadToken,
    NameTaken,
    NotStarted,
    RoomFull,
    RoomNotFound,
    SobremesaError,
    TableError,
    TooManyRooms,
)
from engine.core.moves import is_whole
from engine.games import GAMES
from engine.tables import audience, deadlines, holders
from engine.tables.base import (
    CODE_LENGTH,
    CODE_LETTERS,
    Change,
    Room,
    Seat,
    changing,
    clean_name,
    hash_token,
    prove_host,
    refusals_only,
    room_lock,
    room_row,
    store,
    time_now,
    token_ok,
)
from engine.tables.play import apply_move, end_idle
from engine.tables.state import forget_state
from engine.tables.unit import Actor

ROOMS_A_MINUTE = (3, 10)  # rooms one device, and one address, may create in a minute


OPEN_LOBBIES = (3, 10)  # lobbies one device, and one address, may have waiting for players


LOBBY_HOURS = 3  # a lobby nobody joined, untouched this long, is removed


OPEN_ROOMS = (3, 10)  # rooms one device, and one address, may have open (in the lobby or playing)


IDLE_HOURS = 12  # a room untouched this long is over: a lobby goes, a game is ended and saved


@refusals_only
def create_room(
    game: str, options: dict | None = None, seed: int | None = None, language: str = "en", device=None
) -> Room:
    """A new room in its lobby. A page passes the `device` asking (a `gate.Device`): one device
    and one address may create only a few rooms a minute and keep only a few lobbies open, so no
    one on the network can bury the host's room under others. The server's own computer is not
    limited, and its rooms are marked as made here (`open_rooms`)."""
    if not isinstance(game, str) or game not in GAMES:
        raise BadOptions("There is no such game here.")
    if not isinstance(language, str) or language not in LANGUAGES:
        raise BadOptions("That language is not available.")
    if options is not None and not isinstance(options, dict):
        raise BadOptions("Those game options are not valid.")
    options, paced = deadlines.settings(options)  # the pace clock's options are the room's, not the game's
    options, watched = audience.settings(options)  # so are the audience's
    merged = GAMES[game].check_options({**options, "language": language})
    host_token = secrets.token_urlsafe(16)
    if seed is not None and not is_whole(seed):
        raise BadOptions("A seed is a whole number.")
    seed = secrets.randbelow(2**31) if seed is None else seed
    origin = gate.Device.of(device if device is not None else "127.0.0.1")
    _expire_lobbies()
    for _ in range(50):
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        with store().transaction() as conn:
            if store().room(code, conn) is not None:
                continue
            now = time_now()
            _may_create(conn, origin, now)
            store().insert_room(
                conn,
                {
                    "code": code,
                    "game": game,
                    "options": merged,
                    "language": language,
                    "seed": seed,
                    "host_hash": hash_token(host_token),
                    "status": "lobby",
                    "version": 1,
                    "game_no": 1,
                    "created_at": now,
                    "started_at": None,
                    "updated_at": now,
                },
            )
            store().note_origin(conn, code, origin.id, origin.address, origin.here, now)
            if paced["pace"] != "off" or paced["skip_quiet"]:
                store().put_clock(conn, code, deadlines.new_clock(paced))
            if watched != {"open": True, "cap": audience.CAP}:
                store().put_audience_room(conn, code, watched["open"], watched["cap"])
        return Room(code, host_token)
    raise TableError("Could not find a free room code; try again.")


def _ago(now: str, seconds: float) -> str:
    return (datetime.fromisoformat(now) - timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def _may_create(conn, origin: gate.Device, now: str) -> None:
    if origin.here:
        return
    made = store().rooms_made(_ago(now, 60), origin.id, origin.address, conn)
    if made["device_recent"] >= ROOMS_A_MINUTE[0] or made["address_recent"] >= ROOMS_A_MINUTE[1]:
        raise TooManyRooms("You have just created several rooms. Wait a minute, then try again.")
    if made["device_lobbies"] >= OPEN_LOBBIES[0] or made["address_lobbies"] >= OPEN_LOBBIES[1]:
        raise TooManyRooms("Rooms created here are still waiting for players. Play one of them first.")
    if made["device_open"] >= OPEN_ROOMS[0] or made["address_open"] >= OPEN_ROOMS[1]:
        raise TooManyRooms("Games created here are still being played. Finish or end one of them first.")


def _expire_lobbies() -> None:
    """Lobbies nobody joined, untouched for `LOBBY_HOURS`, go: abandoned rooms would otherwise
    fill the host's list and count against their device's limit for ever. Rooms untouched for
    `IDLE_HOURS` are over too: a lobby (nothing was played in it) goes, and a game is ended as the
    host's End does, its scores as they stand, and saved: nothing played is lost."""
    now = time_now()
    stale = store().empty_lobbies(_ago(now, LOBBY_HOURS * 3600)) + store().idle_rooms(
        "lobby", _ago(now, IDLE_HOURS * 3600)
    )
    for code in dict.fromkeys(stale):
        with room_lock(code), store().transaction() as conn:
            room = store().room(code, conn)
            if room is not None and room["status"] == "lobby" and _idle_lobby(room, conn, now):
                store().drop_room(conn, code)
        forget_state(code)
    for code in store().idle_rooms("playing", _ago(now, IDLE_HOURS * 3600)):
        try:
            end_idle(code)
        except SobremesaError:  # ended or moved meanwhile
            pass


def _idle_lobby(room: dict, conn, now: str) -> bool:
    if room["updated_at"] < _ago(now, IDLE_HOURS * 3600):
        return True
    return room["updated_at"] < _ago(now, LOBBY_HOURS * 3600) and not store().seats(room["code"], conn)


@refusals_only
def join(code: str, name: str, device=None) -> Seat:
    """A seat in the lobby. A page passes the `device` asking: it holds at most one seat or
    membership in the room, and its address joins only so many a minute (engine/tables/holders.py)."""
    name = clean_name(name)
    with changing(code) as change:
        conn, room, code = change.conn, change.room, change.code
        if room["status"] != "lobby":
            raise AlreadyStarted(
                "This game has already started. Were you playing? Ask to come back in with the name you played under."
            )
        seats = store().seats(code, conn)
        if len(seats) >= GAMES[room["game"]].max_players:
            raise RoomFull("The room is full ({count} players).", count=len(seats))
        if any(s["name"].casefold() == name.casefold() for s in seats):
            raise NameTaken("Someone is already called {name} here. Pick another name.", name=name)
        now = time_now()
        holders.check(conn, code, device, now, holders.name_of(conn, code))
        holders.check_seats(conn, code, device)
        token = secrets.token_urlsafe(16)
        seat = len(seats)
        store().insert_seat(conn, code, seat, name, hash_token(token), now)
        holders.hold(conn, code, device, "seat", name, now)
    return Seat(code, seat, token, name)


@refusals_only
def start(code: str, host_token: str) -> int:
    with changing(code, host_token) as change:
        if change.room["status"] != "lobby":
            raise AlreadyStarted("The game has already started.")
        _deal(change, change.room["seed"])
    return change.version


def _deal(change: Change, seed: int) -> None:
    """The first state of the room's game (`change.room` names which), saved; the bump marks it played."""
    conn, room = change.conn, change.room
    game = GAMES[room["game"]]
    seats = len(store().seats(room["code"], conn))
    if seats < game.min_players:
        raise NotStarted(
            "{game} needs at least {fewest} players; {count} joined so far.",
            game=game.title,
            fewest=game.min_players,
            count=seats,
        )
    cards = game.content.cards(room["options"], seats)
    state = game.setup(seats, room["options"], seed, cards)
    forget_state(room["code"])
    store().save_snapshot(conn, room["code"], room["game_no"], 0, state)
    deadlines.settle(conn, room["code"], room["game_no"], game, state, time_now())
    change.fields.update(status="playing", seed=seed, started_at=time_now())


@refusals_only
def find_seat(code: str, token: str) -> Seat:
    """The seat a token belongs to: reopening a link reconnects the same seat. A wrong code reads
    as a wrong link, as in `view`: a link's answer never tells whether its code names a room."""
    try:
        room = room_row(code)
    except RoomNotFound:
        raise BadToken("player") from None
    for s in store().seats(room["code"]):
        if token_ok(token, s["token_hash"]):
            return Seat(room["code"], s["seat"], token, s["name"])
    raise BadToken("player")


@refusals_only
def kick(code: str, host_token: str, target: int) -> int:
    """In the lobby the seat is removed (later seats move up); in play it leaves the game for good."""
    room = room_row(code)
    code = room["code"]
    prove_host(room, host_token)
    if room["status"] != "lobby":
        return apply_move(code, {"type": "kick", "seat": None, "target": target}, Actor.host(host_token))
    with changing(code) as change:
        conn, room = change.conn, change.room
        seats = store().seats(code, conn)
        if room["status"] != "lobby" or not is_whole(target) or not any(s["seat"] == target for s in seats):
            raise TableError("That player is no longer in the room.")
        kept = [s for s in seats if s["seat"] != target]
        store().replace_seats(conn, code, [{**s, "seat": i} for i, s in enumerate(kept)])
        holders.release(conn, code, "seat", next(s["name"] for s in seats if s["seat"] == target))
        for b in store().bots(code, conn):  # computer players move up with their seats
            store().drop_bot(conn, code, b["seat"])
            if b["seat"] != target:
                seat = b["seat"] - (b["seat"] > target)
                store().put_bot(conn, code, seat, b["token"], b["level"], b["seated"], b["since"])
    return change.version


@refusals_only
def play_again(code: str, host_token: str) -> int:
    """A new game in the same room with the same seats and options, dealt from a fresh seed: a
    finished game's record shows its seed, and nothing about the next game follows from it."""
    with changing(code, host_token) as change:
        if change.room["status"] != "finished":
            raise TableError("Play again is possible once the game has ended.")
        change.room = {**change.room, "game_no": change.room["game_no"] + 1}
        change.fields["game_no"] = change.room["game_no"]
        _deal(change, secrets.randbelow(2**31))
    return change.version


@refusals_only
def open_rooms(limit: int = 1000) -> list[dict]:
    """Rooms still running (lobby or playing), newest first, with their players, and `here`: created
    on this computer. For the host's own machine only: the way back to a room whose tab closed."""
    _expire_lobbies()
    rooms = []
    for room in store().open_rooms(limit if is_whole(limit) and limit > 0 else 1000):
        rooms.append({**room, "names": [s["name"] for s in store().seats(room["code"])]})
    return rooms
