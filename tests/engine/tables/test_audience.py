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
from engine.core import SobremesaError, ranking
from engine.games import GAMES
from tests import kit
from tests.engine.tables.test_pace import CASES, NAMES
from tests.helpers import submit
from tests.pages.test_page_contract import leaked
from tests.rescore import audience_turn

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
        submit(room.code, seat, joined[seat].token, {k: v for k, v in move.items() if k != "seat"})
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
        earned, counts = audience_turn(name, entry, mine, record["options"])
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


def party_to_the_vote(members: list[str]):
    """An Odyssey Party room played to its first vote (6 seats), with these members. Returns (room,
    seats, members, the storyteller's own card's position, a red card that is another)."""
    room = tables.create_room("odyssey", options={"variant": "party", "laps": 1}, seed=5)
    seats = [tables.join(room.code, n) for n in NAMES[:6]]
    crowd = [tables.join_audience(room.code, n) for n in members]
    tables.start(room.code, room.host_token)
    rnd = random.Random(5)
    while tables.view(room.code)["phase"] != "vote":
        state = tables.state_of(room.code)
        move = kit.random_move(GAMES["odyssey"], state, rnd)
        submit(room.code, move["seat"], seats[move["seat"]].token, {k: v for k, v in move.items() if k != "seat"})
    state = tables.state_of(room.code)
    own = next(p["position"] for p in state["table"] if p["owner"] == state["storyteller"])
    red = next(p["position"] for p in state["table"] if p["position"] != own)
    return room, seats, crowd, own, red


def vote_out(room, seats, red: int) -> None:
    """The vote, at random, with the storyteller's red vote on `red`, until the turn closes."""
    rnd, turns = random.Random(6), len(tables.state_of(room.code)["history"])
    while len(tables.state_of(room.code)["history"]) == turns:
        state = tables.state_of(room.code)
        seat = state["storyteller"]
        if state["red_vote"] is None and seat in GAMES["odyssey"].waiting_for(state):
            submit(room.code, seat, seats[seat].token, {"type": "red_vote", "position": red})
            continue
        move = kit.random_move(GAMES["odyssey"], state, rnd)
        if move["type"] == "red_vote":
            move["position"] = red
        submit(room.code, move["seat"], seats[move["seat"]].token, {k: v for k, v in move.items() if k != "seat"})


def test_in_party_members_pick_the_card_the_storyteller_votes_red_not_their_own():
    room, seats, (rosa, olga, nico), own, red = party_to_the_vote(["Rosa", "Olga", "Nico"])
    tables.audience_submit(room.code, rosa.id, rosa.token, {"type": "pick", "position": red})
    tables.audience_submit(room.code, olga.id, olga.token, {"type": "pick", "position": own})
    tables.audience_submit(room.code, nico.id, nico.token, {"type": "pick", "position": red})
    assert "vote red" in tables.audience_view(room.code, rosa.id, rosa.token)["member"]["does"]
    vote_out(room, seats, red)
    entry = tables.state_of(room.code)["history"][0]
    assert entry["red_vote"] == red and own != red
    assert tables.audience_view(room.code, rosa.id, rosa.token)["member"]["points"] == 1
    assert tables.audience_view(room.code, olga.id, olga.token)["member"]["points"] == 0
    tables.end(room.code, room.host_token)
    record = tables.record(room.code)
    # The record: the red card's pickers scored, listed by points then name; the counts are the picks.
    assert record["audience"] == [
        {"name": "Nico", "points": 1},
        {"name": "Rosa", "points": 1},
        {"name": "Olga", "points": 0},
    ]
    assert record["turns"][0]["audience_picks"] == {str(red): 2, str(own): 1}
    picks = {"r": [{"position": red}], "o": [{"position": own}]}
    assert audience_turn("odyssey", record["turns"][0], picks, record["options"])[0] == {"r": 1, "o": 0}


def test_a_pick_after_the_game_ended_says_the_game_is_over_and_changes_nothing():
    room = tables.create_room("dixit", seed=3)
    for n in NAMES[:3]:
        tables.join(room.code, n)
    lu = tables.join_audience(room.code, "Lu")
    tables.start(room.code, room.host_token)
    tables.end(room.code, room.host_token)
    version, before = tables.version(room.code), tables.audience_view(room.code, lu.id, lu.token)
    with pytest.raises(SobremesaError, match="The game is over") as refused:
        tables.audience_submit(room.code, lu.id, lu.token, {"type": "pick", "position": 1})
    assert "not started" not in str(refused.value)
    assert tables.version(room.code) == version
    assert tables.audience_view(room.code, lu.id, lu.token) == before


def test_a_maudit_member_who_found_the_word_is_offered_nothing_more_that_round():
    room = tables.create_room("maudit_mot_dit", seed=2)
    seats = [tables.join(room.code, n) for n in NAMES[:3]]
    finder, other = (tables.join_audience(room.code, n) for n in ("Lu", "Mo"))
    tables.start(room.code, room.host_token)
    state = tables.state_of(room.code)
    holder = state["holder"]
    symbol = max(state["back"]["symbols"], key=lambda s: state["back"]["counts"][state["back"]["symbols"].index(s)])
    submit(room.code, holder, seats[holder].token, {"type": "choose", "symbol": symbol})
    word = tables.state_of(room.code)["chosen"]["word"]
    assert tables.state_of(room.code)["chosen"]["count"] >= 2

    def clue(text: str) -> None:
        submit(room.code, holder, seats[holder].token, {"type": "clue", "text": text})

    clue("qwxz")
    tables.audience_submit(room.code, finder.id, finder.token, {"type": "answer", "clue": 1, "answer": word.upper()})
    tables.audience_submit(room.code, other.id, other.token, {"type": "answer", "clue": 1, "answer": "zzqv"})
    mine = tables.audience_view(room.code, finder.id, finder.token)["member"]
    assert mine["done"] and mine["may_pick"] == [] and tables.audience_legal(room.code, finder.id, finder.token) == []
    for s in seats:
        if s.seat != holder:
            submit(room.code, s.seat, s.token, {"type": "answer", "text": "zzqv"})
    clue("vxqj")  # the next clue of the same round: the other member answers again, the finder not
    assert tables.audience_legal(room.code, other.id, other.token) == [{"type": "answer", "clue": 2, "answer": None}]
    assert tables.audience_legal(room.code, finder.id, finder.token) == []
    assert tables.audience_view(room.code, finder.id, finder.token)["member"]["done"]
    with pytest.raises(SobremesaError, match="done for this turn"):
        tables.audience_submit(room.code, finder.id, finder.token, {"type": "answer", "clue": 2, "answer": word})
    assert tables.audience_view(room.code, finder.id, finder.token)["member"]["picks"] == [
        {"type": "answer", "clue": 1, "answer": word.upper()}
    ]


@pytest.mark.parametrize("case", CASES, ids=[kit.case_id(c) for c in CASES])
def test_every_variant_ranks_its_audience_with_ties(case):
    """Members with tied points (all at 0, or as they scored) are all listed, by points then name;
    the wall's top three holds everyone placed 1 to 3."""
    room, _played, _picked, crowd = play_game(case, 12)
    record = tables.record(room.code)
    assert [m["name"] for m in record["audience"]] == [
        m["name"] for m in sorted(record["audience"], key=lambda m: (-m["points"], m["name"].casefold()))
    ]
    assert len(record["audience"]) == len(crowd)
    view = tables.view(room.code)
    scored = [m["points"] for m in record["audience"] if m["points"]]
    placed = [p for p, place in zip(scored, ranking.places(scored), strict=True) if place <= 3]
    assert [m["points"] for m in view["audience_top"]] == placed[:8]
    assert view["audience_more"] == max(len(placed) - 8, 0)
    assert [m["place"] for m in view["audience_top"]] == ranking.places(scored)[: len(view["audience_top"])]


def test_places_share_ties_and_skip_after_them():
    assert ranking.places([5, 3, 3, 1]) == [1, 2, 2, 4]
    assert ranking.places([1, 3, 5, 3]) == [4, 2, 1, 2]
    assert ranking.places([]) == [] and ranking.places([0, 0]) == [1, 1]
    # Mateo 2, then Eli, Kai and Zoë tied on 1: all four are in the top three.
    assert ranking.top([2, 1, 1, 1]) == ([0, 1, 2, 3], 0)
    assert ranking.top([9, 1, 1, 1, 1, 1, 1, 1, 1, 1]) == ([0, 1, 2, 3, 4, 5, 6, 7], 2)
    assert ranking.top([3, 2, 1, 0]) == ([0, 1, 2], 0)


def test_members_joining_in_the_same_millisecond_keep_the_order_they_came_in():
    """The lobby shows who came in last: forty joins stamped with one millisecond (a class scanning
    the QR code at once, or a fast laptop) are listed in the order they were made."""
    from engine.store.clock import clock

    room = tables.create_room("odyssey", options={"variant": "base", "audience": True}, seed=7)
    with clock(lambda: "2026-11-28T09:00:00.000+00:00"):
        for i in range(40):
            tables.join_audience(room.code, f"Watcher {i}")
    size = tables.audience_size(room.code)
    assert size["count"] == 40
    assert size["latest"] == [f"Watcher {i}" for i in (39, 38, 37, 36, 35)]


def test_a_members_tap_is_played_once_per_id_even_two_at_once(monkeypatch):
    """A member's tap over the stage socket keeps its answer in the pick's own transaction: the same
    id again gets the first answer and picks nothing more, and the same id with another pick is
    refused and changes nothing. Two of the same tap at once (two sockets of one phone): whatever is
    looked at before the room's lock (here the answer, seen missing), the lock lets the first pick,
    and the second finds the answer inside the transaction and picks nothing."""
    from engine.core import IllegalMove

    room, _seats, (rosa, olga), own, red = party_to_the_vote(["Rosa", "Olga"])
    turn = len(tables.state_of(room.code)["history"])
    rosa_who = tables.stage_who(room.code, rosa.token, rosa.id)
    first = tables.stage_move(room.code, rosa_who, rosa.token, "tap-1", {"type": "pick", "position": red})
    assert first == {"ack": "tap-1", "version": tables.view(room.code)["version"]}
    assert tables.stage_move(room.code, rosa_who, rosa.token, "tap-1", {"type": "pick", "position": red}) == first
    with pytest.raises(IllegalMove, match="already sent with another move"):
        tables.stage_move(room.code, rosa_who, rosa.token, "tap-1", {"type": "pick", "position": own})
    assert tables.stage_look(room.code, rosa_who)["me"]["picks"] == [{"type": "pick", "position": red}]

    store = tables.store()
    real = store.move_answer
    monkeypatch.setattr(  # the first look, outside the transaction, sees no answer yet
        store, "move_answer", lambda code, who, move_id, conn=None: real(code, who, move_id, conn) if conn else None
    )
    olga_who = tables.stage_who(room.code, olga.token, olga.id)
    once = tables.stage_move(room.code, olga_who, olga.token, "tap-9", {"type": "pick", "position": own})
    again = tables.stage_move(room.code, olga_who, olga.token, "tap-9", {"type": "pick", "position": own})
    assert once == again == {"ack": "tap-9", "version": first["version"]}
    with pytest.raises(IllegalMove, match="already sent with another move"):
        tables.stage_move(room.code, olga_who, olga.token, "tap-9", {"type": "pick", "position": red})
    picks = store.member_picks(room.code, 1, turn)
    assert sorted(p["member"] for p in picks) == sorted(
        [rosa.id, olga.id]
    )  # one pick each (two in one millisecond sort by id)
    assert tables.audience_size(room.code, turn)["picked"] == 2


def test_a_member_let_in_or_removed_by_another_process_counts_at_the_next_version():
    """A version of the same turn reads only its picks again and keeps the members while their
    mark holds (`members_mark`). A member another server process let in, or removed, is news this
    process never heard: at the next version every member's "of" counts them, and their stamp
    moves (the crowd draws them again)."""
    from engine.tables import audience

    game = GAMES["dixit"]
    rnd = random.Random(3)
    room = tables.create_room("dixit", seed=11)
    seats = [tables.join(room.code, n) for n in NAMES[:3]]
    rosa = tables.join_audience(room.code, "Rosa")
    tables.join_audience(room.code, "Olga")
    tables.start(room.code, room.host_token)
    rosa_who = tables.stage_who(room.code, rosa.token, rosa.id)

    def of() -> int:
        return tables.stage_look(room.code, rosa_who)["me"]["of"]

    def play_one() -> None:
        move = kit.random_move(game, tables.state_of(room.code), rnd)
        seat = move.pop("seat")
        tables.submit(room.code, seat, seats[seat].token, move)

    def elsewhere(change) -> None:  # this process's own count of its joins and removals stays as it was
        made = audience.picks_made(room.code)
        change()
        audience._picked[room.code] = made

    play_one()
    assert of() == 2
    before = tables.members_stamp(room.code)[0]
    elsewhere(lambda: tables.join_audience(room.code, "Pia"))
    play_one()
    assert of() == 3
    assert tables.members_stamp(room.code)[0] != before
    play_one()  # nothing new: the members are kept
    assert of() == 3
    olga = next(m for m in tables.store().members(room.code) if m["name"] == "Olga")

    def drop() -> None:
        with tables.store().transaction() as conn:
            tables.store().drop_member(conn, room.code, olga["id"])

    elsewhere(drop)
    play_one()
    assert of() == 2


def test_a_turns_picks_are_read_again_only_when_a_pick_was_made_elsewhere(monkeypatch):
    """A version of the same turn keeps the turn's picks while the room's pick mark holds
    (`pick_mark`, moved by every pick in its own transaction): a pick made through this process's
    stage writes itself into the board and takes the mark with it, so the next seat's vote reads no
    picks (a hall's three hundred, at every vote); a pick another server process made moves only
    the mark, and the next version reads them again."""
    from engine.tables import audience

    game = GAMES["dixit"]
    rnd = random.Random(7)
    room = tables.create_room("dixit", seed=11)
    seats = [tables.join(room.code, n) for n in NAMES[:4]]
    rosa = tables.join_audience(room.code, "Rosa")
    olga = tables.join_audience(room.code, "Olga")
    tables.start(room.code, room.host_token)
    rosa_who = tables.stage_who(room.code, rosa.token, rosa.id)
    olga_who = tables.stage_who(room.code, olga.token, olga.id)

    def me(who) -> dict:
        return tables.stage_look(room.code, who)["me"]

    def play_one() -> None:
        move = kit.random_move(game, tables.state_of(room.code), rnd)
        seat = move.pop("seat")
        tables.submit(room.code, seat, seats[seat].token, move)

    while tables.view(room.code)["phase"] != "vote":
        play_one()
    turn = tables.view(room.code)["history_length"]
    me(rosa_who)  # the board of this version, as a member's socket reads it
    reads = []
    real = type(tables.store()).member_picks
    monkeypatch.setattr(
        type(tables.store()), "member_picks", lambda self, *a, **k: reads.append(a) or real(self, *a, **k)
    )

    pick = me(rosa_who)["may_pick"][0]
    assert "ack" in tables.stage_move(room.code, rosa_who, rosa.token, "r1", pick)
    play_one()  # a seat votes: a new version of the same turn
    assert tables.view(room.code)["phase"] == "vote" and tables.view(room.code)["history_length"] == turn
    assert me(rosa_who)["picks"] == [pick]
    assert tables.members_stamp(room.code) is not None
    assert reads == []

    made = audience.picks_made(room.code)
    tables.audience_submit(room.code, olga.id, olga.token, pick)  # as another process: nothing here heard it
    audience._picked[room.code] = made
    assert me(olga_who)["picks"] == []  # this version's board, as this process knows it
    play_one()
    assert tables.view(room.code)["phase"] == "vote" and tables.view(room.code)["history_length"] == turn
    assert me(olga_who)["picks"] == [pick]
    assert me(rosa_who)["picks"] == [pick]
    assert len(reads) == 1


def test_a_removal_between_a_pick_and_its_board_write_is_not_hidden():
    """A pick is written into the kept board after its transaction (`_picked`): a member the host
    removed in between (another thread of this process) must not be kept in the board, and a
    member's two picks answered out of order leave the newer ones (the board is written only when
    the pick's mark is the next one, and kept only under the count the pick itself made)."""
    from engine.tables import audience, stage

    game = GAMES["dixit"]
    rnd = random.Random(7)
    room = tables.create_room("dixit", seed=11)
    seats = [tables.join(room.code, n) for n in NAMES[:4]]
    rosa, xeno = (tables.join_audience(room.code, n) for n in ("Rosa", "Xeno"))
    tables.start(room.code, room.host_token)
    rosa_who, xeno_who = (tables.stage_who(room.code, m.token, m.id) for m in (rosa, xeno))
    while tables.view(room.code)["phase"] != "vote":
        move = kit.random_move(game, tables.state_of(room.code), rnd)
        seat = move.pop("seat")
        tables.submit(room.code, seat, seats[seat].token, move)
    may = tables.stage_look(room.code, rosa_who)["me"]["may_pick"]

    def pick(n: int) -> audience.Picked:
        once = audience.Once(rosa_who.key(), f"r{n}", stage._body(may[n]))
        return audience.pick_once(room.code, rosa.id, rosa.token, may[n], once, tables.store().room(room.code))

    first = pick(0)
    tables.remove_member(room.code, room.host_token, xeno.id)  # the host's page, before the pick's board write
    stage._picked(first.room, rosa.id, first.turn, first.mine, first.mark, first.made)
    assert tables.stage_look(room.code, xeno_who) is None

    second, third = pick(1), pick(2)  # answered out of order: the third's board write comes first
    stage._picked(third.room, rosa.id, third.turn, third.mine, third.mark, third.made)
    stage._picked(second.room, rosa.id, second.turn, second.mine, second.mark, second.made)
    assert tables.stage_look(room.code, rosa_who)["me"]["picks"] == [may[2]]
