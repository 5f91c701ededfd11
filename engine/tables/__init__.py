"""The table service: the one place that checks tokens, applies moves under a per-room lock,
persists and notifies. Pages, tests, the demo simulator and computer players all use this API.

    room = tables.create_room("dixit", options={"contando": True}, seed=7, language="en")
    ana = tables.join(room.code, "Ana")                 # ana.seat, ana.token
    tables.start(room.code, room.host_token)
    moves = tables.legal(room.code, ana.seat, ana.token)
    tables.submit(room.code, ana.seat, ana.token, moves[0])   # -> the room's new version
    tables.view(room.code, ana.seat, ana.token)          # that seat's view; view(room.code) = shared screen
    tables.record(room.code)                              # the saved-game record once the game has ended

Host actions take the host token: `kick`, `skip`, `end`, `play_again` (and, from the host's remote, every one by name: `host_move`);
and for the pace clock
(`create_room(..., options={"pace": "off" | "relaxed" | "brisk", "skip_quiet": bool})`), `pause`,
`resume`, `more_time` and `set_pace`. `tick()` makes the clock's skips that are due, by the time
`clock()` gives where it is set (`with tables.clock(lambda: "2026-11-25T10:00:00+00:00"): ...`).

The audience (`create_room(..., options={"audience": bool, "audience_max": 100})`):
`join_audience(code, name)` -> a `Member` (code, id, token, name); `audience_view`,
`audience_legal` and `audience_submit(code, id, token, pick)`, like a seat's; the host's
`audience_members`, `remove_member` and `open_audience(code, host_token, open)`.

Each game's move vocabulary is the `Move` specs of its module in engine/games (and its docstring);
`legal()` lists every move a seat may submit now, complete, with free-text fields set to None.

Every refusal raises a `SobremesaError` whose message is written for the person who caused it; a
refused call changes nothing. No other exception leaves this module, whatever the input: anything
unexpected is logged in full and reaches the caller as an `InternalError`, which names nothing.


The package, by responsibility: `base` (locks, tokens, names, the room look-up and the one way a
room is changed; the store and the clock are `engine.store`'s), `state` (this process's copy of a room's state), `views`, `play`
(the move path), `rooms` (rooms, seats and their limits, the laptop's list), `rejoins` (asking to
come back in), `host` (the host's key), `remote` (the host's remote, its actions and the
one-time QR that hands the key to a phone), `join_address` (the address phones join at),
`holders` (one place per phone), `sharing` (two phones on one seat), `bots` (computer players' seats) and
`archive` (saved games, statistics rows, keepsakes; `played_by=` a device narrows them to the games
it played in), `erase` (`erase_game(code, game_no)`, `erase_player(name)`: a school's request to
erase), `deadlines` (the pace clock's deadlines,
kept with the room), `pace` (the clock acting, and the host's controls of it) and `audience`
(members beside the seats: their picks and points, never in the game's move log).
"""

from __future__ import annotations

from engine import gate
from engine.core import BadName, SobremesaError  # noqa: F401  (callers catch the service's refusals as tables.X)
from engine.store import close_all
from engine.tables import archive as _archive, state as _state, steps as _steps, views as _views
from engine.tables.archive import (  # noqa: F401
    archive_version,
    keepsake,
    merge_players,
    move_log,
    player_aliases,
    player_key,
    record,
    records,
    replay,
    saved_game,
    settle,
    stat_rows,
)
from engine.tables.audience import (  # noqa: F401
    CAP as AUDIENCE_CAP,  # noqa: F401
    CAP_MOST as AUDIENCE_MOST,  # noqa: F401
    Member,
    audience_size,
    audience_submit,
    join_audience,
    wall_size,
)
from engine.tables.audience_host import (  # noqa: F401
    audience_members,
    open_audience,
    remove_member,
)
from engine.tables.base import (  # noqa: F401
    BOT_LEVELS,
    BOT_MARK,
    BOT_NAMES,
    CODE_LENGTH,
    CODE_LETTERS,
    CODE_SHAPE,
    NAME_MAX,
    TOKEN_MAX,
    Room,
    Seat,
    beside_the_watch,
    clock,
    games,
    normalise_code,
    refusals_only,
    store,
    watch_other_processes,
)
from engine.tables.bots import (  # noqa: F401
    add_bot,
    bot_seats,
    hand_to_bot,
    rooms_with_bots,
    take_back,
)
from engine.tables.erase import erase_game, erase_player  # noqa: F401
from engine.tables.holders import PhoneHasSeat  # noqa: F401  (a page asks the host instead)
from engine.tables.host import check_host, host_mark, renew_host_token  # noqa: F401
from engine.tables.join_address import (  # noqa: F401
    JOIN_ADDRESS,
    join_address,
    join_base,
    join_choices,
    set_join_address,
)
from engine.tables.pace import (  # noqa: F401
    clocks_running,
    hold,
    more_time,
    next_scene,
    outage_pause,
    outage_paused,
    outage_resume,
    pause,
    resume,
    set_pace,
    tick,
)
from engine.tables.play import (  # noqa: F401
    end,
    legal,
    played_since,
    skip,
    submit,
)
from engine.tables.rejoins import (  # noqa: F401
    ASKS_PER_ADDRESS,
    ask_to_join,
    ask_to_rejoin,
    join_requests,
    let_back_in,
    let_join,
    rejoin_requests,
    still_asking,
    still_asking_to_join,
)
from engine.tables.remote import (  # noqa: F401
    PAIR_SECONDS,
    host_move,
    pair_answer,
    pair_ask,
    pair_cancel,
    pair_claim,
    pair_offer,
    pair_request,
    set_sound,
    sound,
)
from engine.tables.rooms import (  # noqa: F401
    IDLE_HOURS,
    LOBBY_HOURS,
    OPEN_LOBBIES,
    OPEN_ROOMS,
    ROOMS_A_MINUTE,
    clean_name,
    create_room,
    find_seat,
    join,
    kick,
    open_rooms,
    play_again,
    start,
)
from engine.tables.sharing import (  # noqa: F401
    SEEN_EVERY,
    seen_on_seat,
    stop_sharing,
)
from engine.tables.stage import (  # noqa: F401
    Who,
    audience_legal,
    audience_view,
    members_stamp,
    room_exists,
    room_language,
    stage_look,
    stage_move,
    stage_who,
)
from engine.tables.state import (  # noqa: F401
    SNAPSHOT_CHARS_PER_MOVE,
    SNAPSHOT_EVERY,
    STATES_KEPT,
    state_of,
)
from engine.tables.views import (  # noqa: F401
    ROOMS_VIEWED,
    version,
    view,
)


def reset() -> None:
    """Forget open stores and every cache (tests switch databases; a restart does the same)."""
    _archive.settle()
    _steps.phase_began.clear()
    close_all()
    _state.forget_all()
    _views.forget_all()
    gate.PROBES.clear()
