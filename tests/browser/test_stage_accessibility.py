"""The stage, accessible by construction: axe-core finds no serious or critical violation on the
wall (projector size), a seat's phone and a member's phone, at the vote and at the reveal; and a
Dixit vote can be cast with the keyboard alone.

Each page is checked in one of English, Spanish and Italian, the language turning from page to page
and from game to game (test_stage_every_variant.py turns it too): a translation changes the words,
not the markup axe reads, and each page costs a load."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from pages.i18n import COOKIE
from tests.browser.test_accessibility import LOCALES, assert_accessible
from tests.browser.test_pictomania_round import PHONE_UA  # an Android phone's: the pad sizes to it
from tests.browser.test_room_life import WAIT, tables_call

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "user_agent": PHONE_UA}
SHOWN = "([c, v]) => (window.__sobremesaPushRooms?.[c]?.rendered ?? -1) >= v"
LANGS = list(LOCALES)


def voting_room(srv, language: str) -> dict:
    """A Dixit room at the vote: Ana told, Bo and Cy gave; a member in the audience."""
    return tables_call(
        srv,
        f"r = tables.create_room('dixit', seed=5, language={language!r})\n"
        "s = [tables.join(r.code, n) for n in ('Ana', 'Bo', 'Cy')]\n"
        "m = tables.join_audience(r.code, 'Lu')\n"
        "tables.start(r.code, r.host_token)\n"
        "tables.submit(r.code, 0, s[0].token, {'type': 'claim'})\n"
        "h = tables.view(r.code, 0, s[0].token)['hand']\n"
        "tables.submit(r.code, 0, s[0].token, {'type': 'tell', 'card': h[0], 'phrase': 'the sea'})\n"
        "for x in s[1:]:\n"
        "    v = tables.view(r.code, x.seat, x.token)\n"
        "    tables.submit(r.code, x.seat, x.token, {'type': 'give', 'cards': v['hand'][:v['gives_per_player']]})\n"
        "print(json.dumps({'code': r.code, 'tokens': [x.token for x in s], 'member': [m.id, m.token],"
        " 'version': tables.version(r.code)}))",
    )


def test_the_stage_has_no_serious_violation(house, browser):
    """Dixit's wall, a seat's phone and a member's at the vote, and the wall and the member's at the
    reveal: each page in its own language, the three turning."""
    srv = house
    room = voting_room(srv, LANGS[0])
    code = room["code"]
    pages = {
        "the wall": (f"/table?room={code}", {"viewport": {"width": 1920, "height": 1080}}),
        "a seat's phone": (f"/play?room={code}&seat=1&token={room['tokens'][1]}", PHONE),
        "a member's phone": (f"/play?room={code}&member={room['member'][0]}&token={room['member'][1]}", PHONE),
    }
    opened = {}
    for (where, (path, ctx)), lang in zip(pages.items(), LANGS, strict=True):
        context = browser.new_context(locale=LOCALES[lang], **ctx)
        # The reader's own choice of language for this room (the menu's cookie), over the room's.
        context.add_cookies([{"name": COOKIE, "value": f"{lang}.{code}", "url": srv.url}])
        page = context.new_page()
        page.goto(srv.url + path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.wait_for_function(SHOWN, arg=[code, room["version"]], timeout=WAIT, polling=100)
        assert_accessible(page, f"{where} at the vote, {lang}")
        opened[where] = page
    for seat in (1, 2):  # the votes: the wall plays the reveal
        tables_call(
            srv,
            f"v = tables.view('{code}', {seat}, '{room['tokens'][seat]}')\n"
            f"p = next(p['position'] for p in v['table'] if p['position'] not in v['my_positions'])\n"
            f"print(tables.submit('{code}', {seat}, '{room['tokens'][seat]}', {{'type': 'vote', 'position': p}}))",
        )
    wall = opened["the wall"]
    expect(wall.locator(".sm-stage[data-scene=reveal]")).to_be_visible(timeout=WAIT)
    assert_accessible(wall, f"the wall at the reveal, {LANGS[0]}")
    assert_accessible(opened["a member's phone"], f"a member's phone after the reveal, {LANGS[2]}")


def test_a_vote_with_the_keyboard_alone(house, browser):
    srv = house
    room = voting_room(srv, "en")
    code = room["code"]
    bo = browser.new_context(**PHONE).new_page()
    bo.goto(f"{srv.url}/play?room={code}&seat=1&token={room['tokens'][1]}")
    bo.wait_for_function(SHOWN, arg=[code, room["version"]], timeout=WAIT, polling=100)
    cards = bo.locator("[data-testid=card]:not(.off) .sm-card-pick")
    expect(cards.first).to_be_visible(timeout=WAIT)
    cards.first.focus()
    bo.keyboard.press("Enter")  # picks the card
    expect(bo.locator("[data-testid=card].picked")).to_have_count(1)
    confirm = bo.locator("[data-testid=confirm-pick]")
    expect(confirm).to_be_enabled()
    for _ in range(12):  # Tab through the cards to the confirm button, as a keyboard user does
        bo.keyboard.press("Tab")
        if bo.evaluate("() => document.activeElement?.dataset?.testid === 'confirm-pick'"):
            break
    bo.keyboard.press("Enter")
    expect(bo.get_by_text("You voted for card", exact=False)).to_be_visible(timeout=WAIT)


@pytest.mark.parametrize("lang", [LANGS[1]])
def test_maudit_mot_dit_on_the_stage_has_no_serious_violation(house, browser, lang):
    """The wall, the box holder's phone (its word, its clue box) and an opponent's (an answer box,
    "too slow") after a clue and an answer."""
    srv = house
    room = tables_call(
        srv,
        f"r = tables.create_room('maudit_mot_dit', seed=5, language={lang!r})\n"
        "s = [tables.join(r.code, n) for n in ('Ana', 'Bo', 'Cy')]\n"
        "tables.start(r.code, r.host_token)\n"
        "b = tables.view(r.code, 0, s[0].token)['back'][-1]\n"
        "tables.submit(r.code, 0, s[0].token, {'type': 'choose', 'symbol': b['symbol']})\n"
        "tables.submit(r.code, 0, s[0].token, {'type': 'clue', 'text': 'harbour'})\n"
        "tables.submit(r.code, 1, s[1].token, {'type': 'answer', 'text': 'boat'})\n"
        "print(json.dumps({'code': r.code, 'tokens': [x.token for x in s], 'version': tables.version(r.code)}))",
    )
    code = room["code"]
    pages = {
        "the wall": (f"/table?room={code}", {"viewport": {"width": 1920, "height": 1080}}),
        "the box holder's phone": (f"/play?room={code}&seat=0&token={room['tokens'][0]}", PHONE),
        "an opponent's phone": (f"/play?room={code}&seat=2&token={room['tokens'][2]}", PHONE),
    }
    for where, (path, ctx) in pages.items():
        page = browser.new_context(locale=LOCALES[lang], **ctx).new_page()
        page.goto(srv.url + path)
        page.wait_for_function(SHOWN, arg=[code, room["version"]], timeout=WAIT, polling=100)
        assert_accessible(page, f"Maudit Mot Dit, {where}, {lang}")


@pytest.mark.parametrize("lang", [LANGS[2]])
def test_trading_faces_on_the_stage_has_no_serious_violation(house, browser, lang):
    """The wall and a phone with its hand to pass from (Passing cards), and a Memory phone with the
    grid to lift from."""
    srv = house
    rooms = tables_call(
        srv,
        "out = []\n"
        "for variant in ('classic', 'memory'):\n"
        f"    r = tables.create_room('trading_faces', options={{'variant': variant}}, seed=5, language={lang!r})\n"
        "    s = [tables.join(r.code, n) for n in ('Ana', 'Bo', 'Cy')]\n"
        "    tables.start(r.code, r.host_token)\n"
        "    out.append({'code': r.code, 'token': s[0].token, 'version': tables.version(r.code)})\n"
        "print(json.dumps(out))",
    )
    pages = {
        "the wall": (rooms[0], f"/table?room={rooms[0]['code']}", {"viewport": {"width": 1920, "height": 1080}}),
        "a phone passing": (rooms[0], f"/play?room={rooms[0]['code']}&seat=0&token={rooms[0]['token']}", PHONE),
        "a Memory phone": (rooms[1], f"/play?room={rooms[1]['code']}&seat=0&token={rooms[1]['token']}", PHONE),
    }
    for where, (room, path, ctx) in pages.items():
        page = browser.new_context(locale=LOCALES[lang], **ctx).new_page()
        page.goto(srv.url + path)
        page.wait_for_function(SHOWN, arg=[room["code"], room["version"]], timeout=WAIT, polling=100)
        assert_accessible(page, f"Trading Faces, {where}, {lang}")


@pytest.mark.parametrize("lang", [LANGS[0]])
def test_pictomanias_wall_has_no_serious_violation(house, browser, lang):
    """The wall while three draw (the drawings, the words beside them), then at the round's reveal."""
    srv = house
    room = tables_call(
        srv,
        f"r = tables.create_room('pictomania', seed=5, language={lang!r})\n"
        "s = [tables.join(r.code, n) for n in ('Ana', 'Bo', 'Cy')]\n"
        "tables.start(r.code, r.host_token)\n"
        "for x in s:\n"
        "    tables.submit(r.code, x.seat, x.token, {'type': 'ready'})\n"
        "for x in s:\n"
        "    tables.submit(r.code, x.seat, x.token, {'type': 'stroke', 'width': 10, 'color': '#1e88e5', 'points': [[100, 100], [600, 500]]})\n"
        "print(json.dumps({'code': r.code, 'tokens': [x.token for x in s], 'version': tables.version(r.code)}))",
    )
    code = room["code"]
    wall = browser.new_context(locale=LOCALES[lang], viewport={"width": 1920, "height": 1080}).new_page()
    wall.goto(f"{srv.url}/table?room={code}")
    wall.wait_for_function(SHOWN, arg=[code, room["version"]], timeout=WAIT, polling=100)
    assert_accessible(wall, f"Pictomania's wall while they draw, {lang}")
    tables_call(
        srv,
        "".join(
            f"tables.submit({code!r}, {seat}, {token!r}, {{'type': 'finish', 'token': None}})\n"
            for seat, token in enumerate(room["tokens"])
        )
        + "print(1)",
    )
    expect(wall.locator(".sm-stage[data-scene=reveal]")).to_be_visible(timeout=WAIT)
    assert_accessible(wall, f"Pictomania's wall at the reveal, {lang}")


@pytest.mark.parametrize("lang", [LANGS[1]])
def test_pictomanias_phone_has_no_serious_violation(house, browser, lang):
    """A phone while it guesses (its drawing frozen: the stage draws the whole phone, numbers to
    place and "I'm done"), and a phone reading the words."""
    srv = house
    room = tables_call(
        srv,
        f"r = tables.create_room('pictomania', seed=5, language={lang!r})\n"
        "s = [tables.join(r.code, n) for n in ('Ana', 'Bo', 'Cy')]\n"
        "tables.start(r.code, r.host_token)\n"
        "t = tables.create_room('pictomania', seed=6, language=" + repr(lang) + ")\n"
        "w = [tables.join(t.code, n) for n in ('Ana', 'Bo', 'Cy')]\n"
        "tables.start(t.code, t.host_token)\n"
        "for x in s:\n"
        "    tables.submit(r.code, x.seat, x.token, {'type': 'ready'})\n"
        "tables.submit(r.code, 0, s[0].token, {'type': 'stroke', 'width': 10, 'color': '#1e88e5', 'points': [[100, 100], [600, 500]]})\n"
        "n = tables.view(r.code, 1, s[1].token)['numbers_left'][0]\n"
        "tables.submit(r.code, 1, s[1].token, {'type': 'guess', 'drawer': 0, 'number': n})\n"
        "print(json.dumps({'rooms': [[r.code, 1, s[1].token, tables.version(r.code)], [t.code, 0, w[0].token, tables.version(t.code)]]}))",
    )
    for code, seat, token, version in room["rooms"]:
        page = browser.new_context(locale=LOCALES[lang], **PHONE).new_page()
        page.goto(f"{srv.url}/play?room={code}&seat={seat}&token={token}")
        page.wait_for_function(SHOWN, arg=[code, version], timeout=WAIT, polling=100)
        assert_accessible(page, f"Pictomania's phone, {lang}")
