"""Presence's look at other processes' sockets (engine/presence.py) runs in the thread of the
watcher of other processes' changes: a phone held by another process shows here within a look,
and no thread of presence's own wakes the server."""

from __future__ import annotations

import threading
import time

from engine import presence, tables


def test_a_phone_on_another_process_is_seen_from_the_watchers_thread(monkeypatch):
    monkeypatch.setattr(presence, "LOOK", 0.0)  # each of the watcher's rounds (0.5 s)
    room = tables.create_room("dixit")
    tables.join(room.code, "Ana")
    assert presence.present(room.code) == set()  # this process shows the room's presence now
    before = presence.version(room.code)
    presence.watch()
    store = tables.store()
    with store.transaction() as conn:  # as another server process writes when it holds a socket
        store.mark_present(conn, room.code, 0, "another-process", presence._at(30))
    deadline = time.monotonic() + 5
    while presence.version(room.code) == before:
        assert time.monotonic() < deadline, "the other process's phone was never seen"
        time.sleep(0.05)
    assert presence.present(room.code) == {0}
    assert "sobremesa-presence" not in {t.name for t in threading.enumerate()}
