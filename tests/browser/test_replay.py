"""Drawings replay in the browser: the wall's stage replays every drawing at once by itself when a
round is scored, and again on demand; Statistics on demand (paths drawn grow over time); and Chromium's SVG of a drawing agrees with the keepsake's
Pillow render (≥ 95 % of each one's ink on the other's, round caps and joins in both)."""

from __future__ import annotations

import io

from PIL import Image, ImageChops
from playwright.sync_api import expect

from engine.pictures import pictomania_keepsake as keepsake
from engine.pictures.pictomania_keepsake_sample import largest_drawing
from pages.games.pictomania import sketch
from tests.browser.conftest import host_menu
from tests.browser.test_pictomania_round import py

WAIT = 20_000

ROUND = """
import json
from engine import tables
room = tables.create_room("pictomania", seed=5, language="en")
seats = [tables.join(room.code, name) for name in ["Ana", "Bo", "Cy"]]
tables.start(room.code, room.host_token)
for s in seats:
    tables.submit(room.code, s.seat, s.token, {"type": "ready"})
for s in seats:
    for k in range(40):
        tables.submit(room.code, s.seat, s.token, {"type": "stroke", "width": 12, "color": "#1e88e5",
            "points": [[40 + 23 * k, 80 + 30 * s.seat], [50 + 23 * k, 400], [30 + 23 * k, 700]]})
print(json.dumps({"code": room.code, "host": room.host_token, "tokens": [s.token for s in seats]}))
"""

COUNT = "(sheets) => sheets.map((s) => s.querySelectorAll('path').length)"


def counts(page, selector: str) -> list[int]:
    """Paths drawn in each matching sheet (the sheets live in a component's shadow root)."""
    return page.locator(selector).evaluate_all(COUNT)


def growing(page, selector: str) -> list[list[int]]:
    """Path counts of the matching sheets, sampled while they replay."""
    seen = []
    for _ in range(6):
        seen.append(counts(page, selector))
        page.wait_for_timeout(700)
    return seen


def assert_grows(seen: list[list[int]], full: int) -> None:
    totals = [sum(s) for s in seen]
    assert totals[0] < totals[-1], seen
    assert all(a <= b for a, b in zip(totals, totals[1:], strict=False)), seen  # never backwards while it plays
    assert 0 < totals[2] < full * len(seen[0]), seen  # mid-way: some drawn, not all


# Strokes the stage's replay has drawn so far in each sheet: a path is drawn once its dash has run
# (pages/assets/stage.css, .pm-replay).
DRAWN = "(sheets) => sheets.map((s) => [...s.querySelectorAll('path')].filter((p) => parseFloat(getComputedStyle(p).strokeDashoffset) < 0.01).length)"


def test_the_wall_and_statistics_replay_stroke_by_stroke(serve, browser):
    srv = serve()
    wall = browser.new_page(viewport={"width": 1600, "height": 900})
    room = py(srv, ROUND)
    wall.goto(f"{srv.url}/table?room={room['code']}&host={room['host']}")
    expect(wall.locator(".sm-stage[data-scene=draw]")).to_be_visible(timeout=WAIT)
    finish = "from engine import tables\n" + "".join(  # everyone done: the round is scored, the wall plays it
        f"tables.submit({room['code']!r}, {seat}, {token!r}, {{'type': 'finish', 'token': None}})\n"
        for seat, token in enumerate(room["tokens"])
    )
    py(srv, finish)
    expect(wall.locator(".sm-stage[data-scene=reveal]")).to_be_visible(timeout=WAIT)
    seen = []
    for _ in range(5):
        seen.append(wall.locator("svg.pm-replay").evaluate_all(DRAWN))
        wall.wait_for_timeout(600)
    assert_grows(seen, 40)
    wall.wait_for_function(
        f"() => ({DRAWN})([...document.querySelectorAll('svg.pm-replay')]).every((n) => n === 40)", polling=100
    )
    wall.get_by_test_id("pm-replay-all").click()  # again, on demand: from the first stroke
    assert sum(wall.locator("svg.pm-replay").evaluate_all(DRAWN)) < 3 * 40
    wall.close()
    py(srv, f"from engine import tables\ntables.end({room['code']!r}, {room['host']!r})\nprint(1)")

    stats = srv.as_laptop(browser.new_page(viewport={"width": 1400, "height": 1000}))  # the whole archive
    stats.goto(f"{srv.url}/stats")
    stats.get_by_role("tab", name="Replay").click()
    play = stats.get_by_test_id("pm-play").first
    expect(play).to_be_visible(timeout=WAIT)
    stats.get_by_test_id("pm-speed").first.select_option("2")
    play.click()
    seen = []
    # Three looks, then the pause, within about 1.6 s of the replay's 4 (8 s at 2x). Its last
    # stroke starts no sooner than 3.06 s in (a stroke's wait is at most four times the average:
    # engine/pictures/pictomania_keepsake.schedule), so the pause lands before every path is out
    # (five looks once let a replay whose last stroke came late show all 40 before the pause).
    for _ in range(3):
        seen.append(counts(stats, "svg[data-seat]")[0])
        stats.wait_for_timeout(500)
    assert seen[0] < seen[-1] and seen == sorted(seen), seen
    play.click()  # pause: the count stays
    if play.inner_text() != "Play":  # the click started the replay again (seen once under heavy load): pause it
        play.click()
    expect(play).to_have_text("Play")
    paused = counts(stats, "svg[data-seat]")[0]
    stats.wait_for_timeout(800)
    assert counts(stats, "svg[data-seat]")[0] == paused < 40
    stats.close()


def ink(image: Image.Image) -> Image.Image:
    """255 where a pixel is not paper (any channel off white by more than 40: yellow counts)."""
    off = ImageChops.difference(image, Image.new("RGB", image.size, "white")).split()
    return ImageChops.lighter(ImageChops.lighter(off[0], off[1]), off[2]).point(lambda v: 255 if v > 40 else 0)


def test_chromium_svg_agrees_with_the_pillow_render(browser):
    strokes = largest_drawing(7)[:60] + [{"points": [[500, 375]], "width": 40, "color": "#000000"}]
    width, height = keepsake.SIZE
    page = browser.new_page(viewport={"width": width, "height": height})
    markup = sketch.svg(strokes).replace("<svg ", f'<svg width="{width}" height="{height}" ', 1)
    page.set_content(f"<html><body style='margin:0'>{markup}</body></html>")
    shot = Image.open(io.BytesIO(page.locator("svg").screenshot())).convert("RGB")
    page.close()
    assert shot.size == (width, height)
    ours = keepsake.render(strokes).convert("RGB")
    ink_a, ink_b = ink(shot), ink(ours)
    both = ImageChops.multiply(ink_a, ink_b)
    a, b, common = (im.histogram()[255] for im in (ink_a, ink_b, both))
    print(f"ink: chromium {a}, pillow {b}, overlap {common / a:.3f} / {common / b:.3f}")
    assert a and b
    assert common / a >= 0.95 and common / b >= 0.95, (common / a, common / b)


def test_save_the_drawings_on_a_phone_and_on_the_wall(serve, browser):
    """After a round: a phone saves its own drawing (an animated GIF) and the round's contact sheet
    (a PNG) from its stage; the host saves them at the wall, in the sidebar. A wrong link gets nothing."""
    srv = serve()
    room = py(srv, ROUND)
    code, tokens = room["code"], room["tokens"]
    py(
        srv,
        "from engine import tables\n"
        + "".join(
            f"tables.submit({code!r}, {seat}, {token!r}, {{'type': 'finish', 'token': None}})\n"
            for seat, token in enumerate(tokens)
        ),
    )
    py(srv, f"from engine import tables\ntables.next_scene({code!r}, {room['host']!r})\n")
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{srv.url}/play?room={code}&seat=1&token={tokens[1]}")
    phone.locator(".pm-last > summary").click(timeout=WAIT)
    with phone.expect_download(timeout=WAIT) as got:
        phone.get_by_test_id("pm-save-mine").click()
    assert got.value.suggested_filename.endswith("-round1-2.gif")
    assert open(got.value.path(), "rb").read(6) in (b"GIF89a", b"GIF87a")
    with phone.expect_download(timeout=WAIT) as got:
        phone.get_by_test_id("pm-save-sheet").click()
    assert open(got.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    link = phone.get_by_test_id("pm-save-sheet").get_attribute("href")
    assert phone.request.get(srv.url + link.replace(tokens[1], "x" * 22)).status == 404
    phone.close()

    wall = browser.new_page(viewport={"width": 1600, "height": 900})
    wall.goto(f"{srv.url}/table?room={code}&host={room['host']}")
    host_menu(wall)  # the game's own tools are in the host menu (Esc)
    wall.get_by_role("button", name="Save the drawings").click(timeout=WAIT)
    sheet = wall.get_by_role("button", name="All the round's drawings, with their words")
    expect(sheet).to_be_in_viewport(timeout=WAIT)  # the popover has opened over the sidebar
    with wall.expect_download(timeout=WAIT) as got:
        sheet.click()
    assert open(got.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    wall.close()
