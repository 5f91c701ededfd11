"""Every game of `GAMES` (the toy too) and every variant on the stage: a table played with random
legal moves, scene by scene through its first turn, its reveal and the next turn's first scene,
then ended. At each scene the wall fits the five projector sizes (test_stage_sizes.py's check) and
axe-core finds no serious or critical violation on the wall and on a seat's phone, the language
turning from table to table.

The busiest walls of the games' main variants are set up by hand in test_stage_sizes.py and
test_stage_accessibility.py; a (game, variant) both of those cover is not played again here."""

from __future__ import annotations

import pytest

from engine.games import GAMES
from tests.browser.test_accessibility import LOCALES, assert_accessible
from tests.browser.test_room_life import WAIT, tables_call
from tests.browser.test_stage_accessibility import PHONE, SHOWN
from tests.browser.test_stage_sizes import NAMES, look

# (game, variant) whose busiest scenes both hand-set tests play.
COVERED = [
    ("dixit", {"contando": False}),
    ("maudit_mot_dit", {}),
    ("trading_faces", {"variant": "classic"}),
    ("trading_faces", {"variant": "memory"}),
    ("pictomania", {"competitive": False}),
]
LANGS = list(LOCALES)


def tables() -> list[tuple[str, dict, int]]:
    """Every (game, variant) not covered above, with the most seats it takes (the busiest wall)."""
    return [
        (name, variant, min(game.seat_counts(game.check_options(variant))[-1], len(NAMES)))
        for name, game in GAMES.items()
        for variant in game.variants
        if (name, variant) not in COVERED
    ]


# Random legal moves (free fields filled as a player might) until what the wall shows changes: the
# phase, or a closed turn (its reveal). With `play` false, only the reveal still on is ended.
STEP = """
import json, random
from engine.core.conformance.player import fill
from engine.games import GAMES
game, code, host, tokens, n, play = GAMES[{name!r}], {code!r}, {host!r}, {tokens!r}, {n!r}, {play!r}
rnd = random.Random(n)
def mark(v):
    return (v["phase"], len(v.get("history") or []), v["status"])
if not play:
    tables.next_scene(code, host)
v = tables.view(code)
start = mark(v)
for _ in range(500 if play else 0):
    if mark(v) != start:
        break
    if past_the_reveal(code):
        v = tables.view(code)
    seats = [s for s in v["waiting_for"] if tables.legal(code, s, tokens[s])]
    seats = seats or [s for s in range(len(tokens)) if tables.legal(code, s, tokens[s])]
    seat = rnd.choice(seats)
    move = fill(game, rnd.choice(tables.legal(code, seat, tokens[seat])), rnd)
    move.pop("seat", None)
    tables.submit(code, seat, tokens[seat], move)
    v = tables.view(code)
print(json.dumps({{"version": tables.version(code), "turns": len(v.get("history") or []), "status": v["status"]}}))
"""


@pytest.mark.parametrize("name,variant,players", tables(), ids=lambda v: v if isinstance(v, str) else str(v))
def test_every_scene_of_every_variant_fits_and_is_accessible(house, browser, name, variant, players):
    lang = LANGS[[t[:2] for t in tables()].index((name, variant)) % len(LANGS)]
    srv = house
    room = tables_call(
        srv,
        # At the host's pace: a reveal holds until looked at (a loaded machine takes longer than its seconds).
        f"r = tables.create_room({name!r}, options={dict(variant, pace='host')!r}, seed=7, language={lang!r})\n"
        f"s = [tables.join(r.code, n).token for n in {NAMES[:players]!r}]\n"
        "tables.join_audience(r.code, 'Member')\n"
        "tables.start(r.code, r.host_token)\n"
        "print(json.dumps({'code': r.code, 'host': r.host_token, 'tokens': s, 'version': tables.version(r.code)}))",
    )
    code, version = room["code"], room["version"]
    wall = browser.new_context(
        locale=LOCALES[lang], viewport={"width": 1280, "height": 720}, reduced_motion="reduce"
    ).new_page()
    wall.goto(f"{srv.url}/table?room={code}")
    phone = browser.new_context(locale=LOCALES[lang], reduced_motion="reduce", **PHONE).new_page()
    phone.goto(f"{srv.url}/play?room={code}&seat=1&token={room['tokens'][1]}")

    def step(n: int, play: bool) -> dict:
        args = {"name": name, "code": code, "host": room["host"], "tokens": room["tokens"], "n": n, "play": play}
        return tables_call(srv, STEP.format(**args))

    seen: list[str] = []
    turns, playing = 0, True
    for n in range(16):
        for page in (wall, phone):
            page.wait_for_function(SHOWN, arg=[code, version], timeout=WAIT, polling=100)
        scene = wall.locator(".sm-stage").get_attribute("data-scene")
        if scene not in seen:
            seen.append(scene)
            look(wall, scene)
            assert_accessible(wall, f"{name} {variant}, the wall at {scene}, {lang}")
            assert_accessible(phone, f"{name} {variant}, a seat's phone at {scene}, {lang}")
        if scene == "end":
            break
        if turns >= 1 and scene != "reveal" or not playing:  # a turn played, and its reveal: the end
            version = tables_call(srv, f"print(tables.end({code!r}, {room['host']!r}))")
            continue
        done = step(n, play=scene != "reveal")
        version, turns, playing = done["version"], done["turns"], done["status"] == "playing"
    assert seen[-1] == "end" and len(seen) >= 3, seen
