"""Which fields of a view a screen read: a screen is a function of what it read, so when none of
those fields changed, neither did the screen.

The stage's server draws each screen from a `Reading` of its viewer's view and keys the screen by
the fields it read (pages/stage/serve.py). A page's own Streamlit part (the host's controls, the
drawing pad, a phone waiting for the host) reads its view the same way; the page tells its stage
socket which fields those were, and the socket says with every screen what they are now
(`page_key`): when they changed, the page reruns (pages/assets/stage.js). No Streamlit here.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

ALL = "*"  # the whole view was read: every field counts
UNWATCHED = frozenset({"version"})  # moves on with every move: never a reason to rerun a page
FIELDS_MOST, FIELD_LENGTH = 64, 40  # what a socket's hello may name


class Reading(dict):
    """A view that notes which of its fields are read (a template's `view.x`, a screen's
    `view["x"]` or `.get("x")`); walking it whole counts as reading all of it."""

    def __init__(self, view: dict) -> None:
        super().__init__(view)
        self.read: set[str] = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key) -> bool:
        self.read.add(key)
        return super().__contains__(key)

    def __iter__(self):
        self.read.add(ALL)
        return super().__iter__()

    def keys(self):
        self.read.add(ALL)
        return super().keys()

    def items(self):
        self.read.add(ALL)
        return super().items()

    def values(self):
        self.read.add(ALL)
        return super().values()

    def peek(self, key, default=None):
        """A field read without noting it: one that changes only by this screen's own doing, whose
        every change already reruns it (Pictomania's pad reading its own strokes)."""
        return super().get(key, default)

    def fields(self) -> tuple[str, ...]:
        """The fields read so far, sorted; ("*",) when the whole view was."""
        if ALL in self.read:
            return (ALL,)
        return tuple(sorted(k for k in self.read if isinstance(k, str) and k not in UNWATCHED))


def valid_fields(fields: object) -> tuple[str, ...] | None:
    """A hello's list of fields, or None when it is not one (too long, not short strings)."""
    if not isinstance(fields, list) or len(fields) > FIELDS_MOST:
        return None
    if not all(isinstance(f, str) and 0 < len(f) <= FIELD_LENGTH for f in fields):
        return None
    return tuple(sorted(set(fields)))


def page_key(view: dict, fields: tuple[str, ...]) -> str:
    """What the fields of `view` a page read are now, as a short key: the page drew with one, the
    socket tells the current one, and a page whose key moved reruns. Of the viewer's own view, so it
    tells the viewer nothing it may not see."""
    if ALL in fields:
        shown = {k: v for k, v in view.items() if k not in UNWATCHED}
    else:  # "version" counts when a page names it: a phone waiting for the host reruns at each one
        shown = {f: view.get(f) for f in fields}
    text = json.dumps(shown, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


_KEPT_MOST, _TRIED = 512, 3
_kept: dict[str, object] = {}
_kept_reads: dict[str, list[tuple[str, ...]]] = {}
_kept_guard = threading.Lock()
_MISSING = object()


def kept(name: str, view: dict, key: tuple, compute: Callable[[dict], T]) -> T:
    """`compute(view)`, worked out once per `key` and the values of the view's fields it reads,
    and shared by every screen whose are the same (a finished turn's reveal, the same for every
    phone of a room, was worked out at each of their draws). The fields are noted on `view` as if
    `compute` had read them, so a screen's key still holds them. What it returns is shared: never
    change it. Whatever `compute` reads other than the view goes in `key` (its repr is compared)."""
    shown = repr(key)
    with _kept_guard:
        known = list(_kept_reads.get(name, ())[:_TRIED])
    for names in known:
        found = _kept.get(_kept_key(name, shown, names, view), _MISSING)
        if found is not _MISSING:
            _note(view, names)
            return found  # type: ignore[return-value]
    probe = Reading(dict(dict.items(view)))
    found = compute(probe)
    names = tuple(sorted(k for k in probe.read if isinstance(k, str)))
    _note(view, names)
    if ALL in probe.read:  # it walked the whole view: not kept
        return found
    with _kept_guard:
        kept_at_most(_kept, _kept_key(name, shown, names, view), found, _KEPT_MOST)
        latest_first(_kept_reads.setdefault(name, []), names, _TRIED)
    return found


def kept_at_most(kept: dict, key, value, most: int) -> None:
    """`kept[key] = value`, the oldest entries dropped past `most` (a dict keeps its order)."""
    kept[key] = value
    while len(kept) > most:
        kept.pop(next(iter(kept)))


def latest_first(sets: list, names: tuple, most: int) -> None:
    """`names` moved to the front of the sets of inputs remembered, at most `most` of them."""
    if names in sets:
        sets.remove(names)
    sets.insert(0, names)
    del sets[most:]


def _kept_key(name: str, shown: str, names: tuple[str, ...], view: dict) -> str:
    values = repr([dict.get(view, n, _MISSING) for n in names])
    text = "\x1f".join((name, shown, *names, values))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _note(view: dict, names: tuple[str, ...]) -> None:
    read = getattr(view, "read", None)
    if isinstance(read, set):
        read.update(names)
