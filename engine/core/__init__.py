"""Pure rules machinery shared by every game: the Game, the move pipeline, the errors, the rng."""

from engine.core.errors import (  # noqa: F401
    AlreadyMoved,
    AlreadyStarted,
    BadName,
    BadOptions,
    BadToken,
    GameOver,
    IllegalMove,
    InternalError,
    MoveError,
    NameTaken,
    NotHost,
    NotStarted,
    NotYourTurn,
    RevealOn,
    RoomFull,
    RoomNotFound,
    SobremesaError,
    TableError,
    TooManyRooms,
    TooManyTries,
    UnknownMove,
    WrongPhase,
)
from engine.core.game import LANGUAGES, REVEALED, SHARED, Game, roundtrip, score_winners, table_view  # noqa: F401
from engine.core.moves import check, perform, play  # noqa: F401
