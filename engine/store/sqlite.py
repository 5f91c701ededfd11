"""The SQLite store: one file, WAL, one writer at a time (BEGIN IMMEDIATE).

A move, its log entry and the new snapshot are written in one transaction, so a crash leaves
either all of them or none.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import weakref
from contextlib import contextmanager
from pathlib import Path

from engine.store.sql import MIGRATE, SCHEMA, SqlStore

IDLE_KEPT = 16  # idle connections kept for the next threads


def _as_dict(cursor, row) -> dict:
    return {column[0]: value for column, value in zip(cursor.description, row, strict=True)}


class SqliteStore(SqlStore):
    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._idle: list[sqlite3.Connection] = []  # connections whose thread has ended
        self._idle_lock = threading.Lock()
        self._closed = False
        self._connection().executescript(SCHEMA.replace(" BLOB ", f" {self.BLOB} "))
        with self.transaction() as conn:
            for statement in MIGRATE:
                conn.execute(statement)

    def _connection(self) -> sqlite3.Connection:
        """This thread's connection. Streamlit runs every rerun in a thread of its own, so a thread's
        connection goes back to an idle list when the thread ends, and the next thread takes it
        instead of opening the file again (a connection serves one thread at a time)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            with self._idle_lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.row_factory = _as_dict
            self._local.conn = conn
            if self.path != ":memory:":
                weakref.finalize(threading.current_thread(), self._give_back, conn).atexit = False
        return conn

    def _give_back(self, conn: sqlite3.Connection) -> None:
        try:
            if conn.in_transaction:  # a thread that died mid-transaction: nothing of it is kept
                conn.rollback()
            with self._idle_lock:
                if not self._closed and len(self._idle) < IDLE_KEPT:
                    self._idle.append(conn)
                    return
            conn.close()
        except sqlite3.Error:  # closed already (the store was closed): nothing to give back
            pass

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
        self._closed = True
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
        with self._idle_lock:
            idle, self._idle = self._idle, []
        for other in idle:
            other.close()
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
