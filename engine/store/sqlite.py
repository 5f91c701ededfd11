"""The SQLite store: one file, WAL, one writer at a time (BEGIN IMMEDIATE).

A move, its log entry and the new snapshot are written in one transaction, so a crash leaves
either all of them or none.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
  code TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, language TEXT NOT NULL,
  seed INTEGER NOT NULL, host_hash TEXT NOT NULL, status TEXT NOT NULL, version INTEGER NOT NULL,
  game_no INTEGER NOT NULL, state TEXT, created_at TEXT NOT NULL, started_at TEXT, updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
  code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL,
  joined_at TEXT NOT NULL, PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS moves (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, seq INTEGER NOT NULL, actor TEXT NOT NULL,
  move TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (code, game_no, seq)
);
CREATE TABLE IF NOT EXISTS aliases (
  name_key TEXT PRIMARY KEY, canonical TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, game TEXT NOT NULL, ended_at TEXT NOT NULL,
  record TEXT NOT NULL, PRIMARY KEY (code, game_no)
);
"""

ROOM_FIELDS = ("code", "game", "options", "language", "seed", "host_hash", "status", "version",
               "game_no", "state", "created_at", "started_at", "updated_at")


class SqliteStore:
    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._connection().executescript(SCHEMA)

    def _connection(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.row_factory = sqlite3.Row
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

    # ---- reads -------------------------------------------------------------------------------
    def room(self, code: str, conn=None) -> dict | None:
        row = (conn or self._connection()).execute("SELECT * FROM rooms WHERE code = ?", (code,)).fetchone()
        if row is None:
            return None
        room = dict(row)
        room["options"] = json.loads(room["options"])
        room["state"] = json.loads(room["state"]) if room["state"] else None
        return room

    def version(self, code: str) -> int | None:
        row = self._connection().execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else row[0]

    def seats(self, code: str, conn=None) -> list[dict]:
        rows = (conn or self._connection()).execute(
            "SELECT seat, name, token_hash, joined_at FROM seats WHERE code = ? ORDER BY seat", (code,))
        return [dict(r) for r in rows]

    def moves(self, code: str, game_no: int) -> list[dict]:
        rows = self._connection().execute(
            "SELECT seq, actor, move, at FROM moves WHERE code = ? AND game_no = ? ORDER BY seq", (code, game_no))
        return [{"seq": r["seq"], "actor": r["actor"], "move": json.loads(r["move"]), "at": r["at"]} for r in rows]

    def records(self) -> list[dict]:
        rows = self._connection().execute("SELECT record FROM records ORDER BY ended_at, code, game_no")
        return [json.loads(r[0]) for r in rows]

    def archive_version(self) -> tuple[int, str]:
        row = self._connection().execute("SELECT COUNT(*), COALESCE(MAX(ended_at), '') FROM records").fetchone()
        return int(row[0]), row[1]

    def record(self, code: str) -> dict | None:
        row = self._connection().execute(
            "SELECT record FROM records WHERE code = ? ORDER BY game_no DESC LIMIT 1", (code,)).fetchone()
        return None if row is None else json.loads(row[0])

    def aliases(self) -> dict[str, str]:
        return {r[0]: r[1] for r in self._connection().execute("SELECT name_key, canonical FROM aliases")}

    @staticmethod
    def set_alias(conn, name_key: str, canonical: str) -> None:
        conn.execute("INSERT OR REPLACE INTO aliases (name_key, canonical) VALUES (?, ?)", (name_key, canonical))

    def changes(self, since: str, wait: float) -> list[tuple[str, int, str]]:
        """(code, version, updated_at) of rooms changed after `since`, checked after waiting `wait` s.
        SQLite has no LISTEN: PRAGMA data_version tells whether anything was committed since the
        last look on this thread's connection, which makes the idle case nearly free."""
        time.sleep(wait)
        conn = self._connection()
        seen = conn.execute("PRAGMA data_version").fetchone()[0]
        if getattr(self._local, "data_version", None) == seen:
            return []
        self._local.data_version = seen
        return [tuple(r) for r in conn.execute(
            "SELECT code, version, updated_at FROM rooms WHERE updated_at > ? ORDER BY updated_at", (since,))]

    def room_codes(self) -> list[str]:
        return [r[0] for r in self._connection().execute("SELECT code FROM rooms ORDER BY created_at")]

    # ---- writes (inside `transaction()`) -----------------------------------------------------
    @staticmethod
    def insert_room(conn, room: dict) -> None:
        values = [json.dumps(room[f]) if f in ("options", "state") else room[f] for f in ROOM_FIELDS]
        conn.execute(f"INSERT INTO rooms ({', '.join(ROOM_FIELDS)}) VALUES ({', '.join('?' * len(ROOM_FIELDS))})", values)

    @staticmethod
    def update_room(conn, code: str, **fields) -> None:
        names = list(fields)
        values = [json.dumps(fields[n]) if n in ("options", "state") else fields[n] for n in names]
        conn.execute(f"UPDATE rooms SET {', '.join(f'{n} = ?' for n in names)} WHERE code = ?", [*values, code])

    @staticmethod
    def insert_seat(conn, code: str, seat: int, name: str, token_hash: str, at: str) -> None:
        conn.execute("INSERT INTO seats (code, seat, name, token_hash, joined_at) VALUES (?, ?, ?, ?, ?)",
                     (code, seat, name, token_hash, at))

    @staticmethod
    def replace_seats(conn, code: str, seats: list[dict]) -> None:
        conn.execute("DELETE FROM seats WHERE code = ?", (code,))
        for s in seats:
            SqliteStore.insert_seat(conn, code, s["seat"], s["name"], s["token_hash"], s["joined_at"])

    @staticmethod
    def append_move(conn, code: str, game_no: int, seq: int, actor: str, move: dict, at: str) -> None:
        conn.execute("INSERT INTO moves (code, game_no, seq, actor, move, at) VALUES (?, ?, ?, ?, ?, ?)",
                     (code, game_no, seq, actor, json.dumps(move), at))

    @staticmethod
    def insert_record(conn, code: str, game_no: int, record: dict) -> None:
        conn.execute("INSERT OR REPLACE INTO records (code, game_no, game, ended_at, record) VALUES (?, ?, ?, ?, ?)",
                     (code, game_no, record["game"], record["ended_at"], json.dumps(record)))
