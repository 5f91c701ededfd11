"""Saved games: the record (DESIGN.md's format), the statistics' rows, the move log and replays,
players' names across games, and keepsakes.

The record is built when the game ends from the final state, the seats and the turns' end times
(`turn_ends`, stamped as each turn closes): nothing is replayed inside the lock. Once it is
committed, a thread of its own packs the flat rows the statistics need (engine/stats/rows.py) into
one blob beside the record, so the table waits for nothing; rows missing, or packed before the game
had a family, are rebuilt from the record, which stays the export and the source of truth.

Statistics is the laptop's: a phone sees only the games it played in. When a game is saved, the
devices that held its seats and audience memberships (`holders`) are kept beside its record
(`record_devices`); `played_by=<device id>` narrows the archive to those games, and
`played_by=None` is the whole archive (the laptop, and the engine's own callers). No HTTP route
serves archive content but a seat's own keepsakes (pages/routes.py)."""

from __future__ import annotations

import logging
import threading

from engine.core import (
    BadName,
    TableError,
    check,
    perform,
)
from engine.core.game import score_winners
from engine.core.moves import is_whole
from engine.games import GAMES
from engine.tables import audience
from engine.tables.base import normalise_code, refusals_only, room_row, store
from engine.tables.state import room_state

_LOG = logging.getLogger(__name__)


@refusals_only
def record(code: str) -> dict | None:
    return store().record(normalise_code(code)) if normalise_code(code) else None


@refusals_only
def records() -> list[dict]:
    return store().records()


def save_stat_rows_soon(record: dict) -> None:
    """The statistics' rows of a game that just ended, written by a thread of their own: packing
    them takes tens of milliseconds, and the table waits for nothing. If the process stops first,
    `stat_rows()` rebuilds them from the record."""
    saved_in = store()  # the game's own store, whatever the process opens next

    def save() -> None:
        packed = _stat_rows_of(record)
        if packed is not None:
            with saved_in.transaction() as conn:
                saved_in.save_stat_rows(conn, record["room"], record["game_no"], packed)

    thread = threading.Thread(target=save, name="sobremesa-stat-rows", daemon=True)
    thread.start()
    _saving.append(thread)


_saving: list[threading.Thread] = []


def settle() -> None:
    """Wait for background writes (the statistics' rows of games that just ended): for tests,
    tools and a clean shutdown."""
    while _saving:
        _saving.pop().join()


def _stat_rows_of(record: dict) -> bytes | None:
    """The statistics' flat rows of a saved game; None (logged) rather than lose the game itself."""
    try:
        from engine.stats import rows

        return rows.pack(record)
    except Exception:
        _LOG.exception("statistics rows of %s/%s", record.get("room"), record.get("game_no"))
        return None


def _device(played_by: str | None) -> str | None:
    """The device to filter by: a browser without a device id played in no game, so it gets a
    string no device has (never None, which is the whole archive)."""
    return None if played_by is None else str(played_by) or "-"


@refusals_only
def stat_rows(played_by: str | None = None) -> list[bytes]:
    """Every saved game's statistics rows, in archive order (the order of `records()`): what the
    Statistics page reads instead of the records; with `played_by`, only that device's games.
    Rows a game lacks (saved before they existed, or just ended and still being written, or
    packed before its game had a statistics family) are built from its record and stored."""
    from engine.stats import rows

    found = store().stat_rows(_device(played_by))
    for entry in found:
        if entry["packed"] is None or rows.stale(entry["game"], entry["packed"]):
            packed = _stat_rows_of(store().record_of(entry["code"], entry["game_no"]))
            if packed is not None:  # a failed rebuild (logged) keeps the rows it had
                entry["packed"] = packed
                with store().transaction() as conn:
                    store().save_stat_rows(conn, entry["code"], entry["game_no"], packed)
    return [bytes(entry["packed"]) for entry in found if entry["packed"] is not None]


@refusals_only
def saved_game(code: str, game_no: int, played_by: str | None = None) -> dict | None:
    """One saved game's record (the replay of the Statistics page); None if `played_by` (a device
    id) did not play in it."""
    if not is_whole(game_no):
        return None
    code = normalise_code(code)
    if played_by is not None and not store().played_in(code, game_no, _device(played_by)):
        return None
    return store().record_of(code, game_no)


@refusals_only
def archive_version(played_by: str | None = None) -> tuple[int, str, str]:
    """(number of saved games, latest end time, the erasures so far), of `played_by`'s games or of
    all: changes whenever a game is saved or erased. Cheap, so a page can key a cache on it."""
    return store().archive_version(_device(played_by))


def keep_devices(conn, code: str, game_no: int) -> None:
    """At a game's end, in the transaction that saves its record: the devices that played in it
    (seats and audience members; a seat given back by the host or played by the computer has none)."""
    store().keep_record_devices(conn, code, game_no, [h["device"] for h in store().holders(code, conn)])


@refusals_only
def move_log(code: str, game_no: int) -> list[dict]:
    """The accepted moves of one game of a room, in order: [{seq, actor, move, at}]."""
    if not is_whole(game_no):
        raise TableError("There is no such game in this room.")
    return store().moves(normalise_code(code), game_no)


@refusals_only
def replay(code: str) -> dict:
    """The current game rebuilt from its seed and its log alone."""
    room = room_row(code)
    return _replayed(room, len(store().seats(room["code"])), store().moves(room["code"], room["game_no"]))


def _replayed(room: dict, seats: int, log: list, until=None) -> dict:
    game = GAMES[room["game"]]
    state = game.setup(seats, room["options"], room["seed"], game.content.cards(room["options"], seats))
    for entry in log:
        perform(game, state, check(game, state, entry["move"]))
        if until is not None:
            until(state, entry)
    return state


def build_record(conn, room: dict, now: str) -> dict:
    """The archive document (DESIGN.md). Each turn carries the time the move that closed it was made."""
    game = GAMES[room["game"]]
    state = room["state"]
    seats = store().seats(room["code"], conn)
    bots = {b["seat"] for b in store().bots(room["code"], conn)}
    turns = [dict(t) for t in state["history"]]
    ends = store().turn_ends(room["code"], room["game_no"], conn)
    if len(ends) < len(turns):
        ends = _turn_ends_from_log(room, len(seats), len(turns))
    for index, turn in enumerate(turns):
        turn["ended_at"] = ends.get(index, now)
    result = game.outcome(state)
    assert result is not None, "a record is built once the game has ended"
    teams = result.get("teams", {})
    return {
        "format": "sobremesa.game/1",
        "game": room["game"],
        "rules_version": state["rules_version"],
        "options": room["options"],
        "language": room["language"],
        "seed": room["seed"],
        "room": room["code"],
        "game_no": room["game_no"],
        "started_at": room["started_at"],
        "ended_at": now,
        "players": [
            {
                "seat": s["seat"],
                "name": s["name"],
                "team": teams.get(str(s["seat"])),
                **({"bot": True} if s["seat"] in bots else {}),
            }
            for s in seats
        ],
        "turns": turns,
        "final_scores": result["final_scores"],
        "winners": result.get("winners", score_winners(result["final_scores"])),
        "ended_by_host": bool(state.get("ended_by_host")),
        **audience.record_fields(conn, room["code"], room["game_no"], game, turns),
        **result.get("record", {}),
    }


def _turn_ends_from_log(room: dict, seats: int, turns: int) -> dict[int, str]:
    """For a game that was under way before turn times were stamped as turns closed: find them by
    replaying its log, once, when it ends."""
    ends: dict[int, str] = {}

    def stamp(state: dict, entry: dict) -> None:
        for index in range(len(ends), min(len(state["history"]), turns)):
            ends[index] = entry["at"]

    _replayed(room, seats, store().moves(room["code"], room["game_no"]), until=stamp)
    return ends


def player_key(name: str) -> str:
    """A player's identity across games: the display name, case- and space-insensitive."""
    return "".join(str(name).split()).casefold()


@refusals_only
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


@refusals_only
def player_aliases() -> dict[str, str]:
    """name key -> the key it was merged into."""
    return store().aliases()


@refusals_only
def keepsake(code: str, game_no: int, round: int | None = None) -> dict[str, bytes]:
    """{file name: bytes}: an animated GIF per drawing and a contact sheet PNG per round, of one
    round (numbered from 1) or of the whole game when `round` is None. Only rounds already scored
    (their words are public then): of a saved game, or of the room's game in progress."""
    if not is_whole(game_no):
        raise TableError("There is no such game in this room.")
    normal = normalise_code(code)
    record = store().record_of(normal, game_no) if normal else None
    if record is not None:
        game = record["game"]
        turns, names = record.get("turns") or [], {p["seat"]: p["name"] for p in record.get("players", [])}
    else:
        room = room_row(code)
        state = room_state(room) if game_no == room["game_no"] and room["status"] != "lobby" else None
        if state is None:
            raise TableError("There is no such game in this room.")
        game, turns = room["game"], state["history"]
        names = {s["seat"]: s["name"] for s in store().seats(room["code"])}
    make = GAMES[game].content.keepsake if game in GAMES else None
    if make is None:
        raise TableError("Only Pictomania's drawings can be kept.")
    chosen = [t for t in turns if round is None or t.get("round") == round]
    if round is not None and not chosen:
        raise TableError("That round has not been played yet.")
    files: dict[str, bytes] = {}
    for turn in chosen:
        files.update(make(f"sobremesa-{normal.lower()}-{game_no}", turn, names))
    return files
