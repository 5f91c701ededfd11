"""A stage tap's id is kept with its answer (engine/store/move_ids.py): the last KEPT of each viewer
always answer again, and old ones are dropped now and then, not at every tap."""

from engine import tables
from engine.store import move_ids


def test_the_last_ids_always_answer_and_old_ones_are_dropped_every_few_taps(monkeypatch):
    monkeypatch.setattr(move_ids, "KEPT", 20)
    store = tables.store()
    statements = []
    conn = store._connection()
    conn.set_trace_callback(statements.append)
    try:
        for i in range(200):
            with store.transaction() as c:
                store.put_move_answer(
                    c,
                    "ROOM",
                    "seat-1",
                    f"id{i}",
                    "{}",
                    {"ack": f"id{i}"},
                    f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}.000",
                )
            kept = conn.execute("SELECT COUNT(*) AS n FROM move_ids WHERE who = 'seat-1'").fetchone()["n"]
            assert kept <= move_ids.KEPT + move_ids.PRUNE_EVERY
            for j in range(max(0, i - move_ids.KEPT + 1), i + 1):  # a retry of any recent tap gets its answer
                assert store.move_answer("ROOM", "seat-1", f"id{j}") == ("{}", {"ack": f"id{j}"})
    finally:
        conn.set_trace_callback(None)
    prunes = sum(s.startswith("DELETE FROM move_ids") for s in statements)
    assert 200 // move_ids.PRUNE_EVERY <= prunes <= 200 // move_ids.PRUNE_EVERY + 1
    assert store.move_answer("ROOM", "seat-1", "id0") is None  # the oldest went
    # another viewer's ids are its own: pruned at its own first answer, and never by this one's
    with store.transaction() as c:
        store.put_move_answer(c, "ROOM", "member-1", "m1", "{}", {"ack": "m1"}, "2026-01-01T00:00:00.000")
    assert store.move_answer("ROOM", "member-1", "m1") == ("{}", {"ack": "m1"})
