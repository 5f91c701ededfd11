"""The table service: the one place that checks tokens, applies moves under a per-room lock,
persists and notifies. Pages, tests, the demo simulator and computer players all use this API.

    room = tables.create_room("dixit", options={"contando": True}, seed=7, language="en")
    ana = tables.join(room.code, "Ana")                 # ana.seat, ana.token
    tables.start(room.code, room.host_token)
    moves = tables.legal(room.code, ana.seat, ana.token)
    tables.submit(room.code, ana.seat, ana.token, moves[0])   # -> the room's new version
    tables.view(room.code, ana.seat, ana.token)          # that seat's view; view(room.code) = shared screen
    tables.record(room.code)                              # the saved-game record once the game has ended

Host actions take the host token: `kick`, `skip`, `end`, `play_again`.

Each game's move vocabulary is the `Move` specs of its module in engine/games (and its docstring);
`legal()` lists every move a seat may submit now, complete, with free-text fields set to None.

Every refusal raises a `SobremesaError` whose message is written for the person who caused it; a
refused call changes nothing. No other exception leaves this module, whatever the input: anything
unexpected is logged in full and reaches the caller as an `InternalError`, which names nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import hmac
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from datetime import datetime, timedelta, timezone

from engine import address, gate, glance, paths
from engine.core import (
    LANGUAGES,
    SHARED,
    AlreadyStarted,
    BadName,
    BadOptions,
    BadToken,
    Game,
    InternalError,
    NameTaken,
    NotStarted,
    RoomFull,
    RoomNotFound,
    SobremesaError,
    TableError,
    TooManyRooms,
    TooManyTries,
    IllegalMove,
    UnknownMove,
    check,
    perform,
    table_view,
)
from engine.core.game import score_winners
from engine.core.moves import is_whole, printable
from engine.games import GAMES
from engine.store import open_store

CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ"  # no vowels: codes never spell words; no I/O to confuse with 1/0
# 20 ** 5 = 3.2 million codes: with 50 rooms open and the wrong-code limits of `gate.Probes`, one
# address needs over a day to find any room by guessing (tests/test_security.py works it out).
CODE_LENGTH = 5
CODE_SHAPE = re.compile(r"[A-Z0-9]{2,12}")
NAME_MAX = 20
TOKEN_MAX = 100
_LOG = logging.getLogger(__name__)


def refusals_only(action):
    """Whatever the input, only a SobremesaError leaves the service: anything else is a fault of
    ours, logged in full, and the caller hears only that nothing was changed."""

    @functools.wraps(action)
    def guarded(*args, **kwargs):
        try:
            return action(*args, **kwargs)
        except SobremesaError:
            raise
        except Exception as exc:
            _LOG.exception("%s failed", action.__name__)
            raise InternalError() from exc

    return guarded


@dataclass(frozen=True)
class Room:
    code: str
    host_token: str


@dataclass(frozen=True)
class Seat:
    code: str
    seat: int
    token: str
    name: str


# ---- plumbing ----------------------------------------------------------------------------------
_stores: dict[str, Any] = {}  # database URL -> its store (SQLite or PostgreSQL)
_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def store():
    url = paths.database_url()
    with _guard:
        if url not in _stores:
            _stores[url] = open_store(url)
        return _stores[url]


def reset() -> None:
    """Forget open stores (tests switch databases; a restart does the same)."""
    settle()
    _phase_began.clear()
    with _guard:
        for s in _stores.values():
            s.close()
        _stores.clear()
    with _states_guard:
        _states.clear()
        _views.clear()
        _signed.clear()
    gate.PROBES.clear()


def _lock(code: str) -> threading.Lock:
    with _guard:
        return _locks.setdefault(code, threading.Lock())


_clock = threading.local()


def _now() -> str:
    simulated = getattr(_clock, "now", None)
    return simulated() if simulated else datetime.now(timezone.utc).isoformat(timespec="milliseconds")


@contextmanager
def clock(now):
    """Stamp this thread's rooms, moves and records with `now()` (ISO-8601) instead of the real time:
    the demo simulator spreads its games over past weeks. Other threads keep the real clock."""
    before = getattr(_clock, "now", None)
    _clock.now = now
    try:
        yield
    finally:
        _clock.now = before


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _token_ok(token, token_hash: str) -> bool:
    return isinstance(token, str) and len(token) <= TOKEN_MAX and hmac.compare_digest(_hash(token), token_hash)


_watching = threading.Event()


def watch_other_processes(interval: float = 0.5) -> None:
    """Pass on moves committed by other processes (a bot, a script, a second server) to this
    server's open tabs: PostgreSQL's LISTEN/NOTIFY, or for SQLite a look every `interval` s at
    whether anything was committed (PRAGMA data_version, next to nothing while idle). Idempotent."""
    if _watching.is_set():
        return
    _watching.set()

    def watch() -> None:
        since = _now()
        while True:
            try:
                for code, version, updated_at in store().changes(since, wait=interval):
                    since = max(since, updated_at or since)
                    _notify(code, version)
            except Exception:  # a store being swapped (tests) or a lost connection: try again
                time.sleep(interval)

    threading.Thread(target=watch, name="sobremesa-watch", daemon=True).start()


def _notify(code: str, version: int, actor: int | None = None) -> None:
    try:
        from engine import live
    except ImportError:  # push is optional for headless use
        return
    live.notify(code, version, actor=actor)


def _echo(code: str, message: dict) -> None:
    try:
        from engine import live
    except ImportError:
        return
    live.echo(code, message)


def normalise_code(code) -> str:
    """A room code as typed (any case, stray spaces), in its stored form; '' if it cannot be one."""
    text = "".join(code.split()).upper() if isinstance(code, str) else ""
    return text if CODE_SHAPE.fullmatch(text) else ""


def _probed(code, device, proof=None) -> dict:
    """`_room` for a lookup a person made from `device` (a page, the join form): each device and
    each address may get only a few codes wrong a minute (`gate.PROBES`), so codes cannot be found
    by trying them all. A device told to wait is still let in with `proof(room)`: a seat's or the
    host's token for that room, which no guess carries, so one student guessing codes behind a
    school's one address never locks the class out of their own links."""
    if device is None:
        return _room(code)
    blocked = gate.PROBES.blocked(device)
    try:
        room = _room(code)
    except RoomNotFound:
        if not blocked:
            gate.PROBES.miss(device)
        raise TooManyTries() if blocked else RoomNotFound(code if isinstance(code, str) else "")
    if blocked and not (proof is not None and proof(room)):
        raise TooManyTries()
    return room


def _room(code, conn=None) -> dict:
    """The room's row without its state (see `_state`)."""
    normal = normalise_code(code)
    room = store().room(normal, conn) if normal else None
    if room is None:
        raise RoomNotFound(code if isinstance(code, str) else "")
    return room


# ---- the state of a room -----------------------------------------------------------------------
# A move changes this process's copy of the room's state in place and appends itself to the log.
# The full snapshot is written now and then: when a turn closes, on a host action, at the end, and
# otherwise once the moves since the last one are many compared with its size (a big Pictomania
# state is saved less often than a small Dixit one), so neither a move's cost nor its amortised
# share of snapshots grows with the game. The snapshot plus the moves logged since always rebuild
# the state (a restart, another server process). This process's copy is used only while it is at
# the room's stored version, and only under the room's lock.


@dataclass
class _Kept:
    version: int
    game_no: int
    state: dict
    saved_seq: int  # the last move the stored snapshot includes
    saved_size: int  # the stored snapshot's size, in characters


_states: OrderedDict[str, _Kept] = OrderedDict()
_states_guard = threading.Lock()  # the table of rooms; each room's entry is its own lock's business
STATES_KEPT = 256
SNAPSHOT_EVERY = 32  # moves, at the least, between two snapshots
SNAPSHOT_CHARS_PER_MOVE = 2000  # ... and more for a big state: one move per 2,000 characters of it


def _kept(room: dict, conn=None) -> _Kept | None:
    """This process's copy of the room's state, loaded if it has none at the room's version.
    Call under the room's lock; never hand the state out uncopied."""
    code = room["code"]
    kept = _states.get(code)
    if kept is not None and (kept.version, kept.game_no) == (room["version"], room["game_no"]):
        return kept
    saved = store().snapshot(code, conn)
    if saved is None or saved["game_no"] != room["game_no"]:
        return None  # the lobby: no game yet
    state, game = saved["state"], GAMES[room["game"]]
    for entry in store().moves(code, room["game_no"], after=saved["seq"], conn=conn):
        perform(game, state, check(game, state, entry["move"]))
    kept = _Kept(room["version"], room["game_no"], state, saved["seq"], saved["size"])
    _keep(code, kept)
    return kept


def _state(room: dict, conn=None) -> dict | None:
    kept = _kept(room, conn)
    return None if kept is None else kept.state


def _under_way(room: dict, conn=None) -> _Kept:
    """This process's copy of a game under way (the room is past its lobby)."""
    kept = _kept(room, conn)
    if kept is None:
        raise NotStarted("The game has not started yet: wait for the host to start it.")
    return kept


def _keep(code: str, kept: _Kept) -> None:
    with _states_guard:
        _states[code] = kept
        _states.move_to_end(code)
        while len(_states) > STATES_KEPT:
            _states.popitem(last=False)


def _forget(code: str) -> None:
    with _states_guard:
        _states.pop(code, None)


@refusals_only
def state_of(code: str) -> dict | None:
    """A copy of a room's full current state, secrets included: for tests and tools, never pages."""
    room = _room(code)
    with _lock(room["code"]):
        state = _state(room)
        return None if state is None else json.loads(json.dumps(state))


def _seat(room: dict, seat, token, conn=None, seats: list | None = None) -> dict:
    if is_whole(seat):
        seats = seats if seats is not None else store().seats(room["code"], conn)
        for s in seats:
            if s["seat"] == seat and _token_ok(token, s["token_hash"]):
                return s
        # A computer player holds a token of its own for its seat: a seat handed over keeps the
        # person's token valid, so giving it back needs nothing from them.
        for b in store().bots(room["code"], conn) if isinstance(token, str) else ():
            if b["seat"] == seat and hmac.compare_digest(b["token"].encode(), token.encode()):
                found = next((s for s in seats if s["seat"] == seat), None)
                if found is not None:
                    return found
    raise BadToken("player")


def _proves(room: dict, seat, token, host_token) -> bool:
    """Whether the caller holds a seat's token or the host's for this room."""
    if host_token is not None and _token_ok(host_token, room["host_hash"]):
        return True
    try:
        return seat is not None and bool(_seat(room, seat, token))
    except BadToken:
        return False


def _host(room: dict, host_token) -> None:
    if not _token_ok(host_token, room["host_hash"]):
        raise BadToken("host")


# ---- rooms and seats ---------------------------------------------------------------------------


def games() -> dict[str, Game]:
    """Every game the app hosts, by its API name: what the pages know of a game comes from here."""
    return dict(GAMES)


ROOMS_A_MINUTE = (3, 10)  # rooms one device, and one address, may create in a minute
OPEN_LOBBIES = (3, 10)  # lobbies one device, and one address, may have waiting for players
LOBBY_HOURS = 3  # a lobby nobody joined, untouched this long, is removed


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
    merged = GAMES[game].check_options({**(options or {}), "language": language})
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
            now = _now()
            _may_create(conn, origin, now)
            store().insert_room(
                conn,
                {
                    "code": code,
                    "game": game,
                    "options": merged,
                    "language": language,
                    "seed": seed,
                    "host_hash": _hash(host_token),
                    "status": "lobby",
                    "version": 1,
                    "game_no": 1,
                    "created_at": now,
                    "started_at": None,
                    "updated_at": now,
                },
            )
            store().note_origin(conn, code, origin.id, origin.address, origin.here, now)
        return Room(code, host_token)
    raise TableError("Could not find a free room code; try again.")


def _ago(now: str, seconds: float) -> str:
    return (datetime.fromisoformat(now) - timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def _may_create(conn, origin: "gate.Device", now: str) -> None:
    if origin.here:
        return
    made = store().rooms_made(_ago(now, 60), origin.id, origin.address, conn)
    if made["device_recent"] >= ROOMS_A_MINUTE[0] or made["address_recent"] >= ROOMS_A_MINUTE[1]:
        raise TooManyRooms("You have just created several rooms. Wait a minute, then try again.")
    if made["device_lobbies"] >= OPEN_LOBBIES[0] or made["address_lobbies"] >= OPEN_LOBBIES[1]:
        raise TooManyRooms("Rooms created here are still waiting for players. Play one of them first.")


def _expire_lobbies() -> None:
    """Lobbies nobody joined, untouched for `LOBBY_HOURS`, go: abandoned rooms would otherwise
    fill the host's list and count against their device's limit for ever."""
    for code in store().empty_lobbies(_ago(_now(), LOBBY_HOURS * 3600)):
        with _lock(code), store().transaction() as conn:
            room = store().room(code, conn)
            if room is not None and room["status"] == "lobby" and not store().seats(code, conn):
                store().drop_room(conn, code)
        _forget(code)


def clean_name(name) -> str:
    """A player's name as shown everywhere: one line, at most NAME_MAX characters, nothing invisible."""
    if not isinstance(name, str) or len(name) > 4 * NAME_MAX:
        raise BadName("Names can be at most {most} characters.", most=NAME_MAX)
    if not printable(name):
        raise BadName("A name can only have letters, digits, spaces and punctuation. Type it again.")
    name = " ".join(name.split())
    if not name:
        raise BadName("Type a name to join.")
    if len(name) > NAME_MAX:
        raise BadName("Names can be at most {most} characters.", most=NAME_MAX)
    return name


@refusals_only
def join(code: str, name: str) -> Seat:
    name = clean_name(name)
    code = _room(code)["code"]
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        if room["status"] != "lobby":
            raise AlreadyStarted(
                "This game has already started. Were you playing? Ask to come back in with the name you played under."
            )
        seats = store().seats(code, conn)
        if len(seats) >= GAMES[room["game"]].max_players:
            raise RoomFull("The room is full ({count} players).", count=len(seats))
        if any(s["name"].casefold() == name.casefold() for s in seats):
            raise NameTaken("Someone is already called {name} here. Pick another name.", name=name)
        token = secrets.token_urlsafe(16)
        seat = len(seats)
        store().insert_seat(conn, code, seat, name, _hash(token), _now())
        version = _bump(conn, room)
    _notify(code, version)
    return Seat(code, seat, token, name)


def _bump(conn, room: dict, **fields) -> int:
    version = room["version"] + 1
    store().update_room(conn, room["code"], version=version, updated_at=_now(), **fields)
    return version


@refusals_only
def start(code: str, host_token: str) -> int:
    code = _room(code)["code"]
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        _host(room, host_token)
        if room["status"] != "lobby":
            raise AlreadyStarted("The game has already started.")
        version = _deal(conn, room, room["seed"])
    _notify(code, version)
    return version


def _deal(conn, room: dict, seed: int) -> int:
    game = GAMES[room["game"]]
    seats = len(store().seats(room["code"], conn))
    if seats < game.min_players:
        raise NotStarted(
            "{game} needs at least {fewest} players; {count} joined so far.",
            game=game.title,
            fewest=game.min_players,
            count=seats,
        )
    cards = game.content(room["options"], seats)
    state = game.setup(seats, room["options"], seed, cards)
    _forget(room["code"])
    store().save_snapshot(conn, room["code"], room["game_no"], 0, state)
    return _bump(conn, room, status="playing", seed=seed, started_at=_now())


@refusals_only
def find_seat(code: str, token: str) -> Seat:
    """The seat a token belongs to: reopening a link reconnects the same seat."""
    room = _room(code)
    for s in store().seats(room["code"]):
        if _token_ok(token, s["token_hash"]):
            return Seat(room["code"], s["seat"], token, s["name"])
    raise BadToken("player")


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
    code = _probed(code, device)["code"]
    asker = gate.Device.of(device if device is not None else "127.0.0.1")
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
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
                "token_hash": _hash(token),
                "asker": key,
                "address": asker.address,
                "kind": asker.kind,
                "asked_at": _now(),
            },
        )
        version = _bump(conn, room)
    _notify(code, version)
    return Seat(code, seat["seat"], token, seat["name"])


@refusals_only
def rejoin_requests(code: str, host_token: str) -> list[dict]:
    """For the host: every open request to come back in, newest first: {id, seat, name, kind,
    seconds} (kind: "Android phone", ...; seconds: how long ago it was made). Never a token."""
    room = _room(code)
    _host(room, host_token)
    names = {s["seat"]: s["name"] for s in store().seats(room["code"])}
    now = datetime.fromisoformat(_now())
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
    room = _room(code)
    return isinstance(token, str) and any(_token_ok(token, a["token_hash"]) for a in store().asks(room["code"]))


@refusals_only
def let_back_in(code: str, host_token: str, seat: int, allow: bool = True, request: str | None = None) -> int:
    """The host's answer to `ask_to_rejoin` for `seat` (the newest request for it, or `request`, an
    id from `rejoin_requests`): the asker's phone becomes the seat (the old link stops working, and
    the other requests for the seat are dropped), or that request is dropped."""
    code = _room(code)["code"]
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        _host(room, host_token)
        ask = next(
            (a for a in store().asks(code, conn) if a["seat"] == seat and (request is None or a["ask_id"] == request)),
            None,
        )
        if ask is None:
            raise TableError("Nobody is asking to come back in as that player any more.")
        store().close_rejoin(conn, code, ask, grant=allow)
        version = _bump(conn, room)
    _notify(code, version)
    return version


@refusals_only
def push_ticket(code: str, seat: int | None = None, token: str | None = None, channel: str | None = None) -> str:
    """A ticket for a page's push socket (`engine.gate`): the wall's for anyone with the room's code,
    a seat's only with that seat's token. `channel` is the room's own code or its presence channel."""
    room = _room(code)
    if seat is not None:
        _seat(room, seat, token)
    channel = room["code"] if channel is None else channel
    if not channel.startswith(room["code"]):
        raise RoomNotFound(code)
    return gate.issue(channel, seat)


@refusals_only
def check_host(code: str, host_token: str) -> None:
    _host(_room(code), host_token)


# ---- play --------------------------------------------------------------------------------------


@refusals_only
def legal(code: str, seat: int, token: str) -> list[dict]:
    room = _room(code)
    _seat(room, seat, token)
    if room["status"] != "playing":
        return []
    with _lock(room["code"]):
        return json.loads(json.dumps(GAMES[room["game"]].legal(_under_way(room).state, seat)))


@refusals_only
def submit(code: str, seat: int, token: str, move: dict) -> int:
    """Apply a seat's move. Returns the room's new version; raises a MoveError and changes nothing."""
    if not isinstance(move, dict):
        raise UnknownMove()
    return _apply(code, {**move, "seat": seat}, actor=str(seat), seat=seat, token=token)


def _apply(code: str, move: dict, actor: str, seat=None, token=None, host_token=None) -> int:
    code = _room(code)["code"]
    with _lock(code):
        _pending.actions = []
        try:
            with store().transaction() as conn:
                version, shown = _apply_locked(conn, code, move, actor, seat, token, host_token)
        except BaseException:
            _forget(code)  # whatever happened to this process's copy, the store has the truth
            raise
        finally:
            actions, _pending.actions = _pending.actions, []
    for action in actions:
        action()
    if shown is not None:
        _echo(code, {**shown, "version": version})
    _notify(code, version, actor=seat)  # the seat's own tab renders this version in its own run
    return version


def _apply_locked(conn, code: str, move: dict, actor: str, seat, token, host_token) -> tuple[int, dict | None]:
    room = _room(code, conn)
    if host_token is not None:
        _host(room, host_token)
    else:
        _seat(room, seat, token, conn)
    if room["status"] == "lobby":
        raise NotStarted("The game has not started yet: wait for the host to start it.")
    game, game_no = GAMES[room["game"]], room["game_no"]
    kept = _under_way(room, conn)
    state = kept.state
    closed = len(state["history"])
    phase = state.get("phase")
    now = _now()
    checked = check(game, state, move)
    if checked["type"] in game.timed:  # the service's clock, never the client's (checked again: in range)
        since = _since_phase_began(conn, code, game_no, state, game.timed[checked["type"]], now)
        checked = check(game, state, {**checked, "t": since})
    needed = game.bot_text.get(checked["type"])
    if needed and not checked.get(needed) and store().bots(code, conn):
        raise IllegalMove(
            "Type your phrase: the computer players read it, since they cannot hear you.",
            move=checked["type"],
            field=needed,
        )
    perform(game, state, checked)
    if state.get("phase") != phase or len(state["history"]) > closed:
        _phase_began[code] = (game_no, len(state["history"]), state.get("phase"), now)
    seq = store().next_seq(conn, code, game_no)
    store().append_move(conn, code, game_no, seq, actor, checked, now)
    for turn in range(closed, len(state["history"])):  # stamped as turns close, never replayed
        store().add_turn_end(conn, code, game_no, turn, now)
    finished = game.outcome(state) is not None
    due = seq - kept.saved_seq >= max(SNAPSHOT_EVERY, kept.saved_size // SNAPSHOT_CHARS_PER_MOVE)
    if due or finished or actor == "host" or len(state["history"]) > closed:
        kept.saved_seq, kept.saved_size = seq, store().save_snapshot(conn, code, game_no, seq, state)
    version = _bump(conn, room, status="finished" if finished else "playing")
    if finished:
        record = _build_record(conn, {**room, "state": state}, now)
        store().insert_record(conn, code, game_no, record)
        _after_commit(lambda: _save_stat_rows_soon(record))
    kept.version = version
    return version, game.echo(checked, state)


# When the current phase of each room's turn began (code -> (game_no, turn, phase, time)), for
# `Game.timed` moves. After a restart it is taken from the move log: the last "ready" move
# (the one that dealt Pictomania's letters; a skip that dealt is missed, and the round starts later).
_phase_began: dict[str, tuple] = {}


def _since_phase_began(conn, code: str, game_no: int, state: dict, phase: str, now: str) -> int | None:
    if state.get("phase") != phase:
        return None
    key = (game_no, len(state["history"]), phase)
    began = _phase_began.get(code)
    if began is None or began[:3] != key:
        log = store().moves(code, game_no, conn=conn)
        readies = [e["at"] for e in log if e["move"].get("type") == "ready"]  # the last one began it
        _phase_began[code] = began = (*key, readies[-1] if readies else now)
    ms = (datetime.fromisoformat(now) - datetime.fromisoformat(began[3])).total_seconds() * 1000
    return max(0, int(ms))


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
    room = _probed(code, device, proof=lambda r: _proves(r, seat, token, host_token))
    seats = store().seats(room["code"])
    if seat is not None:
        _seat(room, seat, token, seats=seats)
    return dict(_kept_view(room, seats, seat))


def _kept_view(room: dict, seats: list, seat) -> dict:
    """The view of this room's version for `seat`, built once per (version, viewer); not a copy."""
    code, version = room["code"], room["version"]
    with _states_guard:
        kept = _views.get(code)
        shown = kept[1].get(seat) if kept and kept[0] == version else None
    if shown is None:
        shown = _build_view(room, seats, seat)
        with _states_guard:
            kept = _views.get(code)
            if kept is None or kept[0] < version:
                _views.pop(code, None)  # re-inserted last: the dict's order is the rooms' age
                kept = _views[code] = (version, {})
                while len(_views) > ROOMS_VIEWED:
                    _views.pop(next(iter(_views)))
            if kept[0] == version:
                kept[1][seat] = shown
    return shown


_signed: dict[tuple, str] = {}  # (code, version, seat, token hash, fields) -> signature
SIGNED_KEPT = 4096


def _sign(code: str, version: int, seat: int, token_hash: str, keys: list[str], view: dict) -> str:
    """A view of one (version, seat) is the same wherever it is asked for, so its signature is made
    once: the socket's glance and the rerun that usually follows it sign the same fields."""
    key = (code, version, seat, token_hash, tuple(keys))
    found = _signed.get(key)
    if found is None:
        found = glance.sign(code, seat, token_hash, keys, view)
        with _states_guard:  # sockets' glances run in worker threads
            _signed[key] = found
            while len(_signed) > SIGNED_KEPT:
                _signed.pop(next(iter(_signed)))
    return found


def signature(view: dict, token: str, keys: list[str]) -> str:
    """The signature of the fields `keys` of a seat's `view` (see `engine.glance`), for its page."""
    return _sign(view["code"], view["version"], view["you"], _hash(token), keys, view)


def glance_now(code: str, seat: int, keys: list[str]) -> tuple[int, str] | None:
    """(version, signature) of the fields `keys` of `seat`'s view now: for that seat's push socket,
    whose ticket proved the seat. None when the room or the seat is gone."""
    try:
        room = _room(code)
        seats = store().seats(room["code"])
        row = next((s for s in seats if s["seat"] == seat), None)
        if row is None:
            return None
        shown = _kept_view(room, seats, seat)
    except SobremesaError:
        return None
    return room["version"], _sign(room["code"], room["version"], seat, row["token_hash"], keys, shown)


def _build_view(room: dict, seats: list, seat) -> dict:
    game = GAMES[room["game"]]
    robots = store().bots(room["code"])
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
        "asking": [] if room["status"] == "lobby" else sorted({a["seat"] for a in store().asks(room["code"])}),
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
            **({} if seat is None else {"waiting_on_you": False}),
        }
    with _lock(room["code"]):
        # A copy: tabs keep it while later moves change this process's state in place.
        shown = json.loads(json.dumps(table_view(game, _under_way(room).state, SHARED if seat is None else seat)))
    if seat is not None:  # what most of a phone's screen hangs on, without the list of everyone else
        header["waiting_on_you"] = seat in shown.get("waiting_for", [])
    return {**shown, **header}


@refusals_only
def version(code: str, device=None) -> int:
    return _probed(code, device)["version"]


@refusals_only
def record(code: str) -> dict | None:
    return store().record(normalise_code(code)) if normalise_code(code) else None


@refusals_only
def records() -> list[dict]:
    return store().records()


def _after_commit(action) -> None:
    """Run `action` once this thread's transaction has committed (see `_apply`)."""
    _pending.actions = [*getattr(_pending, "actions", []), action]


_pending = threading.local()


def _save_stat_rows_soon(record: dict) -> None:
    """The statistics' rows of a game that just ended, written by a thread of their own: packing
    them takes tens of milliseconds, and the table waits for nothing. If the process stops first,
    `stat_rows()` rebuilds them from the record."""
    saved_in = store()  # the game's own store, whatever the process opens next

    def save() -> None:
        packed = _stat_rows_of(record)
        if packed is not None:
            with saved_in.transaction() as conn:
                saved_in.save_stat_rows(conn, record["room"], record["game_no"], packed)

    thread = threading.Thread(target=save, name="sobremesa-stat-rows", daemon=True)
    thread.start()
    _saving.append(thread)


_saving: list[threading.Thread] = []


def settle() -> None:
    """Wait for background writes (the statistics' rows of games that just ended): for tests,
    tools and a clean shutdown."""
    while _saving:
        _saving.pop().join()


def _stat_rows_of(record: dict) -> bytes | None:
    """The statistics' flat rows of a saved game; None (logged) rather than lose the game itself."""
    try:
        from engine.stats import rows

        return rows.pack(record)
    except Exception:
        _LOG.exception("statistics rows of %s/%s", record.get("room"), record.get("game_no"))
        return None


@refusals_only
def stat_rows() -> list[bytes]:
    """Every saved game's statistics rows, in archive order (the order of `records()`): what the
    Statistics page reads instead of the records. Rows a game lacks (saved before they existed,
    or just ended and still being written, or packed before its game had a statistics family)
    are built from its record and stored."""
    from engine.stats import rows

    found = store().stat_rows()
    for entry in found:
        if entry["packed"] is None or rows.stale(entry["game"], entry["packed"]):
            packed = _stat_rows_of(store().record_of(entry["code"], entry["game_no"]))
            if packed is not None:  # a failed rebuild (logged) keeps the rows it had
                entry["packed"] = packed
                with store().transaction() as conn:
                    store().save_stat_rows(conn, entry["code"], entry["game_no"], packed)
    return [bytes(entry["packed"]) for entry in found if entry["packed"] is not None]


@refusals_only
def saved_game(code: str, game_no: int) -> dict | None:
    """One saved game's record (the replay of the Statistics page)."""
    if not is_whole(game_no):
        return None
    return store().record_of(normalise_code(code), game_no)


@refusals_only
def archive_version() -> tuple[int, str]:
    """(number of saved games, latest end time): changes whenever a game is saved. Cheap, so a page
    can key a cache of `records()` on it."""
    return store().archive_version()


@refusals_only
def move_log(code: str, game_no: int) -> list[dict]:
    """The accepted moves of one game of a room, in order: [{seq, actor, move, at}]."""
    if not is_whole(game_no):
        raise TableError("There is no such game in this room.")
    return store().moves(normalise_code(code), game_no)


@refusals_only
def replay(code: str) -> dict:
    """The current game rebuilt from its seed and its log alone."""
    room = _room(code)
    return _replayed(room, len(store().seats(room["code"])), store().moves(room["code"], room["game_no"]))


def _replayed(room: dict, seats: int, log: list, until=None) -> dict:
    game = GAMES[room["game"]]
    state = game.setup(seats, room["options"], room["seed"], game.content(room["options"], seats))
    for entry in log:
        perform(game, state, check(game, state, entry["move"]))
        if until is not None:
            until(state, entry)
    return state


# ---- host actions ------------------------------------------------------------------------------


@refusals_only
def skip(code: str, host_token: str, target: int) -> int:
    return _apply(code, {"type": "skip", "seat": None, "target": target}, actor="host", host_token=host_token)


@refusals_only
def end(code: str, host_token: str) -> int:
    return _apply(code, {"type": "end", "seat": None}, actor="host", host_token=host_token)


@refusals_only
def kick(code: str, host_token: str, target: int) -> int:
    """In the lobby the seat is removed (later seats move up); in play it leaves the game for good."""
    room = _room(code)
    code = room["code"]
    _host(room, host_token)
    if room["status"] != "lobby":
        return _apply(code, {"type": "kick", "seat": None, "target": target}, actor="host", host_token=host_token)
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        seats = store().seats(code, conn)
        if room["status"] != "lobby" or not is_whole(target) or not any(s["seat"] == target for s in seats):
            raise TableError("That player is no longer in the room.")
        kept = [s for s in seats if s["seat"] != target]
        store().replace_seats(conn, code, [{**s, "seat": i} for i, s in enumerate(kept)])
        for b in store().bots(code, conn):  # computer players move up with their seats
            store().drop_bot(conn, code, b["seat"])
            if b["seat"] != target:
                seat = b["seat"] - (b["seat"] > target)
                store().put_bot(conn, code, seat, b["token"], b["level"], b["seated"], b["since"])
        version = _bump(conn, room)
    _notify(code, version)
    return version


@refusals_only
def play_again(code: str, host_token: str) -> int:
    """A new game in the same room with the same seats and options, dealt from a fresh seed: a
    finished game's record shows its seed, and nothing about the next game follows from it."""
    code = _room(code)["code"]
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        _host(room, host_token)
        if room["status"] != "finished":
            raise TableError("Play again is possible once the game has ended.")
        game_no = room["game_no"] + 1
        store().update_room(conn, code, game_no=game_no)
        version = _deal(conn, {**room, "game_no": game_no}, secrets.randbelow(2**31))
    _notify(code, version)
    return version


# ---- computer players --------------------------------------------------------------------------

BOT_MARK = " 🤖"  # after a computer player's name in every view: wherever names show
BOT_NAMES = ("Nova", "Pixel", "Orbit", "Juno", "Kiwi", "Mochi", "Rumi", "Zephyr", "Lumen", "Moss", "Echo", "Tesla")
BOT_LEVELS = ("easy", "normal")


def _bot_game(room: dict) -> Game:
    game = GAMES[room["game"]]
    if game.bot is None:
        raise TableError("{game} has no computer players.", game=game.title)
    if game.bot_ready is not None and not game.bot_ready(room["options"]):
        raise TableError("Computer players play only with a deck whose pictures are described, like Dreams.")
    return game


def _level(level) -> str:
    if level not in BOT_LEVELS:
        raise TableError("Choose a level for the computer player: easy or normal.")
    return level


@refusals_only
def add_bot(code: str, host_token: str, level: str = "normal") -> Seat:
    """Seat a computer player in the lobby (the host only)."""
    code = _room(code)["code"]
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        _host(room, host_token)
        game = _bot_game(room)
        if room["status"] != "lobby":
            raise AlreadyStarted("The game has started: hand a player's seat to a computer player instead.")
        seats = store().seats(code, conn)
        if len(seats) >= game.max_players:
            raise RoomFull("The room is full ({count} players).", count=len(seats))
        taken = {s["name"].casefold() for s in seats}
        name = next((n for n in BOT_NAMES if n.casefold() not in taken), f"Bot {len(seats) + 1}")
        token = secrets.token_urlsafe(16)
        seat = len(seats)
        store().insert_seat(conn, code, seat, name, _hash(token), _now())
        store().put_bot(conn, code, seat, token, _level(level), True, _now())
        version = _bump(conn, room)
    _notify(code, version)
    return Seat(code, seat, token, name)


@refusals_only
def hand_to_bot(code: str, host_token: str, seat: int, level: str = "normal") -> int:
    """A computer player plays this seat from now on (its player went home); the player's own link
    keeps working, and `take_back` gives the seat back with its hand and score."""
    code = _room(code)["code"]
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        _host(room, host_token)
        _bot_game(room)
        if room["status"] != "playing":
            raise TableError("A seat can be handed to a computer player while a game is being played.")
        if not is_whole(seat) or not any(s["seat"] == seat for s in store().seats(code, conn)):
            raise TableError("That player is no longer in the room.")
        if any(b["seat"] == seat for b in store().bots(code, conn)):
            raise TableError("A computer player already plays that seat.")
        store().put_bot(conn, code, seat, secrets.token_urlsafe(16), _level(level), False, _now())
        version = _bump(conn, room)
    _notify(code, version)
    return version


@refusals_only
def take_back(code: str, host_token: str, seat: int) -> int:
    """The seat's player is back: the computer player hands it over, hand and score as they are."""
    code = _room(code)["code"]
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        _host(room, host_token)
        bot = next((b for b in store().bots(code, conn) if b["seat"] == seat), None)
        if bot is None or bot["seated"]:
            raise TableError("No player's seat is being played by a computer player there.")
        store().drop_bot(conn, code, seat)
        version = _bump(conn, room)
    _notify(code, version)
    return version


@refusals_only
def bot_seats(code: str) -> list[dict]:
    """The computer players of a room, with the token each plays its seat with: for the process
    that runs them (engine/bots), which then plays through view/legal/submit like any client."""
    return [
        {"seat": b["seat"], "token": b["token"], "level": b["level"], "seated": b["seated"]}
        for b in store().bots(_room(code)["code"])
    ]


@refusals_only
def rooms_with_bots() -> list[str]:
    return store().rooms_with_bots()


# ---- the saved-game record ---------------------------------------------------------------------


def _build_record(conn, room: dict, now: str) -> dict:
    """The archive document (DESIGN.md). Each turn carries the time the move that closed it was made."""
    game = GAMES[room["game"]]
    state = room["state"]
    seats = store().seats(room["code"], conn)
    bots = {b["seat"] for b in store().bots(room["code"], conn)}
    turns = [dict(t) for t in state["history"]]
    ends = store().turn_ends(room["code"], room["game_no"], conn)
    if len(ends) < len(turns):
        ends = _turn_ends_from_log(room, len(seats), len(turns))
    for index, turn in enumerate(turns):
        turn["ended_at"] = ends.get(index, now)
    result = game.outcome(state)
    assert result is not None, "a record is built once the game has ended"
    teams = result.get("teams", {})
    return {
        "format": "sobremesa.game/1",
        "game": room["game"],
        "rules_version": state["rules_version"],
        "options": room["options"],
        "language": room["language"],
        "seed": room["seed"],
        "room": room["code"],
        "game_no": room["game_no"],
        "started_at": room["started_at"],
        "ended_at": now,
        "players": [
            {
                "seat": s["seat"],
                "name": s["name"],
                "team": teams.get(str(s["seat"])),
                **({"bot": True} if s["seat"] in bots else {}),
            }
            for s in seats
        ],
        "turns": turns,
        "final_scores": result["final_scores"],
        "winners": result.get("winners", score_winners(result["final_scores"])),
        "ended_by_host": bool(state.get("ended_by_host")),
        **result.get("record", {}),
    }


def _turn_ends_from_log(room: dict, seats: int, turns: int) -> dict[int, str]:
    """For a game that was under way before turn times were stamped as turns closed: find them by
    replaying its log, once, when it ends."""
    ends: dict[int, str] = {}

    def stamp(state: dict, entry: dict) -> None:
        for index in range(len(ends), min(len(state["history"]), turns)):
            ends[index] = entry["at"]

    _replayed(room, seats, store().moves(room["code"], room["game_no"]), until=stamp)
    return ends


# ---- the host's laptop -------------------------------------------------------------------------


@refusals_only
def open_rooms(limit: int = 1000) -> list[dict]:
    """Rooms still running (lobby or playing), newest first, with their players, and `here`: created
    on this computer. For the host's own machine only: the way back to a room whose tab closed."""
    _expire_lobbies()
    rooms = []
    for room in store().open_rooms(limit if is_whole(limit) and limit > 0 else 1000):
        rooms.append({**room, "names": [s["name"] for s in store().seats(room["code"])]})
    return rooms


@refusals_only
def renew_host_token(code: str) -> str:
    """A new host token for a room (old host links stop working). Pages offer this only on the
    server's own machine, whose user is the host."""
    code = _room(code)["code"]
    token = secrets.token_urlsafe(16)
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        version = _bump(conn, room, host_hash=_hash(token))  # news: the old host tab closes its panel
    _notify(code, version)
    return token


JOIN_ADDRESS = "join_address"


@refusals_only
def join_address() -> str | None:
    """The address the host picked for the phones' links (a setting of this server), if any."""
    return store().setting(JOIN_ADDRESS)


@refusals_only
def join_base(port: int) -> str:
    """The base of the links and QR codes phones open (engine/address.py says in which order the
    environment, the host's pick and the default route decide)."""
    return address.base_url(port, pick=join_address())


@refusals_only
def join_choices() -> dict:
    """For the host's address picker: this laptop's usable addresses (the default route's first),
    the one the links use now, and the variable that fixes it when one does (then a pick does nothing)."""
    return {
        "addresses": address.candidates(),
        "shown": address.best(join_address()),
        "fixed_by": address.fixed_by_environment(),
    }


@refusals_only
def set_join_address(code: str, host_token: str, chosen: str | None) -> None:
    """The host picks which of this laptop's addresses the QR codes and links show (every room's:
    it is the server's); None goes back to the default route's. Only one the laptop has now."""
    _host(_room(code), host_token)
    if chosen is not None and chosen not in address.candidates():
        raise BadOptions("This laptop has no address {address} on its networks now.", address=str(chosen)[:60])
    with store().transaction() as conn:
        store().set_setting(conn, JOIN_ADDRESS, chosen)


# ---- players across games ----------------------------------------------------------------------


def player_key(name: str) -> str:
    """A player's identity across games: the display name, case- and space-insensitive."""
    return "".join(str(name).split()).casefold()


@refusals_only
def merge_players(name: str, into: str) -> None:
    """The host says two names are one person: `name` counts as `into` from now on."""
    key, target = player_key(name), player_key(into)
    if not key or not target or key == target:
        raise BadName("Choose two different names to merge.")
    aliases = store().aliases()
    while target in aliases:  # follow chains so a merge of a merge still ends at one person
        target = aliases[target]
    if target == key:
        raise BadName("Those names are already one person.")
    with store().transaction() as conn:
        for alias, canonical in aliases.items():
            if canonical == key:
                store().set_alias(conn, alias, target)
        store().set_alias(conn, key, target)


@refusals_only
def player_aliases() -> dict[str, str]:
    """name key -> the key it was merged into."""
    return store().aliases()


# ---- keepsake: a game's drawings as images (Pictomania) ----------------------------------------
# One block so it can move with the service's split: it needs only _room, _state, store() and
# the game's own keepsake maker (`Game.keepsake`).


@refusals_only
def keepsake(code: str, game_no: int, round: int | None = None) -> dict[str, bytes]:
    """{file name: bytes}: an animated GIF per drawing and a contact sheet PNG per round, of one
    round (numbered from 1) or of the whole game when `round` is None. Only rounds already scored
    (their words are public then): of a saved game, or of the room's game in progress."""
    if not is_whole(game_no):
        raise TableError("There is no such game in this room.")
    normal = normalise_code(code)
    record = store().record_of(normal, game_no) if normal else None
    if record is not None:
        game = record["game"]
        turns, names = record.get("turns") or [], {p["seat"]: p["name"] for p in record.get("players", [])}
    else:
        room = _room(code)
        state = _state(room) if game_no == room["game_no"] and room["status"] != "lobby" else None
        if state is None:
            raise TableError("There is no such game in this room.")
        game, turns = room["game"], state["history"]
        names = {s["seat"]: s["name"] for s in store().seats(room["code"])}
    make = GAMES[game].keepsake if game in GAMES else None
    if make is None:
        raise TableError("Only Pictomania's drawings can be kept.")
    chosen = [t for t in turns if round is None or t.get("round") == round]
    if round is not None and not chosen:
        raise TableError("That round has not been played yet.")
    files: dict[str, bytes] = {}
    for turn in chosen:
        files.update(make(f"sobremesa-{normal.lower()}-{game_no}", turn, names))
    return files
