"""Pictomania's pages run under AppTest in every phase a room goes through, and never show one
seat's secret (letter, number, word) to the shared screen or to another seat."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine import tables
from engine.games import pictomania
from pages.games.pictomania import pictomania as screen, sketch
from pages.stage.serve import SERVE, Viewer
from tests.helpers import past_the_reveal, submit
from tests.pages.test_pages import run, shown, stage_of

TIMEOUT = 30
ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ana", "Bo", "Cy", "Di"]


def text_of(at) -> str:
    parts = [m.value for m in at.markdown] + [m.value for m in at.caption] + [m.value for m in at.info]
    parts += [m.value for m in at.success] + [m.value for m in at.error] + [m.value for m in at.warning]
    parts += [h.proto.body for h in at.get("html")]
    parts += [b.label for b in at.button]
    parts += [c.proto.json for c in at.get("bidi_component")]  # the drawings' captions and guess controls
    return shown("\n".join(str(p) for p in parts))


def phone_of(r, seat) -> str:
    """A seat's phone as its player reads it: the page's own part (the pad, while drawing) and the
    stage's screen under it."""
    at = run("play", room=r.code, seat=seat.seat, token=seat.token)
    return text_of(at) + "\n" + stage_of(at)


def secret_line(view) -> str:
    return f"Draw {view['letter']}{view['number']}: {view['word']}"


@pytest.fixture
def room():
    r = tables.create_room("pictomania", seed=4, language="en")
    seats = [tables.join(r.code, n) for n in NAMES]
    tables.start(r.code, r.host_token)
    return r, seats


def ready_all(code, seats):
    for s in seats:
        submit(code, s.seat, s.token, {"type": "ready"})


def draw_and_guess(code, seats):
    for s in seats:
        submit(
            code,
            s.seat,
            s.token,
            {"type": "stroke", "points": [[10, 10], [500, 300], [990, 740]], "width": 8, "color": "#e53935"},
        )
        submit(code, s.seat, s.token, {"type": "stroke", "points": [[100, 700]], "width": 30, "color": "eraser"})
    left = tables.view(code, 1, seats[1].token)["numbers_left"]
    submit(code, 1, seats[1].token, {"type": "guess", "drawer": 0, "number": left[0]})
    submit(code, 2, seats[2].token, {"type": "finish", "token": 4})


def finish_round(code, seats):
    for s in seats:
        view = tables.view(code, s.seat, s.token)
        if str(s.seat) not in view["finished"]:
            submit(code, s.seat, s.token, {"type": "finish", "token": None})


def submit_refused(code, seat, move) -> str:
    """The message a seat's tap gets while the room holds a reveal (as its phone shows it)."""
    who = tables.stage_who(code, seat.token)
    answer = SERVE.move(code, Viewer(who, seat.token, "en", seat.seat), "tap-r", move)
    assert "refused" in answer, answer
    return answer["message"]


def test_words_phase(room):
    r, seats = room
    at = run("table", room=r.code, host=r.host_token)
    assert "read the 21 words" in stage_of(at)  # the wall is the stage's
    page = phone_of(r, seats[0])
    assert "I've read them: Ready" in page and "Replace card A (" in page


def test_draw_phase_keeps_every_secret_to_its_seat(room):
    r, seats = room
    ready_all(r.code, seats)
    draw_and_guess(r.code, seats)
    views = [tables.view(r.code, s.seat, s.token) for s in seats]
    shared = stage_of(run("table", room=r.code, host=r.host_token))
    assert "everyone draws" in shared and "Draw " not in shared
    for view in views:
        assert f"Draw {view['letter']}{view['number']}" not in shared
    for s, view in zip(seats, views, strict=True):
        page = phone_of(r, s)
        assert secret_line(view) in page
        for other in views:
            if other["you"] != view["you"]:
                assert f"Draw {other['letter']}{other['number']}" not in page
                assert f": {other['word']}<" not in page
    # Bo guessed on Ana: his drawing is frozen and his guess shows; Cy is done.
    bo = phone_of(r, seats[1])
    assert "Your drawing is frozen" in bo and "your guess:" in bo
    cy = phone_of(r, seats[2])
    assert "You're done with black token 4" in cy
    ana = run("play", room=r.code, seat=0, token=seats[0].token)  # still drawing: the pad is on her page
    assert "Your first guess freezes your drawing." in text_of(ana)  # the caption under the pad
    assert "Your first guess freezes your drawing." not in text_of(
        run("play", room=r.code, seat=1, token=seats[1].token)
    )


def test_after_a_round_and_at_the_end(room):
    r, seats = room
    ready_all(r.code, seats)
    draw_and_guess(r.code, seats)
    finish_round(r.code, seats)
    shared = stage_of(run("table", room=r.code, host=r.host_token))  # the round's reveal
    assert "Round 1 — the answers" in shared
    assert all(name in shared for name in NAMES)  # the drawings' names, and the round's scores
    assert "Round 2" not in shared and "read the 21 words" not in shared  # nothing of the next round
    ana = phone_of(r, seats[0])  # each phone: its own side of the reveal, nothing of round 2
    assert "Round 1 — the answers" in ana and "Ready" not in ana and "Round 2" not in ana
    assert "You drew " in ana and "Bo found your drawing." in ana
    assert "this round · you're " in ana
    refused = submit_refused(r.code, seats[1], {"type": "ready"})
    assert "watching the reveal" in refused
    tables.next_scene(r.code, r.host_token)
    shared = stage_of(run("table", room=r.code, host=r.host_token))  # the next words, the round's breakdown
    assert "Round 2 of 4" in shared and "Round 1 — the answers" in shared and "Tokens received" in shared
    run("play", room=r.code, seat=3, token=seats[3].token)
    for _ in range(3):
        ready_all(r.code, seats)
        finish_round(r.code, seats)
    assert tables.view(r.code)["phase"] == "end"
    past_the_reveal(r.code)
    shared = stage_of(run("table", room=r.code, host=r.host_token))
    assert "win" in shared and all(name in shared for name in NAMES)  # the podium
    for s in seats:
        # "Game over" once (or "You win!"), its points and its place
        page = stage_of(run("play", room=r.code, seat=s.seat, token=s.token))
        assert page.count("Game over") + page.count("You win!") == 1 and " of 4." in page


def test_a_game_the_host_ended_mid_round(room):
    r, seats = room
    ready_all(r.code, seats)
    draw_and_guess(r.code, seats)
    tables.end(r.code, r.host_token)
    assert tables.view(r.code)["phase"] == "end" and tables.record(r.code)["turns"] == []  # no round was scored
    shared = stage_of(run("table", room=r.code, host=r.host_token))
    assert "win" in shared and all(name in shared for name in NAMES)  # the podium, straight away
    assert "win" in stage_of(run("play", room=r.code, seat=0, token=seats[0].token))


def test_the_rules_page_shows_the_engines_token_tables():
    text = (ROOT / "data" / "rules" / "pictomania.md").read_text(encoding="utf-8")
    assert screen.rules_tables() in text
    for n, tokens in pictomania.SCORING_TOKENS.items():
        assert re.search(rf"\| {n} \| {', '.join(map(str, tokens))} \|", text)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.query_params["game"] = "pictomania"
    at.switch_page("pages/rules.py").run()
    assert not at.exception


def test_strokes_round_trip_between_the_pad_and_the_engine():
    stroke = {"points": [[0, 0], [500, 375], [1000, 750]], "width": 10, "color": "#1e88e5"}
    for size in (sketch.PAD_PHONE, sketch.PAD_WIDE):
        fabric = sketch.to_fabric([stroke], size)["objects"][0]
        back = sketch.to_stroke(fabric, size)
        assert back["color"] == "#1e88e5" and abs(back["width"] - 10) <= 1
        assert all(
            abs(a - b) <= 2
            for p, q in zip(back["points"], stroke["points"], strict=False)
            for a, b in zip(p, q, strict=True)
        )
    eraser = sketch.to_stroke(
        {"type": "Path", "stroke": "#ffffff", "strokeWidth": 12, "path": [["M", 1, 1], ["Q", 5, 5, 7, 7], ["L", 9, 9]]},
        (100, 75),
    )
    assert eraser["color"] == "eraser" and eraser["points"][0] == [10, 10]
    long = {
        "type": "Path",
        "stroke": "#000000",
        "strokeWidth": 2,
        "path": [["M", 0, 0]] + [["Q", i % 500, i % 300, i % 500, i % 300] for i in range(2000)],
    }
    assert len(sketch.to_stroke(long, (500, 375))["points"]) <= pictomania.MAX_STROKE_POINTS
    svg = sketch.svg([stroke], seat=2)
    assert 'data-strokes="1"' in svg and 'viewBox="0 0 1000 750"' in svg


def test_the_host_creates_a_room_with_chosen_decks():
    at = run("home")
    at.selectbox[0].select("pictomania").run()
    at.selectbox(key="pm-deck-0").select("red").run()
    at.toggle[0].set_value(True).run()
    next(b for b in at.button if b.label == "Create the room").click().run()
    assert not at.exception, [e.message for e in at.exception]
    code = tables.open_rooms()[0]["code"]
    options = tables.view(code)["options"]
    assert options["decks"] == ["red", "yellow", "orange", "red"] and options["competitive"] is True


def test_a_stroke_the_pad_sends_twice_is_drawn_once(room, monkeypatch):
    """The pad's rerun lost on a bad network (the tab's count of what it sent is gone) and sent
    again: each stroke carries an id made from the pad's drawing, and is played once."""
    r, seats = room
    ready_all(r.code, seats)
    ana = seats[0]
    stroke = {"points": [[0, 0], [500, 375], [1000, 750]], "width": 10, "color": "#1e88e5"}
    fabric = sketch.to_fabric([stroke], sketch.PAD_PHONE)["objects"][0]
    session = {"pad": {"drawing": {"raw": {"objects": [fabric]}}}, "pad:init": {"generation": 0}}
    monkeypatch.setattr(sketch.st, "session_state", session)
    who = tables.stage_who(r.code, ana.token)

    def act(move, move_id=None):
        tables.stage_move(r.code, who, ana.token, move_id, move)
        return True

    sketch._sync("pad", sketch.PAD_PHONE, act)
    session.pop("pad:known")  # the answer lost: the same drawing comes again
    sketch._sync("pad", sketch.PAD_PHONE, act)
    assert len(tables.view(r.code, ana.seat, ana.token)["drawings"][str(ana.seat)]) == 1
