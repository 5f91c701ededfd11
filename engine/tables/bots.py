"""Computer players' seats: added in the lobby, handed a person's seat and giving it back, and the
tokens the runner plays them with."""

from __future__ import annotations

import secrets

from engine.core import (
    AlreadyStarted,
    Game,
    RoomFull,
    TableError,
)
from engine.core.moves import is_whole
from engine.games import GAMES
from engine.tables.base import (
    BOT_LEVELS,
    BOT_NAMES,
    Seat,
    changing,
    hash_token,
    refusals_only,
    room_row,
    store,
    time_now,
)


def _bot_game(room: dict) -> Game:
    game = GAMES[room["game"]]
    if game.bots is None:
        raise TableError("{game} has no computer players.", game=game.title)
    if game.bots.ready is not None and not game.bots.ready(room["options"]):
        raise TableError("Computer players play only with a deck whose pictures are described, like Dreams.")
    return game


def _level(level) -> str:
    if level not in BOT_LEVELS:
        raise TableError("Choose a level for the computer player: easy or normal.")
    return level


@refusals_only
def add_bot(code: str, host_token: str, level: str = "normal") -> Seat:
    """Seat a computer player in the lobby (the host only)."""
    with changing(code, host_token) as change:
        conn, room, code = change.conn, change.room, change.code
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
        store().insert_seat(conn, code, seat, name, hash_token(token), time_now())
        store().put_bot(conn, code, seat, token, _level(level), True, time_now())
    return Seat(code, seat, token, name)


@refusals_only
def hand_to_bot(code: str, host_token: str, seat: int, level: str = "normal") -> int:
    """A computer player plays this seat from now on (its player went home); the player's own link
    keeps working, and `take_back` gives the seat back with its hand and score."""
    with changing(code, host_token) as change:
        conn, room, code = change.conn, change.room, change.code
        _bot_game(room)
        if room["status"] != "playing":
            raise TableError("A seat can be handed to a computer player while a game is being played.")
        if not is_whole(seat) or not any(s["seat"] == seat for s in store().seats(code, conn)):
            raise TableError("That player is no longer in the room.")
        if any(b["seat"] == seat for b in store().bots(code, conn)):
            raise TableError("A computer player already plays that seat.")
        store().put_bot(conn, code, seat, secrets.token_urlsafe(16), _level(level), False, time_now())
    version = change.version
    return version


@refusals_only
def take_back(code: str, host_token: str, seat: int) -> int:
    """The seat's player is back: the computer player hands it over, hand and score as they are."""
    with changing(code, host_token) as change:
        conn, code = change.conn, change.code
        bot = next((b for b in store().bots(code, conn) if b["seat"] == seat), None)
        if bot is None or bot["seated"]:
            raise TableError("No player's seat is being played by a computer player there.")
        store().drop_bot(conn, code, seat)
    version = change.version
    return version


@refusals_only
def bot_seats(code: str) -> list[dict]:
    """The computer players of a room, with the token each plays its seat with: for the process
    that runs them (engine/bots), which then plays through view/legal/submit like any client."""
    return [
        {"seat": b["seat"], "token": b["token"], "level": b["level"], "seated": b["seated"]}
        for b in store().bots(room_row(code)["code"])
    ]


@refusals_only
def rooms_with_bots() -> list[str]:
    return store().rooms_with_bots()
