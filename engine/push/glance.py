"""Which parts of a view a phone's screen read, and a signature of them: a move that leaves them as
they were need not rerun that phone.

A screen renders from its view alone (plus its own tab's state). `Watched` hands the screen the
view and notes every field it reads; `sign` makes an HMAC of those fields' values. The page tells
its push socket which fields it read (`engine.push.live`); on each new version the server signs the
same fields of the seat's new view and sends the signature along. When the two match, what the
screen would draw is what it shows, and the tab only moves its version on, without a Streamlit
rerun. Anything else (a field read some other way, a new token for the seat, another set of
fields) makes the signatures differ, and the tab reruns as before.

The signature is keyed with the server's secret, so it tells the tab nothing about the view it
did not already show. Nothing here imports Streamlit.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator, Mapping
from typing import Any

from engine import gate

MAX_KEYS = 64  # fields a socket may name; a view has about thirty
KEY_MAX = 40
UNWATCHED = frozenset({"version"})  # moves on with every move; the tab sets it itself
ALL = "*"  # the screen read the view as a whole: every field counts


class Watched(Mapping):
    """A view (read-only) that remembers which of its fields were read. Anything that walks the
    whole view (iteration, `dict(view)`, `{**view}`) counts as reading every field. Not a dict on
    purpose: a path that would read the dict without asking (json, `dict.copy`) fails loudly."""

    __slots__ = ("_view", "_read")

    def __init__(self, view: dict) -> None:
        self._view = view
        self._read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self._read.add(key)
        return self._view[key]

    def __contains__(self, key: object) -> bool:
        self._read.add(key)  # type: ignore[arg-type]
        return key in self._view

    def get(self, key: str, default: Any = None) -> Any:
        self._read.add(key)
        return self._view.get(key, default)

    def peek(self, key: str, default: Any = None) -> Any:
        """A field read without watching it: one that changes only by this screen's own doing, whose
        every change already reruns it (Pictomania's pad reading its own strokes)."""
        return self._view.get(key, default)

    def __iter__(self) -> Iterator[str]:
        self._read.add(ALL)
        return iter(self._view)

    def __len__(self) -> int:
        self._read.add(ALL)
        return len(self._view)

    def keys(self):  # noqa: D102 - Mapping's, counted as reading everything
        self._read.add(ALL)
        return self._view.keys()

    def unwatched(self) -> dict:
        """The view itself, for a live spot (engine.push.spots): what a spot reads is drawn again by
        every push, so it is no part of what the screen's signature covers."""
        return self._view

    def read(self) -> list[str]:
        """The fields read so far, sorted; ["*"] when the whole view was."""
        if ALL in self._read:
            return [ALL]
        return sorted(k for k in self._read if isinstance(k, str) and k not in UNWATCHED)


def valid_keys(keys: object) -> list[str] | None:
    """A socket's list of fields, or None when it is not one (too long, not short strings)."""
    if not isinstance(keys, list) or len(keys) > MAX_KEYS:
        return None
    if not all(isinstance(k, str) and 0 < len(k) <= KEY_MAX for k in keys):
        return None
    return sorted(set(keys))


def sign(code: str, seat: int, token_hash: str, keys: list[str], view: dict) -> str:
    """The signature of `keys` of `view` for this seat and token (the token's hash, as stored)."""
    shown = dict(view) if ALL in keys else {k: view[k] for k in keys if k in view and k not in UNWATCHED}
    shown.pop("version", None)
    text = json.dumps(
        [code, seat, token_hash, sorted(keys), shown],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    digest = hmac.new(gate.secret(), b"glance|" + text.encode("utf-8", "surrogatepass"), hashlib.sha256)
    return digest.hexdigest()[:32]
