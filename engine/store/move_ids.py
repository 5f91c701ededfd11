"""The ids of moves sent over a stage socket, with the answer each got: a tap retried after a lost
answer (a dropped socket, a double tap) gets the first answer again and is not played twice.
Written in the move's own transaction. Mixed into the SQL store."""

from __future__ import annotations

import json
import threading

SCHEMA = """
CREATE TABLE IF NOT EXISTS move_ids (
  code TEXT NOT NULL, who TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, answer TEXT NOT NULL,
  made_at TEXT NOT NULL, PRIMARY KEY (code, who, id)
);
"""
TABLES = ("move_ids",)
KEPT = 512  # ids kept per (room, viewer): far more than the taps a retry can still be about
PRUNE_EVERY = 16  # a viewer's old ids are dropped at its first answer in this process, then every 16th
_since: dict[tuple[str, str], int] = {}  # (room, viewer) -> answers put by this process since it pruned
_since_guard = threading.Lock()


def _due(code: str, who: str) -> bool:
    """Whether this answer prunes the viewer's old ids: each prune sorts the viewer's ids by age (a
    seat's grow to KEPT in a long game), at every tap before. At most KEPT + PRUNE_EVERY are kept
    per process writing them; a retry's id is always among the last KEPT."""
    with _since_guard:
        if len(_since) > 4096:
            _since.clear()  # each prunes again at its next answer
        done = _since.get((code, who), PRUNE_EVERY - 1) + 1  # unknown here: due at once
        due = done >= PRUNE_EVERY
        _since[(code, who)] = 0 if due else done
    return due


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
        if not _due(code, who):
            return
        self._run(
            conn,
            "DELETE FROM move_ids WHERE code = ? AND who = ? AND id NOT IN "
            "(SELECT id FROM move_ids WHERE code = ? AND who = ? ORDER BY made_at DESC LIMIT ?)",
            (code, who, code, who, KEPT),
        )
