"""Name the dominant colours of a picture with plain words ("indigo", "gold", ...)."""

from __future__ import annotations

import colorsys

import numpy as np
from PIL import Image

# plain colour words a player would use
NAMED = {
    "black": "#0a0a0c",
    "charcoal": "#33343a",
    "grey": "#8a8d93",
    "silver": "#c4c8d0",
    "white": "#f6f6f4",
    "cream": "#f3e6c4",
    "beige": "#d2b894",
    "red": "#c0272d",
    "crimson": "#7a1028",
    "maroon": "#45101a",
    "pink": "#f08cb0",
    "rose": "#c77d9c",
    "orange": "#eb7a23",
    "peach": "#f7bc94",
    "brown": "#6b3d1f",
    "copper": "#a9532a",
    "gold": "#e3b13c",
    "yellow": "#f5dc3a",
    "olive": "#6f6a2a",
    "green": "#3f9a44",
    "mint": "#a6e3c4",
    "emerald": "#0f6b4e",
    "forest green": "#0e3325",
    "teal": "#1e8a8a",
    "turquoise": "#4cc9c0",
    "sky blue": "#8cc4ec",
    "blue": "#2f6fd0",
    "navy": "#0e1a44",
    "indigo": "#2e2f7a",
    "violet": "#6b3fa0",
    "lilac": "#b89ad8",
    "purple": "#4a1e5a",
    "plum": "#2a1030",
}
_NAMES = list(NAMED)
_RGB = np.array([[int(v[i : i + 2], 16) for i in (1, 3, 5)] for v in NAMED.values()], dtype=np.float32)


def _to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB 0..255 -> CIE Lab (D65), vectorised."""
    c = rgb / 255.0
    c = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]], dtype=np.float32)
    xyz = c @ m.T / np.array([0.9505, 1.0, 1.089], dtype=np.float32)
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


_LAB = _to_lab(_RGB)


def dominant_colours(img: Image.Image, top: int = 3, min_share: float = 0.07) -> list[str]:
    """Up to `top` colour names covering at least `min_share` of the picture each, most common first."""
    small = np.asarray(img.convert("RGB").resize((40, 60), Image.Resampling.BILINEAR), dtype=np.float32).reshape(-1, 3)
    lab = _to_lab(small)
    d = ((lab[:, None, :] - _LAB[None, :, :]) ** 2).sum(axis=2)
    idx = d.argmin(axis=1)
    counts = np.bincount(idx, minlength=len(_NAMES)) / len(idx)
    order = np.argsort(-counts)
    names = [_NAMES[i] for i in order[:top] if counts[i] >= min_share]
    if not names:
        names = [_NAMES[order[0]]]
    # add the most vivid accent if the picture has one and it is not named yet
    hsv = np.array([colorsys.rgb_to_hsv(*(p / 255)) for p in small[::7]])
    vivid = small[::7][(hsv[:, 1] > 0.55) & (hsv[:, 2] > 0.55)]
    if len(vivid) >= 4 and len(names) < top + 1:
        vl = _to_lab(vivid)
        vi = ((vl[:, None, :] - _LAB[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
        accent = _NAMES[int(np.bincount(vi, minlength=len(_NAMES)).argmax())]
        if accent not in names:
            names.append(accent)
    return names
