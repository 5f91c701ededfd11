"""Persistence behind one small interface, chosen by URL (`engine.paths.database_url`).

`sqlite:///path/file.db` is the default. PostgreSQL (`postgresql://...`), for several server
processes, is the planned second implementation of the same interface.
"""
from __future__ import annotations

from engine.store.sqlite import SqliteStore


def open_store(url: str):
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///"):])
    if url == "sqlite://":
        return SqliteStore(":memory:")
    raise ValueError(
        f"Unsupported database URL '{url.split(':', 1)[0]}:...'. Use sqlite:///path/to/file.db "
        "(PostgreSQL support is not built yet)."
    )
