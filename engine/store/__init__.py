"""Persistence behind one small interface, chosen by URL (`engine.paths.database_url`).

`sqlite:///path/file.db` is the default and needs no other service. `postgresql://...` serves
several server processes sharing one database (install the `postgres` extra: psycopg).
"""

from __future__ import annotations

import threading
from typing import Any

from engine import paths
from engine.store.clock import clock, now  # noqa: F401  (the store's rows are stamped by this clock)
from engine.store.sqlite import SqliteStore

_stores: dict[str, Any] = {}  # database URL -> its store (SQLite or PostgreSQL)
_guard = threading.Lock()


def open_store(url: str):
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///") :])
    if url == "sqlite://":
        return SqliteStore(":memory:")
    if url.startswith(("postgresql://", "postgres://")):
        from engine.store.postgres import PostgresStore

        return PostgresStore(url)
    raise ValueError(
        f"Unsupported database URL '{url.split(':', 1)[0]}:...'. Use sqlite:///path/to/file.db "
        "or postgresql://user@host/database."
    )


def store():
    """The store of the database this process serves (`engine.paths.database_url`), opened once.
    Everything that keeps something reaches it here, below the table service."""
    url = paths.database_url()
    with _guard:
        if url not in _stores:
            _stores[url] = open_store(url)
        return _stores[url]


def close_all() -> None:
    """Close every open store and forget it (tests switch databases; a restart does the same)."""
    with _guard:
        for opened in _stores.values():
            opened.close()
        _stores.clear()
