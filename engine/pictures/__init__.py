"""Picture decks for Dixit-style games.

The built-in deck "dreams" ships as finished JPEGs in data/pictures/dreams/ (painted by
`engine.pictures.paint`). Hosts can upload decks of their own (`import_deck`); those live in the
store, so every server process sharing it serves them (`card_image`).

Card ids are strings: "dream-001" .. for the built-in deck, "<deck-slug>/001" .. for uploads.
"""

from __future__ import annotations

import io
import json
import re
from functools import lru_cache
from pathlib import Path

from PIL import Image

from .errors import CardNotFound, DeckNotFound, DeckRejected
from .upload import CARD_SIZE, card_jpeg, delete_deck, import_deck, read_manifest, slugify, uploaded_deck_slugs

__all__ = [
    "DEFAULT_DECK",
    "CARD_SIZE",
    "BUILTIN_DIR",
    "CardNotFound",
    "DeckNotFound",
    "DeckRejected",
    "deck_names",
    "deck_cards",
    "card_path",
    "card_image",
    "card_words",
    "builtin_words",
    "import_deck",
    "delete_deck",
    "contact_sheet",
]

DEFAULT_DECK = "dreams"
BUILTIN_DIR = Path(__file__).resolve().parents[2] / "data" / "pictures" / "dreams"
_BUILTIN_ID = re.compile(r"dream-\d{3}")
_UPLOAD_ID = re.compile(r"([a-z0-9][a-z0-9_-]{0,39})/(\d{3,4})")


@lru_cache(maxsize=1)
def builtin_words() -> dict[str, dict]:
    """The built-in deck's descriptions as data/pictures/dreams/cards.json holds them, by card id
    (motifs, mood, colours, setting, title): what the Dixit family's computer players read."""
    path = BUILTIN_DIR / "cards.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def deck_names() -> list[str]:
    """ "dreams" first, then the uploaded decks' names, sorted case-insensitively."""
    names = []
    for slug in uploaded_deck_slugs():
        manifest = read_manifest(slug)
        if manifest:
            names.append(manifest.get("name") or slug)
    return [DEFAULT_DECK] + sorted(names, key=str.casefold)


def deck_cards(name: str = DEFAULT_DECK) -> list[str]:
    """Card ids of a deck, sorted. `name` is the deck's name (or its slug)."""
    if name is None:
        raise DeckNotFound(name)
    if slugify(str(name)) == DEFAULT_DECK:
        return sorted(builtin_words())
    manifest = read_manifest(slugify(str(name)))
    if manifest is None:
        raise DeckNotFound(name)
    return sorted(manifest["cards"])


def card_path(card_id: str) -> Path:
    """The image file of a built-in card (JPEG, portrait 2:3); uploaded cards are in the store."""
    card_id = str(card_id)
    path = BUILTIN_DIR / f"{card_id}.jpg"
    if not _BUILTIN_ID.fullmatch(card_id) or not path.is_file():
        raise CardNotFound(card_id)
    return path


def card_image(card_id: str) -> Path | bytes:
    """A card's picture (JPEG): a built-in card's file, or an uploaded card's bytes from the store."""
    card_id = str(card_id)
    if _BUILTIN_ID.fullmatch(card_id):
        return card_path(card_id)
    if not _UPLOAD_ID.fullmatch(card_id):
        raise CardNotFound(card_id)
    jpeg = card_jpeg(card_id)
    if jpeg is None:
        raise CardNotFound(card_id)
    return jpeg


def card_words(card_id: str) -> dict:
    """{"motifs": [...], "mood": str, "colours": [...], "title": str} describing the card."""
    card_id = str(card_id)
    if _BUILTIN_ID.fullmatch(card_id):
        words = builtin_words().get(card_id)
        if words is None:
            raise CardNotFound(card_id)
        return {
            "motifs": list(words["motifs"]),
            "mood": words["mood"],
            "colours": list(words["colours"]),
            "title": words["title"],
        }
    m = _UPLOAD_ID.fullmatch(card_id)
    manifest = read_manifest(m.group(1)) if m else None
    if not manifest or card_id not in manifest["cards"]:
        raise CardNotFound(card_id)
    info = manifest["cards"][card_id]
    return {"motifs": [], "mood": "", "colours": list(info.get("colours", [])), "title": info.get("title", "")}


def contact_sheet(name: str = DEFAULT_DECK, columns: int = 10, thumb_width: int = 120) -> Image.Image:
    """A grid of every card of the deck (for a quick look, docs and tests)."""
    cards = deck_cards(name)
    columns = max(1, min(columns, len(cards) or 1))
    tw = max(8, int(thumb_width))
    th = round(tw * CARD_SIZE[1] / CARD_SIZE[0])
    gap = max(2, tw // 30)
    rows = max(1, -(-len(cards) // columns))
    sheet = Image.new("RGB", (columns * (tw + gap) + gap, rows * (th + gap) + gap), (18, 18, 22))
    for i, card in enumerate(cards):
        picture = card_image(card)
        with Image.open(picture if isinstance(picture, Path) else io.BytesIO(picture)) as im:
            thumb = im.convert("RGB").resize((tw, th), Image.Resampling.LANCZOS)
        sheet.paste(thumb, (gap + (i % columns) * (tw + gap), gap + (i // columns) * (th + gap)))
    return sheet
