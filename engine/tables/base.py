"""What every part of the service shares: the store, each room's lock, the clock, tokens, room
codes and the look-up of a room (with the limit on wrong codes), the host's and a seat's proofs, the
version bump, and the one way a room is changed (`changing`: lock, transaction, bump, notify)."""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine import gate
from engine.core import (
    BadName,
    BadToken,
    Game,
    InternalError,
    RoomNotFound,
    SobremesaError,
    TooManyTries,
)
from engine.core.moves import is_whole, printable
from engine.games import GAMES
from engine.store import clock, now as time_now, store  # noqa: F401  (the service's callers reach them here too)

CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ"  # no vowels: codes never spell words; no I/O to confuse with 1/0


# 20 ** 5 = 3.2 million codes: with 50 rooms open and the wrong-code limits of `gate.Probes`, one
# address needs over a day to find any room by guessing (tests/engine/tables/test_security.py works it out).
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


_locks: dict[str, threading.Lock] = {}


_guard = threading.Lock()


def room_lock(code: str) -> threading.Lock:
    with _guard:
        return _locks.setdefault(code, threading.Lock())


def hash_token(token: str) -> str:
    """A token as the store keeps it (never the token itself)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_ok(token, token_hash: str) -> bool:
    return isinstance(token, str) and len(token) <= TOKEN_MAX and hmac.compare_digest(hash_token(token), token_hash)


_watching = threading.Event()


def watch_other_processes(interval: float = 0.5) -> None:
    """Pass on moves committed by other processes (a bot, a script, a second server) to this
    server's open tabs: PostgreSQL's LISTEN/NOTIFY, or for SQLite a look every `interval` s at
    whether anything was committed (PRAGMA data_version, next to nothing while idle). Idempotent."""
    if _watching.is_set():
        return
    _watching.set()

    try:  # read as the server starts, not at the thread's first look: an erasure made meanwhile counts
        watched = store()
        first: str | None = watched.setting("archive_erasures") or ""
    except Exception:  # no store yet: the first look reads it
        watched, first = None, None

    def watch() -> None:
        since = time_now()
        erased, looked, seen = first, 0.0, watched
        while True:
            try:
                if store() is not seen:  # another database swapped in (tests): its erasures are its own, not news
                    erased = erased if seen is None else None
                    seen = store()
                for code, version, updated_at in seen.changes(since, wait=interval):
                    since = max(since, updated_at or since)
                    notify(code, version)
                if time.monotonic() - looked >= ERASED_EVERY:  # a game erased on another process
                    looked = time.monotonic()
                    # the same database's (a closed one raises); no erasure yet reads as "", as at the start
                    now = seen.setting("archive_erasures") or ""
                    if erased is not None and now != erased:
                        from engine.tables.erase import tell_erased

                        tell_erased()
                    erased = now
            except Exception:  # a store being swapped (tests) or a lost connection: try again
                time.sleep(interval)
            for look in tuple(_beside):
                look()

    threading.Thread(target=watch, name="sobremesa-watch", daemon=True).start()


_beside: list[Callable[[], None]] = []


def beside_the_watch(look: Callable[[], None]) -> None:
    """Run `look` in the watcher's thread after each of its rounds (every 0.5 s or so): the look
    at other processes' presence (engine/presence.py) had a thread of its own, and each wake of a
    sleeping thread cost an idle server about 0.3 ms of CPU. `look` keeps its own pace, and never
    raises."""
    if look not in _beside:
        _beside.append(look)


ERASED_EVERY = 2.0  # seconds between two looks at whether a game was erased (one small read)


def notify(code: str, version: int) -> None:
    try:
        from engine.push import live
    except ImportError:  # push is optional for headless use
        return
    live.notify(code, version)


def normalise_code(code) -> str:
    """A room code as typed (any case, stray spaces), in its stored form; '' if it cannot be one."""
    text = "".join(code.split()).upper() if isinstance(code, str) else ""
    return text if CODE_SHAPE.fullmatch(text) else ""


def probed(code, device, proof=None) -> dict:
    """`room_row` for a lookup a person made from `device` (a page, the join form): each device and
    each address may get only a few codes wrong a minute (`gate.PROBES`), so codes cannot be found
    by trying them all. A device told to wait is still let in with `proof(room)`: a seat's or the
    host's token for that room, which no guess carries, so one student guessing codes behind a
    school's one address never locks the class out of their own links."""
    if device is None:
        return room_row(code)
    blocked = gate.PROBES.blocked(device)
    try:
        room = room_row(code)
    except RoomNotFound:
        if not blocked:
            gate.PROBES.miss(device)
        raise TooManyTries() if blocked else RoomNotFound(code if isinstance(code, str) else "") from None
    if blocked and not (proof is not None and proof(room)):
        raise TooManyTries()
    return room


def room_row(code, conn=None) -> dict:
    """The room's row without its state (see `room_state`)."""
    normal = normalise_code(code)
    room = store().room(normal, conn) if normal else None
    if room is None:
        raise RoomNotFound(code if isinstance(code, str) else "")
    return room


def seat_row(room: dict, seat, token, conn=None, seats: list | None = None) -> dict:
    if is_whole(seat):
        seats = seats if seats is not None else store().seats(room["code"], conn)
        for s in seats:
            if s["seat"] == seat and token_ok(token, s["token_hash"]):
                return s
        # A computer player holds a token of its own for its seat: a seat handed over keeps the
        # person's token valid, so giving it back needs nothing from them.
        for b in store().bots(room["code"], conn) if isinstance(token, str) else ():
            if b["seat"] == seat and token_ok(token, hash_token(b["token"])):
                found = next((s for s in seats if s["seat"] == seat), None)
                if found is not None:
                    return found
    raise BadToken("player")


def proves(room: dict, seat, token, host_token) -> bool:
    """Whether the caller holds a seat's token or the host's for this room."""
    if host_token is not None and token_ok(host_token, room["host_hash"]):
        return True
    try:
        return seat is not None and bool(seat_row(room, seat, token))
    except BadToken:
        return False


def prove_host(room: dict, host_token) -> None:
    if not token_ok(host_token, room["host_hash"]):
        raise BadToken("host")


def games() -> dict[str, Game]:
    """Every game the app hosts, by its API name: what the pages know of a game comes from here."""
    return dict(GAMES)


def bump(conn, room: dict, **fields) -> int:
    version = room["version"] + 1
    store().update_room(conn, room["code"], version=version, updated_at=time_now(), **fields)
    return version


def after_commit(action) -> None:
    """Run `action` once this thread's transaction has committed (see `play.locked`)."""
    _pending.actions = [*getattr(_pending, "actions", []), action]


def take_after_commit() -> list:
    """What was left to run after this thread's transaction, taken (none are left)."""
    actions = getattr(_pending, "actions", [])
    _pending.actions = []
    return actions


_pending = threading.local()


BOT_MARK = " 🤖"  # after a computer player's name in every view: wherever names show


BOT_NAMES = ("Nova", "Pixel", "Orbit", "Juno", "Kiwi", "Mochi", "Rumi", "Zephyr", "Lumen", "Moss", "Echo", "Tesla")


BOT_LEVELS = ("easy", "normal")


class Change:
    """One change of a room made under `changing`: its transaction (`conn`), its row as read there
    (`room`), what the version bump writes besides (`fields`), and once committed its new `version`."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.conn: Any = None
        self.room: dict = {}
        self.fields: dict = {}
        self.version: int = 0


_ANYONE = object()


@contextmanager
def changing(code, host_token: Any = _ANYONE) -> Iterator[Change]:
    """The one way a room is changed outside a move: under the room's lock, in one transaction, its
    row read there (and the host's key checked, when one is given), the version bumped at the end,
    and once committed the news sent to every open tab. A refusal inside changes nothing and tells
    no one."""
    change = Change(room_row(code)["code"])
    with room_lock(change.code):
        with store().transaction() as conn:
            change.conn, change.room = conn, room_row(change.code, conn)
            if host_token is not _ANYONE:
                prove_host(change.room, host_token)
            yield change
            change.version = bump(conn, change.room, **change.fields)
    notify(change.code, change.version)


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
