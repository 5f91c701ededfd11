"""What gets a real room stuck: seats that move, lost links, removed and skipped players, host
actions on one click. Pages through AppTest, as each person's tab would run them."""

from __future__ import annotations

import re

import pytest

from engine import tables
from engine.core import BadToken
from engine.push.stage import Peer
from pages.stage.serve import SERVE
from tests import stage_text
from tests.pages.test_pages import mounted, open_host_controls, run, stage_markup, stage_of, text_of

pytestmark = pytest.mark.usefixtures("plain_cards")


def removed_text(at) -> str:
    """What the page's stage socket shows a viewer whose place is gone (engine/push/stage.py): it is
    admitted by its token, its screen draws nothing, and it is sent the blank screen."""
    data = mounted(at)
    hello = {"token": data["token"], "member": data["member"], "lang": data["lang"]}
    viewer = SERVE.admit(data["code"], hello, Peer("10.0.0.9", False))
    assert viewer is not None, "refused at the hello: the phone would show nothing and reconnect forever"
    assert SERVE.draw(data["code"], viewer) is None
    return stage_text.text(SERVE.removed(viewer, data["code"]))


def room_with(names, game="dixit", start=False):
    room = tables.create_room(game, seed=5)
    seats = [tables.join(room.code, n) for n in names]
    if start:
        tables.start(room.code, room.host_token)
    return room, seats


def test_a_lobby_removal_moves_the_seats_after_it_without_a_reload():
    room, seats = room_with(["Ana", "Bo", "Cy", "Di"])
    cy = run("play", room=room.code, seat=2, token=seats[2].token)
    bo = run("play", room=room.code, seat=1, token=seats[1].token)
    assert "You're in as Cy" in stage_of(cy)  # a seat's phone is the stage's, in the lobby too
    tables.kick(room.code, room.host_token, 1)
    cy.run()  # the push reruns the open tab: no reload, no new link
    assert not cy.exception
    assert cy.query_params["seat"] in ("1", ["1"])
    assert "You're in as Cy" in stage_of(cy)
    assert tables.view(room.code)["names"][1] == "Cy"
    bo.run()
    assert "the host removed it" in text_of(bo)
    tables.start(room.code, room.host_token)
    cy.run()
    assert "Look at your cards" in stage_of(cy)


def test_a_player_who_lost_their_link_gets_their_seat_back_when_the_host_agrees():
    room, seats = room_with(["Ana", "Bo", "Cy"], start=True)
    lost = run("play", room=room.code)  # scanned the QR code again on a new phone
    assert "Were you playing?" in text_of(lost)
    lost.text_input(key="rejoin-name").input("ana")
    next(b for b in lost.button if b.label == "Ask to come back in").click().run()
    assert not lost.exception
    assert "Asked to come back in as Ana" in "".join(h.proto.body for h in lost.get("html"))
    host = run("table", room=room.code, host=room.host_token)
    assert "asks to come back in" in text_of(host)
    shown = text_of(host) + "".join(h.proto.body for h in host.get("html"))
    assert seats[0].token not in shown  # the wall never shows a seat's token
    next(b for b in host.button if b.label == "Let them in").click().run()
    lost.run()
    assert lost.query_params["seat"] in ("0", ["0"])
    new_token = lost.query_params["token"]
    new_token = new_token[0] if isinstance(new_token, list) else new_token
    assert tables.view(room.code, 0, new_token)["you"] == 0
    with pytest.raises(BadToken):
        tables.view(room.code, 0, seats[0].token)  # the lost link no longer opens the seat


def test_the_host_can_turn_a_rejoin_away():
    room, seats = room_with(["Ana", "Bo", "Cy"], start=True)
    asked = tables.ask_to_rejoin(room.code, "Bo")
    assert tables.view(room.code)["asking"] == [1]
    tables.let_back_in(room.code, room.host_token, 1, allow=False)
    assert tables.view(room.code)["asking"] == []
    with pytest.raises(BadToken):
        tables.view(room.code, 1, asked.token)
    assert tables.view(room.code, 1, seats[1].token)["you"] == 1


def test_removed_and_skipped_players_are_told_in_words():
    room, seats = room_with(["Ana", "Bo", "Cy", "Di"], start=True)
    tables.submit(room.code, 0, seats[0].token, {"type": "claim"})
    hand = tables.state_of(room.code)["hands"][0]
    tables.submit(room.code, 0, seats[0].token, {"type": "tell", "card": hand[0]})
    tables.skip(room.code, room.host_token, 2)
    cy = run("play", room=room.code, seat=2, token=seats[2].token)
    assert "skipped you this turn" in stage_of(cy)  # the phone's screen is the stage's
    assert "Give this card" not in stage_of(cy) and "data-move" not in stage_markup(cy)  # nothing to tap
    assert "Give this card" in stage_of(run("play", room=room.code, seat=1, token=seats[1].token))  # Bo gives
    tables.kick(room.code, room.host_token, 3)
    di = run("play", room=room.code, seat=3, token=seats[3].token)
    assert stage_markup(di) == ""  # nothing of the game is drawn for Di any more, not even the hand
    assert "the host removed it" in removed_text(di)  # the socket's blank screen says why, in words
    host = open_host_controls(run("table", room=room.code, host=room.host_token))
    assert re.search(r"\bDi\s+\(left\)", stage_of(host))  # the wall is the stage's, its seats too
    assert not re.search(r"\bCy\s+\(left\)", stage_of(host))  # only skipped: still at the table
    remove = next(s for s in host.selectbox if s.label == "Remove a player")
    assert 3 not in remove.options and "Di" not in remove.options
    tables.end(room.code, room.host_token)
    assert "took you out of this game" in stage_of(di)  # at the end, the scoreboard keeps Di's points


def test_host_actions_that_discard_play_ask_first_and_preselect_nobody():
    room, seats = room_with(["Ana", "Bo", "Cy"], start=True)
    host = run("table", room=room.code, host=room.host_token)
    # Dixit is on the stage: the host's controls are in the host menu, which Esc opens over a corner
    # of the stage (drawn by the page's full run only, so no move reruns them).
    assert all(b.label for b in host.button) and host.selectbox
    labels = [b.label for b in host.button]
    assert "End the game now" not in labels and "Remove" not in labels  # no one-click discarding
    for box in host.selectbox:
        if box.label in ("Remove a player", "Skip a player who went away"):
            assert box.value is None
    version = tables.version(room.code)
    next(b for b in host.button if b.label == "Yes: end the game now").click().run()
    assert tables.view(room.code)["status"] == "finished"
    assert tables.version(room.code) == version + 1
    host.run()  # at the end the panel is open again, with the way to play on
    assert any(b.label == "Play again with the same players" for b in host.button)


def test_a_replaced_pictomania_card_tells_the_players_who_were_ready_why():
    room, seats = room_with(["Ana", "Bo", "Cy"], game="pictomania", start=True)
    tables.submit(room.code, 1, seats[1].token, {"type": "ready"})
    slot = next(iter(tables.view(room.code, 0, seats[0].token)["cards"]))
    tables.submit(room.code, 0, seats[0].token, {"type": "replace", "slot": slot})
    bo = stage_of(run("play", room=room.code, seat=1, token=seats[1].token))  # the phone is the stage's
    assert f"Ana replaced card {slot}, so everyone reads it and taps Ready again" in bo
    assert "I've read them: Ready" in bo


def test_team_dixit_starts_only_with_pairs():
    room = tables.create_room("odyssey", options={"variant": "team"})
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gil"]:
        tables.join(room.code, name)
    host = run("table", room=room.code, host=room.host_token)
    start = next(b for b in host.button if b.label.startswith("Start the game"))
    assert start.disabled
    assert "This variant plays with 6, 8, 10, 12 players." in text_of(host)


def test_the_host_sees_every_phone_asking_for_a_seat_and_lets_in_the_right_one():
    from engine import gate

    room, seats = room_with(["Ana", "Bo", "Cy"], start=True)
    tables.ask_to_rejoin(room.code, "Bo", device=gate.Device("a-prankster-device-id", "10.0.0.5", "iPhone"))
    real = tables.ask_to_rejoin(
        room.code, "Bo", device=gate.Device("bo-new-phone-device-id", "10.0.0.5", "Android phone")
    )
    host = run("table", room=room.code, host=room.host_token)
    shown = text_of(host)
    assert "2 phones ask to come back in as" in shown
    assert shown.index("Android phone · asked") < shown.index("iPhone · asked")  # newest first
    assert real.token not in shown
    lets = [b for b in host.button if b.label == "Let them in"]
    assert len(lets) == 2
    lets[0].click().run()
    assert not host.exception
    assert tables.view(room.code, 1, real.token)["you"] == 1
    assert "asks to come back in" not in text_of(host)  # the other request for Bo went with it
