"""The ids of moves sent over a stage socket, with the answer each got: a tap retried after a lost
answer (a dropped socket, a double tap) gets the first answer again and is not played twice.
Written in the move's own transaction. Mixed into the SQL store."""

from __future__ import annotations

import json

SCHEMA = """
CREATE TABLE IF NOT EXISTS move_ids (
  code TEXT NOT NULL, who TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, answer TEXT NOT NULL,
  made_at TEXT NOT NULL, PRIMARY KEY (code, who, id)
);
"""
TABLES = ("move_ids",)
KEPT = 512  # ids kept per (room, viewer): far more than the taps a retry can still be about


class MoveIdRows:
    def _run(self, conn, sql: str, params=()):
        raise NotImplementedError

    def move_answer(self, code: str, who: str, move_id: str, conn=None) -> tuple[str, dict] | None:
        """(the body first sent under this id, the answer it got), or None."""
        rows = list(
            self._run(
                conn, "SELECT body, answer FROM move_ids WHERE code = ? AND who = ? AND id = ?", (code, who, move_id)
            )
        )
        return (rows[0]["body"], json.loads(rows[0]["answer"])) if rows else None

    def put_move_answer(self, conn, code: str, who: str, move_id: str, body: str, answer: dict, at: str) -> None:
        self._run(
            conn,
            "INSERT INTO move_ids (code, who, id, body, answer, made_at) VALUES (?, ?, ?, ?, ?, ?)",
            (code, who, move_id, body, json.dumps(answer), at),
        )
        self._run(
            conn,
            "DELETE FROM move_ids WHERE code = ? AND who = ? AND id NOT IN "
            "(SELECT id FROM move_ids WHERE code = ? AND who = ? ORDER BY made_at DESC LIMIT ?)",
            (code, who, code, who, KEPT),
        )
