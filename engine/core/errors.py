"""The error family: every refusal the app shows to a person.

A refusal's message is written for the player who reads it: no seat numbers, phase ids or field
names. It is an English `template` with named `{placeholders}` filled from `params`; the template is
also the key a translation catalogue looks it up by, so a page can show it in its reader's language.
The context (seat, phase, move type, field) lives in attributes, for logs and tests, never in the
message. A message never names another seat's secret.
"""

from __future__ import annotations


class SobremesaError(Exception):
    """Root of every refusal. `str(error)` is the English message."""

    template = "That did not work, and nothing was changed."

    def __init__(self, template: str | None = None, /, *, seat=None, phase=None, move=None, field=None, **params):
        if template is not None:
            self.template = template
        self.params = params
        self.seat, self.phase, self.move, self.field = seat, phase, move, field
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return self.template.format(**self.params) if self.params else self.template

    def __str__(self) -> str:
        return self.message

    def context(self) -> dict:
        """Where it happened, for logs and tests."""
        return {"seat": self.seat, "phase": self.phase, "move": self.move, "field": self.field}


class MoveError(SobremesaError):
    """A move the rules or the move pipeline refuse."""


class UnknownMove(MoveError):
    """The move is malformed or names an action this game does not have."""

    template = "That move was not understood, and nothing was changed."


class WrongPhase(MoveError):
    """The action exists, but not now."""

    template = "That is not possible at this moment of the game."


class NotYourTurn(MoveError):
    """The table is not waiting on this seat for that (boardgame.io's InactivePlayer)."""

    template = "It is not your turn to do that."


class AlreadyMoved(MoveError):
    """This seat has already made this move now: a double click, or a second try."""

    template = "You have already done that."


class IllegalMove(MoveError):
    """The move breaks a rule: a card not in hand, a vote for one's own card, ..."""


class RevealOn(MoveError):
    """The room holds the reveal of the turn just closed: the next turn's moves wait for its end."""

    template = "Everyone is watching the reveal: the game goes on when it ends."


class GameOver(MoveError):
    template = "The game has ended: nothing more can be played."


class NotHost(MoveError):
    template = "Only the host can do that."


class InternalError(SobremesaError):
    """Something failed that is not the player's doing. Logged in full; the player sees only this."""

    template = "Something went wrong on the server. Nothing was changed: try again."


class TableError(SobremesaError):
    """A refusal of the table service: rooms, seats, tokens, host actions."""


class RoomNotFound(TableError):
    template = "There is no room with the code {code}. Check the code on the shared screen."

    def __init__(self, code=""):
        shown = "".join(ch for ch in str(code or "") if ch.isalnum())[:8].upper() or "?"
        super().__init__(code=shown)


class TooManyTries(TableError):
    template = "Too many wrong room codes from this device. Wait a minute, then try again."


class TooManyRooms(TableError):
    """A device or an address created many rooms in a short time, or keeps many lobbies open."""


class BadToken(TableError):
    TEMPLATES = {
        "player": "This player link is not valid for this room (wrong or old link). "
        "Scan the room's QR code again to join.",
        "host": "This host link is not valid for this room (wrong or old link).",
        "member": "This audience link is not valid for this room (wrong or old link). "
        "Scan the room's QR code to join the audience again.",
    }

    def __init__(self, what: str = "player"):
        super().__init__(self.TEMPLATES.get(what, self.TEMPLATES["player"]))


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
