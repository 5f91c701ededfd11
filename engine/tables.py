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

Move vocabulary per game (every move also carries `"seat"`; `legal()` lists them complete, with
free-text fields set to None):
- dixit: `claim` (turn 1, "I have a phrase"); `tell` {card, phrase|None}; `give` {cards: [1 card,
  2 with 3 players]}; `vote` {position}.

Every refusal raises a `SobremesaError` whose message can be shown to the person who caused it;
a refused call changes nothing.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from contextlib import contextmanager
import time
from dataclasses import dataclass
from datetime import datetime, timezone

from engine import paths
from engine.core import (AlreadyStarted, BadName, BadOptions, BadToken, NameTaken, NotStarted, RoomFull,
                         RoomNotFound, SHARED, TableError, play)
from engine.core.game import score_winners
from engine.games import GAMES
from engine.store import open_store

CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ"  # no vowels: codes never spell words; no I/O to confuse with 1/0
NAME_MAX = 20
LANGUAGES = ("en", "es", "it")


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
_stores: dict[str, object] = {}
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
    with _guard:
        for s in _stores.values():
            s.close()
        _stores.clear()


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
    return hashlib.sha256(token.encode()).hexdigest()


def _token_ok(token, token_hash: str) -> bool:
    return isinstance(token, str) and hmac.compare_digest(_hash(token), token_hash)


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


def _notify(code: str, version: int) -> None:
    try:
        from engine import live
    except ImportError:  # push is optional for headless use
        return
    live.notify(code, version)


def _echo(code: str, message: dict) -> None:
    try:
        from engine import live
    except ImportError:
        return
    live.echo(code, message)


def normalise_code(code) -> str:
    return "".join(str(code or "").split()).upper()


def _room(code: str, conn=None) -> dict:
    room = store().room(normalise_code(code), conn)
    if room is None:
        raise RoomNotFound(str(code or "").strip()[:12])
    return room


def _seat(room: dict, seat, token, conn=None) -> dict:
    for s in store().seats(room["code"], conn):
        if s["seat"] == seat and _token_ok(token, s["token_hash"]):
            return s
    raise BadToken("player")


def _host(room: dict, host_token) -> None:
    if not _token_ok(host_token, room["host_hash"]):
        raise BadToken("host")


# ---- rooms and seats ---------------------------------------------------------------------------

def create_room(game: str, options: dict | None = None, seed: int | None = None, language: str = "en") -> Room:
    if game not in GAMES:
        raise BadOptions(f"There is no game called '{game}'. Choose one of: {', '.join(GAMES)}.")
    if language not in LANGUAGES:
        raise BadOptions(f"Language '{language}' is not available. Choose one of: {', '.join(LANGUAGES)}.")
    merged = GAMES[game].check_options({**(options or {}), "language": language})
    host_token = secrets.token_urlsafe(16)
    seed = secrets.randbelow(2**31) if seed is None else int(seed)
    for _ in range(50):
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(4))
        with store().transaction() as conn:
            if store().room(code, conn) is not None:
                continue
            now = _now()
            store().insert_room(conn, {
                "code": code, "game": game, "options": merged, "language": language, "seed": seed,
                "host_hash": _hash(host_token), "status": "lobby", "version": 1, "game_no": 1,
                "state": None, "created_at": now, "started_at": None, "updated_at": now})
        return Room(code, host_token)
    raise TableError("Could not find a free room code; try again.")


def join(code: str, name: str) -> Seat:
    name = " ".join(str(name or "").split())
    if not name:
        raise BadName("Type a name to join.")
    if len(name) > NAME_MAX:
        raise BadName(f"Names can be at most {NAME_MAX} characters.")
    code = normalise_code(code)
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        if room["status"] != "lobby":
            raise AlreadyStarted("This game has already started. Ask the host to let you in next game, "
                                 "or open your own link to rejoin your seat.")
        seats = store().seats(code, conn)
        if len(seats) >= GAMES[room["game"]].max_players:
            raise RoomFull(f"The room is full ({len(seats)} players).")
        if any(s["name"].casefold() == name.casefold() for s in seats):
            raise NameTaken(f"Someone is already called '{name}' here. Pick another name.")
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


def start(code: str, host_token: str) -> int:
    code = normalise_code(code)
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
        raise NotStarted(f"{game.title} needs at least {game.min_players} players; {seats} joined so far.")
    cards = game.content(room["options"], seats)
    state = game.setup(seats, room["options"], seed, cards)
    return _bump(conn, room, status="playing", state=state, seed=seed, started_at=_now())


def find_seat(code: str, token: str) -> Seat:
    """The seat a token belongs to: reopening a link reconnects the same seat."""
    room = _room(code)
    for s in store().seats(room["code"]):
        if _token_ok(token, s["token_hash"]):
            return Seat(room["code"], s["seat"], token, s["name"])
    raise BadToken("player")


def check_host(code: str, host_token: str) -> None:
    _host(_room(code), host_token)


# ---- play --------------------------------------------------------------------------------------

def legal(code: str, seat: int, token: str) -> list[dict]:
    room = _room(code)
    _seat(room, seat, token)
    if room["status"] != "playing":
        return []
    return GAMES[room["game"]].legal(room["state"], seat)


def submit(code: str, seat: int, token: str, move: dict) -> int:
    """Apply a seat's move. Returns the room's new version; raises a MoveError and changes nothing."""
    if not isinstance(move, dict):
        from engine.core import UnknownMove
        raise UnknownMove("a move is a dict with a 'type'")
    return _apply(code, dict(move, seat=seat), actor=str(seat), seat=seat, token=token)


def _apply(code: str, move: dict, actor: str, seat=None, token=None, host_token=None) -> int:
    code = normalise_code(code)
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        if host_token is not None:
            _host(room, host_token)
        else:
            _seat(room, seat, token, conn)
        if room["status"] == "lobby":
            raise NotStarted("The game has not started yet: wait for the host to start it.")
        game = GAMES[room["game"]]
        state = play(game, room["state"], move)
        seq = len(store().moves(code, room["game_no"])) + 1
        store().append_move(conn, code, room["game_no"], seq, actor, move, _now())
        finished = game.outcome(state) is not None
        version = _bump(conn, room, state=state, status="finished" if finished else "playing")
        if finished:
            store().insert_record(conn, code, room["game_no"], _build_record(conn, {**room, "state": state}))
        shown = game.echo(move, state)
    if shown is not None:
        _echo(code, {**shown, "version": version})
    _notify(code, version)
    return version


def view(code: str, seat: int | None = None, token: str | None = None) -> dict:
    """A seat's view (with its token), or the shared screen's (no arguments). Never another's secret."""
    room = _room(code)
    names = [s["name"] for s in store().seats(room["code"])]
    if seat is not None:
        _seat(room, seat, token)
    base = {"code": room["code"], "game": room["game"], "status": room["status"], "version": room["version"],
            "names": names, "options": room["options"], "language": room["language"], "you": seat}
    if room["state"] is None:
        fewest, most = GAMES[room["game"]].seat_range(room["options"])
        return {**base, "phase": "lobby", "waiting_for": [], "seats_allowed": [fewest, most]}
    game = GAMES[room["game"]]
    shown = game.view(room["state"], SHARED if seat is None else seat)
    return {**shown, **base}


def version(code: str) -> int:
    v = store().version(normalise_code(code))
    if v is None:
        raise RoomNotFound(code)
    return v


def record(code: str) -> dict | None:
    return store().record(normalise_code(code))


def records() -> list[dict]:
    return store().records()


def archive_version() -> tuple[int, str]:
    """(number of saved games, latest end time): changes whenever a game is saved. Cheap, so a page
    can key a cache of `records()` on it."""
    return store().archive_version()


def move_log(code: str, game_no: int) -> list[dict]:
    """The accepted moves of one game of a room, in order: [{seq, actor, move, at}]."""
    return store().moves(normalise_code(code), int(game_no))


def replay(code: str) -> dict:
    """The current game rebuilt from its seed and its log alone."""
    room = _room(code)
    game = GAMES[room["game"]]
    seats = len(store().seats(room["code"]))
    state = game.setup(seats, room["options"], room["seed"], game.content(room["options"], seats))
    for entry in store().moves(room["code"], room["game_no"]):
        state = play(game, state, entry["move"])
    return state


# ---- host actions ------------------------------------------------------------------------------

def skip(code: str, host_token: str, target: int) -> int:
    return _apply(code, {"type": "skip", "seat": None, "target": target}, actor="host", host_token=host_token)


def end(code: str, host_token: str) -> int:
    return _apply(code, {"type": "end", "seat": None}, actor="host", host_token=host_token)


def kick(code: str, host_token: str, target: int) -> int:
    """In the lobby the seat is removed (later seats move up); in play it leaves the game for good."""
    code = normalise_code(code)
    room = _room(code)
    _host(room, host_token)
    if room["status"] != "lobby":
        return _apply(code, {"type": "kick", "seat": None, "target": target}, actor="host", host_token=host_token)
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        seats = store().seats(code, conn)
        if room["status"] != "lobby" or not any(s["seat"] == target for s in seats):
            raise TableError(f"There is no seat {target} to remove.")
        kept = [s for s in seats if s["seat"] != target]
        store().replace_seats(conn, code, [{**s, "seat": i} for i, s in enumerate(kept)])
        version = _bump(conn, room)
    _notify(code, version)
    return version


def play_again(code: str, host_token: str) -> int:
    """A new game in the same room with the same seats and options."""
    code = normalise_code(code)
    with _lock(code), store().transaction() as conn:
        room = _room(code, conn)
        _host(room, host_token)
        if room["status"] != "finished":
            raise TableError("Play again is possible once the game has ended.")
        game_no = room["game_no"] + 1
        seed = int.from_bytes(hashlib.sha256(f"{room['seed']}/{game_no}".encode()).digest()[:4], "big") >> 1
        store().update_room(conn, code, game_no=game_no)
        version = _deal(conn, {**room, "game_no": game_no}, seed)
    _notify(code, version)
    return version


# ---- the saved-game record ---------------------------------------------------------------------

def _build_record(conn, room: dict) -> dict:
    """The archive document (DESIGN.md), with each turn stamped by the move that closed it."""
    game = GAMES[room["game"]]
    state = room["state"]
    seats = store().seats(room["code"], conn)
    log = store().moves(room["code"], room["game_no"])
    turns = [dict(t) for t in state["history"]]
    # A turn closes with the move that lengthened the history; the log's times stamp it.
    replayed = game.setup(len(seats), room["options"], room["seed"], game.content(room["options"], len(seats)))
    closed = 0
    for entry in log:
        replayed = play(game, replayed, entry["move"])
        while closed < min(len(replayed["history"]), len(turns)):
            turns[closed]["ended_at"] = entry["at"]
            closed += 1
    result = game.outcome(state)
    ended_at = log[-1]["at"] if log else _now()
    return {
        "format": "sobremesa.game/1", "game": room["game"], "rules_version": state["rules_version"],
        "options": room["options"], "language": room["language"], "seed": room["seed"],
        "room": room["code"], "game_no": room["game_no"],
        "started_at": room["started_at"], "ended_at": ended_at,
        "players": [{"seat": s["seat"], "name": s["name"], "team": result.get("teams", {}).get(str(s["seat"]))}
                    for s in seats],
        "turns": turns, "final_scores": result["final_scores"],
        "winners": result.get("winners", score_winners(result["final_scores"])),
        "ended_by_host": bool(state.get("ended_by_host")),
        **({"team_scores": result["team_scores"]} if "team_scores" in result else {}),
    }


# ---- the host's laptop -------------------------------------------------------------------------

def open_rooms(limit: int = 20) -> list[dict]:
    """Recent rooms with their players, newest first (for the host's own machine only)."""
    rooms = []
    for code in reversed(store().room_codes()[-limit:]):
        room = store().room(code)
        rooms.append({"code": code, "game": room["game"], "status": room["status"],
                      "names": [s["name"] for s in store().seats(code)], "updated_at": room["updated_at"]})
    return rooms


def renew_host_token(code: str) -> str:
    """A new host token for a room (old host links stop working). Pages offer this only on the
    server's own machine, whose user is the host."""
    code = normalise_code(code)
    token = secrets.token_urlsafe(16)
    with _lock(code), store().transaction() as conn:
        _room(code, conn)
        store().update_room(conn, code, host_hash=_hash(token))
    return token


# ---- players across games ----------------------------------------------------------------------

def player_key(name: str) -> str:
    """A player's identity across games: the display name, case- and space-insensitive."""
    return "".join(str(name).split()).casefold()


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


def player_aliases() -> dict[str, str]:
    """name key -> the key it was merged into."""
    return store().aliases()
