"""The pace clock on the pages, for every game of GAMES: the countdown on the wall and on the phone
the table waits on (not on the others), the host's pause, +30 s, resume and pace; and the start
page's Pace option."""

from __future__ import annotations

import random

import pytest

from engine import tables
from engine.games import GAMES
from tests.test_pace import NAMES, play_one
from tests.test_pages import open_host_controls, run

pytestmark = pytest.mark.usefixtures("plain_cards")


def html_of(at) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def button(at, label: str):
    return next(b for b in at.button if b.label.endswith(label))


@pytest.mark.parametrize("name", list(GAMES))
def test_the_countdown_and_the_hosts_clock_controls(name):
    game = GAMES[name]
    variant = game.variants[0]
    room = tables.create_room(name, options={**variant, "pace": "relaxed"})
    joined = [tables.join(room.code, n) for n in NAMES[: game.seat_counts(game.check_options(variant))[0]]]
    tables.start(room.code, room.host_token)
    rnd = random.Random(name)
    while tables.view(room.code)["deadline"] is None:
        play_one(room, joined, rnd)
    view = tables.view(room.code)
    waited, idle = view["waiting_for"][0], next((s for s in range(len(joined)) if s not in view["waiting_for"]), None)
    phone = run("play", room=room.code, seat=waited, token=joined[waited].token)
    assert "data-sm-left=" in html_of(phone), "the phone the table waits on shows no countdown"
    if idle is not None:
        assert "data-sm-left=" not in html_of(run("play", room=room.code, seat=idle, token=joined[idle].token))

    wall = open_host_controls(run("table", room=room.code, host=room.host_token))
    assert "data-sm-left=" in html_of(wall)
    button(wall, "Pause").click().run()
    paused = tables.view(room.code)
    assert paused["paused"] and "Paused" in html_of(wall)
    button(wall, "+30 s").click().run()
    assert tables.view(room.code)["left"] == paused["left"] + 30
    button(wall, "Resume").click().run()
    assert not tables.view(room.code)["paused"] and tables.view(room.code)["deadline"]
    wall.segmented_control(key="clock-pace").set_value("brisk").run()
    assert not wall.exception and tables.view(room.code)["pace"] == "brisk"


def test_the_start_page_creates_a_room_with_the_pace_chosen():
    home = run("home")
    home.segmented_control(key="host-pace").set_value("brisk").run()
    assert home.checkbox(key="host-skip-quiet").value is True
    home.checkbox(key="host-skip-quiet").uncheck().run()
    button(home, "Create the room").click().run()
    made = tables.open_rooms(limit=1)[0]
    view = tables.view(made["code"])
    assert view["pace"] == "brisk" and view["skip_quiet"] is False
