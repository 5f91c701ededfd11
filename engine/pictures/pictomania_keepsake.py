"""Pictomania drawings as images to keep: a static render, an animated GIF that replays the strokes
in the order they were drawn, and a contact sheet of a round (each drawing with its word and who
drew it). Pure: strokes and records in, bytes out (`tables.keepsake` finds the records).

The render draws in a palette image with the game's eight colours and the paper, no antialiasing,
so the animation's last frame is the static render pixel for pixel. Strokes have round caps and
round joins, like the SVG the pages draw (a disc at every point, a line between neighbours).
"""

from __future__ import annotations

import io
import re
import unicodedata

from PIL import Image, ImageDraw, ImageFont

from . import pictomania_canvas as canvas

CANVAS = (canvas.CANVAS_WIDTH, canvas.CANVAS_HEIGHT)
SIZE = (640, 480)  # every image's drawing, 4:3 like the canvas
PAPER = (255, 255, 255)
INK = (42, 31, 26)  # captions
PLAY_MS = 8000  # the strokes replay in this time, however long they took
FRAMES = 32  # frames over PLAY_MS (the last one is the finished drawing)
HOLD_MS = 2000  # the finished drawing stays this long before the loop restarts

_COLOURS = [PAPER, INK] + [tuple(int(c[i : i + 2], 16) for i in (1, 3, 5)) for c in canvas.PALETTE]
_PALETTE = [v for rgb in _COLOURS for v in rgb] + [0] * (768 - 3 * len(_COLOURS))


def _index(colour: str) -> int:
    if colour == canvas.ERASER:
        return 0
    rgb = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    if rgb not in _COLOURS:  # a colour from outside the palette (older records): the nearest one
        rgb = min(_COLOURS[2:], key=lambda c: sum((a - b) ** 2 for a, b in zip(c, rgb, strict=True)))
    return _COLOURS.index(rgb)


def _blank(size) -> Image.Image:
    image = Image.new("P", size, 0)
    image.putpalette(_PALETTE)
    return image


def _pen(stroke: dict, size) -> tuple[list, int, int]:
    sx, sy = size[0] / CANVAS[0], size[1] / CANVAS[1]
    points = [(x * sx, y * sy) for x, y in stroke["points"]]
    return points, max(1, round(stroke["width"] * sx)), _index(stroke["color"])


def _ink(draw: ImageDraw.ImageDraw, points: list, width: int, colour: int) -> None:
    """Round caps and joins: a disc on every point, a straight band between neighbours."""
    r = width / 2
    if len(points) > 1 and width > 1:
        draw.line(points, fill=colour, width=width)
    elif len(points) > 1:
        draw.line(points, fill=colour, width=1)
    if width > 2:
        for x, y in points:
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    elif len(points) == 1:
        draw.point(points, fill=colour)


def render(strokes: list, size=SIZE) -> Image.Image:
    """The finished drawing (a palette image)."""
    image = _blank(size)
    draw = ImageDraw.Draw(image)
    for stroke in strokes:
        _ink(draw, *_pen(stroke, size))
    return image


def schedule(strokes: list) -> list[tuple[float, float]]:
    """When each stroke is drawn in a replay, as (start, end) fractions of the replay. A stroke
    arrives when finished, so it is drawn from the previous stroke's time to its own `t`; the
    waits are kept between a third and four times the average wait (long pauses shortened, strokes
    sent in a burst still seen one by one), then scaled to the replay. Without times (older
    records), an even pace over the points. The browser's replay uses the same plan."""
    if not strokes:
        return []
    times = [s.get("t") for s in strokes]
    if all(isinstance(t, (int, float)) for t in times):
        times = [max(0, max(times[: i + 1])) for i in range(len(times))]  # never backwards
        gaps = [t - (times[i - 1] if i else 0) for i, t in enumerate(times)]
        mean = sum(gaps) / len(gaps) or 1
        spans = [min(4 * mean, max(mean / 3, g)) for g in gaps]
    else:
        spans = [len(s["points"]) for s in strokes]
    total, ends, done = sum(spans) or 1, [], 0
    for span in spans:
        done += span
        ends.append(done / total)
    ends[-1] = 1.0
    return [(ends[i - 1] if i else 0.0, end) for i, end in enumerate(ends)]


def _part(points: list, fraction: float) -> list:
    """The first `fraction` of a stroke's length (the pen on its way)."""
    if len(points) < 2 or fraction >= 1:
        return points
    steps = [((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 for (ax, ay), (bx, by) in zip(points, points[1:], strict=False)]
    left = sum(steps) * max(0.0, fraction)
    shown = [points[0]]
    for (ax, ay), (bx, by), step in zip(points, points[1:], steps, strict=False):
        if step >= left:
            if step > 0:
                k = left / step
                shown.append((ax + (bx - ax) * k, ay + (by - ay) * k))
            break
        left -= step
        shown.append((bx, by))
    return shown


def animation(strokes: list, size=SIZE) -> bytes:
    """An animated GIF: FRAMES frames over PLAY_MS, the last (the finished drawing, equal to
    `render`) held HOLD_MS. Frames with nothing new are merged by the encoder."""
    plan = schedule(strokes)
    pens = [_pen(s, size) for s in strokes]
    image = _blank(size)
    draw = ImageDraw.Draw(image)
    frames, done = [], 0  # strokes already drawn in full on `image`
    for k in range(1, FRAMES + 1):
        moment = k / FRAMES
        while done < len(strokes) and (plan[done][1] <= moment or k == FRAMES):
            _ink(draw, *pens[done])
            done += 1
        frame = image.copy()
        if done < len(strokes) and plan[done][0] < moment:  # the stroke being drawn: its first points
            start, end = plan[done]
            points, width, colour = pens[done]
            _ink(ImageDraw.Draw(frame), _part(points, (moment - start) / max(end - start, 1e-9)), width, colour)
        frames.append(frame)
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        loop=0,
        optimize=False,
        duration=[PLAY_MS // FRAMES] * (FRAMES - 1) + [HOLD_MS],
        disposal=1,
    )
    return out.getvalue()


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


# ---- a round's drawings ------------------------------------------------------------------------


def _font(size: int):
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType
        return ImageFont.load_default()


def word_of(turn: dict, seat) -> str | None:
    """The word a seat drew (public once the round is scored)."""
    given = (turn.get("assignments") or {}).get(str(seat))
    if not given:
        return None
    words = (turn.get("cards") or {}).get(given["letter"]) or []
    number = given["number"]
    return words[number - 1] if 0 < number <= len(words) else None


def contact_sheet(turn: dict, names: dict, tile=(480, 360)) -> bytes:
    """Every drawing of a round in a grid, each with its word and who drew it."""
    drawings = sorted((turn.get("drawings") or {}).items(), key=lambda kv: int(kv[0]))
    cols = min(3, max(1, len(drawings)))
    rows = max(1, -(-len(drawings) // cols))
    gap, caption, head = 16, 64, 56
    sheet = Image.new(
        "RGB", (cols * tile[0] + (cols + 1) * gap, head + rows * (tile[1] + caption + gap) + gap), (251, 245, 236)
    )
    draw = ImageDraw.Draw(sheet)
    draw.text((gap, gap), f"Pictomania · {turn.get('round', '')}", fill=INK, font=_font(30))
    for i, (seat, strokes) in enumerate(drawings):
        x = gap + (i % cols) * (tile[0] + gap)
        y = head + (i // cols) * (tile[1] + caption + gap)
        sheet.paste(render(strokes, tile).convert("RGB"), (x, y))
        draw.rectangle((x - 1, y - 1, x + tile[0], y + tile[1]), outline=(217, 203, 189))
        draw.text((x + 2, y + tile[1] + 6), word_of(turn, seat) or "?", fill=INK, font=_font(26))
        draw.text(
            (x + 2, y + tile[1] + 36), names.get(int(seat), f"#{int(seat) + 1}"), fill=(107, 90, 78), font=_font(20)
        )
    return png(sheet)


def slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "-", plain).strip("-").lower() or "x"


def round_files(prefix: str, turn: dict, names: dict) -> dict[str, bytes]:
    """{file name: bytes}: one animated GIF per drawing and the round's contact sheet."""
    number = turn.get("round", 0)
    files = {}
    for seat, strokes in sorted((turn.get("drawings") or {}).items(), key=lambda kv: int(kv[0])):
        who = names.get(int(seat), f"seat{int(seat) + 1}")
        files[f"{prefix}-round{number}-{int(seat) + 1}-{slug(who)}.gif"] = animation(strokes)
    files[f"{prefix}-round{number}-sheet.png"] = contact_sheet(turn, names)
    return files
