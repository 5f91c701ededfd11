"""Persistence behind one small interface, chosen by URL (`engine.paths.database_url`).

`sqlite:///path/file.db` is the default and needs no other service. `postgresql://...` serves
several server processes sharing one database (install the `postgres` extra: psycopg).
"""

from __future__ import annotations

from engine.store.sqlite import SqliteStore


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
