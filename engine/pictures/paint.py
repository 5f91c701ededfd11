"""Paint the built-in "dreams" deck.

    .venv/bin/python -m engine.pictures.paint [--count 108] [--seed 1917] [--out data/pictures/dreams]

Deterministic: the same seed gives the same deck. Needs `resvg-py` (only here, to rasterise the
OpenMoji SVGs); the app itself only reads the finished JPEGs and cards.json.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import Counter
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from . import canvas as cv
from .colours import dominant_colours
from .motifs import BY_NAME, MOTIFS, Motif
from .scenery import PALETTES, H, Palette, Scene, W, finish, glyph, landscape

DEFAULT_SEED = 1917
DEFAULT_COUNT = 108


def _pick(rng, options):
    return options[int(rng.integers(0, len(options)))]


def _spaced_xs(rng, n, margin=-20):
    xs = np.linspace(margin, W - margin, n)
    return xs + rng.uniform(-0.25, 0.25, n) * (W / n)


# --------------------------------------------------------------------------- compositions
# Each returns (scene, title). A and B are the two main motifs.


def comp_above(rng, pal, setting, A: Motif, B: Motif):
    body = (
        rng.uniform(60, 140) if rng.random() < 0.5 else rng.uniform(340, 420),
        rng.uniform(70, 130),
        rng.uniform(20, 32),
    )
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.64, 0.72), body=body if rng.random() < 0.6 else None)
    size = rng.uniform(300, 380)
    sc.place(
        A,
        size,
        W / 2 + rng.uniform(-30, 30),
        H * rng.uniform(0.3, 0.36),
        rotate=rng.uniform(-12, 12),
        glow=0.35 if pal.night else 0.15,
        flip=rng.random() < 0.5,
        tint=0.3,
    )
    if sc.water:
        for x in _spaced_xs(rng, 9, 10):
            sc.place(B, rng.uniform(34, 48), x, sc.horizon + 2, anchor="bottom", shade=0.55)
        sc.reflect()
    else:
        n = int(rng.integers(6, 9))
        for x in _spaced_xs(rng, n):
            s = rng.uniform(60, 95)
            sc.place(B, s, x, sc.ground_at(x) + s * 0.35 + 20, anchor="bottom", shade=0.45, flip=rng.random() < 0.5)
    town = B.name in ("house", "castle", "tent", "window", "door", "circus tent")
    title = _pick(
        rng,
        [f"{A.a} drifting above a sleeping town of {B.plural}", f"{A.a} floating over a village of {B.plural}"]
        if town
        else [f"{A.a} drifting above a field of {B.plural}", f"{A.a} adrift over a valley of {B.plural}"],
    )
    return sc, title


def comp_giant(rng, pal, setting, A, B):
    left = rng.random() < 0.5
    body = ((380 if left else 100), rng.uniform(80, 140), rng.uniform(22, 34))
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.6, 0.7), body=body)
    bx = W * (0.6 if left else 0.4)
    gy = sc.ground_at(bx) + 30 if not sc.water else sc.horizon + 60
    size = rng.uniform(350, 420)
    sc.place(B, size, bx, gy, anchor="bottom", shadow=True, tint=0.35, flip=rng.random() < 0.5)
    ax = W * (0.17 if left else 0.83)
    ay = sc.ground_at(ax) + 40 if not sc.water else sc.horizon + 80
    sc.place(A, rng.uniform(60, 80), ax, ay, anchor="bottom", shade=0.25, shadow=True, flip=not left)
    if sc.water:
        sc.reflect()
        sc.place(B, size, bx, gy, anchor="bottom", tint=0.35)
    title = _pick(
        rng,
        [
            f"{A.a} standing before {B.a} as big as a mountain",
            f"{A.a} looking up at {B.a} taller than the sky",
            f"{B.a} so big that {A.a} looks like a crumb",
        ],
    )
    return sc, title


def comp_forest(rng, pal, setting, A, B):
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.5, 0.58), body=None, clouds=0.3)
    hy = min(sc.horizon, int(H * 0.58))
    rows = [(hy + 10, 52, 0.8, 12), (hy + (H - hy) * 0.3, 85, 0.65, 9), (hy + (H - hy) * 0.58, 130, 0.5, 6)]
    for y, s, shade, n in rows:
        for x in _spaced_xs(rng, n, 0):
            if s > 80 and abs(x - W / 2) < s * 0.6:
                continue
            sc.place(B, s * rng.uniform(0.85, 1.15), x, y, anchor="bottom", shade=shade, flip=rng.random() < 0.5)
    sc.place(A, rng.uniform(140, 170), W / 2, hy + (H - hy) * 0.78, anchor="bottom", glow=1.0, tint=0.1)
    for x in (rng.uniform(-20, 50), rng.uniform(430, 500)):
        s = rng.uniform(240, 290)
        sc.place(B, s, x, H + 30, anchor="bottom", shade=0.35, flip=x > W / 2)
    title = _pick(rng, [f"{A.a} glowing in a forest of {B.plural}", f"{A.a} lost among {B.plural} as tall as trees"])
    return sc, title


def comp_reflection(rng, pal, setting, A, B):
    body = (rng.uniform(80, 400), rng.uniform(70, 120), rng.uniform(18, 28))
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.52, 0.58), body=body if rng.random() < 0.6 else None)
    sc.reflect()
    size = rng.uniform(200, 250)
    x = W / 2 + rng.uniform(-30, 30)
    sc.place(A, size, x, sc.horizon + 3, anchor="bottom", tint=0.3, shade=0.1)
    g = glyph(B, size * 0.95, rotate=180, flip=True)
    h = g.shape[0]
    rgb = cv.mix(g[..., :3] * cv.mix(np.ones(3), sc.ambient(), 0.4), sc.pal.c("water"), 0.35)
    # ripple the reflection
    rows = np.arange(h)
    shift = (np.sin(rows * 0.5) * (1 + 3 * rows / h)).astype(int)
    rgba = np.concatenate([rgb, g[..., 3:4]], axis=2)
    rgba = np.stack([np.roll(rgba[i], shift[i], axis=0) for i in range(h)])
    cv.paste_rgba(sc.img, rgba, int(x - g.shape[1] / 2), sc.horizon + 4, opacity=0.75)
    title = _pick(rng, [f"{A.a} whose reflection is {B.a}", f"{A.a} looking into the water and seeing {B.a}"])
    return sc, title


def comp_moon(rng, pal, setting, A, B):
    r = rng.uniform(120, 150)
    bx, by = W / 2 + rng.uniform(-50, 50), H * rng.uniform(0.3, 0.36)
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.66, 0.74), body=(bx, by, r), clouds=0.2)
    sc.place(B, r * 1.45, bx, by, shade=0.92, tint=0, opacity=0.9, flip=rng.random() < 0.5, rotate=rng.uniform(-15, 15))
    if sc.water:
        sc.reflect()
        ax = rng.uniform(100, 380)
        sc.place(A, 70, ax, sc.horizon + 40, anchor="bottom", shade=0.9)
    else:
        ax = int(np.argmin(sc.ground[60 : W - 60])) + 60
        sc.place(A, rng.uniform(55, 75), ax, sc.ground_at(ax) + 6, anchor="bottom", shade=0.9)
    what = "moon" if pal.night else "sun"
    title = _pick(rng, [f"{A.a} watching {B.a} cross the {what}", f"{A.a} and the {what} with {B.a} inside it"])
    return sc, title


def comp_trail(rng, pal, setting, A, B):
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.5, 0.56), body=None)
    hy = sc.horizon
    ax = W / 2 + rng.uniform(-60, 60)
    sc.place(A, rng.uniform(120, 160), ax, hy + 4, anchor="bottom", glow=0.9)
    sc.reflect()
    n = 9
    phase = rng.random() * 6
    for i in range(n):  # far to near
        t = i / (n - 1)
        y = hy + 12 + (H - hy - 20) * t**1.6
        x = ax + (W / 2 - ax) * t + math.sin(phase + t * 5) * 90 * t
        s = 18 + 130 * t**1.5
        sc.place(
            B,
            s,
            x,
            y,
            anchor="bottom",
            shadow=not sc.water,
            tint=0.4,
            rotate=rng.uniform(-10, 10),
            shade=0.15 * (1 - t),
        )
    title = _pick(rng, [f"a trail of {B.plural} leading to {A.a}", f"stepping stones of {B.plural} towards {A.a}"])
    return sc, title


def comp_rain(rng, pal, setting, A, B):
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.62, 0.7), body=None, clouds=0.9)
    ax = W / 2 + rng.uniform(-60, 60)
    ay = sc.ground_at(ax) + 40 if not sc.water else sc.horizon + 120
    if sc.water:
        sc.reflect()
    box = sc.place(A, rng.uniform(190, 230), ax, ay, anchor="bottom", shadow=True, tint=0.3)
    for _ in range(int(rng.integers(22, 30))):
        s = rng.uniform(26, 64)
        x, y = rng.uniform(0, W), rng.uniform(-20, H * 0.62)
        if box[0] - s / 2 < x < box[2] + s / 2 and y > box[1] - s:
            continue
        sc.place(B, s, x, y, rotate=rng.uniform(-40, 40), tint=0.3, opacity=0.95)
    title = _pick(rng, [f"{B.plural} raining down on {A.a}", f"a storm of {B.plural} over {A.a}"])
    return sc, title


def comp_carried(rng, pal, setting, A, B):
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.7, 0.78), body=None)
    if sc.water:
        sc.reflect()
    ax, ay = W / 2 + rng.uniform(-40, 40), H * rng.uniform(0.55, 0.6)
    size = rng.uniform(170, 210)
    g = glyph(A, size)
    top = ay - g.shape[0] / 2
    anchors = []
    n = int(rng.integers(5, 8))
    for i in range(n):
        bx = ax + (i - (n - 1) / 2) * rng.uniform(48, 62) + rng.uniform(-10, 10)
        by = H * rng.uniform(0.1, 0.26)
        anchors.append((bx, by, rng.uniform(62, 92)))
    lines = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(lines)
    for bx, by, s in anchors:
        d.line([(bx, by + s * 0.45), (ax + rng.uniform(-20, 20), top + 8)], fill=200, width=2)
    cv.paste_mask(
        sc.img, np.asarray(lines, dtype=np.float32) / 255, sc.light if pal.night else sc.ink, 0, 0, opacity=0.7
    )
    sc.place(A, size, ax, ay, tint=0.3, rotate=rng.uniform(-8, 8))
    for bx, by, s in anchors:
        sc.place(B, s, bx, by, tint=0.25, rotate=rng.uniform(-15, 15))
    title = _pick(rng, [f"{A.a} carried into the sky by {B.plural}", f"{A.a} flying away on a bunch of {B.plural}"])
    return sc, title


def comp_orbit(rng, pal, setting, A, B):
    sc = landscape(setting, pal, rng, horizon=0.8, body=None, clouds=0.0)
    if sc.water:
        sc.reflect()
    cx, cy = W / 2, H * rng.uniform(0.38, 0.44)
    tilt = rng.uniform(-0.35, 0.35)
    rings = [(rng.uniform(150, 175), rng.uniform(40, 55)), (rng.uniform(205, 230), rng.uniform(70, 90))]
    m = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(m)
    for rx, ry in rings:
        pts = [
            (
                cx + rx * math.cos(t) * math.cos(tilt) - ry * math.sin(t) * math.sin(tilt),
                cy + rx * math.cos(t) * math.sin(tilt) + ry * math.sin(t) * math.cos(tilt),
            )
            for t in np.linspace(0, 2 * math.pi, 200)
        ]
        d.line(pts, fill=150, width=2)
    cv.paste_mask(sc.img, np.asarray(m, dtype=np.float32) / 255, sc.light, 0, 0, opacity=0.6, mode="screen")
    sats = []
    for rx, ry in rings:
        for _ in range(int(rng.integers(2, 4))):
            t = rng.uniform(0, 2 * math.pi)
            x = cx + rx * math.cos(t) * math.cos(tilt) - ry * math.sin(t) * math.sin(tilt)
            y = cy + rx * math.cos(t) * math.sin(tilt) + ry * math.sin(t) * math.cos(tilt)
            sats.append((math.sin(t), x, y, rng.uniform(48, 72)))
    for z, x, y, s in sorted(sats):
        if z < 0:
            sc.place(B, s * 0.85, x, y, tint=0.4, shade=0.25)
    sc.place(A, rng.uniform(190, 230), cx, cy, glow=0.6, tint=0.15)
    for z, x, y, s in sorted(sats):
        if z >= 0:
            sc.place(B, s, x, y, tint=0.2, rotate=rng.uniform(-20, 20))
    title = _pick(rng, [f"{B.plural} orbiting {A.a} like little moons", f"{A.a} with its own planets of {B.plural}"])
    return sc, title


def comp_bubble(rng, pal, setting, A, B):
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.66, 0.74), body=None)
    if sc.water:
        sc.reflect()
    r = rng.uniform(135, 160)
    cx, cy = W / 2 + rng.uniform(-40, 40), H * rng.uniform(0.33, 0.4)
    inside = cv.disc(H, W, cx, cy, r)
    sc.img[:] = cv.blend(sc.img, cv.mix(sc.pal.c("sky2"), sc.light, 0.4), inside * 0.35)
    sc.place(B, r * 1.2, cx, cy + r * 0.05, tint=0.25, rotate=rng.uniform(-12, 12))
    ring = np.clip(cv.disc(H, W, cx, cy, r) - cv.disc(H, W, cx, cy, r - 5, soft=6), 0, 1)
    sc.img[:] = cv.screen(sc.img, sc.light, ring * 0.8)
    spec = cv.radial(H, W, cx - r * 0.45, cy - r * 0.5, r * 0.35)
    sc.img[:] = cv.screen(sc.img, np.ones(3), spec * 0.8)
    ax = rng.uniform(60, 120) if rng.random() < 0.5 else rng.uniform(360, 420)
    ay = sc.ground_at(ax) + 30 if not sc.water else sc.horizon + 70
    sc.place(A, rng.uniform(70, 95), ax, ay, anchor="bottom", shade=0.35, shadow=True, flip=ax > W / 2)
    title = _pick(
        rng,
        [f"{B.a} asleep inside a floating bubble, watched by {A.a}", f"{A.a} finding {B.a} sealed in a soap bubble"],
    )
    return sc, title


def comp_staircase(rng, pal, setting, A, B):
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.6, 0.68), body=None)
    if sc.water:
        sc.reflect()
    stone = cv.mix(sc.pal.c("far"), sc.light, 0.45)
    dark = cv.mix(sc.pal.c("near"), sc.ink, 0.3)
    steps = 14
    left = rng.random() < 0.5
    for i in range(steps):  # from the bottom of the card up towards the sky
        t = i / (steps - 1)
        w = 190 * (1 - 0.75 * t)
        x = (W * 0.5 + (-1 if left else 1) * 40) + (1 if left else -1) * 150 * t**1.3 - w / 2
        y = H - 30 - t * H * 0.62
        hgt = 34 * (1 - 0.6 * t)
        tread = 12 * (1 - 0.6 * t)
        m = Image.new("L", (W, H), 0)
        d = ImageDraw.Draw(m)
        d.rectangle([x, y, x + w, y + hgt], fill=255)
        front = np.asarray(m, dtype=np.float32) / 255
        m2 = Image.new("L", (W, H), 0)
        ImageDraw.Draw(m2).polygon([(x, y), (x + w, y), (x + w - 6, y - tread), (x + 6, y - tread)], fill=255)
        top = np.asarray(m2, dtype=np.float32) / 255
        sc.img[:] = cv.blend(sc.img, dark, front)
        sc.img[:] = cv.blend(sc.img, stone, top)
    endx = (W * 0.5 + (-1 if left else 1) * 40) + (1 if left else -1) * 150
    sc.place(A, rng.uniform(140, 170), endx, H - 30 - H * 0.62 - 110, glow=0.8, tint=0.15)
    where = {
        "sea": "out of the sea",
        "lake": "out of the lake",
        "clouds": "above the clouds",
        "dunes": "out of the sand",
        "snow": "out of the snow",
    }.get(setting, "into the sky")
    return sc, f"a staircase climbing {where} up to {A.a}"


def comp_doorway(rng, pal, setting, A, B):
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.58, 0.66), body=None)
    if sc.water:
        sc.reflect()
    other = PALETTES[(PALETTES.index(pal) + 7) % len(PALETTES)]
    dw, dh = 170, 270
    dx = W / 2 - dw / 2 + rng.uniform(-40, 40)
    dy = (sc.ground_at(dx + dw / 2) if not sc.water else sc.horizon) + 50 - dh
    inner = cv.vertical_gradient(dh, dw, [(0, other.c("sky0")), (0.6, other.c("sky1")), (1, other.c("sky2"))])
    sub = Scene(inner, other, "", dh, np.full(dw, dh))
    full = sc.img
    # glow spilling out of the door onto the ground
    spill = Image.new("L", (W, H), 0)
    ImageDraw.Draw(spill).polygon([(dx, dy + dh), (dx + dw, dy + dh), (dx + dw + 120, H), (dx - 120, H)], fill=140)
    cv.paste_mask(full, cv.blur(np.asarray(spill, dtype=np.float32) / 255, 12), other.c("light"), 0, 0, mode="screen")
    # frame
    m = np.zeros((H, W), dtype=np.float32)
    m[int(dy) - 12 : int(dy + dh) + 2, int(dx) - 12 : int(dx + dw) + 12] = 1
    full[:] = cv.blend(full, cv.mix(sc.ink, sc.pal.c("far"), 0.3), m)
    g = glyph(B, dw * 0.8)
    scene_box = inner.copy()
    sub.img = scene_box
    sub_rgba = np.concatenate([g[..., :3], g[..., 3:4]], axis=2)
    cv.paste_rgba(scene_box, sub_rgba, int(dw / 2 - g.shape[1] / 2), int(dh * 0.55 - g.shape[0] / 2))
    full[int(dy) : int(dy) + dh, int(dx) : int(dx) + dw] = scene_box[: H - int(dy), : W - int(dx)]
    ax = dx - 60 if dx > W / 2 - dw / 2 else dx + dw + 60
    sc.place(A, rng.uniform(70, 90), ax, dy + dh + 20, anchor="bottom", shade=0.6, flip=ax > dx)
    where = {
        "sea": "standing in the sea",
        "lake": "standing in the lake",
        "clouds": "on the clouds",
        "dunes": "in the dunes",
        "snow": "in the snow",
        "hills": "on the hillside",
    }.get(setting, "")
    return sc, f"a doorway {where} that opens onto {B.a}, and {A.a} beside it"


def comp_world(rng, pal, setting, A, B):
    sc = landscape(setting, pal, rng, horizon=rng.uniform(0.62, 0.72), body=None)
    if sc.water:
        sc.reflect()
    size = rng.uniform(330, 380)
    bx, by = W / 2 + rng.uniform(-20, 20), H * rng.uniform(0.5, 0.56)
    flip = rng.random() < 0.5
    box = sc.place(B, size, bx, by, tint=0.3, flip=flip, glow=0.2)
    g = glyph(B, size, flip=flip)
    alpha = g[..., 3] > 0.5
    tops = np.where(alpha.any(axis=0), alpha.argmax(axis=0), 10**6)
    cols = np.where(tops < 10**5)[0]
    n = int(rng.integers(3, 6))
    lo, hi = cols.min() + 20, cols.max() - 20
    for c in sorted(rng.uniform(lo, hi, n)):
        s = rng.uniform(38, 56)
        c = int(c)
        window = tops[max(0, c - 8) : c + 8]
        top = int(window.min())
        sc.place(A, s, box[0] + c, box[1] + top + 6, anchor="bottom", tint=0.35)
    title = _pick(rng, [f"a little world of {A.plural} on the back of {B.a}", f"{A.plural} living on top of {B.a}"])
    return sc, title


STAIRCASE = Motif("staircase", "", "staircases", frozenset())
ANY = ("sky", "ground", "figure")

# name: (function, A roles, B roles (None = a staircase), settings)
COMPOSITIONS = {
    "above": (comp_above, ("sky",), ("crowd",), ["hills", "dunes", "snow", "clouds", "lake"]),
    "giant": (comp_giant, ("figure",), ("ground",), ["hills", "dunes", "snow", "deep", "space", "lake"]),
    "forest": (comp_forest, ("light", "figure"), ("crowd",), ["hills", "snow", "dunes", "deep"]),
    "reflection": (comp_reflection, ("ground", "figure"), ANY, ["lake", "sea"]),
    "moon": (comp_moon, ("figure",), ("sky",), ["hills", "sea", "dunes", "snow", "clouds"]),
    "trail": (comp_trail, ("light", "sky"), ("ground", "swarm"), ["sea", "lake", "dunes", "snow", "clouds"]),
    "rain": (comp_rain, ("ground", "figure"), ("swarm",), ["hills", "sea", "dunes", "snow", "lake"]),
    "carried": (comp_carried, ("ground",), ("swarm",), ["hills", "sea", "clouds", "dunes", "snow"]),
    "orbit": (comp_orbit, ("sky", "light"), ("swarm",), ["space", "sea", "clouds"]),
    "bubble": (comp_bubble, ("figure",), ANY, ["sea", "clouds", "hills", "lake", "dunes"]),
    "staircase": (comp_staircase, ("sky", "light"), None, ["sea", "clouds", "dunes", "snow", "lake"]),
    "doorway": (comp_doorway, ("figure",), ("sky", "ground"), ["dunes", "snow", "hills", "lake", "sea"]),
    "world": (comp_world, ("crowd",), ("sky",), ["sea", "clouds", "space", "hills"]),
}


# --------------------------------------------------------------------------- planning
def plan(count: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    names = list(COMPOSITIONS)
    use_motif: Counter = Counter()
    use_setting: Counter = Counter()
    use_palette: Counter = Counter()
    pairs: set[frozenset] = set()
    recent_pal: list[str] = []
    out = []
    order: list[str] = []
    while len(order) < count:
        batch = names[:]
        rng.shuffle(batch)
        if order and batch[0] == order[-1]:
            batch.reverse()
        order += batch
    for i, comp in enumerate(order[:count]):
        fn, a_roles, b_roles, settings = COMPOSITIONS[comp]

        def least(cands, used):
            scores = [(used[c] + rng.random() * 0.9, k) for k, c in enumerate(cands)]
            return cands[min(scores)[1]]

        setting = settings[
            min((use_setting[(comp, st)] * 10 + use_setting[st] + rng.random(), k) for k, st in enumerate(settings))[1]
        ]
        use_setting[(comp, setting)] += 1
        pal_choices = [p.name for p in PALETTES if p.name not in recent_pal]
        pal = least(pal_choices, use_palette)
        recent_pal = (recent_pal + [pal])[-4:]
        a_pool = [m for m in MOTIFS if m.roles & set(a_roles)]
        A = least(a_pool, use_motif)
        if b_roles is None:
            B = STAIRCASE
        else:
            b_pool = [
                m
                for m in MOTIFS
                if m.roles & set(b_roles) and m.name != A.name and frozenset((A.name, m.name)) not in pairs
            ]
            B = least(b_pool, use_motif)
        pairs.add(frozenset((A.name, B.name)))
        use_motif[A] += 1
        use_motif[B] += 1
        use_setting[setting] += 1
        use_palette[pal] += 1
        out.append(
            {
                "id": f"dream-{i + 1:03d}",
                "composition": comp,
                "setting": setting,
                "palette": pal,
                "a": A.name,
                "b": B.name,
                "seed": int(seed * 1000 + i),
            }
        )
    return out


def paint_card(spec: dict) -> tuple[Image.Image, dict]:
    fn = COMPOSITIONS[spec["composition"]][0]
    rng = np.random.default_rng(spec["seed"])
    pal: Palette = next(p for p in PALETTES if p.name == spec["palette"])
    A = BY_NAME[spec["a"]]
    B = STAIRCASE if spec["b"] == "staircase" else BY_NAME[spec["b"]]
    sc, title = fn(rng, pal, spec["setting"], A, B)
    img = finish(sc, rng)
    main = [A.name, B.name] if spec["composition"] != "staircase" else ["staircase", A.name]
    extra = [w for w in sc.words if w not in main]
    words = {
        "motifs": main + extra,
        "mood": pal.mood,
        "colours": dominant_colours(img),
        "title": title,
        "composition": spec["composition"],
        "setting": spec["setting"],
        "palette": pal.name,
    }
    return img, words


MIN_DISTANCE = 14.0  # see thumb_distance; the tests require > 12


def thumb(img: Image.Image) -> np.ndarray:
    return np.asarray(img.convert("RGB").resize((16, 24), Image.Resampling.BILINEAR), dtype=np.float32).ravel()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=DEFAULT_COUNT)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "data" / "pictures" / "dreams")
    ap.add_argument("--quality", type=int, default=84)
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    specs = plan(args.count, args.seed)
    names = [p.name for p in PALETTES]
    cards: dict[str, dict] = {}
    thumbs: list[np.ndarray] = []
    t0 = time.time()
    for spec in specs:
        # A card whose small thumbnail is too close to an earlier card's (mean absolute difference
        # on 0..255) is repainted with another palette and seed, so every card differs at a glance.
        for attempt in range(8):
            img, words = paint_card(spec)
            t = thumb(img)
            closest = min((float(np.abs(t - o).mean()) for o in thumbs), default=999.0)
            if closest >= MIN_DISTANCE:
                break
            spec["palette"] = names[(names.index(spec["palette"]) + 5 + attempt) % len(names)]
            spec["seed"] += 7919
        thumbs.append(t)
        img.save(args.out / f"{spec['id']}.jpg", "JPEG", quality=args.quality, optimize=True)
        cards[spec["id"]] = words
        print(f"{spec['id']}  {words['title']}" + (f"  (repainted {attempt}x)" if attempt else ""), flush=True)
    for old in args.out.glob("dream-*.jpg"):  # drop cards from an older, larger run
        if old.stem not in cards:
            old.unlink()
    (args.out / "cards.json").write_text(json.dumps(cards, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"painted {len(cards)} cards in {time.time() - t0:.1f}s -> {args.out}")


if __name__ == "__main__":
    main()
