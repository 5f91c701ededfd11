import dataclasses
import functools
import gc
import os
import shutil

import pytest
from streamlit import config
from streamlit.components.v2 import manifest_scanner
from streamlit.runtime.scriptrunner.script_cache import ScriptCache

# The toy game (tests/toy) is hosted beside the real ones in every test, and by every server a test
# starts: it registers through the public extension points alone (SOBREMESA_GAMES names its module),
# and every suite that runs over GAMES runs it too.
os.environ["SOBREMESA_GAMES"] = "tests.toy"

from engine import tables  # noqa: E402
from engine.games import GAMES  # noqa: E402
from tests.helpers import fake_cards  # noqa: E402

# AppTest imports app.py, which starts the computer players' thread: in tests they play only when a
# test asks (engine.bots.runner.play_pending). Browser tests' servers turn them back on.
os.environ["SOBREMESA_COMPUTER_PLAYERS"] = "off"
# Likewise the pace clock's thread (engine/pacer.py): service tests call tables.tick() themselves.
os.environ["SOBREMESA_CLOCK"] = "off"

# Every AppTest run scans every installed distribution's metadata for Streamlit components: 0.21 s
# of a page's 0.26 s (cProfile of the page contract). What is installed does not change during a
# run, so the scan is made once per process; a server's own scan (browser tests) is untouched.
manifest_scanner.scan_component_manifests = functools.cache(manifest_scanner.scan_component_manifests)

# Every AppTest has a script cache of its own, so each one parsed, rewrote (Streamlit's magic) and
# compiled app.py and its pages again: 15 % of the quick tests' CPU (py-spy). A page's code is kept
# once per process, by its file's path, size and modification time (a server's is untouched).
_compile = ScriptCache.get_bytecode


@functools.cache
def _compiled(path: str, size: int, modified: int, magic: bool):
    return _compile(ScriptCache(), path)


def _kept_bytecode(self, script_path: str):
    path = os.path.abspath(script_path)
    st = os.stat(path)
    return _compiled(path, st.st_size, st.st_mtime_ns, bool(config.get_option("runner.magicEnabled")))


ScriptCache.get_bytecode = _kept_bytecode

# A test process makes and drops millions of small dicts (states, views, screens) and lives a few
# minutes: at Python's default thresholds the collector's passes took 10-20 % of the quick tests'
# CPU (tests/engine/core and the page contract, 33 s against 36-43 s alternated). Collections are
# rarer, and what is imported by now (Streamlit, pandas, the games) is never walked again.
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 100)


# Tests that start several server processes (a cluster behind nginx on PostgreSQL) or drive WebKit
# run after the others, by themselves (`make test`): beside another test on the second core their
# waits ran out (a cluster's Ctrl-C past 30 s, a wall caught mid-rerun). So does the one attack that
# times a reply (a pong within 2 s, in a network namespace). They run two at a time, in two groups:
# the cluster's (several servers and nginx) beside WebKit's and the attack (a pong in 0.07 s there).
ALONE = (
    "tests/webkit/",
    "tests/attacks/test_origins.py::test_a_foreign_origin_never_makes_the_laptop_look_itself_up",
    "tests/browser/test_cluster.py",
    "tests/shell/test_cluster_command.py",
)


def pytest_itemcollected(item):
    if any(part in item.nodeid for part in ALONE):
        item.add_marker(pytest.mark.alone)
        cluster = "cluster" in item.nodeid
        item.add_marker(pytest.mark.xdist_group("cluster" if cluster else "apart"))


# A test's rough cost in seconds on a busy core, by where it lives (the first match counts). Only
# the order follows from it: make test's workers (pytest-xdist `worksteal`) each take a share of the
# list as it stands and steal the back half of the longest queue when done. Each share is dealt the
# same rough total, the slowest first: the run ends on quick tests with every worker busy, instead
# of one worker on a 40 s fault test after the others are done. A file is dealt whole where it fits
# in a share: its module's fixtures (a server, an archive of demo games) are then made once, not
# once in each worker that got one of its tests (four servers of 7-9 s for the accessibility pages).
COST = (
    ("tests/shell/test_readme_install.py", 60),
    ("tests/faults/", 25),
    ("tests/browser/test_stage_every_variant.py", 20),
    ("tests/browser/test_stage_sizes.py", 15),
    ("tests/browser/", 7),
    ("tests/attacks/", 5),
    ("tests/shell/", 2),
    ("tests/pages/", 0.7),
    ("tests/engine/", 0.2),
)


def cost(nodeid: str) -> float:
    return next((seconds for part, seconds in COST if nodeid.startswith(part)), 0.1)


@pytest.hookimpl(trylast=True)  # after -m and -k have left out what they leave out
def pytest_collection_modifyitems(config, items):
    workers = getattr(config, "workerinput", {}).get("workercount", 0)  # in each worker's collection
    if workers < 2:
        return
    sizes, left = [], len(items)
    for n in range(workers, 0, -1):  # how worksteal splits the list at the start
        sizes.append(left // n)
        left -= sizes[-1]
    files: dict[str, list] = {}
    for item in sorted(items, key=lambda i: -cost(i.nodeid)):  # each file's slowest tests first
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    shares: list[list] = [[] for _ in sizes]
    totals = [0.0] * workers
    for its in sorted(files.values(), key=lambda its: -sum(cost(i.nodeid) for i in its)):
        while its:  # to the share with the least so far; what does not fit there goes to the next
            w = min((w for w in range(workers) if len(shares[w]) < sizes[w]), key=lambda w: totals[w])
            taken, its = its[: sizes[w] - len(shares[w])], its[sizes[w] - len(shares[w]) :]
            shares[w] += taken
            totals[w] += sum(cost(i.nodeid) for i in taken)
    items[:] = [item for share in shares for item in share]


@pytest.fixture(scope="session")
def empty_database(tmp_path_factory):
    """An empty database, made once per test process by the store itself: each test's starts as a
    copy (a store made anew took 8 ms, one opened on a copy 3; nearly every test opens one)."""
    from engine.store.sqlite import SqliteStore

    path = tmp_path_factory.mktemp("empty") / "sobremesa.db"
    SqliteStore(path).close()
    return path


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch, empty_database):
    """Every test gets its own data directory and database; the user's own is never touched."""
    (tmp_path / "data").mkdir()
    shutil.copyfile(empty_database, tmp_path / "data" / "sobremesa.db")
    monkeypatch.setenv("SOBREMESA_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("SOBREMESA_DATABASE_URL", raising=False)
    tables.reset()
    yield tmp_path / "data"
    tables.reset()


@pytest.fixture
def plain_cards(monkeypatch):
    """Service tests play with numbered cards: they test the table, not the art."""
    for name in ("dixit", "odyssey"):
        if name in GAMES:
            plain = dataclasses.replace(GAMES[name].content, cards=lambda o, s: fake_cards(100))
            monkeypatch.setitem(GAMES, name, dataclasses.replace(GAMES[name], content=plain))


# ---- a throwaway PostgreSQL server for the PostgreSQL store's tests -------------------------------


@pytest.fixture(scope="session")
def postgres_server():
    """A throwaway PostgreSQL server for the session (deploy/cluster.py's, as `make cluster` uses):
    `make test` installs Debian's postgresql when it is missing."""
    import glob

    if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        pytest.skip("PostgreSQL is not installed (make test installs Debian's postgresql)")
    from deploy.cluster import throwaway_postgres

    with throwaway_postgres() as server:
        yield server


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def postgres_url(postgres_server, monkeypatch, request):
    """A fresh database for one test, chosen through SOBREMESA_DATABASE_URL like a real deployment."""
    import uuid

    import psycopg

    name = "t" + uuid.uuid4().hex[:12]
    with psycopg.connect(postgres_server % "postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = postgres_server % name
    monkeypatch.setenv("SOBREMESA_DATABASE_URL", url)
    tables.reset()
    yield url
    tables.reset()
