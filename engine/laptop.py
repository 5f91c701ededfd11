"""Which browser is the laptop that runs the server: proven by a secret, never by the address alone.

A forwarder on the laptop that adds no X-Forwarded-For (a bare `proxy_pass`, `ssh -L`, `socat`)
makes every phone's request come from 127.0.0.1. So "this computer" (the rooms it lists, a host
key it renews, uploads, the address picker, Statistics) needs both a loopback address (`gate.where`)
and the laptop's cookie, whose value is a key kept in the database. The start command opens the
browser at `adopt_link`, which carries the key once: `pages.guard` swaps it for the cookie and
takes it off the address. Any other browser on the laptop is adopted by opening that link, which
only the laptop's terminal prints.

Nothing here imports Streamlit.
"""

from __future__ import annotations

import hmac
import secrets
import threading

COOKIE = "sobremesa_laptop"
PARAMETER = "laptop"  # the query parameter that carries the key to the guard, once
_lock = threading.Lock()
_keys: dict[str, str] = {}  # database URL -> the laptop's key


def key() -> str:
    """The laptop's key: made once by whichever process asks first, kept in the database so every
    process serving it (and a restart) agrees."""
    from engine import paths
    from engine.store import store as opened

    url = paths.database_url()
    with _lock:
        found = _keys.get(url)
        if found is None:
            store = opened()
            with store.transaction() as conn:
                found = _keys[url] = store.first_setting(conn, "laptop_key", secrets.token_urlsafe(24))
        return found


def proves(value) -> bool:
    """Whether a cookie's (or a link's) value is the laptop's key."""
    if not isinstance(value, str) or not value:
        return False
    try:
        return hmac.compare_digest(value.encode(), key().encode())
    except Exception:  # the database cannot be read: nothing is proven
        return False


def adopt_link(base: str) -> str:
    """The start page's address that makes the browser opening it this computer's."""
    return f"{base.rstrip('/')}/?{PARAMETER}={key()}"
