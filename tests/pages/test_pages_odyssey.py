"""The Dixit Odyssey pages in every phase of every variant, read as the players read them: each page
runs under AppTest without an exception, and what it shows is read where it is drawn. The wall's
lobby is Streamlit's; once the game starts the wall, and every seat's phone from the lobby on, are
the stage's screens (pages/stage), read as their socket draws them (tests/stage_text.py)."""

import contextlib
import html
import json
import random
import re

import pytest

from engine import tables
from engine.core import TableError, ranking
from engine.store import now
from pages.games.dixit_family.screens import TEAMS
from tests import stage_text
from tests.helpers import past_the_reveal
from tests.pages.test_pages import mounted, run, shown, stage_markup, text_of

pytestmark = pytest.mark.usefixtures("plain_cards")
NAMES = ["Ana", "Bo", "Cy", "Di", "Eve", "Fay", "Gus"]
PHRASE = "A <b>bold</b> *phrase*"  # markup typed as a phrase: read as typed, never drawn


def seated(variant, players, laps=1):
    room = tables.create_room("odyssey", options={"variant": variant, "laps": laps}, seed=11)
    seats = [tables.join(room.code, NAMES[i]) for i in range(players)]
    return room, seats


def read(at) -> str:
    """What the page shows: its stage's screen once it has one, else what Streamlit draws."""
    if mounted(at) is None:
        return text_of(at) + "\n" + shown("\n".join(h.proto.body for h in at.get("html")))
    markup = stage_markup(at)
    assert markup, "the stage draws nothing for this page"
    assert "<b>bold</b>" not in markup  # the phrase is text, whatever it holds
    return " ".join(stage_text.text(markup).split())  # as read: one space between words


def wall(room) -> str:
    at = run("table", room=room.code, host=room.host_token)
    assert (mounted(at) or {}).get("kind") == "wall", "the wall is the stage's, from the lobby on"
    return read(at)


def phone_page(room, seats, seat):
    at = run("play", room=room.code, seat=seat, token=seats[seat].token)
    assert mounted(at)["kind"] == "seat", "a seat's phone is the stage's"
    return at


def phone(room, seats, seat) -> str:
    return read(phone_page(room, seats, seat))


def pages_run(room, seats, who=None) -> dict:
    """The shared screen (as host, key None) and the given seats' phones (default: all): their texts."""
    texts = {None: wall(room)}
    for seat in range(len(seats)) if who is None else who:
        texts[seat] = phone(room, seats, seat)
    return texts


def play_one(room, seats, rnd, double=False):
    """One move of someone the table waits for (a double vote when asked and allowed), once the
    reveal before it is over."""
    past_the_reveal(room.code)
    view = tables.view(room.code)
    for seat in view["waiting_for"]:
        moves = tables.legal(room.code, seat, seats[seat].token)
        if double:
            moves = [m for m in moves if len(m.get("positions", [])) == 2] or moves
        if moves:
            move = {k: v for k, v in rnd.choice(moves).items() if k != "seat"}
            if move["type"] == "tell":
                move["phrase"] = PHRASE
            tables.submit(room.code, seat, seats[seat].token, move)
            return


def through_phases(room, seats, rnd, double=False) -> dict:
    """The pages at each phase of the first two turns: {(phase, turn): (view, {viewer: text})}."""
    seen = {}
    while tables.view(room.code)["phase"] != "end" and len(tables.view(room.code)["history"]) < 2:
        view = tables.view(room.code)
        held = view["reveal_held"] or (view["reveal_until"] or "") > now()
        key = ("reveal" if held else view["phase"], len(view["history"]))
        if key not in seen:
            # Who is waited for, plus one who is not: both states of a phone.
            idle = [s for s in range(len(seats)) if s not in view["waiting_for"]][:1]
            who = None if held else view["waiting_for"][:2] + idle  # a reveal: every phone
            seen[key] = (view, pages_run(room, seats, who=who))
        if held:  # the room watched the turn's reveal: its time runs out
            past_the_reveal(room.code)
            continue
        play_one(room, seats, rnd, double)
    return seen


def phones(texts) -> list[str]:
    return [t for s, t in texts.items() if s is not None]


def waited_and_idle(view, texts) -> tuple[list[str], list[str]]:
    """The phones seen at a phase: those the table waits for, and the others."""
    seen = {s: t for s, t in texts.items() if s is not None}
    waited = [t for s, t in seen.items() if s in view["waiting_for"]]
    return waited, [t for s, t in seen.items() if s not in view["waiting_for"]]


def check_the_end(room, seats, won) -> str:
    """Every page at the end: each phone says won or over, and its score. Returns the wall's text:
    the podium, once the last turn's reveal that holds the wall first is over (the host ends it)."""
    view = tables.view(room.code)
    texts = pages_run(room, seats)
    if "the storyteller's card was" in texts[None]:  # the last turn's reveal holds the room
        assert not any("Game over" in texts[seat] or "You win!" in texts[seat] for seat in range(len(seats)))
        with contextlib.suppress(TableError):  # (over by now, on a slow machine: nothing to end)
            tables.next_scene(room.code, room.host_token)
        texts = pages_run(room, seats)
    places = ranking.places(view["scores"])
    for seat in range(len(seats)):
        assert ("You win!" if won(view, seat) else "Game over") in texts[seat]
        points = view["scores"][seat]
        assert f"You scored {points} point{'s' if points != 1 else ''}: " in texts[seat]
        assert f"{ordinal(places[seat])} of {len(seats)}." in texts[seat]
    return texts[None]


def ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def test_lobby_pages():
    room, seats = seated("base", 3)
    texts = pages_run(room, seats)
    assert all(n in texts[None] for n in NAMES[:3])  # the wall's lobby (its stage) lists who joined
    for seat in range(3):
        assert f"You're in as {NAMES[seat]}." in texts[seat]
        assert "The host starts the game when everyone has joined (3 so far)." in texts[seat]


def test_base_seven_players_every_phase_then_the_end():
    room, seats = seated("base", 7)
    tables.start(room.code, room.host_token)
    seen = through_phases(room, seats, random.Random(1), double=True)
    assert {phase for phase, _ in seen} >= {"claim", "tell", "give", "vote"}

    view, texts = seen[("claim", 0)]
    assert "whoever has a phrase first taps “I have a phrase!”" in texts[None]
    assert all("I have a phrase!" in t and "The first to tap becomes the storyteller" in t for t in phones(texts))

    view, texts = seen[("tell", 0)]
    teller = NAMES[view["storyteller"]]
    assert f"{teller} is the storyteller: choosing a card and a phrase" in texts[None]
    assert "You are the storyteller. Pick a card, then say your phrase aloud." in texts[view["storyteller"]]
    waited, idle = waited_and_idle(view, texts)
    assert all(f"Waiting for: {teller}" in t and "You are the storyteller" not in t for t in idle)

    view, texts = seen[("give", 0)]
    assert f"{teller} told. Everyone else gives a card that fits" in texts[None]
    assert all(f"“{PHRASE}”" in t for t in texts.values())  # the phrase, as typed, everywhere
    waited, idle = waited_and_idle(view, texts)
    assert waited and all("Give this card" in t for t in waited)
    assert all("Give this card" not in t for t in idle)

    view, texts = seen[("vote", 0)]
    assert "Find the storyteller's card: one or two votes each, on your phone" in texts[None]
    waited, idle = waited_and_idle(view, texts)
    assert waited and all("A single correct vote earns +1" in t and "Vote for this card" in t for t in waited)
    assert idle and all("Waiting for:" in t and "You told. Your card for the story:" in t for t in idle)

    view, texts = seen[("reveal", 1)]  # the turn just closed, on every phone, each its own side
    assert all(f"Turn 1: {teller} told — the storyteller's card was" in t for t in phones(texts))
    assert "Your card was card" in texts[NAMES.index(teller)]
    assert "Waiting for" not in texts[None] and "is the storyteller" not in texts[None]

    view, texts = seen[("tell", 1)]  # then the next turn, with the last one folded away
    assert all(f"Turn 1: {teller} told: “{PHRASE}”" in t for t in phones(texts))

    tables.end(room.code, room.host_token)
    scores = tables.view(room.code)["scores"]
    best = max(scores)
    shown_wall = check_the_end(room, seats, lambda v, s: v["scores"][s] == best)
    winners = " & ".join(n for n, s in zip(NAMES, scores, strict=True) if s == best)
    assert "The host ended the game." in shown_wall and f"🏆 {winners} win" in shown_wall


def test_base_seven_phone_offers_one_or_two_votes():
    room, seats = seated("base", 7)
    tables.start(room.code, room.host_token)
    rnd = random.Random(2)
    while tables.view(room.code)["phase"] != "vote":
        play_one(room, seats, rnd)
    voter = tables.view(room.code)["waiting_for"][0]
    mine = tables.view(room.code, voter, seats[voter].token)["my_positions"]
    markup = stage_markup(phone_page(room, seats, voter))
    said = stage_text.text(markup)
    assert "Two votes double your chance, without that bonus." in said
    # One grid of the table's cards where one or two may be picked, sent as the voter's positions.
    grid = re.findall(r'<div class="sm-cards[^"]*"[^>]* data-pick="(\d+)" data-pick-min="(\d+)"', markup)
    assert grid == [("2", "1")]
    confirm = re.search(r'<button[^>]*data-testid="confirm-pick"[^>]*>([^<]*)</button>', markup)
    assert confirm and confirm.group(1) == "Vote for this card"
    attrs = lambda name: json.loads(html.unescape(re.search(rf'{name}="([^"]*)"', confirm.group(0)).group(1)))  # noqa: E731
    assert attrs("data-labels") == {"1": "Vote for this card", "2": "Vote for these 2 cards"}
    assert attrs("data-move") == {"type": "vote", "positions": "$picked"}
    # Each card of the table, the voter's own marked and not votable.
    cards = re.findall(r'<button type="button" class="sm-card-pick"[^>]*?( disabled)?\s*aria-label="([^"]*)"', markup)
    table = tables.view(room.code)["table"]
    assert len(cards) == len(table)
    for off, label in cards:
        number = int(re.match(r"Card (\d+)", label).group(1))
        assert bool(off) == (number in mine) == label.endswith("· yours"), label


def test_party_six_players_every_phase():
    room, seats = seated("party", 6, laps=1)
    tables.start(room.code, room.host_token)
    seen = through_phases(room, seats, random.Random(3))
    view, texts = seen[("claim", 0)]
    assert all("Party: the phrase comes first. You see your cards once someone has told." in t for t in phones(texts))
    view, texts = seen[("tell", 0)]
    teller = NAMES[view["storyteller"]]
    assert f"{teller} is the storyteller: thinking of a phrase, before looking at the cards" in texts[None]
    assert "Say a phrase aloud now, before you see your cards" in texts[view["storyteller"]]
    view, texts = seen[("give", 0)]
    assert f"{teller} told. Everyone, {teller} included, gives a card that fits" in texts[None]
    assert "Your phrase is out. Now give a card from your new hand" in texts[view["storyteller"]]
    view, texts = seen[("vote", 0)]
    assert "Green vote: pick the card most of you will pick" in texts[None]
    waited, _idle = waited_and_idle(view, texts)
    assert waited and all("Your own card is allowed." in t and "Green vote for this card" in t for t in waited)

    # The storyteller's red vote: after the green one, the phone shows the separate red control.
    rnd = random.Random(4)
    while tables.view(room.code)["phase"] != "vote":
        play_one(room, seats, rnd)
    teller = tables.view(room.code)["storyteller"]
    green = next(m for m in tables.legal(room.code, teller, seats[teller].token) if m["type"] == "vote")
    tables.submit(room.code, teller, seats[teller].token, {"type": "vote", "positions": green["positions"]})
    text = phone(room, seats, teller)
    assert f"Green vote cast: card {' & '.join(str(p) for p in green['positions'])}." in text
    assert "Red card (secret): anyone on it scores 0" in text and "Place the red card" in text
    while tables.view(room.code)["phase"] == "vote":
        play_one(room, seats, rnd)
    red = tables.view(room.code)["last_turn"]["red_vote"]
    assert red is not None
    assert f"Your red card: card {red}." in phone(room, seats, teller)  # the reveal, on the phone
    past_the_reveal(room.code)
    assert f"Red card: {red} (" in phone(room, seats, teller)  # then the last turn, folded


def test_party_storyteller_sees_no_card_before_the_phrase():
    room, seats = seated("party", 6, laps=1)
    tables.start(room.code, room.host_token)
    rnd = random.Random(3)
    while tables.view(room.code)["phase"] != "tell":
        play_one(room, seats, rnd)
    teller = tables.view(room.code)["storyteller"]
    markup = stage_markup(phone_page(room, seats, teller))
    assert "I've said my phrase" in stage_text.text(markup)
    assert 'data-testid="card"' not in markup and "/cards/" not in markup


def test_team_six_players_every_phase_and_the_end():
    room, seats = seated("team", 6, laps=1)
    tables.start(room.code, room.host_token)
    seen = through_phases(room, seats, random.Random(5))
    view, texts = seen[("claim", 0)]
    for team in set(view["teams"].values()):
        emoji, name, _colour = TEAMS[team]
        members = " & ".join(NAMES[int(s)] for s, t in sorted(view["teams"].items()) if t == team)
        assert f"{emoji} {name}: {members}" in texts[None]  # the wall's team strip
    view, texts = seen[("give", 0)]
    waited, _idle = waited_and_idle(view, texts)
    assert waited and all("the first to give gives; the other one votes" in t or "fits too" in t for t in waited)
    for seat, text in texts.items():
        if seat is not None:
            team = view["teams"][str(seat)]
            mate = next(int(s) for s, t in view["teams"].items() if t == team and int(s) != seat)
            assert f"You are team {TEAMS[team][1]} with {NAMES[mate]}" in text
    rnd = random.Random(6)
    while tables.view(room.code)["phase"] != "end":
        play_one(room, seats, rnd)
    view = tables.view(room.code)
    best = max(view["team_scores"].values())
    won = {int(t) for t, score in view["team_scores"].items() if score == best}
    shown_wall = check_the_end(room, seats, lambda v, s: v["teams"][str(s)] in won)
    assert all(f"{TEAMS[t][0]} {TEAMS[t][1]}" in shown_wall for t in won)
    assert "🏆 Team " in shown_wall and (" wins with " if len(won) == 1 else " win with ") in shown_wall


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
