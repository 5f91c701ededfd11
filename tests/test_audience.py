"""The audience through the table service, for every game and variant of GAMES, with 0, 1 and 40
members: members never change the game (the same players' moves without them give the same
game), a pick bumps no version and changes no one else's view, a member's view holds no seat's
secret, and the record's `audience` and `audience_picks` rescore from the members' picks."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine import stats, tables
from engine.core import SobremesaError
from engine.games import GAMES
from tests import kit
from tests.rescore import audience_turn
from tests.test_pace import CASES, NAMES
from tests.test_page_contract import leaked

pytestmark = pytest.mark.usefixtures("plain_cards")
PICKS_PER_MOVE = 1.5  # members' picks between two players' moves, on average (at most one each)


def play_game(case, members: int, moves=None):
    """A seeded room through `tables`: players play `moves` (or random ones, returned), members pick
    at random. Returns (room, the players' moves, {turn: {member id: {slot: pick}}}, members)."""
    name, variant, seats = case
    game = GAMES[name]
    rnd = random.Random(kit.case_id(case))
    room = tables.create_room(name, options=variant, seed=11)
    joined = [tables.join(room.code, n) for n in NAMES[:seats]]
    crowd = [tables.join_audience(room.code, f"Member {i}") for i in range(members)]
    tables.start(room.code, room.host_token)
    played, picked, step, looks = [], {}, 0, 0
    chance = min(0.5, PICKS_PER_MOVE / max(members, 1))
    while tables.view(room.code)["status"] == "playing":
        assert step < kit.MAX_MOVES, "the game did not end"
        state = tables.state_of(room.code)
        for member in crowd:
            if rnd.random() >= chance:
                continue
            offered = tables.audience_legal(room.code, member.id, member.token)
            if not offered:
                continue
            pick = dict(rnd.choice(offered))
            for field in game.audience.text:
                secret = sorted(set().union(*(game.secrets(state, s) for s in range(seats))))
                pick[field] = rnd.choice(["not it", *secret])  # the word itself, now and then
            looks += 1
            check_a_pick_tells_no_one(room, joined, crowd, member, pick, state, game, looks % 10 == 1)
            picked.setdefault(len(state["history"]), {}).setdefault(member.id, {})[game.audience.slot(pick)] = pick
        move = moves[step] if moves is not None else kit.random_move(game, state, rnd)
        seat = move["seat"]
        tables.submit(room.code, seat, joined[seat].token, {k: v for k, v in move.items() if k != "seat"})
        played.append(move)
        step += 1
    return room, played, picked, crowd


def check_a_pick_tells_no_one(room, joined, crowd, member, pick, state, game, look: bool) -> None:
    """The pick counts, and (on `look`) nobody else's view changed and the member's has no secret."""
    version = tables.version(room.code)
    others = [m for m in crowd if m is not member][:2]
    before = look and (
        tables.view(room.code),
        [tables.view(room.code, s.seat, s.token) for s in joined],
        [tables.audience_view(room.code, m.id, m.token) for m in others],
    )
    tables.audience_submit(room.code, member.id, member.token, pick)
    assert tables.version(room.code) == version, "a pick bumped the room's version"
    if not look:
        return
    after = (
        tables.view(room.code),
        [tables.view(room.code, s.seat, s.token) for s in joined],
        [tables.audience_view(room.code, m.id, m.token) for m in others],
    )
    assert after == before, "a member's pick changed what someone else sees"
    shown = tables.audience_view(room.code, member.id, member.token)
    assert pick in shown["member"]["picks"], "the member's own pick is not on their phone"
    shown["member"] = {**shown["member"], "picks": []}  # their own typed answer may be the word itself
    seen = json.dumps(shown, ensure_ascii=False)
    for seat in range(state["players"]):
        assert leaked(seen, game.secrets(state, seat)) == [], f"seat {seat}'s secret on a member's view"


@pytest.mark.parametrize("members", [0, 1, 40])
@pytest.mark.parametrize("case", CASES, ids=[kit.case_id(c) for c in CASES])
def test_every_game_plays_with_an_audience_that_never_changes_it(case, members):
    with tables.clock(lambda: "2026-11-25T10:00:00.000+00:00"):  # strokes' times: the same in both games
        check_the_audience(case, members)


def check_the_audience(case, members):
    name = case[0]
    game = GAMES[name]
    room, played, picked, crowd = play_game(case, members)
    record = tables.record(room.code)
    assert record is not None and len(record["audience"]) == members
    assert [m["points"] for m in record["audience"]] == sorted((m["points"] for m in record["audience"]), reverse=True)
    if members > 1:  # the same players' moves with nobody watching: the same game
        watched = tables.state_of(room.code)
        alone, _, _, _ = play_game(case, 0, moves=played)
        assert tables.state_of(alone.code) == watched, "the audience changed the game"
        assert tables.record(alone.code)["final_scores"] == record["final_scores"]
    if game.audience is None or not game.audience.applies(record["options"]):
        assert not any("audience_picks" in t for t in record["turns"])
        return
    points: Counter = Counter()
    for turn, entry in enumerate(record["turns"]):
        mine = {m: list(slots.values()) for m, slots in picked.get(turn, {}).items()}
        earned, counts = audience_turn(name, entry, mine)
        points.update(earned)
        if members:
            assert entry["audience_picks"] == counts, f"turn {turn}'s audience counts"
    names = {m.id: m.name for m in crowd}
    assert {m["name"]: m["points"] for m in record["audience"]} == {names[m]: points[m] for m in names}
    if members == 40:
        assert sum(points.values()) > 0 or not picked, "forty members and nobody ever scored"
        # The statistics' best audience readers, from the rows packed when the game was saved.
        archive = stats.from_rows(tables.stat_rows())
        readers = stats.audience_summary(archive, archive.games.index).set_index("member")
        assert {n: int(readers.loc[n, "points"]) for n in names.values()} == {names[m]: points[m] for m in names}
        unwatched = archive.games.index[archive.games["room"] != room.code]  # the same game, nobody watching
        assert len(unwatched) == 1 and stats.audience_summary(archive, unwatched).empty, "a filter let others in"


def test_joining_and_picking_refuse_clearly_and_change_nothing():
    room = tables.create_room("dixit", options={"audience_max": 2})
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    lu = tables.join_audience(room.code, "Lu")
    with pytest.raises(SobremesaError, match="(?i)already called ana"):
        tables.join_audience(room.code, "ana")
    with pytest.raises(SobremesaError, match="Pick another name"):
        tables.join_audience(room.code, "LU")
    tables.join_audience(room.code, "Mo")
    with pytest.raises(SobremesaError, match="audience is full"):
        tables.join_audience(room.code, "Ned")
    with pytest.raises(SobremesaError, match="not started"):
        tables.audience_submit(room.code, lu.id, lu.token, {"type": "pick", "position": 1})
    with pytest.raises(SobremesaError, match="audience link is not valid"):
        tables.audience_view(room.code, lu.id, "wrong")
    tables.start(room.code, room.host_token)
    version = tables.version(room.code)
    for bad in ({"type": "pick", "position": 1}, {"type": "pick"}, "x", {"type": "pick", "position": "1; DROP"}):
        with pytest.raises(SobremesaError):
            tables.audience_submit(room.code, lu.id, lu.token, bad)
    assert (
        tables.version(room.code) == version
        and tables.audience_view(room.code, lu.id, lu.token)["member"]["picks"] == []
    )
    closed = tables.create_room("dixit", options={"audience": False})
    with pytest.raises(SobremesaError, match="no audience"):
        tables.join_audience(closed.code, "Lu")
    with pytest.raises(SobremesaError, match="either on or off"):
        tables.create_room("dixit", options={"audience": "yes"})
    assert seats[0].seat == 0
