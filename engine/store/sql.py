"""What both stores say in SQL: the schema, the reads and the writes. A subclass brings the
connection, the transaction, how a move locks its room, and how other processes hear of changes.

SQL here is written with `?` placeholders; a store whose driver wants another mark sets `MARK`.
Rows come back as dicts on both drivers.
"""

from __future__ import annotations

import json

from engine.store.audience import SCHEMA as AUDIENCE_SCHEMA, TABLES as AUDIENCE_TABLES, AudienceRows
from engine.store.move_ids import SCHEMA as MOVE_ID_SCHEMA, TABLES as MOVE_ID_TABLES, MoveIdRows

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS rooms (
  code TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, language TEXT NOT NULL,
  seed BIGINT NOT NULL, host_hash TEXT NOT NULL, status TEXT NOT NULL, version BIGINT NOT NULL,
  game_no INTEGER NOT NULL, state TEXT, created_at TEXT NOT NULL, started_at TEXT, updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
  code TEXT PRIMARY KEY, game_no INTEGER NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
  code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL,
  joined_at TEXT NOT NULL, PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS moves (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, seq INTEGER NOT NULL, actor TEXT NOT NULL,
  move TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (code, game_no, seq)
);
CREATE TABLE IF NOT EXISTS stat_rows (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, packed BLOB NOT NULL, PRIMARY KEY (code, game_no)
);
CREATE TABLE IF NOT EXISTS turn_ends (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, turn INTEGER NOT NULL, ended_at TEXT NOT NULL,
  PRIMARY KEY (code, game_no, turn)
);
CREATE TABLE IF NOT EXISTS rejoins (
  code TEXT NOT NULL, seat INTEGER NOT NULL, token_hash TEXT NOT NULL, asked_at TEXT NOT NULL,
  PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS asks (
  code TEXT NOT NULL, ask_id TEXT NOT NULL, seat INTEGER NOT NULL, token_hash TEXT NOT NULL,
  asker TEXT NOT NULL, address TEXT NOT NULL, kind TEXT NOT NULL, asked_at TEXT NOT NULL,
  PRIMARY KEY (code, ask_id)
);
CREATE TABLE IF NOT EXISTS join_asks (
  code TEXT NOT NULL, ask_id TEXT NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL,
  asker TEXT NOT NULL, address TEXT NOT NULL, kind TEXT NOT NULL, asked_at TEXT NOT NULL,
  PRIMARY KEY (code, ask_id)
);
CREATE TABLE IF NOT EXISTS presence (
  code TEXT NOT NULL, seat INTEGER NOT NULL, process TEXT NOT NULL, until TEXT NOT NULL,
  PRIMARY KEY (code, seat, process)
);
CREATE TABLE IF NOT EXISTS decks (slug TEXT PRIMARY KEY, manifest TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deck_cards (card TEXT PRIMARY KEY, slug TEXT NOT NULL, jpeg BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS word_lists (id TEXT PRIMARY KEY, name TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS leases (
  code TEXT PRIMARY KEY, process TEXT NOT NULL, until TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS clocks (
  code TEXT PRIMARY KEY, pace TEXT NOT NULL, skip_quiet BOOLEAN NOT NULL, moment TEXT, waiting TEXT NOT NULL,
  since TEXT, deadline TEXT, paused BOOLEAN NOT NULL, left_ms BIGINT
);
CREATE TABLE IF NOT EXISTS clock_reveals (code TEXT PRIMARY KEY, until TEXT);
CREATE TABLE IF NOT EXISTS reveal_holds (code TEXT PRIMARY KEY, since TEXT, held BOOLEAN NOT NULL);
CREATE TABLE IF NOT EXISTS room_origins (
  code TEXT PRIMARY KEY, device TEXT, address TEXT NOT NULL, here BOOLEAN NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS holders (
  code TEXT NOT NULL, device TEXT NOT NULL, address TEXT NOT NULL, kind TEXT NOT NULL, ref TEXT NOT NULL,
  at TEXT NOT NULL, PRIMARY KEY (code, device)
);
CREATE INDEX IF NOT EXISTS holders_by_address ON holders (address, at);
CREATE TABLE IF NOT EXISTS seat_phones (
  code TEXT NOT NULL, seat INTEGER NOT NULL, device TEXT NOT NULL, seen_at TEXT NOT NULL,
  PRIMARY KEY (code, seat, device)
);
CREATE TABLE IF NOT EXISTS bots (
  code TEXT NOT NULL, seat INTEGER NOT NULL, token TEXT NOT NULL, level TEXT NOT NULL, seated BOOLEAN NOT NULL,
  since TEXT NOT NULL, PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS aliases (name_key TEXT PRIMARY KEY, canonical TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, game TEXT NOT NULL, ended_at TEXT NOT NULL,
  record TEXT NOT NULL, PRIMARY KEY (code, game_no)
);
CREATE INDEX IF NOT EXISTS records_in_order ON records (ended_at, code, game_no, game);
CREATE TABLE IF NOT EXISTS record_devices (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, device TEXT NOT NULL, PRIMARY KEY (code, game_no, device)
);
CREATE INDEX IF NOT EXISTS record_devices_by_device ON record_devices (device, code, game_no);
"""
    + AUDIENCE_SCHEMA
    + MOVE_ID_SCHEMA
)

# A room's row stays small, so a move that bumps its version rewrites a few bytes; the game's state
# lives in `snapshots`, written now and then (engine/tables.py). `rooms.state` is no longer written.
ROOM_FIELDS = (
    "code",
    "game",
    "options",
    "language",
    "seed",
    "host_hash",
    "status",
    "version",
    "game_no",
    "created_at",
    "started_at",
    "updated_at",
)
JSON_FIELDS = ("options", "state")

# Databases from before snapshots had a table of their own: move each room's state there, marked
# as including every move logged so far. Runs at every start; does nothing the second time.
MIGRATE = (
    # Settings of this server that outlive a restart (the address phones join at, picked by the host).
    "CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "INSERT INTO snapshots (code, game_no, seq, state) "
    "SELECT r.code, r.game_no, COALESCE((SELECT MAX(m.seq) FROM moves m WHERE m.code = r.code "
    "AND m.game_no = r.game_no), 0), r.state FROM rooms r "
    "WHERE r.state IS NOT NULL AND NOT EXISTS (SELECT 1 FROM snapshots s WHERE s.code = r.code)",
    "UPDATE rooms SET state = NULL WHERE state IS NOT NULL",
    # Requests to come back in were one per seat (`rejoins`); now several per seat, one per device
    # (`asks`). A request still open from before keeps waiting for the host; `rejoins` stays empty.
    "INSERT INTO asks (code, ask_id, seat, token_hash, asker, address, kind, asked_at) "
    "SELECT code, 'old' || seat, seat, token_hash, 'old' || seat, '', '', asked_at FROM rejoins",
    "DELETE FROM rejoins",
)


class SqlStore(AudienceRows, MoveIdRows):
    MARK = "?"
    BLOB = "BLOB"  # the type of binary columns in SCHEMA
    ROOM_LOCK = ""  # appended to the room's read inside a move's transaction

    def _connection(self):
        raise NotImplementedError

    def _run(self, conn, sql: str, params=()):
        return (conn or self._connection()).execute(sql.replace("?", self.MARK), params)

    # ---- reads -------------------------------------------------------------------------------
    def room(self, code: str, conn=None) -> dict | None:
        """A room's row (locked for the transaction when read inside one)."""
        lock = self.ROOM_LOCK if conn is not None else ""
        row = self._run(conn, f"SELECT {', '.join(ROOM_FIELDS)} FROM rooms WHERE code = ?{lock}", (code,)).fetchone()
        if row is None:
            return None
        return {**row, "options": json.loads(row["options"])}

    def snapshot(self, code: str, conn=None) -> dict | None:
        """The room's last saved state: {game_no, seq (the last move it includes), state}."""
        row = self._run(conn, "SELECT game_no, seq, state FROM snapshots WHERE code = ?", (code,)).fetchone()
        return None if row is None else {**row, "state": json.loads(row["state"]), "size": len(row["state"])}

    def version(self, code: str) -> int | None:
        row = self._run(None, "SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else row["version"]

    def seats(self, code: str, conn=None) -> list[dict]:
        return list(
            self._run(conn, "SELECT seat, name, token_hash, joined_at FROM seats WHERE code = ? ORDER BY seat", (code,))
        )

    def bots(self, code: str, conn=None) -> list[dict]:
        """Seats a computer player plays: seated from the lobby, or handed over by the host."""
        return [
            {**r, "seated": bool(r["seated"])}
            for r in self._run(
                conn, "SELECT seat, token, level, seated, since FROM bots WHERE code = ? ORDER BY seat", (code,)
            )
        ]

    def rooms_with_bots(self) -> list[str]:
        """Rooms being played with computer players (not those in the lobby or finished)."""
        return [
            r["code"]
            for r in self._run(
                None,
                "SELECT DISTINCT b.code FROM bots b JOIN rooms r ON r.code = b.code "
                "WHERE r.status = 'playing' ORDER BY b.code",
            )
        ]

    def asks(self, code: str, conn=None) -> list[dict]:
        """Requests to come back into a seat, newest first, each with the token its asker will hold
        if the host agrees, who asked (a device id, or an address) and from what kind of device."""
        return list(
            self._run(
                conn,
                "SELECT ask_id, seat, token_hash, asker, address, kind, asked_at FROM asks "
                "WHERE code = ? ORDER BY asked_at DESC, ask_id DESC",
                (code,),
            )
        )

    def open_rooms(self, limit: int) -> list[dict]:
        """Rooms not finished, newest first, and whether each was created on the server's computer."""
        return [
            {**r, "here": bool(r["here"])}
            for r in self._run(
                None,
                "SELECT r.code, r.game, r.status, r.created_at, r.updated_at, COALESCE(o.here, FALSE) AS here "
                "FROM rooms r LEFT JOIN room_origins o ON o.code = r.code WHERE r.status <> 'finished' "
                "ORDER BY r.created_at DESC, r.code LIMIT ?",
                (limit,),
            )
        ]

    def rooms_made(self, since: str, device: str | None, address: str, conn=None) -> dict[str, int]:
        """Rooms created since `since` by this device and from this address, and the lobbies of each
        still open: what the limits on creating rooms count."""
        row = self._run(
            conn,
            "SELECT "
            "SUM(CASE WHEN o.device = ? AND o.created_at >= ? THEN 1 ELSE 0 END) AS device_recent, "
            "SUM(CASE WHEN o.address = ? AND o.created_at >= ? THEN 1 ELSE 0 END) AS address_recent, "
            "SUM(CASE WHEN o.device = ? AND r.status = 'lobby' THEN 1 ELSE 0 END) AS device_lobbies, "
            "SUM(CASE WHEN o.address = ? AND r.status = 'lobby' THEN 1 ELSE 0 END) AS address_lobbies, "
            "SUM(CASE WHEN o.device = ? AND r.status <> 'finished' THEN 1 ELSE 0 END) AS device_open, "
            "SUM(CASE WHEN o.address = ? AND r.status <> 'finished' THEN 1 ELSE 0 END) AS address_open "
            "FROM room_origins o JOIN rooms r ON r.code = o.code WHERE o.device = ? OR o.address = ?",
            (device, since, address, since, device, address, device, address, device, address),
        ).fetchone()
        found = ("device_recent", "address_recent", "device_lobbies", "address_lobbies", "device_open", "address_open")
        return {k: int(row[k] or 0) for k in found}

    def idle_rooms(self, status: str, before: str, conn=None) -> list[str]:
        """Rooms in `status` untouched since `before`."""
        rows = self._run(conn, "SELECT code FROM rooms WHERE status = ? AND updated_at < ?", (status, before))
        return [r["code"] for r in rows]

    def empty_lobbies(self, before: str, conn=None) -> list[str]:
        """Lobbies nobody joined, untouched since `before`."""
        return [
            r["code"]
            for r in self._run(
                conn,
                "SELECT r.code FROM rooms r WHERE r.status = 'lobby' AND r.updated_at < ? "
                "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.code = r.code)",
                (before,),
            )
        ]

    def moves(self, code: str, game_no: int, after: int = 0, conn=None) -> list[dict]:
        rows = self._run(
            conn,
            "SELECT seq, actor, move, at FROM moves WHERE code = ? AND game_no = ? AND seq > ? ORDER BY seq",
            (code, game_no, after),
        )
        return [{**r, "move": json.loads(r["move"])} for r in rows]

    def next_seq(self, conn, code: str, game_no: int) -> int:
        """The number of the next move of a game: one index look-up, however long the game."""
        row = self._run(
            conn, "SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM moves WHERE code = ? AND game_no = ?", (code, game_no)
        ).fetchone()
        return int(row["seq"])

    def turn_ends(self, code: str, game_no: int, conn=None) -> dict[int, str]:
        """When each finished turn (or round) of a game closed: {index in the history: time}."""
        rows = self._run(conn, "SELECT turn, ended_at FROM turn_ends WHERE code = ? AND game_no = ?", (code, game_no))
        return {r["turn"]: r["ended_at"] for r in rows}

    def records(self) -> list[dict]:
        rows = self._run(None, "SELECT record FROM records ORDER BY ended_at, code, game_no")
        return [json.loads(r["record"]) for r in rows]

    def stat_rows(self, device: str | None = None) -> list[dict]:
        """Every saved game's packed statistics rows (None where not written yet), in archive order;
        with a `device`, only the games it played in (`record_devices`).
        The archive's order comes from `records_in_order`, an index that holds every column the query
        reads from `records`: without it the database sorted the 10,000 rows with their blobs, and
        read each record's page for its four small columns (0.15 s of CPU; 0.05 s with it)."""
        where, params = self._played_by(device)
        rows = self._run(
            None,
            "SELECT r.code, r.game_no, r.game, s.packed FROM records r LEFT JOIN stat_rows s "
            f"ON s.code = r.code AND s.game_no = r.game_no{where} ORDER BY r.ended_at, r.code, r.game_no",
            params,
        )
        return [dict(row) for row in rows]

    @staticmethod
    def _played_by(device: str | None) -> tuple[str, tuple]:
        """The condition on `records r` that keeps the games `device` played in (none: every game)."""
        if device is None:
            return "", ()
        return (
            " WHERE EXISTS (SELECT 1 FROM record_devices d WHERE d.code = r.code AND d.game_no = r.game_no "
            "AND d.device = ?)",
            (device,),
        )

    def played_in(self, code: str, game_no: int, device: str) -> bool:
        row = self._run(
            None,
            "SELECT 1 AS yes FROM record_devices WHERE code = ? AND game_no = ? AND device = ?",
            (code, game_no, device),
        ).fetchone()
        return row is not None

    def record_of(self, code: str, game_no: int) -> dict | None:
        row = self._run(None, "SELECT record FROM records WHERE code = ? AND game_no = ?", (code, game_no)).fetchone()
        return None if row is None else json.loads(row["record"])

    def archive_version(self, device: str | None = None) -> tuple[int, str, str]:
        """(games, the latest end, the archive's erasures): what changes when a game is saved or erased."""
        where, params = self._played_by(device)
        row = self._run(
            None,
            "SELECT COUNT(*) AS n, COALESCE(MAX(r.ended_at), '') AS latest, "
            "(SELECT value FROM settings WHERE name = 'archive_erasures') AS erased "
            f"FROM records r{where}",
            params,
        ).fetchone()
        return int(row["n"]), row["latest"], row["erased"] or ""

    def record(self, code: str) -> dict | None:
        row = self._run(
            None, "SELECT record FROM records WHERE code = ? ORDER BY game_no DESC LIMIT 1", (code,)
        ).fetchone()
        return None if row is None else json.loads(row["record"])

    def aliases(self) -> dict[str, str]:
        return {r["name_key"]: r["canonical"] for r in self._run(None, "SELECT name_key, canonical FROM aliases")}

    def setting(self, name: str, conn=None) -> str | None:
        row = self._run(conn, "SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return None if row is None else row["value"]

    def room_codes(self) -> list[str]:
        return [r["code"] for r in self._run(None, "SELECT code FROM rooms ORDER BY created_at")]

    # ---- writes (inside `transaction()`) -----------------------------------------------------
    def insert_room(self, conn, room: dict) -> None:
        values = [json.dumps(room[f]) if f in JSON_FIELDS else room[f] for f in ROOM_FIELDS]
        self._run(
            conn, f"INSERT INTO rooms ({', '.join(ROOM_FIELDS)}) VALUES ({', '.join('?' * len(ROOM_FIELDS))})", values
        )

    def update_room(self, conn, code: str, **fields) -> None:
        names = list(fields)
        values = [json.dumps(fields[n]) if n in JSON_FIELDS else fields[n] for n in names]
        self._run(conn, f"UPDATE rooms SET {', '.join(f'{n} = ?' for n in names)} WHERE code = ?", [*values, code])

    def insert_seat(self, conn, code: str, seat: int, name: str, token_hash: str, at: str) -> None:
        self._run(
            conn,
            "INSERT INTO seats (code, seat, name, token_hash, joined_at) VALUES (?, ?, ?, ?, ?)",
            (code, seat, name, token_hash, at),
        )

    def replace_seats(self, conn, code: str, seats: list[dict]) -> None:
        self._run(conn, "DELETE FROM seats WHERE code = ?", (code,))
        for s in seats:
            self.insert_seat(conn, code, s["seat"], s["name"], s["token_hash"], s["joined_at"])

    def put_bot(self, conn, code: str, seat: int, token: str, level: str, seated: bool, at: str) -> None:
        self._run(conn, "DELETE FROM bots WHERE code = ? AND seat = ?", (code, seat))
        self._run(
            conn,
            "INSERT INTO bots (code, seat, token, level, seated, since) VALUES (?, ?, ?, ?, ?, ?)",
            (code, seat, token, level, seated, at),
        )

    def drop_bot(self, conn, code: str, seat: int) -> None:
        self._run(conn, "DELETE FROM bots WHERE code = ? AND seat = ?", (code, seat))

    def ask_rejoin(self, conn, code: str, ask: dict) -> None:
        """A request to come back in; it replaces the asker's earlier one in this room."""
        self._run(conn, "DELETE FROM asks WHERE code = ? AND asker = ?", (code, ask["asker"]))
        self._run(
            conn,
            "INSERT INTO asks (code, ask_id, seat, token_hash, asker, address, kind, asked_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                code,
                ask["ask_id"],
                ask["seat"],
                ask["token_hash"],
                ask["asker"],
                ask["address"],
                ask["kind"],
                ask["asked_at"],
            ),
        )

    def ask_join(self, conn, code: str, ask: dict) -> None:
        """A request to take a seat that the phone's address may not take alone; it replaces the
        asker's earlier one in this room."""
        self._run(conn, "DELETE FROM join_asks WHERE code = ? AND asker = ?", (code, ask["asker"]))
        self._run(
            conn,
            "INSERT INTO join_asks (code, ask_id, name, token_hash, asker, address, kind, asked_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (code, *(ask[k] for k in ("ask_id", "name", "token_hash", "asker", "address", "kind", "asked_at"))),
        )

    def join_asks(self, code: str, conn=None) -> list[dict]:
        """Requests to take a seat, newest first (`ask_join`)."""
        return list(
            self._run(
                conn,
                "SELECT ask_id, name, token_hash, asker, address, kind, asked_at FROM join_asks WHERE code = ? "
                "ORDER BY asked_at DESC, ask_id DESC",
                (code,),
            )
        )

    def close_join_ask(self, conn, code: str, ask_id: str) -> None:
        self._run(conn, "DELETE FROM join_asks WHERE code = ? AND ask_id = ?", (code, ask_id))

    def seats_held_at(self, code: str, address: str, conn=None) -> int:
        """Seats of the room held by devices at `address` (engine/tables/holders.py)."""
        row = self._run(
            conn, "SELECT COUNT(*) AS n FROM holders WHERE code = ? AND address = ? AND kind = 'seat'", (code, address)
        ).fetchone()
        return row["n"]

    def close_rejoin(self, conn, code: str, ask: dict, grant: bool) -> None:
        """The host's answer: the asker's token becomes the seat's (the old link stops working) and
        every other request for that seat is dropped; or this request alone is dropped."""
        if grant:
            self._run(
                conn,
                "UPDATE seats SET token_hash = ? WHERE code = ? AND seat = ?",
                (ask["token_hash"], code, ask["seat"]),
            )
            self._run(conn, "DELETE FROM asks WHERE code = ? AND seat = ?", (code, ask["seat"]))
        else:
            self._run(conn, "DELETE FROM asks WHERE code = ? AND ask_id = ?", (code, ask["ask_id"]))

    def note_origin(self, conn, code: str, device: str | None, address: str, here: bool, at: str) -> None:
        self._run(
            conn,
            "INSERT INTO room_origins (code, device, address, here, created_at) VALUES (?, ?, ?, ?, ?)",
            (code, device, address, here, at),
        )

    # ---- who holds a seat or a membership, by device (engine/tables/holders.py) -----------------
    def holder(self, code: str, device: str, conn=None) -> dict | None:
        row = self._run(
            conn, "SELECT kind, ref, address, at FROM holders WHERE code = ? AND device = ?", (code, device)
        ).fetchone()
        return None if row is None else dict(row)

    def holders(self, code: str, conn=None) -> list[dict]:
        rows = self._run(conn, "SELECT device, kind, ref, address, at FROM holders WHERE code = ? ORDER BY at", (code,))
        return [dict(r) for r in rows]

    def joins_since(self, address: str, since: str, conn=None) -> int:
        row = self._run(
            conn, "SELECT COUNT(*) AS n FROM holders WHERE address = ? AND at >= ?", (address, since)
        ).fetchone()
        return int(row["n"])

    def hold(self, conn, code: str, device: str, address: str, kind: str, ref: str, at: str) -> None:
        self._run(
            conn,
            "INSERT INTO holders (code, device, address, kind, ref, at) VALUES (?, ?, ?, ?, ?, ?)",
            (code, device, address, kind, ref, at),
        )

    def saw_seat_phone(self, conn, code: str, seat: int, device: str, at: str) -> None:
        self._run(
            conn,
            "INSERT INTO seat_phones (code, seat, device, seen_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (code, seat, device) DO UPDATE SET seen_at = excluded.seen_at",
            (code, seat, device, at),
        )

    def seat_phones(self, code: str, seat: int, since: str, conn=None) -> list[str]:
        rows = self._run(
            conn, "SELECT device FROM seat_phones WHERE code = ? AND seat = ? AND seen_at >= ?", (code, seat, since)
        )
        return [r["device"] for r in rows]

    def renew_seat_token(self, conn, code: str, seat: int, token_hash: str, keep_device: str | None) -> None:
        """The seat's link changes: the phones seen on it, but `keep_device`, are forgotten."""
        self._run(conn, "UPDATE seats SET token_hash = ? WHERE code = ? AND seat = ?", (token_hash, code, seat))
        self._run(
            conn, "DELETE FROM seat_phones WHERE code = ? AND seat = ? AND device <> ?", (code, seat, keep_device or "")
        )

    def rename_holder(self, conn, code: str, kind: str, ref: str, new: str) -> None:
        self._run(conn, "UPDATE holders SET ref = ? WHERE code = ? AND kind = ? AND ref = ?", (new, code, kind, ref))

    def release_device(self, conn, code: str, device: str) -> None:
        self._run(conn, "DELETE FROM holders WHERE code = ? AND device = ?", (code, device))

    def release(self, conn, code: str, kind: str, ref: str) -> None:
        self._run(conn, "DELETE FROM holders WHERE code = ? AND kind = ? AND ref = ?", (code, kind, ref))

    def drop_room(self, conn, code: str) -> None:
        """An abandoned lobby: nothing was played in it."""
        for table in (
            "asks",
            "join_asks",
            "bots",
            "seats",
            "holders",
            "snapshots",
            "clocks",
            "clock_reveals",
            "reveal_holds",
            "room_origins",
            *AUDIENCE_TABLES,
            *MOVE_ID_TABLES,
            "rooms",
        ):
            self._run(conn, f"DELETE FROM {table} WHERE code = ?", (code,))

    def append_move(self, conn, code: str, game_no: int, seq: int, actor: str, move: dict, at: str) -> None:
        self._run(
            conn,
            "INSERT INTO moves (code, game_no, seq, actor, move, at) VALUES (?, ?, ?, ?, ?, ?)",
            (code, game_no, seq, actor, json.dumps(move), at),
        )

    def save_snapshot(self, conn, code: str, game_no: int, seq: int, state: dict) -> int:
        """Save a room's state as of move `seq`; returns its size in characters."""
        text = json.dumps(state)
        self._run(
            conn,
            "INSERT INTO snapshots (code, game_no, seq, state) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (code) DO UPDATE SET game_no = excluded.game_no, seq = excluded.seq, "
            "state = excluded.state",
            (code, game_no, seq, text),
        )
        return len(text)

    def add_turn_end(self, conn, code: str, game_no: int, turn: int, at: str) -> None:
        self._run(
            conn,
            "INSERT INTO turn_ends (code, game_no, turn, ended_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (code, game_no, turn) DO NOTHING",
            (code, game_no, turn, at),
        )

    def insert_record(self, conn, code: str, game_no: int, record: dict) -> None:
        self._run(
            conn,
            "INSERT INTO records (code, game_no, game, ended_at, record) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (code, game_no) DO UPDATE SET game = excluded.game, "
            "ended_at = excluded.ended_at, record = excluded.record",
            (code, game_no, record["game"], record["ended_at"], json.dumps(record)),
        )

    def keep_record_devices(self, conn, code: str, game_no: int, devices) -> None:
        """The devices that played in a saved game (its seats' and members' phones)."""
        for device in sorted(set(devices)):
            self._run(
                conn,
                "INSERT INTO record_devices (code, game_no, device) VALUES (?, ?, ?) "
                "ON CONFLICT (code, game_no, device) DO NOTHING",
                (code, game_no, device),
            )

    def erase_game(self, conn, code: str, game_no: int) -> None:
        """A saved game, and everything kept of it, gone (engine/tables/erase.py)."""
        for table in ("records", "stat_rows", "record_devices", "moves", "turn_ends", "member_picks", "reveals"):
            self._run(conn, f"DELETE FROM {table} WHERE code = ? AND game_no = ?", (code, game_no))

    def drop_stat_rows(self, conn, code: str, game_no: int) -> None:
        """A game's statistics rows, to be packed again from its record when next read."""
        self._run(conn, "DELETE FROM stat_rows WHERE code = ? AND game_no = ?", (code, game_no))

    def rename_seat(self, conn, code: str, seat: int, name: str) -> None:
        self._run(conn, "UPDATE seats SET name = ? WHERE code = ? AND seat = ?", (name, code, seat))

    def rename_member(self, conn, code: str, member: str, name: str) -> None:
        self._run(conn, "UPDATE members SET name = ? WHERE code = ? AND id = ?", (name, code, member))

    def drop_aliases(self, conn, keys) -> None:
        for key in keys:
            self._run(conn, "DELETE FROM aliases WHERE name_key = ? OR canonical = ?", (key, key))

    def save_stat_rows(self, conn, code: str, game_no: int, packed: bytes) -> None:
        self._run(
            conn,
            "INSERT INTO stat_rows (code, game_no, packed) VALUES (?, ?, ?) "
            "ON CONFLICT (code, game_no) DO UPDATE SET packed = excluded.packed",
            (code, game_no, packed),
        )

    def set_alias(self, conn, name_key: str, canonical: str) -> None:
        self._run(
            conn,
            "INSERT INTO aliases (name_key, canonical) VALUES (?, ?) "
            "ON CONFLICT (name_key) DO UPDATE SET canonical = excluded.canonical",
            (name_key, canonical),
        )

    def present(self, code: str, now: str) -> set[int]:
        """Seats with a push socket open on some server process, as that process last said."""
        return {
            r["seat"]
            for r in self._run(None, "SELECT DISTINCT seat FROM presence WHERE code = ? AND until > ?", (code, now))
        }

    def mark_present(self, conn, code: str, seat: int, process: str, until: str) -> None:
        """This process holds a socket of the seat until `until` (renewed while it does); a socket
        closed writes the time it closed, which `last_seen` reads (the quiet-player rule)."""
        self._run(conn, "DELETE FROM presence WHERE code = ? AND seat = ? AND process = ?", (code, seat, process))
        self._run(
            conn,
            "INSERT INTO presence (code, seat, process, until) VALUES (?, ?, ?, ?)",
            (code, seat, process, until),
        )

    def last_seen(self, code: str, conn=None) -> dict[int, str]:
        """When each seat's phone was last connected, as far as any process said (or will, while
        one holds it still)."""
        return {
            r["seat"]: r["last"]
            for r in self._run(
                conn, "SELECT seat, MAX(until) AS last FROM presence WHERE code = ? GROUP BY seat", (code,)
            )
        }

    # ---- the pace clock (engine/tables/pace.py) ----------------------------------------------
    def clock(self, code: str, conn=None) -> dict | None:
        row = self._run(
            conn,
            # The reveal's end, and its start and hold, have tables of their own: a column added to
            # `clocks` would need a migration that both stores run twice without harm.
            "SELECT pace, skip_quiet, moment, waiting, since, deadline, paused, left_ms, "
            "(SELECT until FROM clock_reveals r WHERE r.code = clocks.code) AS reveal_until, "
            "(SELECT since FROM reveal_holds h WHERE h.code = clocks.code) AS reveal_since, "
            "(SELECT held FROM reveal_holds h WHERE h.code = clocks.code) AS reveal_held FROM clocks WHERE code = ?",
            (code,),
        ).fetchone()
        if row is None:
            return None
        return {
            **row,
            "skip_quiet": bool(row["skip_quiet"]),
            "paused": bool(row["paused"]),
            "waiting": json.loads(row["waiting"]),
            "reveal_held": bool(row["reveal_held"]),
        }

    def put_clock(self, conn, code: str, clock: dict) -> None:
        values = (
            clock["pace"],
            bool(clock["skip_quiet"]),
            clock.get("moment"),
            json.dumps(clock.get("waiting", [])),
            clock.get("since"),
            clock.get("deadline"),
            bool(clock.get("paused", False)),
            clock.get("left_ms"),
        )
        self._run(
            conn,
            "INSERT INTO clocks (code, pace, skip_quiet, moment, waiting, since, deadline, paused, left_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO UPDATE SET pace = excluded.pace, "
            "skip_quiet = excluded.skip_quiet, moment = excluded.moment, waiting = excluded.waiting, "
            "since = excluded.since, deadline = excluded.deadline, paused = excluded.paused, left_ms = excluded.left_ms",
            (code, *values),
        )
        if "reveal_until" in clock:
            self._run(
                conn,
                "INSERT INTO clock_reveals (code, until) VALUES (?, ?) ON CONFLICT (code) DO UPDATE SET until = excluded.until",
                (code, clock["reveal_until"]),
            )
        if "reveal_since" in clock:
            self._run(
                conn,
                "INSERT INTO reveal_holds (code, since, held) VALUES (?, ?, ?) "
                "ON CONFLICT (code) DO UPDATE SET since = excluded.since, held = excluded.held",
                (code, clock["reveal_since"], bool(clock.get("reveal_held"))),
            )

    def running_clocks(self) -> list[str]:
        """Rooms whose clock may act: being played with a pace set or quiet players skipped, or
        with a reveal whose end is still to be told (the last turn's too, before the podium)."""
        return [
            r["code"]
            for r in self._run(
                None,
                "SELECT c.code FROM clocks c JOIN rooms r ON r.code = c.code WHERE (r.status = 'playing' "
                "AND (c.pace <> 'off' OR c.skip_quiet)) OR (r.status IN ('playing', 'finished') AND EXISTS "
                "(SELECT 1 FROM clock_reveals v WHERE v.code = c.code AND v.until IS NOT NULL)) ORDER BY c.code",
            )
        ]

    # ---- what hosts upload: picture decks and word lists, shared by every server process ------
    def deck_manifests(self) -> dict[str, dict]:
        return {r["slug"]: json.loads(r["manifest"]) for r in self._run(None, "SELECT slug, manifest FROM decks")}

    def deck_card(self, card: str) -> bytes | None:
        row = self._run(None, "SELECT jpeg FROM deck_cards WHERE card = ?", (card,)).fetchone()
        return None if row is None else bytes(row["jpeg"])

    def keep_deck(self, conn, slug: str, manifest: dict, cards: dict[str, bytes]) -> bool:
        """A new deck, whole; False (nothing written) when the name is taken."""
        if self._run(conn, "SELECT 1 FROM decks WHERE slug = ?", (slug,)).fetchone():
            return False
        self._run(conn, "INSERT INTO decks (slug, manifest) VALUES (?, ?)", (slug, json.dumps(manifest)))
        for card, jpeg in cards.items():
            self._run(conn, "INSERT INTO deck_cards (card, slug, jpeg) VALUES (?, ?, ?)", (card, slug, jpeg))
        return True

    def drop_deck(self, conn, slug: str) -> None:
        self._run(conn, "DELETE FROM deck_cards WHERE slug = ?", (slug,))
        self._run(conn, "DELETE FROM decks WHERE slug = ?", (slug,))

    def word_lists(self) -> dict[str, str]:
        return {r["id"]: r["name"] for r in self._run(None, "SELECT id, name FROM word_lists ORDER BY id")}

    def word_list(self, list_id: str) -> dict | None:
        row = self._run(None, "SELECT body FROM word_lists WHERE id = ?", (list_id,)).fetchone()
        return None if row is None else json.loads(row["body"])

    def keep_word_list(self, conn, list_id: str, name: str, body: dict) -> None:
        self._run(
            conn,
            "INSERT INTO word_lists (id, name, body) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE "
            "SET name = excluded.name, body = excluded.body",
            (list_id, name, json.dumps(body)),
        )

    def take_lease(self, conn, code: str, process: str, now: str, until: str) -> bool:
        """Lead a room until `until`: granted when nobody leads it, its leader's lease ran out, or
        this process leads it already (then renewed). One statement, so two processes never both win."""
        self._run(
            conn,
            "INSERT INTO leases (code, process, until) VALUES (?, ?, ?) ON CONFLICT (code) DO UPDATE "
            "SET process = excluded.process, until = excluded.until "
            "WHERE leases.process = excluded.process OR leases.until < ?",
            (code, process, until, now),
        )
        row = self._run(conn, "SELECT process FROM leases WHERE code = ?", (code,)).fetchone()
        return row is not None and row["process"] == process

    def first_setting(self, conn, name: str, value: str) -> str:
        """The setting `name`, made `value` if it has none yet: whichever process asks first sets it."""
        self._run(conn, "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (name, value))
        return self._run(conn, "SELECT value FROM settings WHERE name = ?", (name,)).fetchone()["value"]

    def set_setting(self, conn, name: str, value: str | None) -> None:
        """Keep a setting of this server; None forgets it."""
        if value is None:
            self._run(conn, "DELETE FROM settings WHERE name = ?", (name,))
            return
        self._run(
            conn,
            "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (name, value),
        )
