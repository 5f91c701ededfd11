"""The keepsake: one animated GIF per drawing (≥ 24 frames over 6 to 10 s, the last held 2 s, ≥ 480
px, ≤ 1 MB, its last frame the static render pixel for pixel) and a contact sheet per round."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from engine import tables
from engine.core import TableError
from engine.pictures import pictomania_keepsake as keepsake
from engine.pictures.pictomania_keepsake_sample import largest_drawing, largest_round

NAMES = ["Ana", "Bo", "Cy"]


def frames_of(data: bytes) -> tuple[Image.Image, list[int]]:
    image = Image.open(io.BytesIO(data))
    durations = []
    for k in range(image.n_frames):
        image.seek(k)
        durations.append(image.info["duration"])
    return image, durations


def assert_good_animation(data: bytes, strokes: list) -> None:
    assert len(data) <= 1_000_000
    image, durations = frames_of(data)
    assert image.format == "GIF" and max(image.size) >= 480
    assert image.n_frames >= 24
    assert durations[-1] == 2000 and 6000 <= sum(durations[:-1]) + 2000 <= 10000 + 2000
    image.seek(image.n_frames - 1)
    static = keepsake.render(strokes, image.size).convert("RGB")
    assert ImageChops.difference(image.convert("RGB"), static).getbbox() is None


@pytest.mark.parametrize("timed", [True, False])
def test_the_largest_drawing_animates_and_ends_on_its_static_render(timed):
    strokes = largest_drawing(3, timed=timed)
    assert_good_animation(keepsake.animation(strokes), strokes)


def test_schedule_follows_the_times_and_an_even_pace_without_them():
    timed = [{"points": [[0, 0]] * 2, "t": t} for t in (1000, 2000, 3000, 5000)]
    assert keepsake.schedule(timed) == [(0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 1.0)]
    burst = [{"points": [[0, 0]] * 2, "t": t} for t in (9000, 9001)]  # sent together: still one by one
    assert keepsake.schedule(burst)[0][1] > 0.2
    even = [{"points": [[0, 0]] * 2}, {"points": [[0, 0]] * 6}]
    assert keepsake.schedule(even) == [(0.0, 0.25), (0.25, 1.0)]


def play_a_round():
    r = tables.create_room("pictomania", seed=4, language="en")
    seats = [tables.join(r.code, n) for n in NAMES]
    tables.start(r.code, r.host_token)
    for s in seats:
        tables.submit(r.code, s.seat, s.token, {"type": "ready"})
    for s in seats:
        for k in range(30):
            tables.submit(
                r.code,
                s.seat,
                s.token,
                {
                    "type": "stroke",
                    "width": 10,
                    "color": "#1e88e5",
                    "points": [[100 + 20 * k, 100 + 10 * s.seat], [110 + 20 * k, 600]],
                },
            )
        tables.submit(r.code, s.seat, s.token, {"type": "finish", "token": None})
    return r, seats


def test_tables_keepsake_of_a_round_in_progress_and_of_the_saved_game():
    r, seats = play_a_round()
    files = tables.keepsake(r.code, 1, round=1)
    gifs = sorted(n for n in files if n.endswith(".gif"))
    assert len(gifs) == 3 and any(n.endswith("-ana.gif") for n in gifs)
    sheet = Image.open(io.BytesIO(files[next(n for n in files if n.endswith("sheet.png"))]))
    assert sheet.format == "PNG" and sheet.size[0] >= 480
    drawings = tables.view(r.code)["history"][0]["drawings"]
    for name, seat in zip(gifs, sorted(drawings, key=int), strict=True):
        assert_good_animation(files[name], drawings[seat])
    with pytest.raises(TableError):
        tables.keepsake(r.code, 1, round=2)  # not played yet: its words are still secret
    tables.end(r.code, r.host_token)
    assert tables.keepsake(r.code, 1).keys() == files.keys()  # the saved game's record


def test_a_six_player_round_of_the_largest_drawings():
    files = keepsake.round_files("x", largest_round(6), {s: f"P{s}" for s in range(6)})
    assert len(files) == 7
    assert max(len(v) for v in files.values()) <= 1_000_000
