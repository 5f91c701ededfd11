"""The host's controls for computer players, under AppTest: seat and remove them in the lobby,
hand a seat over mid-game and give it back; the storyteller's phone says why a phrase is needed."""

import html
import re

from engine import tables
from tests import stage_text
from tests.pages.test_pages import open_host_controls, run


def test_the_host_seats_a_computer_player_in_the_lobby_and_removes_it():
    room = tables.create_room("dixit", seed=2)
    tables.join(room.code, "Ana")
    host = run("table", room=room.code, host=room.host_token)
    add = next(b for b in host.button if b.label.endswith("Add a computer player"))
    add.click().run()
    assert not host.exception
    view = tables.view(room.code)
    assert len(view["names"]) == 2 and view["names"][1].endswith("🤖") and view["bots"] == [1]
    host.selectbox(key="kick").select(1).run()
    next(b for b in host.button if b.label.startswith("Yes: remove")).click().run()
    assert tables.view(room.code)["names"] == ["Ana"] and tables.bot_seats(room.code) == []


def test_the_host_hands_a_seat_over_and_gives_it_back():
    room = tables.create_room("dixit", seed=2)
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    tables.start(room.code, room.host_token)
    host = open_host_controls(run("table", room=room.code, host=room.host_token))
    host.selectbox(key="hand-bot").select(1).run()
    next(b for b in host.button if b.label == "A computer player plays for Bo").click().run()
    assert tables.view(room.code)["handed"] == [1]
    host.run()
    next(b for b in host.button if b.label.startswith("Give Bo")).click().run()
    assert tables.view(room.code)["handed"] == [] and tables.view(room.code, 1, seats[1].token)["you"] == 1


def test_no_computer_players_for_a_game_without_them_or_with_an_undescribed_deck():
    room = tables.create_room("pictomania")
    tables.join(room.code, "Ana")
    host = run("table", room=room.code, host=room.host_token)
    assert not any("computer player" in b.label for b in host.button)


def test_the_storyteller_is_told_the_phrase_is_required_with_a_computer_player_at_the_table():
    room = tables.create_room("dixit", seed=2)
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo")]
    tables.add_bot(room.code, room.host_token)
    tables.start(room.code, room.host_token)
    tables.submit(room.code, 0, seats[0].token, {"type": "claim"})
    run("play", room=room.code, seat=0, token=seats[0].token)
    screen = stage_text.screen(room.code, "en", seats[0].token)  # the phone's screen is the stage's
    label = re.search(r'<label class="sm-field">([^<]*)<input name="phrase"', screen)  # the phrase field's
    assert label and "required: the computer players read it" in html.unescape(label.group(1))


def test_the_statistics_leave_computer_players_out_unless_the_filter_includes_them():
    import random

    from engine.bots import runner

    room = tables.create_room("dixit", seed=4)
    tables.join(room.code, "Ana")
    for _ in range(2):
        tables.add_bot(room.code, room.host_token)
    tables.start(room.code, room.host_token)
    tables.end(room.code, room.host_token)
    runner.play_pending(room.code, random.Random(1))
    tables.settle()
    record = tables.record(room.code)
    assert [p.get("bot", False) for p in record["players"]] == [False, True, True]
    page = run("stats")
    players = page.multiselect(key="f-players").options
    assert players == ["Ana"]
    page.toggle(key="f-bots").set_value(True).run()
    assert sorted(page.multiselect(key="f-players").options) == ["Ana", "Nova", "Pixel"]
