"""One turn of Dixit Odyssey (base, 7 players): Bo tells from a laptop browser, Ana gives and casts a
double vote from a phone-sized browser, the five others play through the Python API on the same
database, and the shared screen reveals the turn with the stored scores.

The API moves come from this test process, which the server is not told about, so each phase's
last move is made in a browser: that one is pushed to every open page."""

from __future__ import annotations

from playwright.sync_api import expect

from engine import tables

NAMES = ["Ana", "Bo", "Cy", "Di", "Eve", "Fay", "Gus"]
WAIT = 20_000


def api_moves(code, seats, kind):
    """Every seat the table waits for, except the browser seats (0 and 1), makes its first legal move."""
    for seat in tables.view(code)["waiting_for"]:
        if seat in (0, 1):
            continue
        move = next(m for m in tables.legal(code, seat, seats[seat].token) if m["type"] == kind)
        tables.submit(code, seat, seats[seat].token, {k: v for k, v in move.items() if k != "seat"})


def test_seven_players_one_turn_with_a_double_vote(house, browser, monkeypatch):
    srv = house
    monkeypatch.setenv("SOBREMESA_DATA", srv.env["SOBREMESA_DATA"])
    tables.reset()
    room = tables.create_room("odyssey", options={"variant": "base"}, seed=7)
    seats = [tables.join(room.code, name) for name in NAMES]
    tables.start(room.code, room.host_token)

    host = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    host.goto(f"{srv.url}/table?room={room.code}&host={room.host_token}")
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2
    ).new_page()
    phone.goto(f"{srv.url}/play?room={room.code}&seat=0&token={seats[0].token}")
    laptop = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    laptop.goto(f"{srv.url}/play?room={room.code}&seat=1&token={seats[1].token}")

    # Bo claims and tells with a typed phrase.
    laptop.get_by_role("button", name="I have a phrase!").click(timeout=WAIT)
    laptop.get_by_label("Your phrase").fill("Where the river forgets its name")
    laptop.locator("[data-testid=card]").first.click(timeout=WAIT)
    laptop.locator("[data-testid=confirm-pick]").click()
    expect(host.get_by_text("“Where the river forgets its name”")).to_be_visible(timeout=WAIT)

    # Five give through the API; Ana gives last, on the phone.
    api_moves(room.code, seats, "give")
    expect(phone.get_by_role("button", name="Give this card")).to_be_visible(timeout=WAIT)
    phone.locator("[data-testid=card]").first.click()
    phone.get_by_role("button", name="Give this card").click()

    # Vote: the five through the API, then Ana's double vote on the phone (her own card is off).
    # One or two votes: the button says which, as cards are picked.
    expect(phone.get_by_text("Two votes double your chance", exact=False)).to_be_visible(timeout=WAIT)
    api_moves(room.code, seats, "vote")
    cards = phone.locator("[data-testid=card]:not(.off)")
    expect(cards).to_have_count(6)
    cards.nth(0).click()
    expect(phone.get_by_role("button", name="Vote for this card")).to_be_enabled(timeout=WAIT)
    cards.nth(1).click()
    confirm = phone.get_by_role("button", name="Vote for these 2 cards")
    expect(confirm).to_be_enabled(timeout=WAIT)
    confirm.click()

    # Pushed: the shared screen reveals the turn by itself, with the stored scores.
    expect(host.get_by_text("Turn 1: Bo told", exact=False)).to_be_visible(timeout=WAIT)
    stored = tables.view(room.code)
    turn = stored["history"][0]
    assert stored["phase"] == "tell" and stored["storyteller"] == 2
    assert len(turn["votes"]["0"]) == 2 and len(turn["votes"]) == 6
    assert turn["phrase"] == "Where the river forgets its name"
    panel = host.locator(".sm-seat")
    for seat, name in enumerate(NAMES):
        expect(panel.filter(has_text=name)).to_contain_text(str(stored["scores"][seat]), timeout=WAIT)
    for seat, name in enumerate(NAMES):  # the points chips of the reveal
        chip = host.locator(".od-chip", has_text=name).first
        expect(chip).to_contain_text(f"+{turn['scores'][str(seat)]}")
    assert sum(stored["scores"]) > 0
