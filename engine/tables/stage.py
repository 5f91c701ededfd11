"""The stage's side of the service: who a stage socket is, what its viewer sees now, and its moves,
each played once whatever the retries (`move_ids`, in the move's own transaction).

A socket proves who it is once, with its token (`stage_who`); every look checks again that the
token still holds (a seat's renewed link, a kick, a member removed: the look answers None and the
socket shows its blank "removed" screen). Looks read from the caches a push already fills (the
room's rows and its views, once per version), so a hundred sockets of one room cost one read."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import Counter
from dataclasses import dataclass

from engine.core import BadToken, IllegalMove, RoomNotFound, TooManyTries
from engine.games import GAMES
from engine.tables import audience, host, remote
from engine.tables.base import (
    hash_token,
    normalise_code,
    notify,
    probed,
    refusals_only,
    room_lock,
    room_row,
    store,
    time_now,
    token_ok,
)
from engine.tables.play import apply_in, locked
from engine.tables.state import under_way
from engine.tables.unit import Unit
from engine.tables.views import kept_view, looked_rows

MOVE_ID_MAX = 64


@dataclass(frozen=True)
class Who:
    """A stage socket's viewer: the wall (kind "wall"), a seat, a member or the host (its remote,
    or a wall that proved the host's key), with its token's hash."""

    kind: str
    token_hash: str = ""
    member: str = ""

    def key(self, seat: int | None = None) -> str:
        """Whose move ids these are: a seat's number, or a member's id."""
        return f"s{seat}" if self.kind == "seat" else "h" if self.kind == "host" else f"m{self.member}"


@refusals_only
def stage_who(
    code: str, token: str | None = None, member: str | None = None, device=None, host: str | None = None
) -> Who:
    """Who a socket's first message says it is: a seat's token, a member's id and token, or nobody
    (the wall, which shows only public things). A wrong token and a wrong code read the same. A
    hello from `device` (a `gate.Device`) naming a wrong code counts against it as a page's lookup
    does (`probed`): past the limit, only a seat's or a member's own token opens a room. `host`:
    the room's host key (engine/tables/remote.py), read the same way."""
    if host is not None:
        remote.host_hello(code, host, device)
        return Who("host", hash_token(host))
    if token is None:
        probed(code, device)
        return Who("wall")

    def holds(room: dict) -> bool:
        if member is not None:
            return audience.is_member(room["code"], member, token)
        return any(token_ok(token, s["token_hash"]) for s in store().seats(room["code"]))

    try:
        room = probed(code, device, holds)
    except (RoomNotFound, TooManyTries):
        raise BadToken("member" if member else "player") from None
    if member is not None:
        audience.member_row(room["code"], member, token)
        return Who("member", hash_token(token), member)
    if not holds(room):
        raise BadToken("player")
    return Who("seat", hash_token(token))


def room_language(code: str) -> str | None:
    """The language a room speaks (its pages' `<html lang>`), or None for no such room. Not counted
    as a lookup: the page that follows counts it (`probed`)."""
    normal = normalise_code(code)
    room = store().room(normal) if normal else None
    return room["language"] if room else None


def room_exists(code: str) -> bool:
    """Whether the room is still there (a game erased from the archive takes its finished room)."""
    normal = normalise_code(code)
    return bool(normal) and store().room(normal) is not None


# A member's part of a look, per room, version and picks made: the members, their points, this
# turn's picks and the last reveal's, read once for every member's socket.
_boards: dict[str, tuple[tuple[int, int], dict]] = {}
_boards_guard = threading.Lock()


def _audience_board(room: dict, turn: int, member: str | None = None) -> dict:
    """`member`: the member looking; one the kept board does not know yet (joining bumps no
    version) has the board read again. At a new version of the same turn the members are kept
    while their mark holds (`members_mark`: any join or removal moves it, in any process), the
    reveals, points and last turn's picks until the turn moves on (a reveal is written in the move
    that ends its turn), and this turn's picks while the room's pick mark holds (`pick_mark`: any
    pick or removal moves it, in any process; a pick made here writes itself into the board,
    `_picked`). A hall's vote read three hundred picks again at every seat's vote."""
    code, version = room["code"], (room["version"], audience.picks_made(room["code"]))
    with _boards_guard:
        kept = _boards.get(code)
    if kept is not None and kept[0] == version and (member is None or member in kept[1]["members"]):
        return kept[1]
    moment = (room["game_no"], room["status"], turn)
    joined = store().members_mark(code)
    old = kept[1] if kept is not None and kept[1]["_moment"] == moment and kept[1]["_joined"] == joined else None
    marked = store().pick_mark(code)
    if old is not None and old["_marked"] == marked:
        picks = dict(old["picks"])  # the same lists: a member's own stamp is kept by them
    else:
        picks = {}
        if room["status"] != "lobby":
            for p in store().member_picks(code, room["game_no"], turn):
                picks.setdefault(p["member"], []).append(p["pick"])
    if old is not None:
        board = {**old, "picks": picks}  # all but the picks as they were (their stamp's `_base` too)
    else:
        board = _new_board(room, turn, picks)
        board["_moment"], board["_joined"] = moment, joined
    board["_marked"] = marked
    with _boards_guard:
        _boards[code] = (version, board)
        while len(_boards) > 512:
            _boards.pop(next(iter(_boards)))
    return board


def _new_board(room: dict, turn: int, picks: dict) -> dict:
    code = room["code"]
    reveals = store().reveals(code, room["game_no"]) if room["status"] != "lobby" else []
    last = reveals[-1] if reveals else None
    last_picks: dict[str, list] = {}
    if last is not None:
        for p in store().member_picks(code, room["game_no"], last["turn"]):
            last_picks.setdefault(p["member"], []).append(p["pick"])
    members = {m["id"]: m for m in store().members(code)}
    points = audience.points_of(reveals)  # from the reveals read here, not read again
    scores = sorted((points.get(m, 0) for m in members), reverse=True)
    return {
        "turn": turn,
        "members": members,
        "points": points,
        # each score's place in the audience (1 + how many scored more) and how many share it:
        # worked out once a version, not once a member (a hall of 300 asks 300 times)
        "places": {p: scores.index(p) + 1 for p in set(scores)},
        "sharing": Counter(scores),
        "picks": picks,
        "last": last,
        "last_picks": last_picks,
    }


def members_stamp(code: str) -> tuple[str, dict[str, str], str] | None:
    """Everything a member's `me` is made of now (`_me`), as stamps: (what every member's is made
    of: the room's state of play, the audience's board but this turn's picks; each member's own:
    their picks and what those picks may pick next, by member; the same for a member who has not
    picked). While a member's two hold, their `me` is what it was (tested on random games), and a
    hall's three hundred looks need not be taken again; one member's pick moves only their own.
    None when the room is gone."""
    try:
        room, seats = looked_rows(code)
    except RoomNotFound:
        return None
    mark = (room["version"], audience.picks_made(room["code"]))  # what the board is kept by, too
    with _boards_guard:
        kept = _stamps.get(room["code"])
    if kept is not None and kept[0] == mark:
        return kept[1]
    view = kept_view(room, seats, None)
    board = _audience_board(room, view.get("history_length", 0))
    with _boards_guard:  # a pick writes its member's picks into the board (`_picked`): the rest is as built
        base = board.get("_base")
        if base is None:  # kept with the board, and carried with it while only the picks move
            base = board["_base"] = _hash({k: v for k, v in board.items() if k not in ("picks", "_base")})
        picks = dict(board["picks"])
    game = GAMES[room["game"]]
    watched = game.audience.of(view["options"]) if game.audience else None
    playing = watched is not None and room["status"] == "playing"
    # A member's own stamp is kept for the version with their picks' list (a pick puts a new list
    # in the board): between two crowd runs only the members who picked are stamped again. At a
    # new version what they may pick next is worked out again, once per text of picks; the text
    # is kept with the list (the board keeps the lists while the pick mark holds).
    made = kept[2] if kept is not None else {}
    same = kept is not None and kept[0][0] == mark[0]
    own_of: dict[str, str] = {}  # the text of a member's picks -> their own stamp

    def own(text: str, mine: list) -> str:
        found = own_of.get(text)
        if found is None:
            offered = _offered(game, watched, room, view, mine) if playing else None
            found = own_of[text] = _hash((text, repr(offered)))
        return found

    mine_of: dict[str, tuple[list, str, str]] = {}  # member -> (their picks, own stamp, the picks' text)
    for who, mine in picks.items():
        was = made.get(who)
        if was is None or was[0] is not mine:
            text = repr(mine)
            mine_of[who] = (mine, own(text, mine), text)
        else:
            mine_of[who] = was if same else (mine, own(was[2], mine), was[2])
    parts = (room["status"], room["game"], view.get("history_length"), repr(view["options"]), base)
    stamps = (_hash(parts), {who: found[1] for who, found in mine_of.items()}, own("[]", []))
    with _boards_guard:
        _stamps[room["code"]] = (mark, stamps, mine_of)
        while len(_stamps) > 512:
            _stamps.pop(next(iter(_stamps)))
    return stamps


def _hash(parts) -> str:
    return hashlib.blake2b(repr(parts).encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


_stamps: dict[
    str, tuple[tuple[int, int], tuple[str, dict[str, str], str], dict]
] = {}  # code -> (version and picks made, stamps, each member's picks, own stamp and their text)


def stage_look(code: str, who: Who) -> dict | None:
    """{"version", "view", "me"?} for this viewer now, or None when its token no longer holds (or
    the room is gone)."""
    try:
        room, seats = looked_rows(code)
    except RoomNotFound:  # any other fault is raised: a phone is never blanked by one
        return None
    if who.kind == "host" and room["host_hash"] != who.token_hash:
        return None  # the key was renewed since: this remote's controls are gone
    if who.kind in ("wall", "host"):
        return {"version": room["version"], "view": kept_view(room, seats, None), "host": host.mark(room["host_hash"])}
    if who.kind == "seat":
        row = next((s for s in seats if s["token_hash"] == who.token_hash), None)
        if row is None:
            return None
        view = kept_view(room, seats, row["seat"])
        if room["status"] == "playing" and row["seat"] in view.get("out", ()):
            return None  # the host took this seat out: its phone keeps nothing of the game
        return {"version": room["version"], "view": view, "seat": row["seat"]}
    view = kept_view(room, seats, None)
    board = _audience_board(room, view.get("history_length", 0), who.member)
    found = board["members"].get(who.member)
    if found is None or found["token_hash"] != who.token_hash:
        return None
    return {"version": room["version"], "view": view, "me": _me(room, view, who.member, found, board)}


def _me(room: dict, view: dict, member: str, found: dict, board: dict) -> dict:
    game = GAMES[room["game"]]
    watched = game.audience.of(view["options"]) if game.audience else None
    mine = board["picks"].get(member, [])
    may: list = []
    done = False
    if watched is not None and room["status"] == "playing":
        may, done = _offered(game, watched, room, view, mine)
    last = board["last"]
    shown_last = None
    if last is not None and last["turn"] == view.get("history_length", 0) - 1:
        shown_last = {"picks": board["last_picks"].get(member, []), "points": last["points"].get(member, 0)}
    mine_points = board["points"].get(member, 0)
    return {
        "id": member,
        "name": found["name"],
        "points": mine_points,
        "place": board["places"].get(mine_points, 1),  # where the member stands in the audience, of how many
        "of": len(board["members"]),
        "tied": board["sharing"][mine_points] > 1,
        "picks": mine,
        "may_pick": may,
        "done": done,
        "does": watched.does if watched else "",
        "last": shown_last,
    }


def _picked(room: dict, member: str, turn: int, mine: list, mark: int, made: int) -> None:
    """A member's pick (`mine`: their picks in `turn` now), written into the room's kept board
    rather than reading it all again: in a hall every pick would read three hundred members' rows.
    Only when the pick's `mark` is the next one after the board's, and the board is kept again only
    under the count of this process's picks and removals that this pick made (`made`): a pick or a
    removal made meanwhile, here or in another process (or this member's own earlier pick, answered
    later), is not in it, and the next look reads the board again."""
    code = room["code"]
    with _boards_guard:
        kept = _boards.get(code)
    if kept is None or kept[0][0] != room["version"] or room["status"] != "playing":
        return
    state_turn = kept[1].get("turn")
    if state_turn is None:
        return
    if state_turn != turn:
        mine = store().picks_of(code, room["game_no"], state_turn, member)
    with _boards_guard:
        now = _boards.get(code)
        if now is kept and kept[1].get("_marked") == mark - 1:
            kept[1]["picks"][member] = mine
            kept[1]["_marked"] = mark
            if made == audience.picks_made(code):
                _boards[code] = ((room["version"], made), kept[1])


_offers: dict[tuple, tuple[list, bool]] = {}


def _offered(game, watched, room: dict, view: dict, mine: list) -> tuple[list, bool]:
    """(what a member may pick now, whether they are done for this turn): the same for every member
    who picked the same, so worked out once per (room, version, picks), under the room's lock once
    (a hall's members mostly share it)."""
    # repr, not JSON (a fifth of the cost, for each member at each draw): equal picks written in
    # another order only miss, and are worked out again
    mark = (view["code"], view["version"], repr(mine))
    with _boards_guard:
        found = _offers.get(mark)
    if found is None:
        with room_lock(room["code"]):
            state = under_way(room).state
            over = game.outcome(state) is not None
            done = not over and watched.done(state, mine)
        found = ([] if over or done else watched.picks(view, mine), done)
        with _boards_guard:
            _offers[mark] = found
            while len(_offers) > 4096:
                _offers.pop(next(iter(_offers)))
    return found


def _body(move) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


@refusals_only
def stage_move(code: str, who: Who, token: str, move_id: str, move) -> dict:
    """A tap from a stage socket: `{"ack": id, "version": n}` once committed. The same id again gets
    the first answer; the same id with another move is refused. Raises the move's refusal. One unit
    of work (engine/tables/unit.py): the room's row and seats read once, the seat found and proved
    by the token's hash the socket's hello proved."""
    if not isinstance(move_id, str) or not 0 < len(move_id) <= MOVE_ID_MAX or not isinstance(move, dict):
        raise IllegalMove("That tap could not be read. Try again.")
    body = _body(move)
    if who.kind == "member":
        return _member_move(room_row(code), who, token, move_id, move, body)
    if who.kind == "host":
        return _host_move(room_row(code)["code"], who, token, move_id, move, body)
    if who.kind != "seat":
        raise IllegalMove("The shared screen only shows the table: play on your phone.")
    code = normalise_code(code)

    def work(u: Unit):
        actor = u.seat_of(who.token_hash)
        key = who.key(actor.seat)
        found = u.store.move_answer(code, key, move_id, u.conn)
        if found is not None:
            return found
        version = apply_in(u, {**move, "seat": actor.seat}, actor)
        answer = {"ack": move_id, "version": version}
        u.store.put_move_answer(u.conn, code, key, move_id, body, answer, time_now())
        return body, answer

    first, answer = locked(code, work)
    if first != body:
        raise IllegalMove("That tap was already sent with another move.")
    notify(code, answer["version"])
    return answer


def _once(code: str, who: Who, move_id: str, body: str, play) -> dict:
    """A tap that is not a move of the game (a member's pick, the host's action) played once per
    id: `play()` acts, the answer is kept, and the same id again gets it without acting."""
    key = who.key()
    found = store().move_answer(code, key, move_id)
    if found is not None:
        if found[0] != body:
            raise IllegalMove("That tap was already sent with another move.")
        return found[1]
    play()
    room = room_row(code)
    answer = {"ack": move_id, "version": room["version"]}
    with store().transaction() as conn:
        if store().move_answer(code, key, move_id, conn) is None:
            store().put_move_answer(conn, code, key, move_id, body, answer, time_now())
    return answer


def _member_move(room: dict, who: Who, token: str, move_id: str, move: dict, body: str) -> dict:
    """A pick, played once per id as `_once` plays a tap: its answer is kept in the pick's own
    transaction, and looked up there (a hall's members pick three hundred at once). A pick replaces
    the member's pick in its slot: played twice, it is the same pick."""
    once = audience.Once(who.key(), move_id, body)
    picked = audience.pick_once(room["code"], who.member, token, move, once, room)
    if not picked.again:
        _picked(picked.room, who.member, picked.turn, picked.mine, picked.mark, picked.made)
    return picked.answer


def _host_move(code: str, who: Who, token: str, move_id: str, move: dict, body: str) -> dict:
    """A tap of the host's remote (or a key of the host's wall), played once per id as a seat's."""
    return _once(code, who, move_id, body, lambda: remote.host_move(code, token, move))


@refusals_only
def audience_view(code: str, member: str, token: str, device=None) -> dict:
    """The shared screen's view, and under `member` this member's own, as their stage socket draws
    it (`stage_look`): name, points in this game, picks in this turn, the picks they may make now
    and what members do in this game. A page passes the `device` asking: a code that names no room
    counts against it as on every way in (`probed`), and a wrong code gets the same answer as a
    wrong token."""
    try:
        room = probed(code, device, proof=lambda r: audience.is_member(r["code"], member, token))
    except RoomNotFound:
        raise BadToken("member") from None
    audience.member_row(room["code"], member, token)
    look = stage_look(room["code"], Who("member", hash_token(token), member))
    if look is None:
        raise BadToken("member")
    return {**look["view"], "member": {k: v for k, v in look["me"].items() if k != "last"}}


@refusals_only
def audience_legal(code: str, member: str, token: str) -> list[dict]:
    return audience_view(code, member, token)["member"]["may_pick"]
