"""Pure rules machinery shared by every game."""
from engine.core.errors import (  # noqa: F401
    AlreadyMoved, AlreadyStarted, BadName, BadOptions, BadToken, GameOver, IllegalMove, MoveError,
    NameTaken, NotStarted, NotYourTurn, RoomFull, RoomNotFound, SobremesaError, TableError,
    UnknownMove, WrongPhase,
)
from engine.core.game import REVEALED, SHARED, Game, play, roundtrip, score_winners  # noqa: F401
