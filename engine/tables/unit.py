"""A move's unit of work: under its room's lock, in one transaction, on a store passed in, with the
room's row and its seats read once, and its actor checked once, by its token's hash.

A tap from a phone's socket carries no token: the socket proved its token at its hello and keeps
its hash (`tables.Who`); a page or a computer player hands its token in, and it is hashed once
(`Actor.seat_token`). Computer players hold tokens of their own for their seats (table `bots`, kept
as they are, since the runner must present them after a restart): they are compared by the same
hash. Nothing here reaches the store through a global: the unit's `store` is the one passed in.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any, Protocol

from engine.core import BadToken, RoomNotFound
from engine.core.moves import is_whole
from engine.tables.base import TOKEN_MAX, hash_token


class MoveStore(Protocol):
    """What a move reads and writes of the store, and nothing else (engine/store/sql.py has them)."""

    def room(self, code: str, conn: Any = None) -> dict | None: ...
    def seats(self, code: str, conn: Any = None) -> list[dict]: ...
    def bots(self, code: str, conn: Any = None) -> list[dict]: ...
    def clock(self, code: str, conn: Any = None) -> dict | None: ...
    def snapshot(self, code: str, conn: Any = None) -> dict | None: ...
    def moves(self, code: str, game_no: int, after: int = 0, conn: Any = None) -> list[dict]: ...
    def next_seq(self, conn: Any, code: str, game_no: int) -> int: ...
    def append_move(self, conn: Any, code: str, game_no: int, seq: int, actor: str, move: dict, at: str) -> None: ...
    def save_snapshot(self, conn: Any, code: str, game_no: int, seq: int, state: dict) -> int: ...
    def update_room(self, conn: Any, code: str, **fields: Any) -> None: ...
    def add_turn_end(self, conn: Any, code: str, game_no: int, turn: int, at: str) -> None: ...
    def move_answer(self, code: str, key: str, move_id: str, conn: Any = None) -> tuple[str, dict] | None: ...
    def put_move_answer(
        self, conn: Any, code: str, key: str, move_id: str, body: str, answer: dict, at: str
    ) -> None: ...


@dataclass(frozen=True)
class Actor:
    """Who makes a move: a seat, by its token's hash; the host, by its key's; or the service itself
    (the pace clock, an idle room ended), which shows nothing."""

    kind: str  # "seat", "host" or "service"
    seat: int | None = None
    token_hash: str = ""
    logged: str = ""  # who the move log says made it: the seat's number, "host", "clock", "quiet"

    @classmethod
    def seat_token(cls, seat, token) -> Actor:
        """A seat and the token a page or a computer player hands in: hashed here, once."""
        if not isinstance(token, str) or len(token) > TOKEN_MAX or not is_whole(seat):
            raise BadToken("player")
        return cls("seat", seat, hash_token(token), str(seat))

    @classmethod
    def host(cls, host_token) -> Actor:
        if not isinstance(host_token, str) or len(host_token) > TOKEN_MAX:
            raise BadToken("host")
        return cls("host", None, hash_token(host_token), "host")

    @classmethod
    def service(cls, logged: str) -> Actor:
        return cls("service", None, "", logged)


class Unit:
    """One room's change, opened by `play.locked`: `room` (kept current as the unit bumps its
    version) and `seats`, each read once, in the unit's transaction (`conn`)."""

    def __init__(self, store: MoveStore, code: str, conn: Any) -> None:
        self.store, self.code, self.conn = store, code, conn
        room = store.room(code, conn)
        if room is None:
            raise RoomNotFound(code)
        self.room: dict = room
        self._seats: list[dict] | None = None
        self._bots: list[dict] | None = None
        self.proven: set[Actor] = set()  # actors whose token this unit checked already
        self.checks = 0  # tokens checked against the store (one a move)

    @property
    def seats(self) -> list[dict]:
        if self._seats is None:
            self._seats = self.store.seats(self.code, self.conn)
        return self._seats

    @property
    def bots(self) -> list[dict]:
        if self._bots is None:
            self._bots = self.store.bots(self.code, self.conn)
        return self._bots

    def seat_of(self, token_hash: str) -> Actor:
        """The seat a token's hash holds, as a proven actor (a phone's socket names no seat: its
        token does); a token that holds none is refused."""
        self.checks += 1
        seat = {s["token_hash"]: s["seat"] for s in self.seats}.get(token_hash)
        if seat is None:
            raise BadToken("player")
        actor = Actor("seat", seat, token_hash, str(seat))
        self.proven.add(actor)
        return actor

    def check(self, actor: Actor) -> None:
        """The actor's proof, checked once: its seat's token (or the seat's computer player's), or
        the host's key. The service proves nothing: it is the server itself."""
        if actor.kind == "service" or actor in self.proven:
            return
        self.checks += 1
        self.proven.add(actor)
        if actor.kind == "host":
            if not hmac.compare_digest(self.room["host_hash"], actor.token_hash):
                self.proven.discard(actor)
                raise BadToken("host")
            return
        row = next((s for s in self.seats if s["seat"] == actor.seat), None)
        if row is not None and hmac.compare_digest(row["token_hash"], actor.token_hash):
            return
        # A computer player's own token for the seat: a seat handed over keeps the person's link.
        if row is not None and any(
            b["seat"] == actor.seat and hmac.compare_digest(hash_token(b["token"]), actor.token_hash) for b in self.bots
        ):
            return
        self.proven.discard(actor)
        raise BadToken("player")
