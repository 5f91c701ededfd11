"""An audience member's phone on the stage in Maudit Mot Dit, Pictomania and Trading Faces (the
games' own `member` in pages/stage/): at a moment with picks on offer, its controls send exactly
the picks the service offers (each read from its `data-move`, then sent as the phone's socket sends
it), what the member picked shows as picked, a player's name that looks like markup is shown as
text, and Spanish and Italian show no English left."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from engine import i18n, tables
from engine.games import GAMES
from tests import kit, stage_text
from tests.pages.test_pages_i18n import english_left

SEATS = ["<b>x</b>", "<b>y</b>", "<b>z</b>"]  # names that look like markup: every seat's
MEMBER = "<i>m</i>"
LANGS = ["en", "es", "it"]


def screen(room, member, lang: str) -> str:
    """The member's stage screen, as their phone's socket draws it."""
    return stage_text.screen(room.code, lang, member.token, member.id)


def moves_of(markup: str) -> list[dict]:
    """The moves the screen's controls send, in order."""
    return [json.loads(html.unescape(m)) for m in re.findall(r'data-move="([^"]*)"', markup)]


def pressed(markup: str) -> list[dict]:
    """The moves of the controls shown as picked: aria-pressed and the picked class."""
    found = []
    for button in re.findall(r"<button\b[^>]*>", markup):
        if 'aria-pressed="true"' in button:
            assert "sm-on" in button, "a pressed button that does not look picked"
            found.append(json.loads(html.unescape(re.search(r'data-move="([^"]*)"', button).group(1))))
        else:
            assert "sm-on" not in button, "a button that looks picked but is not pressed"
    return found


def tap(room, member, move_id: str, move: dict) -> None:
    """A tap on the member's phone: sent over its stage socket."""
    who = tables.stage_who(room.code, member.token, member.id)
    assert tables.stage_move(room.code, who, member.token, move_id, move)["ack"] == move_id


def check_names_and_languages(markup_of) -> None:
    """Every hostile name is escaped (shown as text) and es/it show no English left."""
    for lang in LANGS:
        markup = markup_of(lang)
        text = stage_text.text(markup)
        for name in [*SEATS, MEMBER]:
            assert name not in markup, f"{name} reached the {lang} screen as markup"
        assert html.escape(MEMBER, quote=False) in markup and MEMBER in text  # shown, as text
        if lang != i18n.SOURCE:
            assert english_left(text, lang) == [], f"English left in {lang}"


def seated(name: str, **options):
    room = tables.create_room(name, options=options or None, seed=2)
    seats = [tables.join(room.code, n) for n in SEATS]
    member = tables.join_audience(room.code, MEMBER)
    tables.start(room.code, room.host_token)
    return room, seats, member


def test_a_maudit_member_types_one_answer_after_each_clue():
    room, seats, member = seated("maudit_mot_dit")
    holder = tables.state_of(room.code)["holder"]
    tables.submit(room.code, holder, seats[holder].token, tables.legal(room.code, holder, seats[holder].token)[-1])
    tables.submit(room.code, holder, seats[holder].token, {"type": "clue", "text": "qwxz"})
    assert tables.audience_legal(room.code, member.id, member.token) == [{"type": "answer", "clue": 1, "answer": None}]

    markup = screen(room, member, "en")
    assert moves_of(markup) == [{"type": "answer", "clue": 1, "answer": "$text:answer"}]  # the box's text goes in
    box = re.search(r'<label class="sm-field">([^<]*)<input ([^>]*)></label>', markup)
    assert box and box.group(1) == "One answer for this clue"
    assert 'name="answer"' in box.group(2) and 'maxlength="40"' in box.group(2)
    text = stage_text.text(markup)
    assert "Your answer after clue 1" in text and "qwxz" in text and "Send my answer" in text
    check_names_and_languages(lambda lang: screen(room, member, lang))
    for lang in ("es", "it"):
        said = stage_text.text(screen(room, member, lang))
        assert i18n.translate(lang, "Your answer after clue {n}", n=1) in said
        assert i18n.translate(lang, "Send my answer") in said

    # The button's move with what was typed, as the phone sends it: taken, and shown to the member alone.
    tap(room, member, "answer-1", {"type": "answer", "clue": 1, "answer": "<b>bad</b> guess"})
    markup = screen(room, member, "en")
    text = stage_text.text(markup)
    assert "Your answers so far (secret until the round ends): <b>bad</b> guess" in text
    assert "<b>bad</b>" not in markup  # typed text is text
    assert "Answer sent. Wait for the next clue." in text
    assert moves_of(markup) == [] and "<input" not in markup  # one answer per clue
    check_names_and_languages(lambda lang: screen(room, member, lang))
    wall = tables.view(room.code)
    assert "bad" not in json.dumps(wall)  # secret until the round ends


def test_a_pictomania_member_guesses_a_number_for_each_drawing():
    room, seats, member = seated("pictomania")
    for s in seats:
        tables.submit(room.code, s.seat, s.token, {"type": "ready"})
    offered = tables.audience_legal(room.code, member.id, member.token)
    assert offered and {p["drawer"] for p in offered} == {0, 1, 2}

    markup = screen(room, member, "en")
    assert moves_of(markup) == offered  # one button per number offered, for each drawing
    assert pressed(markup) == []
    text = stage_text.text(markup)
    for name in SEATS:
        assert f"{name}'s drawing" in text
    for drawer in (0, 1, 2):  # the numbers under each drawing's name are its own
        section = markup.split(f'id="member-drawing-{drawer}"')[1].split("</section>")[0]
        assert {m["drawer"] for m in moves_of(section)} == {drawer}
        shown = re.findall(r">\s*(\d+)\s*</button>", section)  # each button reads the number it sends
        assert shown == [str(m["number"]) for m in moves_of(section)] and shown

    first, then = {"type": "pick", "drawer": 1, "number": 4}, {"type": "pick", "drawer": 1, "number": 6}
    tap(room, member, "guess-1", first)
    assert pressed(screen(room, member, "en")) == [first]
    tap(room, member, "guess-2", then)  # a later guess on the same drawing replaces it
    tap(room, member, "guess-3", {"type": "pick", "drawer": 2, "number": 1})
    assert pressed(screen(room, member, "en")) == [then, {"type": "pick", "drawer": 2, "number": 1}]
    check_names_and_languages(lambda lang: screen(room, member, lang))
    for lang in ("es", "it"):
        said = stage_text.text(screen(room, member, lang))
        assert i18n.translate(lang, "{name}'s drawing", name=SEATS[0]) in said


def test_a_trading_faces_member_picks_the_emotion_of_the_face():
    room, seats, member = seated("trading_faces", variant="classic")
    rnd, game = random.Random(3), GAMES["trading_faces"]
    for _ in range(kit.MAX_MOVES):
        if tables.audience_legal(room.code, member.id, member.token):
            break
        move = kit.random_move(game, tables.state_of(room.code), rnd)
        seat = move.pop("seat")
        tables.submit(room.code, seat, seats[seat].token, move)
    offered = tables.audience_legal(room.code, member.id, member.token)
    assert offered, "no face was made"
    maker = SEATS[tables.view(room.code)["face"]["maker"]]

    markup = screen(room, member, "en")
    assert moves_of(markup) == offered  # one button per emotion, each its own pick
    labels = re.findall(r'<button[^>]*data-move="[^"]*"[^>]*>([^<]*)</button>', markup)
    assert "6 · happy" in labels and "13 · in love" in labels  # the card's number and its word
    assert f"What is {maker} feeling?" in stage_text.text(markup)
    assert pressed(markup) == []

    tap(room, member, "face-1", {"type": "pick", "emotion": "happy"})
    tap(room, member, "face-2", {"type": "pick", "emotion": "sad"})  # changed: the later pick holds
    markup = screen(room, member, "en")
    assert pressed(markup) == [{"type": "pick", "emotion": "sad"}]
    assert "Your pick: 9 · sad. You can change it until the face is revealed." in stage_text.text(markup)
    check_names_and_languages(lambda lang: screen(room, member, lang))
    for lang in ("es", "it"):
        said = stage_text.text(screen(room, member, lang))
        happy = i18n.translate(lang, "happy")
        assert happy != "happy" and f"6 · {happy}" in said  # the emotions in the member's language
        assert i18n.translate(lang, "What is {maker} feeling?", maker=maker) in said


@pytest.mark.parametrize(
    "game,pick,said",
    [
        ("maudit_mot_dit", {"type": "answer", "clue": 2, "answer": "sea"}, "“sea”"),
        ("pictomania", {"type": "pick", "drawer": 1, "number": 4}, "4"),
        ("trading_faces", {"type": "pick", "emotion": "in_love"}, "in love"),
    ],
)
def test_the_last_reveal_says_what_the_member_picked_in_the_games_words(game, pick, said):
    from pages.stage import stage_of
    from pages.stage.render import Speaker

    stage = stage_of(game)
    assert stage.pick_text(pick, Speaker("en")) == said
    if game == "trading_faces":
        assert stage.pick_text(pick, Speaker("es")) == i18n.translate("es", "in love") != "in love"
