"""Small builders the engine tests share."""

import asyncio
import functools
import threading
from pathlib import Path

from engine.core import play
from engine.games import GAMES


@functools.cache
def source_messages() -> tuple:
    """Every message of the source (`i18n.template()`), extracted once per test process: Babel
    walks every page and template and the engine's source, a second or more each time."""
    from engine import i18n

    return tuple(i18n.template())


def fake_cards(n=100, prefix="dream"):
    return [f"{prefix}-{i:03d}" for i in range(1, n + 1)]


def start(game_name, seats, seed=1, options=None, cards=None):
    game = GAMES[game_name]
    opts = game.check_options(options)
    return game, game.setup(seats, opts, seed, cards if cards is not None else fake_cards())


def position_of(state, seat):
    return next(p["position"] for p in state["table"] if p["owner"] == seat)


def step(game, state, **move):
    return play(game, state, move)


# ---- the table service, played faster than a class watches ----------------------------------------


def past_the_reveal(code: str) -> bool:
    """End the room's reveal as its time running out would (a test does not wait 7 s for each
    turn): the next turn's moves are taken again. True if a reveal was on."""
    from engine import tables
    from engine.store import now
    from engine.tables import pace
    from engine.tables.deadlines import revealing

    store = tables.store()
    with store.transaction() as conn:
        clock = store.clock(code, conn)
        if not revealing(clock, now()):
            return False
        store.put_clock(conn, code, {**clock, "reveal_until": "2000-01-01T00:00:00.000+00:00", "reveal_held": False})
    pace._expire(code)  # the pace clock's own end of it: a new version, the next turn on every screen
    return True


def submit(code: str, seat: int, token: str, move: dict) -> int:
    """A seat's move once the reveal before it is over (`past_the_reveal`)."""
    from engine import tables

    past_the_reveal(code)
    return tables.submit(code, seat, token, move)


def archive_once(tmp_path_factory, name: str, fill) -> Path:
    """A data folder filled once by `fill()` (games played to their end: the slow part), for a
    module's tests to read, or to copy when they change it (`copy_archive`)."""
    import pytest

    from engine import tables

    path = tmp_path_factory.mktemp(name)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOBREMESA_DATA", str(path))
        mp.delenv("SOBREMESA_DATABASE_URL", raising=False)
        tables.reset()
        fill()
        tables.reset()
    return path


def copy_archive(path: Path, data_dir: Path) -> None:
    """A test's own copy of an `archive_once` folder, in its data folder. The database is copied by
    SQLite's backup, not as a file: the test process's watcher thread (`tables.watch_other_processes`,
    started by the first AppTest) may have the test's database open, its -wal and -shm beside it, and
    a file copied over an open database in WAL mode read as "database disk image is malformed"."""
    import shutil
    import sqlite3
    from contextlib import closing

    from engine import tables

    tables.reset()
    for item in path.iterdir():
        if item.name.startswith("sobremesa.db"):
            continue
        if item.is_dir():
            shutil.copytree(item, data_dir / item.name, dirs_exist_ok=True)
        else:
            shutil.copy2(item, data_dir / item.name)
    with (
        closing(sqlite3.connect(path / "sobremesa.db")) as kept,
        closing(sqlite3.connect(data_dir / "sobremesa.db")) as own,
    ):
        kept.backup(own)


def run(coro_fn) -> None:
    """asyncio.run in a thread of its own: another test's loop (Playwright's) may be live here."""
    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coro_fn())
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            errors.append(exc)

    t = threading.Thread(target=target)
    t.start()
    t.join(15)
    assert not t.is_alive(), "event loop did not finish"
    if errors:
        raise errors[0]
