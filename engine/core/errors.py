"""The error family. Every message says what was refused and why, and never names another
seat's secret: it may be shown as it is to the player who caused it."""
from __future__ import annotations


class SobremesaError(Exception):
    """Root of every refusal the app shows to a person."""


class MoveError(SobremesaError):
    """A move the rules refuse. Carries the phase and seat it was tried in."""

    def __init__(self, reason: str, *, phase: str | None = None, seat: int | None = None):
        self.reason, self.phase, self.seat = reason, phase, seat
        where = []
        if seat is not None:
            where.append(f"seat {seat}")
        if phase is not None:
            where.append(f"phase '{phase}'")
        super().__init__(f"{reason} ({', '.join(where)})" if where else reason)


class UnknownMove(MoveError):
    """The move is malformed or names an action this game does not have."""


class WrongPhase(MoveError):
    """The action exists, but not in the current phase."""


class NotYourTurn(MoveError):
    """Someone else must act now (boardgame.io's InactivePlayer)."""


class AlreadyMoved(MoveError):
    """This seat has already made its move in this phase: a double click, or a second try."""


class IllegalMove(MoveError):
    """The move breaks a rule: a card not in hand, a vote for one's own card, ..."""


class GameOver(MoveError):
    """The game has ended; nothing more can be played."""


class TableError(SobremesaError):
    """A refusal of the table service: rooms, seats, tokens, host actions."""


class RoomNotFound(TableError):
    def __init__(self, code: str):
        super().__init__(f"There is no room with the code '{code}'. Check the code on the shared screen.")


class BadToken(TableError):
    def __init__(self, what: str = "seat"):
        super().__init__(
            f"This {what} link is not valid for this room (wrong or old token). "
            "Scan the room's QR code again to join."
        )


class RoomFull(TableError):
    pass


class NameTaken(TableError):
    pass


class BadName(TableError):
    pass


class NotStarted(TableError):
    pass


class AlreadyStarted(TableError):
    pass


class BadOptions(TableError):
    pass
