"""The pace clock on the pages, for every game of GAMES: the countdown on the wall and on the phone
the table waits on (not on the others), the host's pause, +30 s, resume and pace; and the start
page's Pace option."""

from __future__ import annotations

import html
import random
import re
from datetime import datetime

import pytest
from streamlit.testing.v1 import AppTest

from engine import i18n, tables
from engine.games import GAMES
from pages.games import SETUPS
from pages.stage import on_stage, wall_on_stage
from tests.engine.tables.test_pace import NAMES, play_one
from tests.pages.test_pages import ROOT, TIMEOUT, open_host_controls, run, stage_markup

pytestmark = pytest.mark.usefixtures("plain_cards")


def button(at, label: str):
    return next(b for b in at.button if b.label.endswith(label))


def stage_clock(at) -> dict | None:
    """The countdown on the page's stage: its `.sm-clock` element's data, or None. The browser writes
    its text (pages/assets/stage.js) from `data-deadline` (epoch ms), or from `data-left` paused."""
    found = re.findall(r'<span class="sm-clock"([^>]*)>', stage_markup(at))
    assert len(found) <= 1, found
    if not found:
        return None
    return {k: html.unescape(v) for k, v in re.findall(r'data-([\w-]+)="([^"]*)"', found[0])}


def epoch_ms(iso: str) -> int:
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


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
    assert on_stage(name) and wall_on_stage(name)  # every game's screens, the countdown with them, are the stage's
    clock = stage_clock(phone)
    assert clock, "the phone the table waits on shows no countdown"
    assert clock["deadline"] == str(epoch_ms(view["deadline"])) and clock["paused"] == "0"
    assert clock["hurry"] == "{n} s left!" and clock["up"] == "Time's up"  # what the browser writes
    if idle is not None:
        other = run("play", room=room.code, seat=idle, token=joined[idle].token)
        assert stage_clock(other) is None, "a phone the table does not wait on shows the countdown"

    wall = open_host_controls(run("table", room=room.code, host=room.host_token))
    assert stage_clock(wall)["deadline"] == str(epoch_ms(view["deadline"]))
    button(wall, "Pause").click().run()
    paused = tables.view(room.code)
    clock = stage_clock(wall)  # held still at what was left, and says it is paused
    assert clock["paused"] == "1" and clock["left"] == str(paused["left"] * 1000) and "deadline" not in clock
    assert clock["paused-text"] == "Paused"
    assert paused["paused"]
    button(wall, "+30 s").click().run()
    assert tables.view(room.code)["left"] == paused["left"] + 30
    assert stage_clock(wall)["left"] == str((paused["left"] + 30) * 1000)
    button(wall, "Resume").click().run()
    assert not tables.view(room.code)["paused"] and tables.view(room.code)["deadline"]
    resumed = stage_clock(wall)
    assert resumed["paused"] == "0" and resumed["deadline"] == str(epoch_ms(tables.view(room.code)["deadline"]))
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


PACED = [name for name, game in GAMES.items() if game.clock]


def pace_line(at) -> str:
    """The caption under the Pace control: every item reads "<phase>: <n> s"."""
    lines = [
        html.unescape(c.value)
        for c in at.caption
        if re.fullmatch(r"[^·]+: \d+ s( · [^·]+: \d+ s)*", html.unescape(c.value))
    ]
    assert len(lines) <= 1, lines
    return lines[0] if lines else ""


def names_for(name: str, options: dict) -> dict:
    screen = SETUPS[name]
    return screen.pace_names(options) if hasattr(screen, "pace_names") else screen.PACE_NAMES


def test_every_timed_phase_of_every_game_has_a_name_in_some_variant():
    for name in PACED:
        named = set().union(*(names_for(name, variant) for variant in GAMES[name].variants))
        assert named == set(GAMES[name].clock.pace), name


def start_page(lang: str, **chosen):
    """The start page with these widgets chosen before it runs: set through the session, since
    AppTest cannot set a widget whose labels are translated (it formats them in English)."""
    home = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    home.session_state["lang"] = lang
    for key, value in chosen.items():
        home.session_state[key] = value
    home.switch_page("pages/home.py").run()
    assert not home.exception, [e.message for e in home.exception]
    for key, value in chosen.items():
        assert home.session_state[key] == value
    return home


@pytest.mark.parametrize("name", PACED)
@pytest.mark.parametrize("lang", ["en", "es", "it"])
def test_the_start_page_says_how_long_each_phase_lasts_at_the_pace_chosen(name, lang):
    game = GAMES[name]
    assert pace_line(start_page(lang, **{"host-game": name})) == "", "no clock, no lengths"
    variants = [v.get("variant") for v in game.variants] if name == "trading_faces" else [None]
    for variant in variants:
        names = names_for(name, {"variant": variant} if variant else {})
        for at, pace in enumerate(("relaxed", "brisk")):
            chosen = {"host-game": name, "host-pace": pace, **({"tf-variant": variant} if variant else {})}
            expected = " · ".join(
                f"{i18n.translate(lang, label)}: {game.clock.pace[phase][at]} s" for phase, label in names.items()
            )
            assert pace_line(start_page(lang, **chosen)) == expected
            if lang != "en" and SETUPS[name].__name__.startswith("pages."):  # the toy is not translated
                assert all(i18n.translate(lang, label) != label for label in names.values()), "left in English"


def test_dixit_brisk_reads_in_the_games_words():
    home = run("home")
    home.selectbox(key="host-game").set_value("dixit").run()
    home.segmented_control(key="host-pace").set_value("brisk").run()
    assert pace_line(home) == "Tell: 45 s · Give a card: 30 s · Vote: 25 s"


def test_the_walls_pace_control_follows_the_remote_and_never_sets_the_old_pace_back():
    """The teacher's remote changes the pace: the wall's host menu shows it, and the menu's own
    control, still holding the pace it was drawn with, does not set that one back when the wall's
    page runs again (the remote's test once found the new game on the old pace)."""
    room = tables.create_room("dixit", options={"pace": "relaxed"})
    joined = [tables.join(room.code, n) for n in NAMES[:3]]
    tables.start(room.code, room.host_token)
    wall = open_host_controls(run("table", room=room.code, host=room.host_token))
    assert wall.segmented_control(key="clock-pace").value == "relaxed"
    tables.set_pace(room.code, room.host_token, "brisk")  # as the remote does
    wall.run()
    assert wall.segmented_control(key="clock-pace").value == "brisk"
    button(wall, "Pause").click().run()  # another of the menu's controls: the page runs again
    assert not wall.exception and tables.view(room.code)["pace"] == "brisk"
    play_one(room, joined, random.Random(1))
    wall.run()
    assert tables.view(room.code)["pace"] == "brisk"
    wall.segmented_control(key="clock-pace").set_value("off").run()  # and the menu still sets it
    assert tables.view(room.code)["pace"] == "off"
