"""The 13 emotion cards of Trading Faces, drawn as inline SVG by our own code (no emoji font, no art files).

Card number = index in EMOTIONS + 1. The pages put the number and the translated word beside the
picture, so the SVG carries no text. Every face must read at 60 px on a phone and from the back of a
room, so: thick strokes (>= 4 units in the 100-unit box), a few bold features, and a different fill
per emotion, although the features alone tell the faces apart (colour-blind players).

    python -m engine.pictures.trading_faces html OUT.html     # the contact sheet as a page
    python -m engine.pictures.trading_faces sheet OUT.png     # ... screenshotted (needs ../shared/tools/shot.py)
"""

from __future__ import annotations

import html
import re

from .trading_faces_emotions import EMOTIONS  # the rules deal the same list; this module draws it

INK = "#2a2130"  # near-black with a touch of plum: softer than pure black, >= 4.5:1 on every fill
WHITE = "#ffffff"
# Fills spread round the hue circle and over lightness, all light enough for the ink features to
# stand out; neighbours in hue (sad/surprised/proud, happy/excited) also differ in lightness. Under
# red-green colour blindness some fills merge (angry/disgusted), so no face relies on its colour.
COLOURS = {
    "angry": "#ee6450",
    "bored": "#bdbab0",
    "confused": "#c2a6ee",
    "disgusted": "#a3c55a",
    "embarrassed": "#fbc9ae",
    "happy": "#ffd84a",
    "excited": "#ff9f2e",
    "proud": "#44c2aa",
    "sad": "#78a6e2",
    "scared": "#e6f0f2",
    "surprised": "#8fdcf0",
    "tired": "#9c9ccc",
    "in_love": "#f58cba",
}


# ----------------------------------------------------------------------------- drawing helpers
# Everything sits in one <g> that sets ink strokes, round caps and width 5; elements override only
# what they must. No ids, <defs> or clip paths: many cards share one page and ids would collide.


def _p(d: str, fill: str = "none", w: float | None = None) -> str:
    """A path; w=None keeps the group's stroke width, w=0 means no outline."""
    width = "" if w is None else ' stroke="none"' if w == 0 else f' stroke-width="{w}"'
    d = re.sub(r"\d+\.\d{3,}", lambda m: f"{float(m[0]):.2f}", d)  # 19.099999999999998 -> 19.10
    return f'<path d="{d}" fill="{fill}"{width}/>'


def _dot(x: float, y: float, r: float, fill: str = INK) -> str:
    return f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="none"/>'


def _ring(x: float, y: float, r: float, fill: str = WHITE, w: float = 4) -> str:
    return f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke-width="{w}"/>'


def _oval(x: float, y: float, rx: float, ry: float, fill: str = INK, stroke: bool = False) -> str:
    s = ' stroke-width="4"' if stroke else ' stroke="none"'
    return f'<ellipse cx="{x}" cy="{y}" rx="{rx}" ry="{ry}" fill="{fill}"{s}/>'


def _heart(x: float, y: float, s: float, fill: str = "#d81b4a") -> str:
    """A heart of width ~2s centred on (x, y)."""
    return _p(
        f"M{x} {y + 0.55 * s}C{x - 1.3 * s} {y - 0.15 * s} {x - 0.75 * s} {y - 1.05 * s} {x} {y - 0.45 * s}"
        f"C{x + 0.75 * s} {y - 1.05 * s} {x + 1.3 * s} {y - 0.15 * s} {x} {y + 0.55 * s}Z",
        fill,
        4,
    )


def _sparkle(x: float, y: float, r: float, fill: str = "#fff27a") -> str:
    """A plump four-pointed star (plump so the colour still shows inside a 4-unit outline)."""
    k = 0.3 * r
    return _p(
        f"M{x} {y - r}Q{x + k} {y - k} {x + r} {y}Q{x + k} {y + k} {x} {y + r}"
        f"Q{x - k} {y + k} {x - r} {y}Q{x - k} {y - k} {x} {y - r}Z",
        fill,
        4,
    )


def _drop(x: float, y: float, s: float, fill: str) -> str:
    """A tear / sweat drop with its tip at (x, y), about s tall."""
    return _p(
        f"M{x} {y}Q{x - 0.45 * s} {y + 0.55 * s} {x - 0.45 * s} {y + 0.72 * s}"
        f"A{0.45 * s} {0.45 * s} 0 0 0 {x + 0.45 * s} {y + 0.72 * s}Q{x + 0.45 * s} {y + 0.55 * s} {x} {y}Z",
        fill,
        4,
    )


def _half_eye(x: float, y: float, look: float) -> str:
    """The lower half of a white eye under a flat lid, pupil pressed up against the lid: unimpressed."""
    # a small pupil, so at phone size the white still shows and it does not read as sunglasses
    return (
        _p(f"M{x - 10.5} {y}A10.5 10.5 0 0 0 {x + 10.5} {y}Z", WHITE, 4)
        + _dot(x + look, y + 3.4, 3.2)
        + _p(f"M{x - 11} {y}H{x + 11}", w=5)
    )


# ----------------------------------------------------------------------------- the faces
# The face is a circle of radius 40 round (50, 54); the top corners are left free for the extras
# (sparkles, Zs, a question mark...), which keeps them off the features.


def _vein(x: float, y: float) -> str:
    """The cartoon throbbing-vein mark: four arcs bulging towards (x, y)."""
    d = "".join(
        f"M{x + sx * 3} {y + sy * 9}Q{x + sx * 3} {y + sy * 3} {x + sx * 9} {y + sy * 3}"
        for sx in (-1, 1)
        for sy in (-1, 1)
    )
    return f'<path d="{d}" stroke="#c4122f" stroke-width="4.5"/>'


def _angry(c):
    return [
        _p("M27 32L46 42M73 32L54 42", w=7),
        _dot(37, 50, 5),
        _dot(63, 50, 5),
        _p("M34 77Q50 63 66 77", w=6),
        _vein(86, 13),
    ]


def _bored(c):
    return [_half_eye(36, 45, 4.5), _half_eye(64, 45, 4.5), _p("M39 72H63", w=6)]


def _confused(c):
    return [
        _p("M27 33Q35 23 45 30", w=6),
        _p("M56 39L73 35", w=6),
        _dot(37, 46, 6.5),
        _dot(63, 47, 4),
        _p("M32 72q4.5 -6 9 0t9 0t9 0t9 0", w=5),
        # a drawn question mark, not a text glyph
        _p("M80 10A6 6 0 1 1 88 15.5Q86 17 86 21", w=4.5),
        _dot(86, 27, 2.8),
    ]


def _disgusted(c):
    return [
        _p("M28 38L44 42M56 42L72 37", w=6),
        _p("M30 48H44", w=6),
        _dot(63, 48, 4.5),
        _p("M41 67v9a9 9 0 0 0 18 0v-9", "#f06a8a", 4),
        _p("M50 68v7", w=4),
        _p("M31 71Q50 60 69 71", w=6),
        # two wavy "stink" lines rising beside the face
        _p("M84 10q-5 4 0 8t0 8", w=4),
        _p("M93 14q-5 4 0 8t0 8", w=4),
    ]


def _embarrassed(c):
    return [
        _oval(26, 61, 10, 6.5, "#ea4f73"),
        _oval(74, 61, 10, 6.5, "#ea4f73"),
        _p("M21 65l4 -7M28 65l4 -7M68 65l4 -7M75 65l4 -7", w=4),
        _p("M30 39L43 46L30 53", w=5.5),
        _p("M70 39L57 46L70 53", w=5.5),
        _p("M42 72q4 -4 8 0t8 0", w=5),
    ]


def _happy(c):
    return [
        _oval(37, 45, 4.6, 7),
        _oval(63, 45, 4.6, 7),
        _p("M29 32Q37 27 44 31M56 31Q63 27 71 32", w=5),
        _p("M28 62Q50 88 72 62", w=6),
    ]


def _excited(c):
    eyes = []
    for x in (36, 64):
        eyes += [_dot(x, 45, 8.5), _dot(x - 3, 42, 3, WHITE), _dot(x + 3, 48.5, 1.6, WHITE)]
    mouth = "M27 60H73A23 23 0 0 1 27 60Z"
    return eyes + [
        _p("M28 31Q35 24 43 29M57 29Q65 24 72 31", w=5),
        _p(mouth, "#5a1a2c", 0),
        _p("M27 60H73V67H27Z", WHITE, 0),
        _oval(50, 76.5, 10, 4.6, "#f06a8a"),
        _p(mouth, w=5),
        _sparkle(11, 12, 11),
        _sparkle(89, 12, 11),
        _sparkle(94, 36, 6),
    ]


def _medal(x: float, y: float) -> str:
    """A gold medal on two ribbon tails."""
    return (
        _p(f"M{x - 8} {y - 17}L{x - 3} {y}L{x + 3} {y}L{x + 8} {y - 17}", "#3f6fd1", 4)
        + _ring(x, y + 2, 9.5, "#ffcc2e")
        + _dot(x, y + 2, 3, INK)
    )


def _proud(c):
    # chin up: the features ride high and the head tilts back; eyes shut in satisfaction
    return [
        '<g transform="rotate(-9 50 54)">',
        _p("M29 29Q36 23 44 27M56 27Q64 23 71 29", w=5),
        _p("M29 40Q36 46 43 40M57 40Q64 46 71 40", w=5.5),
        _p("M36 59Q52 70 66 55", w=6),
        "</g>",
        _medal(86, 83),
    ]


def _sad(c):
    return [
        _p("M28 37L43 31M57 31L72 37", w=6),
        _dot(37, 46, 5),
        _dot(63, 46, 5),
        _p("M35 77Q50 64 65 77", w=6),
        _drop(30, 53, 15, "#e3f4ff"),
    ]


def _scared(c):
    return [
        _p("M27 31L43 25M57 25L73 31", w=5),
        _ring(37, 44, 9.5),
        _ring(63, 44, 9.5),
        _dot(37, 45, 2.8),
        _dot(63, 45, 2.8),
        _p("M31 63H69A5 5 0 0 1 74 68V73A5 5 0 0 1 69 78H31A5 5 0 0 1 26 73V68A5 5 0 0 1 31 63Z", WHITE, 4),
        _p("M26 70.5L32 66L38 75L44 66L50 75L56 66L62 75L68 66L74 70.5", w=4),
        _drop(86, 10, 18, "#9fd9ff"),
        _p("M4 46V60M96 52V66", w=4),
    ]


def _surprised(c):
    return [
        _p("M27 30Q36 20 45 28M55 28Q64 20 73 30", w=5),
        _ring(37, 45, 8.5),
        _ring(63, 45, 8.5),
        _dot(37, 45, 4.6),
        _dot(63, 45, 4.6),
        _oval(50, 72, 8.5, 11, "#5a1a2c", True),
        # three burst lines: "pop!"
        _p("M80 16L86 6M86 22L96 18M74 12L74 2", w=4),
    ]


def _tired(c):
    # shut lids drooping at the outer corners, bags under them, a yawn
    return [
        _p("M44 47H35Q30 47 28 52M56 47H65Q70 47 72 52", w=6),
        _p("M32 57Q38 60 44 57M56 57Q62 60 68 57", w=4),
        _oval(50, 73, 5.5, 7, "#5a1a2c", True),
        # "z Z" drawn as strokes, growing as they drift away
        _p("M71 5H80L71 14H80", w=4),
        _p("M84 3H96L84 16H96", w=4.5),
    ]


def _in_love(c):
    return [_heart(36, 46, 13), _heart(64, 46, 13), _p("M35 67Q50 82 65 67", w=6), _heart(87, 13, 9)]


_DRAW = {
    "angry": _angry,
    "bored": _bored,
    "confused": _confused,
    "disgusted": _disgusted,
    "embarrassed": _embarrassed,
    "happy": _happy,
    "excited": _excited,
    "proud": _proud,
    "sad": _sad,
    "scared": _scared,
    "surprised": _surprised,
    "tired": _tired,
    "in_love": _in_love,
}

_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" aria-hidden="true" focusable="false">'
    f'<g fill="none" stroke="{INK}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round">'
)


def face_svg(emotion: str) -> str:
    """The card picture for one of EMOTIONS, as a standalone inline SVG that scales to its box."""
    if emotion not in _DRAW:
        raise ValueError(f"unknown emotion {emotion!r}; expected one of {', '.join(EMOTIONS)}")
    fill = COLOURS[emotion]
    return _OPEN + _ring(50, 54, 40, fill, 5) + "".join(_DRAW[emotion](fill)) + "</g></svg>"


def picture(name: str) -> tuple[bytes, str]:
    """Trading Faces' pictures as its Game serves them (/pictures/trading_faces/<name>): an emotion's
    card, `<emotion>.svg`, or the card back, `back.svg`. ValueError for any other name."""
    stem, dot, kind = name.rpartition(".")
    if not dot or kind != "svg":
        raise ValueError(f"no picture {name!r}")
    svg = card_back_svg() if stem == "back" else face_svg(stem)
    return svg.encode(), "image/svg+xml"


def card_back_svg() -> str:
    """The face-down side for the memory grid: a diamond lattice, nothing that could pass for a face."""
    cells = "".join(
        f"M{x} {y - 6}L{x + 6} {y}L{x} {y + 6}L{x - 6} {y}Z"
        for y in range(14, 87, 12)
        for x in range(14 + (y // 12 % 2) * 6, 87, 12)
    )
    return (
        _OPEN.replace(f'stroke="{INK}"', 'stroke="#f3e6c4"')
        + '<rect x="3" y="3" width="94" height="94" rx="12" fill="#2e3a6e" stroke-width="4"/>'
        + f'<path d="{cells}" fill="#4b5aa0" stroke="none"/>'
        + '<circle cx="50" cy="50" r="17" fill="#2e3a6e" stroke-width="5"/>'
        + '<circle cx="50" cy="50" r="7" fill="#f3e6c4" stroke="none"/></g></svg>'
    )


# ----------------------------------------------------------------------------- contact sheet


def sheet_html() -> str:
    """All 13 cards large with number and English word, then a row at phone size (60 px) to check them."""
    big = "".join(
        f'<figure><div class="big">{face_svg(e)}</div><figcaption><b>{i}</b> {html.escape(e.replace("_", " "))}'
        f"</figcaption></figure>"
        for i, e in enumerate(EMOTIONS, 1)
    )
    small = "".join(f'<div class="small">{face_svg(e)}<span>{i}</span></div>' for i, e in enumerate(EMOTIONS, 1))
    return f"""<!doctype html><meta charset="utf-8"><title>Trading Faces: emotion cards</title>
<style>body{{margin:0;font-family:sans-serif;background:#faf7f0;color:{INK}}}
main{{padding:24px 40px}} h1{{margin:0 0 10px;font-size:30px}} .grid{{display:grid;grid-template-columns:repeat(7,1fr);gap:14px 18px}}
figure{{margin:0;text-align:center}} .big svg{{width:230px;display:block;margin:auto}}
figcaption{{font-size:26px;margin-top:4px}} h2{{font-size:20px;margin:18px 0 8px}}
.row{{display:flex;gap:14px;align-items:center}} .small{{text-align:center;font-size:14px}}
.small svg{{width:60px;display:block}}</style>
<main data-testid="stApp"><h1>Trading Faces &middot; emotion cards</h1><div class="grid">{big}
<figure><div class="big">{card_back_svg()}</div><figcaption>card back</figcaption></figure></div>
<h2>At phone size (60 px)</h2><div class="row">{small}<div class="small">{card_back_svg()}<span>back</span></div></div></main>"""


def main(argv: list[str] | None = None) -> None:
    import argparse
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    ap = argparse.ArgumentParser(description="Write the emotion cards' contact sheet.")
    ap.add_argument("what", choices=("html", "sheet"), help="html: the page; sheet: a PNG screenshot of it")
    ap.add_argument("out", type=Path)
    ap.add_argument(
        "--shot",
        type=Path,
        default=Path(__file__).resolve().parents[3] / "shared/tools/shot.py",
        help="the screenshot tool (Chromium through playwright)",
    )
    a = ap.parse_args(argv)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    if a.what == "html":
        a.out.write_text(sheet_html(), encoding="utf-8")
        return
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "faces.html"
        page.write_text(sheet_html(), encoding="utf-8")
        # the page carries data-testid="stApp", which shot.py waits for before it shoots
        subprocess.run(
            [sys.executable, str(a.shot), page.as_uri(), str(a.out), "--projector", "--wait", "0.5"], check=True
        )


if __name__ == "__main__":
    main()
