"""The audience's rows (engine/tables/audience.py): members, their picks beside the game (never in
its move log), and what each reveal scored. Mixed into the SQL store."""

from __future__ import annotations

import json

SCHEMA = """
CREATE TABLE IF NOT EXISTS members (
  code TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL, joined_at TEXT NOT NULL,
  PRIMARY KEY (code, id)
);
CREATE TABLE IF NOT EXISTS member_picks (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, turn INTEGER NOT NULL, member TEXT NOT NULL, slot TEXT NOT NULL,
  pick TEXT NOT NULL, made_at TEXT NOT NULL, PRIMARY KEY (code, game_no, turn, member, slot)
);
CREATE TABLE IF NOT EXISTS reveals (
  code TEXT NOT NULL, game_no INTEGER NOT NULL, turn INTEGER NOT NULL, counts TEXT NOT NULL, points TEXT NOT NULL,
  PRIMARY KEY (code, game_no, turn)
);
CREATE TABLE IF NOT EXISTS audience_rooms (code TEXT PRIMARY KEY, open BOOLEAN NOT NULL, cap INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS pick_marks (code TEXT PRIMARY KEY, n INTEGER NOT NULL);
"""
TABLES = ("members", "member_picks", "reveals", "audience_rooms", "pick_marks")


class AudienceRows:
    def _run(self, conn, sql: str, params=()):
        raise NotImplementedError

    def members(self, code: str, conn=None) -> list[dict]:
        rows = self._run(
            conn, "SELECT id, name, token_hash, joined_at FROM members WHERE code = ? ORDER BY joined_at, id", (code,)
        )
        return [dict(r) for r in rows]

    def members_mark(self, code: str, conn=None) -> tuple[int, str | None]:
        """How many members a room has and when the latest came in: it moves with every join and
        every removal, whatever process made it (a stage's board keeps its members while it holds)."""
        row = self._run(
            conn, "SELECT COUNT(*) AS n, MAX(joined_at) AS latest FROM members WHERE code = ?", (code,)
        ).fetchone()
        return int(row["n"]), row["latest"]

    def member_count(self, code: str, latest: int, conn=None) -> tuple[int, list[str]]:
        """How many members a room has, and the names of the last `latest` to come in, latest
        first: two reads that count in the database (the wall asks at each draw; a hall has 300)."""
        count = self._run(conn, "SELECT COUNT(*) AS n FROM members WHERE code = ?", (code,)).fetchone()["n"]
        if not count:
            return 0, []
        rows = self._run(
            conn,
            "SELECT name FROM members WHERE code = ? ORDER BY joined_at DESC, id DESC LIMIT ?",
            (code, latest),
        )
        return int(count), [r["name"] for r in rows]

    def pickers(self, code: str, game_no: int, turn: int, conn=None) -> int:
        """How many members have picked in a turn."""
        row = self._run(
            conn,
            "SELECT COUNT(DISTINCT member) AS n FROM member_picks WHERE code = ? AND game_no = ? AND turn = ?",
            (code, game_no, turn),
        ).fetchone()
        return int(row["n"])

    def insert_member(self, conn, code: str, member: str, name: str, token_hash: str, at: str) -> None:
        self._run(
            conn,
            "INSERT INTO members (code, id, name, token_hash, joined_at) VALUES (?, ?, ?, ?, ?)",
            (code, member, name, token_hash, at),
        )

    def member(self, code: str, member: str, conn=None) -> dict | None:
        rows = self._run(
            conn, "SELECT id, name, token_hash, joined_at FROM members WHERE code = ? AND id = ?", (code, member)
        )
        found = list(rows)
        return dict(found[0]) if found else None

    def picks_of(self, code: str, game_no: int, turn: int, member: str, conn=None) -> list[dict]:
        """One member's picks in a turn (their pick in each slot)."""
        rows = self._run(
            conn,
            "SELECT pick FROM member_picks WHERE code = ? AND game_no = ? AND turn = ? AND member = ? "
            "ORDER BY made_at, slot",
            (code, game_no, turn, member),
        )
        return [json.loads(r["pick"]) for r in rows]

    def member_picks(self, code: str, game_no: int, turn: int, conn=None) -> list[dict]:
        rows = self._run(
            conn,
            "SELECT member, slot, pick FROM member_picks WHERE code = ? AND game_no = ? AND turn = ? "
            "ORDER BY made_at, member, slot",
            (code, game_no, turn),
        )
        return [{"member": r["member"], "slot": r["slot"], "pick": json.loads(r["pick"])} for r in rows]

    def put_pick(self, conn, code: str, game_no: int, turn: int, member: str, slot: str, pick: dict, at: str) -> int:
        """A member's pick in a slot (a new one replaces theirs); returns the room's pick mark after it."""
        self._run(
            conn,
            "INSERT INTO member_picks (code, game_no, turn, member, slot, pick, made_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (code, game_no, turn, member, slot) DO UPDATE SET pick = excluded.pick, made_at = excluded.made_at",
            (code, game_no, turn, member, slot, json.dumps(pick), at),
        )
        return self._mark_picks(conn, code)

    def _mark_picks(self, conn, code: str) -> int:
        self._run(
            conn,
            "INSERT INTO pick_marks (code, n) VALUES (?, 1) ON CONFLICT (code) DO UPDATE SET n = pick_marks.n + 1",
            (code,),
        )
        return self.pick_mark(code, conn)

    def pick_mark(self, code: str, conn=None) -> int:
        """How many times the room's picks changed, in any process: a pick or a member's removal
        moves it, in the same transaction (a stage keeps a turn's picks while it holds)."""
        row = self._run(conn, "SELECT n FROM pick_marks WHERE code = ?", (code,)).fetchone()
        return 0 if row is None else int(row["n"])

    def put_reveal(self, conn, code: str, game_no: int, turn: int, counts: dict, points: dict) -> None:
        self._run(
            conn,
            "INSERT INTO reveals (code, game_no, turn, counts, points) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (code, game_no, turn) DO UPDATE SET counts = excluded.counts, points = excluded.points",
            (code, game_no, turn, json.dumps(counts), json.dumps(points)),
        )

    def reveals(self, code: str, game_no: int, conn=None) -> list[dict]:
        rows = self._run(
            conn,
            "SELECT turn, counts, points FROM reveals WHERE code = ? AND game_no = ? ORDER BY turn",
            (code, game_no),
        )
        return [{"turn": r["turn"], "counts": json.loads(r["counts"]), "points": json.loads(r["points"])} for r in rows]

    def drop_member(self, conn, code: str, member: str) -> None:
        """A member the host removed: their picks not yet revealed go with them."""
        self._run(conn, "DELETE FROM member_picks WHERE code = ? AND member = ?", (code, member))
        self._run(conn, "DELETE FROM members WHERE code = ? AND id = ?", (code, member))
        self._mark_picks(conn, code)

    def audience_room(self, code: str, conn=None) -> dict | None:
        row = self._run(conn, "SELECT open, cap FROM audience_rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else {"open": bool(row["open"]), "cap": row["cap"]}

    def put_audience_room(self, conn, code: str, open_: bool, cap: int) -> None:
        self._run(
            conn,
            "INSERT INTO audience_rooms (code, open, cap) VALUES (?, ?, ?) "
            "ON CONFLICT (code) DO UPDATE SET open = excluded.open, cap = excluded.cap",
            (code, bool(open_), cap),
        )
