"""Which browser is the laptop that runs the server: proven by a secret, never by the address alone.

A forwarder on the laptop that adds no X-Forwarded-For (a bare `proxy_pass`, `ssh -L`, `socat`)
makes every phone's request come from 127.0.0.1. So "this computer" (the rooms it lists, a host
key it renews, uploads, the address picker, Statistics) needs both a loopback address (`gate.where`)
and the laptop's cookie, whose value is a key kept in the database. The start command opens the
browser at a `one_time_link` and prints another: each carries a ticket that works once, for ten
minutes, and `pages.guard` swaps it for the cookie and takes it off the address. Running the start
command again makes new ones. `rotate` renews the key: every other browser is signed out.

Nothing here imports Streamlit.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time

COOKIE = "sobremesa_laptop"
PARAMETER = "laptop"  # the query parameter that carries a one-time link's ticket to the guard
LINK_SECONDS = 10 * 60  # a start command's link works once, within ten minutes
KEY_SECONDS = 1.0  # how long a process trusts the key it read (a rotation elsewhere is seen by then)
_lock = threading.Lock()
_keys: dict[str, tuple[str, float]] = {}  # database URL -> (the laptop's key, read at)


def _store():
    from engine.store import store as opened

    return opened()


def key() -> str:
    """The laptop's key, the cookie's value: made once by whichever process asks first, kept in the
    database so every process serving it (and a restart) agrees, and read again every few seconds
    (the laptop may have renewed it: `rotate`)."""
    from engine import paths

    url = paths.database_url()
    with _lock:
        found = _keys.get(url)
        if found is not None and time.monotonic() - found[1] < KEY_SECONDS:
            return found[0]
        store = _store()
        with store.transaction() as conn:
            value = store.first_setting(conn, "laptop_key", secrets.token_urlsafe(24))
        _keys[url] = (value, time.monotonic())
        return value


def proves(value) -> bool:
    """Whether a cookie's value is the laptop's key."""
    if not isinstance(value, str) or not value:
        return False
    try:
        return hmac.compare_digest(value.encode(), key().encode())
    except Exception:  # the database cannot be read: nothing is proven
        return False


def _hash(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


def one_time_link(base: str, seconds: float = LINK_SECONDS) -> str:
    """The start page's address that makes the browser opening it this computer's: it works once,
    for `seconds`, and carries a ticket, never the key (a link in a terminal or on a browser's
    command line is read by others; the cookie the guard swaps it for is HttpOnly)."""
    ticket = secrets.token_urlsafe(18)
    until = time.time() + seconds
    store = _store()
    with store.transaction() as conn:
        kept = json.loads(store.first_setting(conn, "laptop_links", "{}"))
        kept = {h: t for h, t in kept.items() if t > time.time()}  # spent or expired ones go
        kept[_hash(ticket)] = until
        store.set_setting(conn, "laptop_links", json.dumps(kept))
    return f"{base.rstrip('/')}/?{PARAMETER}={ticket}"


def redeem(ticket) -> bool:
    """Whether `ticket` is a link's, still valid; it is spent either way."""
    if not isinstance(ticket, str) or not 0 < len(ticket) <= 64:
        return False
    try:
        store = _store()
        with store.transaction() as conn:
            kept = json.loads(store.first_setting(conn, "laptop_links", "{}"))
            until = kept.pop(_hash(ticket), None)
            if until is None:
                return False
            store.set_setting(conn, "laptop_links", json.dumps(kept))
        return until > time.time()
    except Exception:  # the database cannot be read: nothing is proven
        return False


def rotate() -> str:
    """A new key: every browser that held the old one is no longer this computer's (the start
    page's "Sign out every other browser"). Returns the new key."""
    from engine import paths

    store = _store()
    with store.transaction() as conn:
        store.set_setting(conn, "laptop_key", secrets.token_urlsafe(24))
    with _lock:
        _keys.pop(paths.database_url(), None)
    return key()
