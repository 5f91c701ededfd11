"""The PostgreSQL store, for several server processes sharing one database.

The same SQL as the SQLite store (engine/store/sql.py). A move locks its room's row
(SELECT ... FOR UPDATE) for the transaction, so processes take turns per room, not for the whole
database. Every new room version is announced with NOTIFY at commit; `changes()` LISTENs, which is
how each server process hears about moves made by the others.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

import psycopg
from psycopg.rows import dict_row

from engine.store.sql import MIGRATE, SCHEMA, SqlStore

CHANNEL = "sobremesa"


class PostgresStore(SqlStore):
    MARK = "%s"
    BLOB = "BYTEA"
    ROOM_LOCK = " FOR UPDATE"

    def __init__(self, url: str):
        self.url = url
        self._local = threading.local()
        with self.transaction() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(7150001)")  # two processes creating the schema
            conn.execute(SCHEMA.replace(" BLOB ", f" {self.BLOB} "))
            for statement in MIGRATE:
                conn.execute(statement)

    def _connection(self) -> psycopg.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = psycopg.connect(self.url, autocommit=True, row_factory=dict_row)
            self._local.conn = conn
        return conn

    @contextmanager
    def transaction(self):
        conn = self._connection()
        with conn.transaction():
            yield conn

    def close(self) -> None:
        for name in ("conn", "listener"):
            conn = getattr(self._local, name, None)
            if conn is not None:
                conn.close()
                setattr(self._local, name, None)

    def update_room(self, conn, code: str, **fields) -> None:
        super().update_room(conn, code, **fields)
        if "version" in fields:  # delivered to every listening process when this transaction commits
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{code} {fields['version']}"))

    def changes(self, since: str, wait: float) -> list[tuple[str, int, str | None]]:
        """(code, version, None) for versions other processes committed: as soon as the first one
        arrives (with any others already waiting), or after `wait` s with none."""
        listener = getattr(self._local, "listener", None)
        if listener is None or listener.closed:
            listener = psycopg.connect(self.url, autocommit=True)
            listener.execute(f"LISTEN {CHANNEL}")
            self._local.listener = listener
        notes = list(listener.notifies(timeout=wait, stop_after=1))
        if notes:  # what else has arrived meanwhile, without waiting for more
            notes += listener.notifies(timeout=0, stop_after=499)
        found: list[tuple[str, int, str | None]] = []
        for note in notes:
            code, _, version = note.payload.partition(" ")
            if version.isdigit():
                found.append((code, int(version), None))
        return found
