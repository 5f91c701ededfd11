"""A screen's live spots: the parts of it that change on most moves (whom the table waits for, who
is connected, how many cards are given), drawn again from the push with no Streamlit rerun.

A page draws each spot with a function of the view (`pages.push.spot`), and at the end of its run
keeps a `Board`: the room, the viewer, and how to draw its spots again. The tab's socket names its
board; on each new version the socket draws the board's spots from its own viewer's view at that
version and sends the HTML along (`tables.look`). A spot sees only the view's header and the
fields the game calls live (`Live.fields`), so what a push carries is what that screen may show.
"""

from __future__ import annotations

import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

MAX_BOARDS = 20_000  # one per open screen; the oldest is forgotten first (its tab then reruns)
ID_MAX = 40

# The view's header (engine/tables/views.py), which every spot may read: who is who, the room's
# status and phase, the scores. It changes with the structure of the screen, not on most moves.
HEADER = (
    "code",
    "game",
    "title",
    "status",
    "version",
    "game_no",
    "names",
    "you",
    "language",
    "options",
    "turn_word",
    "bots",
    "handed",
    "phase",
    "scores",
    "out",
    "ended_by_host",
)


@dataclass(frozen=True)
class Board:
    """One mount's live spots: `draw(view)` -> {spot name: HTML} for its viewer's view."""

    code: str
    seat: int | None
    draw: Callable[[dict], dict[str, str]]


# In a module of its own in sys.modules, like engine.push.live's registry, so that a copy of this
# module imported anew (Streamlit reloads changed sources) shares it.
_STATE_MODULE = "_sobremesa_spots_state"
_S: Any = sys.modules.get(_STATE_MODULE)
if _S is None:
    _S = types.ModuleType(_STATE_MODULE)
    _S.lock = threading.Lock()
    _S.boards = OrderedDict()
    _S = sys.modules.setdefault(_STATE_MODULE, _S)


def keep(board_id: str, board: Board) -> None:
    with _S.lock:
        _S.boards.pop(board_id, None)
        _S.boards[board_id] = board
        while len(_S.boards) > MAX_BOARDS:
            _S.boards.popitem(last=False)


def find(board_id: object, code: str, seat: int | None) -> Board | None:
    """The board a socket names, if it is this room's and this viewer's (a socket proves its seat
    with its ticket): else None, and the tab reruns as it would without spots."""
    if not isinstance(board_id, str) or not 0 < len(board_id) <= ID_MAX:
        return None
    with _S.lock:
        board = _S.boards.get(board_id)
    if board is None or board.code != code or board.seat != seat:
        return None
    return board


def live_view(view: dict, live: tuple[str, ...], connected: Callable[[], Any] | None = None) -> dict:
    """What a spot sees of `view`: its header and the `live` fields; `connected` (the seats with a
    socket open) is asked for only when it is one of them."""
    seen = {k: view[k] for k in HEADER if k in view}
    for k in live:
        if k == "connected":
            seen[k] = sorted(connected()) if connected is not None else []
        elif k in view:
            seen[k] = view[k]
    return seen
