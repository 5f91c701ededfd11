"""The audience: people beside the seats who pick along with the players and score points of their
own, never the players'. What they pick and what scores is each game's (`Game.audience`,
engine/core/audience.py); this module keeps their names, links, picks and points (the store's
`members`, `member_picks` and `reveals`), beside the game and never in its move log: a pick neither
changes the game nor bumps the room's version (the walls are woken to draw it: `live.refresh`).

A member's link is their identity, as a seat's is: `?room=CODE&member=ID&token=...`. Their view is
the shared screen's (no secret of any seat) plus their own picks and points. Picks stay secret from
everyone until the turn (round, face) they belong to closes; then `reveal` scores them, in the
transaction of the move that closed it, and the record keeps the counts.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from engine.core import (
    SHARED,
    BadOptions,
    BadToken,
    GameOver,
    IllegalMove,
    NameTaken,
    NotStarted,
    RoomFull,
    TableError,
    ranking,
    table_view,
)
from engine.core.moves import is_whole
from engine.games import GAMES
from engine.push import live
from engine.tables import holders
from engine.tables.base import clean_name, hash_token, refusals_only, room_lock, room_row, store, time_now, token_ok
from engine.tables.state import under_way

CAP = 300  # members a room takes unless its host chose otherwise: a hall, an assembly
CAP_MOST = 500  # tables.AUDIENCE_MOST
SETTINGS = ("audience", "audience_max")


@dataclass(frozen=True)
class Member:
    code: str
    id: str
    token: str
    name: str


def settings(options: dict) -> tuple[dict, dict]:
    """A room's options split into the game's and the audience's: open (default on) and its cap."""
    options = dict(options)
    open_ = options.pop("audience", True)
    cap = options.pop("audience_max", CAP)
    if not isinstance(open_, bool):
        raise BadOptions("The audience is either on or off.")
    if not is_whole(cap) or not 1 <= cap <= CAP_MOST:
        raise BadOptions("An audience takes from 1 to {most} people.", most=CAP_MOST)
    return options, {"open": open_, "cap": cap}


def audience_setting(code: str, conn=None) -> dict:
    return store().audience_room(code, conn) or {"open": True, "cap": CAP}


@refusals_only
def join_audience(code: str, name: str, device=None) -> Member:
    """A new member, in the lobby or during a game. Same name rules as seats; no name twice in a
    room, seats included. A page passes the `device` asking: one seat or membership per device and
    room, and so many joins a minute per address (engine/tables/holders.py)."""
    name = clean_name(name)
    code = room_row(code)["code"]
    with room_lock(code):
        with store().transaction() as conn:
            setting = audience_setting(code, conn)
            if not setting["open"]:
                raise TableError("This room has no audience: ask the host for a seat instead.")
            members = store().members(code, conn)
            if len(members) >= setting["cap"]:
                raise RoomFull("The audience is full ({count} people).", count=len(members))
            taken = [m["name"] for m in members] + [s["name"] for s in store().seats(code, conn)]
            if any(t.casefold() == name.casefold() for t in taken):
                raise NameTaken("Someone is already called {name} here. Pick another name.", name=name)
            now = time_now()
            if members and members[-1]["joined_at"] >= now:  # the same millisecond as the last one: just after it,
                now = _just_after(members[-1]["joined_at"])  # so the lobby's "who came in last" keeps their order
            holders.check(conn, code, device, now, holders.name_of(conn, code))
            member, token = secrets.token_urlsafe(6), secrets.token_urlsafe(16)
            store().insert_member(conn, code, member, name, hash_token(token), now)
            holders.hold(conn, code, device, "member", member, now)
    changed(code)  # the members' board is read again: one more in the audience moves everyone's "of"
    live.refresh(code, pace=live.COUNT_PACE)  # the wall counts its audience, the members their places
    return Member(code, member, token, name)


def _just_after(when: str) -> str:
    moment = datetime.fromisoformat(when.replace("Z", "+00:00")) + timedelta(milliseconds=1)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


def member_row(code: str, member, token, conn=None) -> dict:
    found = store().member(code, member, conn) if isinstance(member, str) and len(member) <= 64 else None
    if found is None or not token_ok(token, found["token_hash"]):
        raise BadToken("member")
    return found


def is_member(code: str, member, token) -> bool:
    try:
        member_row(code, member, token)
        return True
    except BadToken:
        return False


def _mine(code: str, game_no: int, turn: int, member: str, conn=None) -> list[dict]:
    return store().picks_of(code, game_no, turn, member, conn)


def points(code: str, game_no: int, conn=None) -> dict[str, int]:
    """Each member's points in this game so far."""
    return points_of(store().reveals(code, game_no, conn))


def points_of(reveals: list[dict]) -> dict[str, int]:
    """Each member's points over these reveals."""
    total: dict[str, int] = {}
    for reveal in reveals:
        for member, earned in reveal["points"].items():
            total[member] = total.get(member, 0) + earned
    return total


def may_pick(game, room: dict, state: dict | None, member: str, conn=None) -> tuple[list[dict], list[dict], bool]:
    """(the picks this member may make now, those they made in this turn, whether they are done
    for this turn: Audience.done)."""
    if game.audience is None or state is None or game.outcome(state) is not None:
        return [], [], False
    audience = game.audience.of(state["options"])
    if audience is None:
        return [], [], False
    mine = _mine(room["code"], room["game_no"], len(state["history"]), member, conn)
    if audience.done(state, mine):
        return [], mine, True
    return audience.picks(table_view(game, state, SHARED), mine), mine, False


@refusals_only
def audience_submit(code: str, member: str, token: str, move: dict) -> int:
    """A member's pick, kept beside the game until its turn closes. Returns how many picks this
    member holds in this turn. A pick that is not on offer now is refused and changes nothing."""
    return len(_submit(code, member, token, move).mine)


@dataclass(frozen=True)
class Once:
    """A tap's id, as `move_ids` keeps it: who sent it (`Who.key`), its id and its body."""

    who: str
    move_id: str
    body: str


@dataclass(frozen=True)
class Picked:
    answer: dict | None  # the tap's answer (with `once`), the first one when the id came again
    again: bool  # the id came again: nothing was played
    room: dict
    turn: int
    mine: list  # the member's picks in this turn, after it
    mark: int = 0  # the room's pick mark after it (`store().pick_mark`)
    made: int = 0  # this process's count of picks and removals after it (`picks_made`)


def _submit(
    code: str, member: str, token: str, move: dict, once: Once | None = None, room: dict | None = None
) -> Picked:
    """The pick in one transaction: with `once`, its answer is kept in the same one (a stage tap),
    and an id already answered plays nothing (two of the same tap at once are played once: the
    room's lock orders them). `room`: its row as the caller read it (it is read again inside)."""
    if not isinstance(move, dict):
        raise IllegalMove("That pick is not possible now.")
    room = room or room_row(code)
    code = room["code"]
    game = GAMES[room["game"]]
    audience = game.audience
    with room_lock(code):
        with store().transaction() as conn:
            room = room_row(code, conn)
            member_row(code, member, token, conn)
            if once is not None:
                found = store().move_answer(code, once.who, once.move_id, conn)
                if found is not None:
                    if found[0] != once.body:
                        raise IllegalMove("That tap was already sent with another move.")
                    return Picked(found[1], True, room, -1, [])
            if audience is None:
                raise IllegalMove("Nothing to pick in this game: follow it on the shared screen.")
            if room["status"] == "finished":
                raise GameOver("The game is over: there is nothing more to pick.")
            if room["status"] != "playing":
                raise NotStarted("The game has not started yet: picks open when the players play.")
            state = under_way(room, conn).state
            may, _mine_now, done = may_pick(game, room, state, member, conn)
            if done:
                raise IllegalMove("You are done for this turn: wait for the next one.")
            pick = _checked(game, move, may)
            turn = len(state["history"])
            mark = store().put_pick(conn, code, room["game_no"], turn, member, audience.slot(pick), pick, time_now())
            mine = _mine(code, room["game_no"], turn, member, conn)
            answer = None
            if once is not None:  # a pick bumps no version: the answer names the room's
                answer = {"ack": once.move_id, "version": room["version"]}
                store().put_move_answer(conn, code, once.who, once.move_id, once.body, answer, time_now())
    made = changed(code)  # the stage's members' looks read the picks again
    # How many have picked: the walls' count, paced (a hall picks in a burst). The member's own
    # phone draws its pick after its answer; no other member's screen changes.
    live.refresh(code, roles=("wall",), pace=live.COUNT_PACE)
    return Picked(answer, False, room, turn, mine, mark, made)


pick_once = refusals_only(_submit)


_picked: dict[str, int] = {}  # code -> picks made in this process: a pick bumps no version
_picked_guard = threading.Lock()  # a pick and a removal may count at once, from two threads


def picks_made(code: str) -> int:
    """Picks made, and members removed, in this process: what a member's stage look reads again on."""
    return _picked.get(code, 0)


def changed(code: str) -> int:
    """One more pick or removal in this process; returns the count it made."""
    with _picked_guard:
        made = _picked[code] = _picked.get(code, 0) + 1
    return made


def _checked(game, move: dict, may: list[dict]) -> dict:
    """The pick as offered (free text filled in and trimmed), or a refusal in the member's words."""
    if not may:
        raise IllegalMove("Nothing to pick right now: wait for the next moment to pick.")
    text = game.audience.text if game.audience else {}
    for offered in may:
        if set(move) != set(offered):
            continue
        if all(move[k] == v for k, v in offered.items() if k not in text):
            pick = dict(offered)
            for field, most in text.items():
                typed = move.get(field)
                if not isinstance(typed, str) or not typed.strip():
                    raise IllegalMove("Type an answer first.")
                if len(typed) > most:
                    raise IllegalMove("An answer can be at most {most} characters.", most=most)
                pick[field] = typed.strip()
            return pick
    raise IllegalMove("That pick is not possible now.")


def reveal(conn, code: str, game_no: int, game, state: dict, closed: int) -> None:
    """In the transaction of a move that closed turns `closed`..: score the members' picks of each."""
    audience = game.audience.of(state["options"]) if game.audience else None
    if audience is None or not store().members(code, conn):
        return
    for turn in range(closed, len(state["history"])):
        picks: dict[str, list[dict]] = {}
        for p in store().member_picks(code, game_no, turn, conn):
            picks.setdefault(p["member"], []).append(p["pick"])
        earned, counts = audience.score(state["history"][turn], picks)
        store().put_reveal(conn, code, game_no, turn, counts, {m: n for m, n in earned.items() if n})


def record_fields(conn, code: str, game_no: int, game, turns: list[dict]) -> dict:
    """The record's `audience` (names and points, highest first, then by name: a stable order) and
    each turn's `audience_picks` (DESIGN.md), in place on `turns`."""
    members = store().members(code, conn)
    scored = points(code, game_no, conn)
    for reveal_ in store().reveals(code, game_no, conn):
        if reveal_["turn"] < len(turns):
            turns[reveal_["turn"]]["audience_picks"] = reveal_["counts"]
    ranked = sorted(
        ({"name": m["name"], "points": scored.get(m["id"], 0)} for m in members),
        key=lambda m: (-m["points"], m["name"].casefold(), m["name"]),
    )
    return {"audience": ranked}


def header(room: dict) -> dict:
    """What every view says of the audience, changed only by a move (the reveals are made in one):
    the counts of the last turn revealed, and once the game is over the audience's top three: everyone
    placed 1 to 3 who scored (ties share a place), at most 8 by name, and how many more share them."""
    code, game_no = room["code"], room["game_no"]
    if room["status"] == "lobby":
        return {"audience_reveal": None, "audience_top": [], "audience_more": 0}
    reveals = store().reveals(code, game_no)
    last = reveals[-1] if reveals else None
    top: list = []
    more = 0
    if room["status"] == "finished":
        scored = points(code, game_no)
        names = {m["id"]: m["name"] for m in store().members(code)}
        best = sorted(
            ({"name": names[m], "points": p} for m, p in scored.items() if m in names and p),
            key=lambda m: (m["name"].casefold(), m["name"]),  # ties by name
        )
        place = ranking.places([m["points"] for m in best])
        shown, more = ranking.top([m["points"] for m in best])
        top = [{**best[i], "place": place[i]} for i in shown]
    return {
        "audience_reveal": None if last is None else {"turn": last["turn"], "counts": last["counts"]},
        "audience_top": top,
        "audience_more": more,
    }


LATEST = 5


_sizes: dict[str, tuple[tuple, dict]] = {}  # code -> (version, turn and picks made, the wall's counts)


def wall_size(view: dict) -> dict:
    """What a wall shows of its audience (how many, how many picked this turn, who came in last),
    read once per version, turn and picks made or members let in or removed in this process
    (`picks_made`), not at every draw; and with no member, in one read."""
    code, turn = view["code"], view.get("history_length")
    mark = (view["version"], turn, picks_made(code))
    kept = _sizes.get(code)
    if kept is not None and kept[0] == mark:
        return kept[1]
    count, latest = store().member_count(code, LATEST)
    picked = 0
    if count and turn is not None and view["status"] == "playing":
        picked = store().pickers(code, view["game_no"], turn)
    size = {"count": count, "picked": picked, "latest": latest}
    if len(_sizes) > 4096:
        _sizes.clear()
    _sizes[code] = (mark, size)
    return size


@refusals_only
def audience_size(code: str, turn: int | None = None) -> dict:
    """How many members the room has now, whether it takes more, its cap and, given the turn (the
    history's length), how many have picked in it (the join page and the wall's live spot ask:
    joining and picking bump no version)."""
    room = room_row(code)
    setting = audience_setting(room["code"])
    count, latest = store().member_count(room["code"], LATEST)
    picked = 0
    if turn is not None and room["status"] == "playing":
        picked = store().pickers(room["code"], room["game_no"], turn)
    return {
        "open": setting["open"],
        "cap": setting["cap"],
        "count": count,
        "full": count >= setting["cap"],
        "picked": picked,
        "latest": latest,  # the lobby shows who came in last
    }
