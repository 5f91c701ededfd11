"""The SQLite store: one file, WAL, one writer at a time (BEGIN IMMEDIATE).

A move, its log entry and the new snapshot are written in one transaction, so a crash leaves
either all of them or none.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from engine.store.sql import MIGRATE, SCHEMA, SqlStore


def _as_dict(cursor, row) -> dict:
    return {column[0]: value for column, value in zip(cursor.description, row)}


class SqliteStore(SqlStore):
    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connection().executescript(SCHEMA.replace(" BLOB ", f" {self.BLOB} "))
        with self.transaction() as conn:
            for statement in MIGRATE:
                conn.execute(statement)

    def _connection(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.row_factory = _as_dict
            self._local.conn = conn
        return conn

    @contextmanager
    def transaction(self):
        """A write transaction; concurrent writers (threads or processes) wait their turn."""
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def changes(self, since: str, wait: float) -> list[tuple[str, int, str]]:
        """(code, version, updated_at) of rooms changed after `since`, checked after waiting `wait` s.
        SQLite has no LISTEN: PRAGMA data_version tells whether anything was committed since the
        last look on this thread's connection, which makes the idle case nearly free."""
        time.sleep(wait)
        conn = self._connection()
        seen = conn.execute("PRAGMA data_version").fetchone()["data_version"]
        if getattr(self._local, "data_version", None) == seen:
            return []
        self._local.data_version = seen
        rows = conn.execute(
            "SELECT code, version, updated_at FROM rooms WHERE updated_at > ? ORDER BY updated_at", (since,)
        )
        return [(r["code"], r["version"], r["updated_at"]) for r in rows]
