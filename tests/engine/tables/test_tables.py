"""The table service: seats, tokens, host actions, the record, and refusals that change nothing."""

import threading

import pytest

from engine import tables
from engine.core import AlreadyMoved, BadToken, GameOver, IllegalMove, NameTaken, NotStarted, RoomNotFound, WrongPhase
from tests.engine.games.test_dixit_rules import recompute_dixit
from tests.helpers import past_the_reveal
from tests.kit import strings_in

pytestmark = pytest.mark.usefixtures("plain_cards")


def new_table(n=4, **options):
    room = tables.create_room("dixit", options=options, seed=7)
    seats = [tables.join(room.code, name) for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"][:n]]
    tables.start(room.code, room.host_token)
    return room, seats


def snapshot(code):
    room = tables.store().room(code)
    return room["version"], tables.state_of(code), tables.store().moves(code, room["game_no"])


def act(player, **move):
    return tables.submit(player.code, player.seat, player.token, move)


def play_to_vote(room, seats):
    """Seat 0 claims and tells; everyone else gives their first card."""
    ana = seats[0]
    act(ana, type="claim")
    act(ana, **tables.legal(room.code, 0, ana.token)[0])
    for s in seats[1:]:
        act(s, **tables.legal(room.code, s.seat, s.token)[0])


def test_full_game_through_legal_and_submit_alone_gives_a_record():
    room, seats = new_table(4, contando=True)
    for _ in range(500):
        if tables.view(room.code)["status"] == "finished":
            break
        waiting = tables.view(room.code)["waiting_for"]
        s = seats[waiting[0]]
        past_the_reveal(room.code)
        tables.submit(room.code, s.seat, s.token, tables.legal(room.code, s.seat, s.token)[-1])
    record = tables.record(room.code)
    assert record["format"] == "sobremesa.game/1" and record["game"] == "dixit"
    assert [p["name"] for p in record["players"]] == ["Ana", "Bo", "Cy", "Di"]
    assert record["options"]["contando"] is True and record["seed"] == 7
    assert all("ended_at" in t and set(t["scores"]) == {"0", "1", "2", "3"} for t in record["turns"])
    # Scores are recomputable from the record alone, without the engine.
    totals = recompute_dixit(record["turns"], contando=record["options"]["contando"])
    assert {str(s): totals.get(s, 0) for s in range(4)} == record["final_scores"]
    assert tables.replay(room.code) == tables.state_of(room.code) == tables.store().snapshot(room.code)["state"]


def test_reopening_the_link_reconnects_the_same_seat():
    room, seats = new_table()
    again = tables.find_seat(room.code.lower(), seats[2].token)
    assert (again.seat, again.name) == (2, "Cy")
    assert tables.view(room.code, 2, seats[2].token)["hand"] == tables.view(room.code, 2, again.token)["hand"]


def test_kill_and_reopen_mid_game_gives_an_equal_state():
    room, seats = new_table()
    play_to_vote(room, seats)
    before = snapshot(room.code)
    tables.reset()  # the process goes away; a new one opens the same file
    assert snapshot(room.code) == before
    assert tables.replay(room.code) == before[1]
    s = seats[1]
    act(s, **tables.legal(room.code, 1, s.token)[0])  # play goes on
    assert tables.version(room.code) == before[0] + 1


def test_voters_at_the_same_instant_lose_no_vote():
    room, seats = new_table(6)
    play_to_vote(room, seats)
    version = tables.version(room.code)
    barrier = threading.Barrier(5)
    errors = []

    def vote(s):
        move = tables.legal(room.code, s.seat, s.token)[0]
        barrier.wait()
        try:
            act(s, **move)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=vote, args=(s,)) for s in seats[1:]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert tables.version(room.code) == version + 5
    assert len(tables.view(room.code)["history"][0]["votes"]) == 5


@pytest.mark.parametrize("case", ["wrong code", "wrong token", "double give", "own card", "out of phase", "after end"])
def test_bad_input_gets_a_clear_message_and_changes_nothing(case):
    room, seats = new_table()
    ana, bo = seats[0], seats[1]
    act(ana, type="claim")
    act(ana, **tables.legal(room.code, 0, ana.token)[0])
    if case in ("own card",):
        for s in seats[1:]:
            act(s, **tables.legal(room.code, s.seat, s.token)[0])
    if case == "after end":
        tables.end(room.code, room.host_token)
    if case == "double give":
        act(bo, **tables.legal(room.code, 1, bo.token)[0])
    before = snapshot(room.code)
    expected, call = {
        "wrong code": (RoomNotFound, lambda: tables.submit("ZZZZ", 1, bo.token, {"type": "claim"})),
        "wrong token": (BadToken, lambda: tables.submit(room.code, 1, "not-the-token", {"type": "claim"})),
        "double give": (
            AlreadyMoved,
            lambda: act(bo, type="give", cards=[tables.view(room.code, 1, bo.token)["hand"][0]]),
        ),
        "own card": (
            IllegalMove,
            lambda: act(bo, type="vote", position=tables.view(room.code, 1, bo.token)["my_positions"][0]),
        ),
        "out of phase": (WrongPhase, lambda: act(bo, type="vote", position=1)),
        "after end": (GameOver, lambda: act(bo, type="give", cards=[tables.view(room.code, 1, bo.token)["hand"][0]])),
    }[case]
    with pytest.raises(expected) as refused:
        call()
    message = str(refused.value)
    assert len(message) > 15 and "Traceback" not in message
    for secret in tables.view(room.code, 2, seats[2].token)["hand"]:
        assert secret not in message
    assert snapshot(room.code) == before


def test_a_stale_or_foreign_token_sees_nothing():
    room, seats = new_table()
    other, _ = new_table()
    with pytest.raises(BadToken):
        tables.view(room.code, 0, seats[1].token)
    with pytest.raises(BadToken):
        tables.view(other.code, 0, seats[0].token)
    with pytest.raises(BadToken):
        tables.start(room.code, seats[0].token)


def test_names_are_unique_and_late_joiners_are_refused():
    room = tables.create_room("dixit")
    tables.join(room.code, "Ana")
    with pytest.raises(NameTaken):
        tables.join(room.code, "  ana ")
    with pytest.raises(NotStarted):
        tables.start(room.code, room.host_token)


def test_host_skip_kick_end_and_play_again():
    room, seats = new_table(5)
    act(seats[0], type="claim")
    tables.skip(room.code, room.host_token, 0)  # the storyteller went away: the next seat tells
    assert tables.view(room.code)["storyteller"] == 1
    tables.kick(room.code, room.host_token, 4)
    assert 4 not in tables.view(room.code)["waiting_for"]
    tables.end(room.code, room.host_token)
    assert tables.view(room.code)["status"] == "finished"
    assert tables.record(room.code)["ended_by_host"] is True
    tables.play_again(room.code, room.host_token)
    view = tables.view(room.code, 0, seats[0].token)
    assert view["status"] == "playing" and view["phase"] == "claim" and view["scores"] == [0] * 5


def test_lobby_kick_moves_later_seats_up_and_their_token_finds_them():
    room = tables.create_room("dixit")
    seats = [tables.join(room.code, n) for n in ["Ana", "Bo", "Cy"]]
    tables.kick(room.code, room.host_token, 1)
    assert tables.view(room.code)["names"] == ["Ana", "Cy"]
    assert tables.find_seat(room.code, seats[2].token).seat == 1
    with pytest.raises(BadToken):
        tables.find_seat(room.code, seats[1].token)


def test_service_views_show_no_other_seat_secret():
    room, seats = new_table(5)
    ana = seats[0]
    act(ana, type="claim")
    act(ana, **tables.legal(room.code, 0, ana.token)[0])
    given = {}
    for s in seats[1:3]:
        move = tables.legal(room.code, s.seat, s.token)[0]
        given[s.seat] = move["cards"]
        act(s, **move)
    hands = {s.seat: set(tables.view(room.code, s.seat, s.token)["hand"]) for s in seats}
    story = tables.view(room.code, 0, ana.token)["story_card"]
    for viewer in [None] + seats:
        shown = set(
            strings_in(tables.view(room.code) if viewer is None else tables.view(room.code, viewer.seat, viewer.token))
        )
        me = None if viewer is None else viewer.seat
        for seat, hand in hands.items():
            if seat != me:
                assert not hand & shown, f"{me} sees {seat}'s hand"
        for seat, cards in given.items():
            if seat != me:
                assert not set(cards) & shown, f"{me} sees the card {seat} gave"
        if me != 0:
            assert story not in shown


def test_merging_player_names_follows_chains():
    tables.merge_players("Ana ", "ana maria")
    tables.merge_players("AM", "ANA")
    assert tables.player_aliases() == {"ana": "anamaria", "am": "anamaria"}
    with pytest.raises(tables.BadName):
        tables.merge_players("Ana María", "ana maría")


def test_the_archive_version_moves_when_a_game_is_saved():
    before = tables.archive_version()
    room, seats = new_table(3)
    tables.end(room.code, room.host_token)
    assert tables.archive_version()[0] == before[0] + 1
