"""The watcher of other processes' changes (tables.watch_other_processes) tells the open screens
when another process erased a game. A database swapped in (the tests do it at every test) is not
an erasure: its watcher once told every fake room's sockets to draw again, which made the push
tests that count draws fail now and then in a worker that had imported app.py. And a database
where nothing was ever erased is no erasure at each look either (its mark reads as none, not as a
change from "")."""

from __future__ import annotations

import time

from engine import tables
from engine.store import open_store
from engine.tables import base, erase


def _erasure_mark(value: str) -> None:
    with tables.store().transaction() as conn:
        tables.store().set_setting(conn, "archive_erasures", value)


def test_a_database_swapped_in_is_no_erasure_and_an_erasure_in_it_is(data_dir, tmp_path, monkeypatch):
    told: list = []
    monkeypatch.setattr(erase, "tell_erased", lambda code=None: told.append(code))
    monkeypatch.setattr(base, "ERASED_EVERY", 0.0)  # looked at each round (0.5 s)
    tables.watch_other_processes()  # once per process: it may run already, from an earlier test
    time.sleep(1.2)  # it has looked at this database
    assert told == []

    # Another database, with erasures of its own made before it is swapped in (a mark written
    # after the watcher took it would be news, as it is below).
    another = tmp_path / "another"
    prepared = open_store(f"sqlite:///{another / 'sobremesa.db'}")
    with prepared.transaction() as conn:
        prepared.set_setting(conn, "archive_erasures", "2026-11-02")
    prepared.close()
    monkeypatch.setenv("SOBREMESA_DATA", str(another))
    tables.reset()
    time.sleep(1.2)
    assert told == []

    _erasure_mark("2026-11-03")  # a game erased by another process in this one
    deadline = time.monotonic() + 5
    while not told:
        assert time.monotonic() < deadline, "the erasure was never told"
        time.sleep(0.05)
    assert told == [None]
