"""Small numpy painting toolkit used by the card generator (`engine.pictures.paint`).

A canvas is a float32 array of shape (H, W, 3) holding linear-ish RGB in 0..1.
Everything is deterministic given a `numpy.random.Generator`.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageFilter

Color = tuple[float, float, float]


def hex_rgb(value: str) -> np.ndarray:
    value = value.lstrip("#")
    return np.array([int(value[i : i + 2], 16) / 255.0 for i in (0, 2, 4)], dtype=np.float32)


def mix(a, b, t):
    return np.asarray(a, dtype=np.float32) * (1 - t) + np.asarray(b, dtype=np.float32) * t


def grid(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return ys, xs


def vertical_gradient(h: int, w: int, stops: list[tuple[float, np.ndarray]]) -> np.ndarray:
    """stops: [(position 0..1, rgb), ...] sorted by position."""
    t = np.linspace(0, 1, h, dtype=np.float32)
    out = np.zeros((h, 3), dtype=np.float32)
    pos = [p for p, _ in stops]
    for c in range(3):
        out[:, c] = np.interp(t, pos, [col[c] for _, col in stops])
    return np.repeat(out[:, None, :], w, axis=1)


def smoothstep(e0, e1, x):
    t = np.clip((x - e0) / (e1 - e0 + 1e-9), 0, 1)
    return t * t * (3 - 2 * t)


def fbm(h: int, w: int, rng: np.random.Generator, base: int = 4, octaves: int = 5, stretch: float = 1.0) -> np.ndarray:
    """Fractal value noise in 0..1. `stretch` > 1 makes it wider than tall (clouds, fog)."""
    total = np.zeros((h, w), dtype=np.float32)
    amp, norm = 1.0, 0.0
    for o in range(octaves):
        gx = max(2, int(base * 2**o))
        gy = max(2, int(base * 2**o * h / w / stretch))
        small = rng.random((gy, gx)).astype(np.float32)
        img = Image.fromarray((small * 255).astype(np.uint8), "L").resize((w, h), Image.Resampling.BICUBIC)
        total += amp * np.asarray(img, dtype=np.float32) / 255.0
        norm += amp
        amp *= 0.5
    total /= norm
    lo, hi = np.percentile(total, 1), np.percentile(total, 99)
    return np.clip((total - lo) / (hi - lo + 1e-9), 0, 1)


def noise1d(n: int, rng: np.random.Generator, base: int = 4, octaves: int = 4) -> np.ndarray:
    out = np.zeros(n, dtype=np.float32)
    amp, norm = 1.0, 0.0
    for o in range(octaves):
        k = base * 2**o + 1
        pts = rng.random(k)
        xs = np.linspace(0, k - 1, n)
        # cosine interpolation
        i0 = np.floor(xs).astype(int)
        i1 = np.minimum(i0 + 1, k - 1)
        f = xs - i0
        f = (1 - np.cos(f * np.pi)) / 2
        out += amp * (pts[i0] * (1 - f) + pts[i1] * f)
        norm += amp
        amp *= 0.5
    return out / norm


def blend(canvas: np.ndarray, color, alpha) -> np.ndarray:
    """Alpha-blend `color` (rgb or HxWx3) over canvas with alpha (scalar or HxW)."""
    a = np.asarray(alpha, dtype=np.float32)
    if a.ndim == 2:
        a = a[..., None]
    return canvas * (1 - a) + np.asarray(color, dtype=np.float32) * a


def screen(canvas: np.ndarray, color, alpha) -> np.ndarray:
    a = np.asarray(alpha, dtype=np.float32)
    if a.ndim == 2:
        a = a[..., None]
    c = np.asarray(color, dtype=np.float32) * a
    return 1 - (1 - canvas) * (1 - c)


def disc(h, w, cx, cy, r, soft=1.5) -> np.ndarray:
    ys, xs = grid(h, w)
    d = np.sqrt((xs - cx) ** 2 + (ys - cy) ** 2)
    return np.clip((r - d) / soft + 0.5, 0, 1)


def radial(h, w, cx, cy, r) -> np.ndarray:
    """1 at the centre, falling smoothly to 0 at radius r."""
    ys, xs = grid(h, w)
    d = np.sqrt((xs - cx) ** 2 + (ys - cy) ** 2) / r
    return np.clip(1 - d, 0, 1) ** 2


def blur(mask: np.ndarray, radius: float) -> np.ndarray:
    img = Image.fromarray(np.clip(mask * 255, 0, 255).astype(np.uint8), "L")
    return np.asarray(img.filter(ImageFilter.GaussianBlur(radius)), dtype=np.float32) / 255.0


def blur_rgb(canvas: np.ndarray, radius: float) -> np.ndarray:
    img = Image.fromarray(to_uint8(canvas), "RGB").filter(ImageFilter.GaussianBlur(radius))
    return np.asarray(img, dtype=np.float32) / 255.0


def stars(canvas, rng, count, region_bottom, color=(1, 1, 0.95), big_fraction=0.05):
    h, w, _ = canvas.shape
    layer = np.zeros((h, w), dtype=np.float32)
    ys = (rng.random(count) ** 1.4) * region_bottom
    xs = rng.random(count) * w
    mag = rng.random(count) ** 3
    for x, y, m in zip(xs, ys, mag, strict=True):
        xi, yi = int(x), int(y)
        if 0 <= xi < w and 0 <= yi < h:
            layer[yi, xi] = max(layer[yi, xi], 0.35 + 0.65 * m)
    glow = blur(layer, 1.2) * 2.5
    big = np.zeros((h, w), dtype=np.float32)
    for _ in range(int(count * big_fraction)):
        x, y = rng.random() * w, (rng.random() ** 1.5) * region_bottom
        big = np.maximum(big, radial(h, w, x, y, 7 + rng.random() * 6))
    # four-pointed sparkle for the biggest few
    total = np.clip(layer + glow + big, 0, 1)
    return screen(canvas, color, total)


def light_rays(h, w, cx, cy, rng, count=9, spread=1.2, strength=0.35, down=True) -> np.ndarray:
    """Soft god-rays fanning from (cx, cy). Returns an alpha mask."""
    ys, xs = grid(h, w)
    ang = np.arctan2(ys - cy, xs - cx)
    base = np.pi / 2 if down else -np.pi / 2
    mask = np.zeros((h, w), dtype=np.float32)
    for _ in range(count):
        a0 = base + (rng.random() - 0.5) * spread * 2
        width = 0.02 + rng.random() * 0.06
        d = np.abs(np.angle(np.exp(1j * (ang - a0))))
        mask = np.maximum(mask, np.clip(1 - d / width, 0, 1) * (0.4 + 0.6 * rng.random()))
    dist = np.sqrt((xs - cx) ** 2 + (ys - cy) ** 2)
    fade = np.clip(1 - dist / (1.1 * max(h, w)), 0, 1)
    return blur(mask * fade, 4) * strength


def vignette(canvas, strength=0.35):
    h, w, _ = canvas.shape
    ys, xs = grid(h, w)
    d = np.sqrt(((xs - w / 2) / (w / 2)) ** 2 + ((ys - h / 2) / (h / 2)) ** 2) / np.sqrt(2)
    return canvas * (1 - strength * smoothstep(0.45, 1.0, d))[..., None]


def grain(canvas, rng, amount=0.018):
    h, w, _ = canvas.shape
    n = rng.normal(0, amount, (h, w, 1)).astype(np.float32)
    return canvas + n


def to_uint8(canvas: np.ndarray) -> np.ndarray:
    return (np.clip(canvas, 0, 1) * 255 + 0.5).astype(np.uint8)


def paste_rgba(canvas: np.ndarray, rgba: np.ndarray, x: int, y: int, opacity: float = 1.0) -> None:
    """Paste a float RGBA array (h, w, 4) with its top-left corner at (x, y), clipped, in place."""
    H, W, _ = canvas.shape
    h, w = rgba.shape[:2]
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + w), min(H, y + h)
    if x0 >= x1 or y0 >= y1:
        return
    part = rgba[y0 - y : y1 - y, x0 - x : x1 - x]
    a = part[..., 3:4] * opacity
    canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + part[..., :3] * a


def paste_mask(canvas: np.ndarray, mask: np.ndarray, color, x: int, y: int, opacity=1.0, mode="blend"):
    H, W, _ = canvas.shape
    h, w = mask.shape[:2]
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + w), min(H, y + h)
    if x0 >= x1 or y0 >= y1:
        return
    a = mask[y0 - y : y1 - y, x0 - x : x1 - x, None] * opacity
    col = np.asarray(color, dtype=np.float32)
    region = canvas[y0:y1, x0:x1]
    if mode == "screen":
        canvas[y0:y1, x0:x1] = 1 - (1 - region) * (1 - col * a)
    else:
        canvas[y0:y1, x0:x1] = region * (1 - a) + col * a
