"""The PostgreSQL store, for several server processes sharing one database.

The same interface as the SQLite store. A move locks its room's row (SELECT ... FOR UPDATE) for
the transaction, so processes take turns per room, not for the whole database. Every new room
version is announced with NOTIFY at commit; `changes()` LISTENs, which is how each server process
hears about moves made by the others.
"""
from __future__ import annotations

import json
import threading
from contextlib import contextmanager

import psycopg
from psycopg.rows import dict_row

CHANNEL = "sobremesa"

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
  code TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, language TEXT NOT NULL,
  seed BIGINT NOT NULL, host_hash TEXT NOT NULL, status TEXT NOT NULL, version BIGINT NOT NULL,
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
CREATE TABLE IF NOT EXISTS aliases (name_key TEXT PRIMARY KEY, canonical TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, game TEXT NOT NULL, ended_at TEXT NOT NULL,
  record TEXT NOT NULL, PRIMARY KEY (code, game_no)
);
"""

ROOM_FIELDS = ("code", "game", "options", "language", "seed", "host_hash", "status", "version",
               "game_no", "state", "created_at", "started_at", "updated_at")


class PostgresStore:
    def __init__(self, url: str):
        self.url = url
        self._local = threading.local()
        with self.transaction() as conn:
            conn.execute("SELECT pg_advisory_xact_lock(7150001)")  # two processes creating the schema
            conn.execute(SCHEMA)

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

    # ---- reads -------------------------------------------------------------------------------
    def room(self, code: str, conn=None) -> dict | None:
        lock = " FOR UPDATE" if conn is not None else ""  # inside a move: this room waits for it
        row = (conn or self._connection()).execute(f"SELECT * FROM rooms WHERE code = %s{lock}", (code,)).fetchone()
        if row is None:
            return None
        room = dict(row)
        room["options"] = json.loads(room["options"])
        room["state"] = json.loads(room["state"]) if room["state"] else None
        return room

    def version(self, code: str) -> int | None:
        row = self._connection().execute("SELECT version FROM rooms WHERE code = %s", (code,)).fetchone()
        return None if row is None else row["version"]

    def seats(self, code: str, conn=None) -> list[dict]:
        return list((conn or self._connection()).execute(
            "SELECT seat, name, token_hash, joined_at FROM seats WHERE code = %s ORDER BY seat", (code,)))

    def moves(self, code: str, game_no: int) -> list[dict]:
        rows = self._connection().execute(
            "SELECT seq, actor, move, at FROM moves WHERE code = %s AND game_no = %s ORDER BY seq", (code, game_no))
        return [{**r, "move": json.loads(r["move"])} for r in rows]

    def records(self) -> list[dict]:
        rows = self._connection().execute("SELECT record FROM records ORDER BY ended_at, code, game_no")
        return [json.loads(r["record"]) for r in rows]

    def archive_version(self) -> tuple[int, str]:
        row = self._connection().execute(
            "SELECT COUNT(*) AS n, COALESCE(MAX(ended_at), '') AS latest FROM records").fetchone()
        return int(row["n"]), row["latest"]

    def record(self, code: str) -> dict | None:
        row = self._connection().execute(
            "SELECT record FROM records WHERE code = %s ORDER BY game_no DESC LIMIT 1", (code,)).fetchone()
        return None if row is None else json.loads(row["record"])

    def aliases(self) -> dict[str, str]:
        return {r["name_key"]: r["canonical"] for r in self._connection().execute("SELECT * FROM aliases")}

    def room_codes(self) -> list[str]:
        return [r["code"] for r in self._connection().execute("SELECT code FROM rooms ORDER BY created_at")]

    def changes(self, since: str, wait: float) -> list[tuple[str, int, str | None]]:
        """(code, version, None) for versions other processes committed, waiting up to `wait` s."""
        listener = getattr(self._local, "listener", None)
        if listener is None or listener.closed:
            listener = psycopg.connect(self.url, autocommit=True)
            listener.execute(f"LISTEN {CHANNEL}")
            self._local.listener = listener
        found = []
        for note in listener.notifies(timeout=wait, stop_after=500):
            code, _, version = note.payload.partition(" ")
            if version.isdigit():
                found.append((code, int(version), None))
        return found

    # ---- writes (inside `transaction()`) -----------------------------------------------------
    @staticmethod
    def insert_room(conn, room: dict) -> None:
        values = [json.dumps(room[f]) if f in ("options", "state") else room[f] for f in ROOM_FIELDS]
        conn.execute(f"INSERT INTO rooms ({', '.join(ROOM_FIELDS)}) VALUES ({', '.join(['%s'] * len(ROOM_FIELDS))})",
                     values)

    @staticmethod
    def update_room(conn, code: str, **fields) -> None:
        names = list(fields)
        values = [json.dumps(fields[n]) if n in ("options", "state") else fields[n] for n in names]
        conn.execute(f"UPDATE rooms SET {', '.join(f'{n} = %s' for n in names)} WHERE code = %s", [*values, code])
        if "version" in fields:  # delivered to every listening process when this transaction commits
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{code} {fields['version']}"))

    @staticmethod
    def insert_seat(conn, code: str, seat: int, name: str, token_hash: str, at: str) -> None:
        conn.execute("INSERT INTO seats (code, seat, name, token_hash, joined_at) VALUES (%s, %s, %s, %s, %s)",
                     (code, seat, name, token_hash, at))

    @staticmethod
    def replace_seats(conn, code: str, seats: list[dict]) -> None:
        conn.execute("DELETE FROM seats WHERE code = %s", (code,))
        for s in seats:
            PostgresStore.insert_seat(conn, code, s["seat"], s["name"], s["token_hash"], s["joined_at"])

    @staticmethod
    def append_move(conn, code: str, game_no: int, seq: int, actor: str, move: dict, at: str) -> None:
        conn.execute("INSERT INTO moves (code, game_no, seq, actor, move, at) VALUES (%s, %s, %s, %s, %s, %s)",
                     (code, game_no, seq, actor, json.dumps(move), at))

    @staticmethod
    def insert_record(conn, code: str, game_no: int, record: dict) -> None:
        conn.execute("INSERT INTO records (code, game_no, game, ended_at, record) VALUES (%s, %s, %s, %s, %s) "
                     "ON CONFLICT (code, game_no) DO UPDATE SET game = EXCLUDED.game, "
                     "ended_at = EXCLUDED.ended_at, record = EXCLUDED.record",
                     (code, game_no, record["game"], record["ended_at"], json.dumps(record)))

    @staticmethod
    def set_alias(conn, name_key: str, canonical: str) -> None:
        conn.execute("INSERT INTO aliases (name_key, canonical) VALUES (%s, %s) "
                     "ON CONFLICT (name_key) DO UPDATE SET canonical = EXCLUDED.canonical", (name_key, canonical))
