"""The Dixit Odyssey pages run under AppTest without an exception in every phase of every variant:
the shared screen and every seat's phone, from the lobby to the end."""

import random

import pytest

from engine import tables
from tests.pages.test_pages import run, shown, text_of as _text_of

pytestmark = pytest.mark.usefixtures("plain_cards")
NAMES = ["Ana", "Bo", "Cy", "Di", "Eve", "Fay", "Gus"]


def text_of(at) -> str:
    """What the page shows, the raw HTML panels (team strip, points chips) included."""
    return _text_of(at) + "\n" + shown("\n".join(h.proto.body for h in at.get("html")))


def seated(variant, players, laps=1):
    room = tables.create_room("odyssey", options={"variant": variant, "laps": laps}, seed=11)
    seats = [tables.join(room.code, NAMES[i]) for i in range(players)]
    return room, seats


def pages_run(room, seats, who=None):
    """The shared screen (as host) and the given seats' phones (default: all); the texts shown."""
    texts = [text_of(run("table", room=room.code, host=room.host_token))]
    for s in seats if who is None else [seats[i] for i in who]:
        texts.append(text_of(run("play", room=room.code, seat=s.seat, token=s.token)))
    return texts


def play_one(room, seats, rnd, double=False):
    """One move of someone the table waits for (a double vote when asked and allowed)."""
    view = tables.view(room.code)
    for seat in view["waiting_for"]:
        moves = tables.legal(room.code, seat, seats[seat].token)
        if double:
            moves = [m for m in moves if len(m.get("positions", [])) == 2] or moves
        if moves:
            move = {k: v for k, v in rnd.choice(moves).items() if k != "seat"}
            if move["type"] == "tell":
                move["phrase"] = "A <b>bold</b> *phrase*"
            tables.submit(room.code, seat, seats[seat].token, move)
            return


def through_phases(room, seats, rnd, double=False):
    """Run the pages at each phase of the first two turns; returns the texts seen per phase."""
    seen = {}
    while tables.view(room.code)["phase"] != "end" and len(tables.view(room.code)["history"]) < 2:
        view = tables.view(room.code)
        key = (view["phase"], len(view["history"]))
        if key not in seen:
            # Who is waited for, plus one who is not: both states of a phone.
            idle = [s for s in range(len(seats)) if s not in view["waiting_for"]][:1]
            seen[key] = pages_run(room, seats, who=view["waiting_for"][:2] + idle)
        play_one(room, seats, rnd, double)
    return seen


def test_lobby_pages():
    room, seats = seated("base", 3)
    texts = pages_run(room, seats)
    assert "You're in as" in texts[1]


def test_base_seven_players_every_phase_then_the_end():
    room, seats = seated("base", 7)
    tables.start(room.code, room.host_token)
    seen = through_phases(room, seats, random.Random(1), double=True)
    assert {phase for phase, _ in seen} >= {"claim", "tell", "give", "vote"}
    voter_texts = "\n".join(seen[("vote", 0)])
    assert "single correct vote earns +1" in voter_texts
    assert "Waiting for:" in voter_texts
    tables.end(room.code, room.host_token)
    texts = pages_run(room, seats)
    assert "win" in texts[0]


def test_base_seven_phone_offers_one_or_two_votes():
    room, seats = seated("base", 7)
    tables.start(room.code, room.host_token)
    rnd = random.Random(2)
    while tables.view(room.code)["phase"] != "vote":
        play_one(room, seats, rnd)
    voter = tables.view(room.code)["waiting_for"][0]
    at = run("play", room=room.code, seat=voter, token=seats[voter].token)
    assert "How many votes?" in str([e.proto for e in at.get("button_group")])


def test_party_six_players_every_phase():
    room, seats = seated("party", 6, laps=1)
    tables.start(room.code, room.host_token)
    seen = through_phases(room, seats, random.Random(3))
    assert "the phrase comes first" in "\n".join(seen[("claim", 0)])
    teller = tables.view(room.code)["storyteller"]
    # The storyteller's red vote: after the green one, the phone shows the separate red control.
    rnd = random.Random(4)
    while tables.view(room.code)["phase"] != "vote":
        play_one(room, seats, rnd)
    teller = tables.view(room.code)["storyteller"]
    green = next(m for m in tables.legal(room.code, teller, seats[teller].token) if m["type"] == "vote")
    tables.submit(room.code, teller, seats[teller].token, {"type": "vote", "positions": green["positions"]})
    text = text_of(run("play", room=room.code, seat=teller, token=seats[teller].token))
    assert "Red card (secret)" in text
    while tables.view(room.code)["phase"] == "vote":
        play_one(room, seats, rnd)
    assert tables.view(room.code)["last_turn"]["red_vote"] is not None
    pages_run(room, seats, who=[teller])


def test_team_six_players_every_phase_and_the_end():
    room, seats = seated("team", 6, laps=1)
    tables.start(room.code, room.host_token)
    seen = through_phases(room, seats, random.Random(5))
    give = "\n".join(seen[("give", 0)])
    assert "the first to give gives; the other one votes" in give or "fits too" in give
    assert "You are team" in give
    rnd = random.Random(6)
    while tables.view(room.code)["phase"] != "end":
        play_one(room, seats, rnd)
    texts = pages_run(room, seats)
    assert "Team" in texts[0] and "win" in texts[0]


def test_home_offers_odyssey_with_its_variants():
    at = run("home")
    game = next(s for s in at.selectbox if s.label == "Game")
    game.select("odyssey").run()
    assert not at.exception
    variant = next(r for r in at.radio if r.label == "Variant")
    assert not any(s.label.startswith("Laps") for s in at.slider)
    variant.set_value("party").run()
    next(s for s in at.slider if s.label.startswith("Laps")).set_value(2).run()
    next(b for b in at.button if b.label == "Create the room").click().run()
    assert not at.exception, [e.message for e in at.exception]
    room = tables.open_rooms()[0]
    assert room["game"] == "odyssey"
    assert tables.view(room["code"])["options"]["variant"] == "party"
    assert tables.view(room["code"])["options"]["laps"] == 2
