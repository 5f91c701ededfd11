"""The audience on the pages, for every game of GAMES: the join page offers Join the audience (first
once the seats are taken or the game has started, with its line for the game), a member's link
opens their phone, the wall counts them, shows how they picked at the reveal and their best at the
end; a room without an audience says so."""

from __future__ import annotations

import html
import re

import pytest

from engine import tables
from engine.games import GAMES
from tests.helpers import past_the_reveal, submit
from tests.pages.test_pages import run, shown, stage_markup, stage_of, text_of

pytestmark = pytest.mark.usefixtures("plain_cards")
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lea"]


def html_of(at) -> str:
    return shown("".join(h.proto.body for h in at.get("html")))


def best_in_the_audience(at) -> list[tuple[str, str, str]]:
    """The wall's audience podium at the end, on the stage: (place, name, points) in order."""
    markup = stage_markup(at)
    section = re.search(r'<section class="sm-podium sm-best[^"]*".*?</section>', markup, re.S)
    assert section, "no audience podium on the wall"
    places = re.findall(
        r'<span class="sm-rank">([^<]*)</span><span class="sm-name">([^<]*)</span><span class="sm-pts">([^<]*)</span>',
        section.group(0),
    )
    return [tuple(html.unescape(v) for v in place) for place in places]


@pytest.mark.parametrize("name", list(GAMES))
def test_joining_the_audience_when_the_seats_are_taken(name):
    game = GAMES[name]
    variant = game.variants[0]
    room = tables.create_room(name, options=variant)
    most = game.seat_range(game.check_options(variant))[1]
    for n in NAMES[:most]:
        tables.join(room.code, n)
    page = run("play", room=room.code)
    labels = [b.label for b in page.button]
    assert labels[0].endswith("Join the audience") and not any(label == "Take a seat" for label in labels)
    page.text_input(key="join-name").input("Lu")
    page.button[0].click().run()
    assert page.query_params.get("member") and page.query_params.get("token")
    member = run("play", room=room.code, member=page.query_params["member"], token=page.query_params["token"])
    assert re.search(r"\bLu\b.*· audience ·", stage_of(member))  # a member's phone is the stage's, in every game
    wall = run("table", room=room.code)
    assert "1 in the audience" in stage_of(wall)  # the lobby's count is the stage's


def test_a_room_without_an_audience_and_a_stale_member_link_say_so():
    room = tables.create_room("dixit", options={"audience": False})
    for n in NAMES[:3]:
        tables.join(room.code, n)
    page = run("play", room=room.code)
    assert "This room has no audience." in text_of(page)
    assert not any(b.label.endswith("Join the audience") for b in page.button)
    stale = run("play", room=room.code, member="nobody", token="old")
    assert "audience link is not valid" in text_of(stale)


def test_the_wall_shows_how_the_audience_picked_and_its_best_at_the_end():
    room = tables.create_room("dixit", seed=4)
    seats = [tables.join(room.code, n) for n in NAMES[:3]]
    lu = tables.join_audience(room.code, "Lu")
    tables.start(room.code, room.host_token)
    submit(room.code, 0, seats[0].token, {"type": "claim"})
    hand = tables.view(room.code, 0, seats[0].token)["hand"]
    submit(room.code, 0, seats[0].token, {"type": "tell", "card": hand[0], "phrase": "sea"})
    for s in seats[1:]:
        v = tables.view(room.code, s.seat, s.token)
        submit(room.code, s.seat, s.token, {"type": "give", "cards": v["hand"][: v["gives_per_player"]]})
    story = next(p["position"] for p in tables.state_of(room.code)["table"] if p["owner"] == 0)
    member = run("play", room=room.code, member=lu.id, token=lu.token)
    assert "Which card is the storyteller's?" in stage_of(member)
    who = tables.stage_who(room.code, lu.token, lu.id)  # what the member's phone proves on its stage socket
    picked = tables.stage_move(room.code, who, lu.token, "tap-1", {"type": "pick", "position": story})  # a tap
    assert picked["ack"] == "tap-1"
    assert f"Your pick: card {story}" in stage_of(run("play", room=room.code, member=lu.id, token=lu.token))
    for s in seats[1:]:
        submit(room.code, s.seat, s.token, tables.legal(room.code, s.seat, s.token)[0])
    assert f"The audience: card {story}: 1" in stage_of(run("table", room=room.code))  # the wall's reveal
    assert f"You picked card {story}: +1 point" in stage_of(run("play", room=room.code, member=lu.id, token=lu.token))
    tables.end(room.code, room.host_token)
    assert best_in_the_audience(run("table", room=room.code)) == [("1", "Lu", "1 point")]


def test_the_statistics_show_the_best_audience_readers():
    from tests.pages.test_pages_stats import open_tab, run as stats_page

    test_the_wall_shows_how_the_audience_picked_and_its_best_at_the_end()  # a saved game: Lu scored 1
    page = open_tab(stats_page(), "🏆 Players")
    readers = next(d.value for d in page.dataframe if "Member" in d.value.columns)
    assert readers.to_dict("records") == [
        {"Place": 1, "Member": "Lu", "Games watched": 1, "Points": 1, "Points per game": 1.0, "Best game": 1}
    ]


def test_the_start_page_sets_the_audience():
    home = run("home")
    home.number_input(key="host-audience-max").set_value(30).run()
    next(b for b in home.button if b.label == "Create the room").click().run()
    made = tables.open_rooms(limit=1)[0]
    assert tables.audience_size(made["code"]) == {
        "open": True,
        "cap": 30,
        "count": 0,
        "full": False,
        "picked": 0,
        "latest": [],
    }
    home = run("home")
    home.checkbox(key="host-audience").uncheck().run()
    next(b for b in home.button if b.label == "Create the room").click().run()
    assert tables.audience_size(tables.open_rooms(limit=1)[0]["code"])["open"] is False


def dixit_turn(room, seats, pickers) -> None:
    """One Dixit turn played with the first legal moves; `pickers` pick the storyteller's card."""
    past_the_reveal(room.code)
    turns = len(tables.state_of(room.code)["history"])
    while tables.view(room.code)["phase"] != "vote":
        seat = tables.view(room.code)["waiting_for"][0]
        submit(room.code, seat, seats[seat].token, tables.legal(room.code, seat, seats[seat].token)[0])
    state = tables.state_of(room.code)
    story = next(p["position"] for p in state["table"] if p["owner"] == state["storyteller"])
    for m in pickers:
        tables.audience_submit(room.code, m.id, m.token, {"type": "pick", "position": story})
    while len(tables.state_of(room.code)["history"]) == turns:
        seat = tables.view(room.code)["waiting_for"][0]
        submit(room.code, seat, seats[seat].token, tables.legal(room.code, seat, seats[seat].token)[0])


def test_the_audience_top_three_names_everyone_tied_in_it():
    """Mateo 2, then Eli, Kai and Zoë on 1: all four are placed 1 to 3 (the wall once showed three)."""
    room = tables.create_room("dixit", seed=4)
    seats = [tables.join(room.code, n) for n in NAMES[:3]]
    mateo, zoe, eli, kai = (tables.join_audience(room.code, n) for n in ("Mateo", "Zoë", "Eli", "Kai"))
    tables.start(room.code, room.host_token)
    dixit_turn(room, seats, [mateo, zoe, eli, kai])
    dixit_turn(room, seats, [mateo])
    tables.end(room.code, room.host_token)
    wall = run("table", room=room.code)
    assert best_in_the_audience(wall) == [("1", "Mateo", "2 points")] + [
        ("2", n, "1 point") for n in ("Eli", "Kai", "Zoë")
    ]
    line = "Best in the audience: 1. Mateo 2 points · 2. Eli 1 point · 2. Kai 1 point · 2. Zoë 1 point"
    assert line in stage_of(run("play", room=room.code, member=kai.id, token=kai.token))


def test_a_party_member_is_asked_for_the_card_the_storyteller_will_vote_red():
    from tests.engine.tables.test_audience import party_to_the_vote

    room, _seats, (lu,), _own, _red = party_to_the_vote(["Lu"])
    page = stage_of(run("play", room=room.code, member=lu.id, token=lu.token))
    assert "Which card will the storyteller vote red?" in page and "storyteller's?" not in page
    assert "The storyteller will vote this one red" in page  # the button that picks


def test_a_maudit_member_who_found_the_word_is_told_so():
    room = tables.create_room("maudit_mot_dit", seed=2)
    seats = [tables.join(room.code, n) for n in NAMES[:3]]
    lu = tables.join_audience(room.code, "Lu")
    tables.start(room.code, room.host_token)
    holder = tables.state_of(room.code)["holder"]
    submit(room.code, holder, seats[holder].token, tables.legal(room.code, holder, seats[holder].token)[-1])
    submit(room.code, holder, seats[holder].token, {"type": "clue", "text": "qwxz"})
    asked = stage_of(run("play", room=room.code, member=lu.id, token=lu.token))
    assert "Your answer after clue 1" in asked and "qwxz" in asked  # the clues so far, and a box to answer in
    assert "One answer for this clue" in asked and "Send my answer" in asked
    word = tables.state_of(room.code)["chosen"]["word"]
    who = tables.stage_who(room.code, lu.token, lu.id)  # typed, then sent from the phone's stage socket
    tables.stage_move(room.code, who, lu.token, "answer-1", {"type": "answer", "clue": 1, "answer": word})
    page = run("play", room=room.code, member=lu.id, token=lu.token)
    assert "You found the word!" in stage_of(page)
    assert "<input" not in stage_markup(page) and "data-move" not in stage_markup(page)  # nothing more to answer


def test_each_member_reads_their_place_in_the_audience_at_the_reveal():
    """Four find the first card, only Mateo the second: at the second reveal he is 1st of 4, and the
    three on 1 point are tied 2nd (ties share a place: RULES.md section 6)."""
    room = tables.create_room("dixit", seed=4, options={"pace": "host"})  # the reveal holds until Next
    seats = [tables.join(room.code, n) for n in NAMES[:3]]
    mateo, zoe, eli, kai = (tables.join_audience(room.code, n) for n in ("Mateo", "Zoë", "Eli", "Kai"))
    tables.start(room.code, room.host_token)
    dixit_turn(room, seats, [mateo, zoe, eli, kai])
    dixit_turn(room, seats, [mateo])

    def phone(m) -> str:
        return stage_of(run("play", room=room.code, member=m.id, token=m.token))

    assert "+1 point. You're 1st of 4 in the audience." in phone(mateo)
    for m in (zoe, eli, kai):
        assert "You did not pick this time. You're tied 2nd of 4 in the audience." in phone(m)
