"""Decks of your own: validate, normalise and store uploaded pictures.

Everything is checked and converted in memory first; the deck is written only once the whole
upload is accepted, into the store in one transaction (so every server process sharing it serves
the deck, and a refused or failed upload never leaves anything behind). Decks an older version kept
in the data directory (decks/<slug>/) are moved into the store the first time decks are listed.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import time
import unicodedata
import warnings
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any

from PIL import Image, ImageFilter, ImageOps

from .colours import dominant_colours
from .errors import DeckRejected

CARD_SIZE = (480, 720)  # portrait 2:3, like the built-in deck
MAX_FILE_BYTES = 15 * 1024 * 1024  # one picture
MAX_TOTAL_BYTES = 120 * 1024 * 1024  # all pictures, unpacked
MAX_UPLOAD_BYTES = 120 * 1024 * 1024  # what arrives (zips included)
MAX_PIXELS = 25_000_000  # one picture: a 24-megapixel camera's (6000 x 4000); no bombs
MAX_UPLOAD_PIXELS = 2_000_000_000  # all pictures of one upload, counted from their headers
MAX_SECONDS = 90  # converting one upload; past it the upload is refused whole
MIN_SIDE = 64  # smaller than this is not a usable card
MAX_ZIP_ENTRIES = 1000
MAX_CARDS = 500
ALLOWED_FORMATS = ("JPEG", "PNG", "WEBP", "GIF", "BMP")
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp"}
RESERVED = {"dreams"}
_NAME_OK = re.compile(r"[A-Za-z0-9 _-]{1,40}")
_SLUG_OK = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


def _mb(n: int) -> str:
    return f"{n / 1024 / 1024:.0f} MB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KB"


def decks_root() -> Path:
    """Where an older version kept uploaded decks (moved into the store when first seen)."""
    from engine.paths import data_dir

    return data_dir() / "decks"


def slugify(name: str) -> str:
    s = re.sub(r"[\s_]+", "-", str(name).strip().lower())
    s = re.sub(r"[^a-z0-9-]", "", s)
    return re.sub(r"-{2,}", "-", s).strip("-")


def _store():
    from engine.store import store as opened

    store = opened()
    root = decks_root()
    if root.is_dir():
        _move_in(store, root)
    return store


def _move_in(store, root: Path) -> None:
    """Decks kept as files by an older version, into the store (the same card ids)."""
    kept = store.deck_manifests()
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and _SLUG_OK.fullmatch(p.name)):
        try:
            manifest = json.loads((folder / "deck.json").read_text(encoding="utf-8"))
            if folder.name not in kept:
                cards = {card: (folder / info["file"]).read_bytes() for card, info in manifest["cards"].items()}
                with store.transaction() as conn:
                    store.keep_deck(conn, folder.name, manifest, cards)
            shutil.rmtree(folder)
        except (OSError, ValueError, KeyError):
            continue


def uploaded_deck_slugs() -> list[str]:
    return sorted(_store().deck_manifests())


def read_manifest(slug: str) -> dict | None:
    if not _SLUG_OK.fullmatch(slug or ""):
        return None
    return _store().deck_manifests().get(slug)


def card_jpeg(card_id: str) -> bytes | None:
    """An uploaded card's picture (JPEG), from the store."""
    return _store().deck_card(card_id)


def delete_deck(name: str) -> None:
    """Remove an uploaded deck (the built-in deck cannot be deleted)."""
    from .errors import DeckNotFound

    slug = slugify(name)
    if slug in RESERVED:
        raise DeckRejected("The built-in deck cannot be deleted.")
    if read_manifest(slug) is None:
        raise DeckNotFound(name)
    store = _store()
    with store.transaction() as conn:
        store.drop_deck(conn, slug)


# --------------------------------------------------------------------------- validation
def check_name(name: str) -> tuple[str, str]:
    """Returns (display name, slug) or raises DeckRejected."""
    display = " ".join(str(name or "").split())
    if not display:
        raise DeckRejected("Please give the deck a name.")
    if not _NAME_OK.fullmatch(display):
        if len(display) > 40:
            raise DeckRejected(
                "The deck name is {count} characters long; please keep it to 40 or fewer.", count=len(display)
            )
        raise DeckRejected(
            "A deck name may only use letters, digits, spaces, '-' and '_' (the name "
            "'{display}' has other characters).",
            display=display,
        )
    slug = slugify(display)
    if not slug or not _SLUG_OK.fullmatch(slug):
        raise DeckRejected("The deck name '{display}' needs at least one letter or digit.", display=display)
    if slug in RESERVED:
        raise DeckRejected(
            "The name '{display}' is taken by the built-in deck; please choose another.", display=display
        )
    if read_manifest(slug) is not None:
        raise DeckRejected(
            "There is already a deck called '{display}'. Choose another name, or delete the old deck first.",
            display=display,
        )
    return display, slug


def _safe_member(name: str) -> bool:
    if not name or "\x00" in name or name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
        return False
    parts = re.split(r"[\\/]+", name)
    return ".." not in parts


def _is_junk(name: str) -> bool:
    """Files that zip tools add by themselves (macOS resource forks, thumbnails)."""
    parts = [p for p in re.split(r"[\\/]+", name) if p]
    return (
        not parts
        or parts[0] == "__MACOSX"
        or any(p.startswith(".") for p in parts)
        or parts[-1].lower() in ("thumbs.db", "desktop.ini")
    )


def _looks_like_zip(data: bytes) -> bool:
    return data[:4] in (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")


def _unpack_zip(label: str, data: bytes, budget: list[int]) -> list[tuple[str, bytes]]:
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise DeckRejected("'{label}' is not a readable zip file (it may be damaged).", label=label) from None
    if len(infos) > MAX_ZIP_ENTRIES:
        raise DeckRejected(
            "'{label}' contains {count} entries; at most {most} are allowed.",
            label=label,
            count=len(infos),
            most=MAX_ZIP_ENTRIES,
        )
    out = []
    for info in infos:
        name = info.filename
        if not _safe_member(name):
            raise DeckRejected(
                "'{label}' contains a file with an unsafe path ('{name}'); it was refused.", label=label, name=name
            )
        if info.is_dir() or _is_junk(name):
            continue
        mode = (info.external_attr >> 16) & 0o170000
        if mode == 0o120000:
            raise DeckRejected("'{label}' contains a link ('{name}') instead of a picture.", label=label, name=name)
        if info.flag_bits & 0x1:
            raise DeckRejected(
                "'{label}' is password-protected ('{name}'); please upload an unlocked zip.", label=label, name=name
            )
        if name.lower().endswith((".zip", ".jar", ".7z", ".rar", ".tar", ".gz")):
            raise DeckRejected(
                "'{name}' in '{label}' is an archive inside an archive; please put the pictures directly into one zip.",
                name=name,
                label=label,
            )
        if info.file_size > MAX_FILE_BYTES:
            raise DeckRejected(
                "'{name}' in '{label}' would unpack to {size}; each picture may be at most {size2}.",
                name=name,
                label=label,
                size=_mb(info.file_size),
                size2=_mb(MAX_FILE_BYTES),
            )
        try:
            with zf.open(info) as fh:  # never trust the declared size: read at most the limit + 1
                blob = fh.read(MAX_FILE_BYTES + 1)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
            raise DeckRejected(
                "'{name}' in '{label}' could not be unpacked (the zip may be damaged).", name=name, label=label
            ) from None
        if len(blob) > MAX_FILE_BYTES:
            raise DeckRejected(
                "'{name}' in '{label}' unpacks to more than {size}; each picture may be at most {size}.",
                name=name,
                label=label,
                size=_mb(MAX_FILE_BYTES),
            )
        budget[0] += len(blob)
        if budget[0] > MAX_TOTAL_BYTES:
            raise DeckRejected(
                "The pictures add up to more than {size} once unpacked; please upload fewer or smaller pictures.",
                size=_mb(MAX_TOTAL_BYTES),
            )
        if _looks_like_zip(blob):
            raise DeckRejected(
                "'{name}' in '{label}' is a zip inside a zip; please put the pictures directly into one zip.",
                name=name,
                label=label,
            )
        out.append((name, blob))
    return out


def _size(label: str, data: bytes) -> int:
    """A picture's pixel count from its header alone: nothing is decoded yet."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=ALLOWED_FORMATS) as im:
                w, h = im.size
    except Exception:  # unreadable: _open_image says so with the picture's name
        return 0
    if w * h > MAX_PIXELS:
        raise DeckRejected(
            "'{label}' is {w} x {h} pixels, which is too large (at most {most} megapixels). Please make it smaller.",
            label=label,
            w=w,
            h=h,
            most=MAX_PIXELS // 1000000,
        )
    return w * h


def _open_image(label: str, data: bytes) -> Image.Image:
    """Decode safely: header first (pixel count), then the pixels. Returns an RGB image."""
    if len(data) > MAX_FILE_BYTES:
        raise DeckRejected(
            "'{label}' is {size}; each picture may be at most {size2}.",
            label=label,
            size=_mb(len(data)),
            size2=_mb(MAX_FILE_BYTES),
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im: Image.Image = Image.open(io.BytesIO(data), formats=ALLOWED_FORMATS)
            w, h = im.size
            if w * h > MAX_PIXELS:
                raise DeckRejected(
                    "'{label}' claims to be {w} x {h} pixels, which is far too large (at most {most} megapixels).",
                    label=label,
                    w=w,
                    h=h,
                    most=MAX_PIXELS // 1000000,
                )
            if min(w, h) < MIN_SIDE:
                raise DeckRejected(
                    "'{label}' is only {w} x {h} pixels; pictures need at least {least} pixels on each side.",
                    label=label,
                    w=w,
                    h=h,
                    least=MIN_SIDE,
                )
            im.seek(0)
            # A JPEG decodes straight to a smaller size (1/2 .. 1/8) still larger than the card.
            im.draft("RGB", (CARD_SIZE[0] * 2, CARD_SIZE[1] * 2))
            im.load()
            factor = min(im.size) // (2 * max(CARD_SIZE))
            if factor > 1 and im.mode in ("L", "LA", "RGB", "RGBA", "RGBX", "CMYK"):
                im = im.reduce(factor)  # shrink before any copy in another mode
            im = ImageOps.exif_transpose(im)
    except DeckRejected:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise DeckRejected(
            "'{label}' claims a picture size far too large (at most {most} megapixels).",
            label=label,
            most=MAX_PIXELS // 1000000,
        ) from None
    except Exception:  # PIL raises many kinds for broken data; none of them may escape as a crash
        raise DeckRejected(
            "'{label}' is not a picture we can read. Please use JPEG, PNG, WebP, GIF or BMP images.", label=label
        ) from None
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        rgba = im.convert("RGBA")
        bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        im = Image.alpha_composite(bg, rgba)
    return im.convert("RGB")


def fit_card(im: Image.Image, size: tuple[int, int] = CARD_SIZE) -> Image.Image:
    """Fit to the card size: crop when little is lost, otherwise letterbox on a blurred backdrop."""
    tw, th = size
    w, h = im.size
    target = tw / th
    ratio = w / h
    kept = min(ratio, target) / max(ratio, target)  # share of the picture a crop would keep
    if kept >= 0.8:
        return ImageOps.fit(im, size, Image.Resampling.LANCZOS, centering=(0.5, 0.45))
    backdrop = ImageOps.fit(im, (tw // 4, th // 4), Image.Resampling.BILINEAR).filter(ImageFilter.GaussianBlur(6))
    backdrop = backdrop.resize(size, Image.Resampling.BILINEAR).point(lambda v: int(v * 0.55))
    inner = ImageOps.contain(im, size, Image.Resampling.LANCZOS)
    backdrop.paste(inner, ((tw - inner.width) // 2, (th - inner.height) // 2))
    return backdrop


def _natural_key(name: str):
    return [int(t) if t.isdigit() else t.casefold() for t in re.split(r"(\d+)", name)]


def _title_from(name: str) -> str:
    stem = PurePosixPath(name.replace("\\", "/")).stem
    stem = unicodedata.normalize("NFC", stem)
    stem = "".join(ch for ch in stem if ch.isprintable()).strip()
    return stem[:80]


def import_deck(name: str, files: list[tuple[str, bytes]], min_cards: int = 0, progress=None) -> list[str]:
    """Validate and store an uploaded deck; returns the new card ids ("<slug>/001", ...).

    `files` is a list of (file name, bytes); a zip arrives as one item. Raises DeckRejected with a
    human reason on any problem, in which case nothing is written. A name already in use is refused
    (delete the old deck first with `delete_deck`). `progress(done, total)` is called as pictures
    are converted. What one upload may cost is bounded: pixels per picture and in all (from the
    headers, before anything is decoded) and the time converting takes."""
    display, slug = check_name(name)
    if not files:
        raise DeckRejected("No files were uploaded.")
    arrived = sum(len(b or b"") for _, b in files)
    if arrived > MAX_UPLOAD_BYTES:
        raise DeckRejected(
            "The upload is {size}; at most {size2} is allowed.", size=_mb(arrived), size2=_mb(MAX_UPLOAD_BYTES)
        )
    budget = [0]
    pictures: list[tuple[str, bytes]] = []
    for raw_name, data in files:
        label = PurePosixPath(str(raw_name or "unnamed").replace("\\", "/")).name or "unnamed"
        data = bytes(data or b"")
        if not data:
            raise DeckRejected("'{label}' is empty.", label=label)
        if _looks_like_zip(data) or label.lower().endswith(".zip"):
            pictures += _unpack_zip(label, data, budget)
        else:
            if len(data) > MAX_FILE_BYTES:
                raise DeckRejected(
                    "'{label}' is {size}; each picture may be at most {size2}.",
                    label=label,
                    size=_mb(len(data)),
                    size2=_mb(MAX_FILE_BYTES),
                )
            budget[0] += len(data)
            if budget[0] > MAX_TOTAL_BYTES:
                raise DeckRejected(
                    "The pictures add up to more than {size}; please upload fewer or smaller pictures.",
                    size=_mb(MAX_TOTAL_BYTES),
                )
            pictures.append((label, data))
        if len(pictures) > MAX_CARDS:
            raise DeckRejected("That is more than {most} pictures; please upload at most {most}.", most=MAX_CARDS)
    if not pictures:
        raise DeckRejected("No pictures were found in the upload.")
    if len(pictures) < min_cards:
        raise DeckRejected(
            "The deck has {count} pictures, but at least {min_cards} are needed for this game.",
            count=len(pictures),
            min_cards=min_cards,
        )
    pictures.sort(key=lambda p: _natural_key(p[0]))
    pixels = sum(_size(PurePosixPath(n.replace("\\", "/")).name, d) for n, d in pictures)
    if pixels > MAX_UPLOAD_PIXELS:
        raise DeckRejected(
            "These pictures have {pixels:,} megapixels in all; one upload may have at most "
            "{most:,}. Please upload fewer or smaller pictures.",
            pixels=pixels // 1000000,
            most=MAX_UPLOAD_PIXELS // 1000000,
        )
    started = time.monotonic()
    seen: dict[str, str] = {}
    cards = []
    for done, (pic_name, data) in enumerate(pictures):
        if time.monotonic() - started > MAX_SECONDS:
            raise DeckRejected(
                "Converting these pictures took more than {seconds} seconds, so the deck was "
                "not added. Please upload fewer or smaller pictures.",
                seconds=MAX_SECONDS,
            )
        if progress is not None:
            progress(done, len(pictures))
        label = PurePosixPath(pic_name.replace("\\", "/")).name
        digest = hashlib.sha256(data).hexdigest()
        if digest in seen:
            raise DeckRejected(
                "'{label}' is the same picture as '{other}'; every card must be different.",
                label=label,
                other=seen[digest],
            )
        seen[digest] = label
        im = _open_image(label, data)
        card = fit_card(im)
        buf = io.BytesIO()
        card.save(buf, "JPEG", quality=86, optimize=True)  # always re-encoded
        cards.append((_title_from(pic_name), buf.getvalue(), dominant_colours(card)))
    if progress is not None:
        progress(len(pictures), len(pictures))

    # ---- accepted: written whole, in one transaction
    ids = [f"{slug}/{i:03d}" for i in range(1, len(cards) + 1)]
    manifest: dict[str, Any] = {"name": display, "slug": slug, "created": int(time.time()), "cards": {}}
    for card_id, (title, _jpeg, colours) in zip(ids, cards, strict=True):
        manifest["cards"][card_id] = {"file": f"{card_id.split('/')[1]}.jpg", "title": title, "colours": colours}
    store = _store()
    with store.transaction() as conn:
        if not store.keep_deck(
            conn, slug, manifest, {card_id: jpeg for card_id, (_t, jpeg, _c) in zip(ids, cards, strict=True)}
        ):
            raise DeckRejected("There is already a deck called '{display}'. Choose another name.", display=display)
    return ids
