"""Browser-test fixtures: a real `streamlit run` server and headless Chromium.

    def test_x(serve, browser):
        srv = serve()                                          # app.py, or a script of its own
        page = browser.new_page(); page.goto(srv.url + "/table?room=KQZPB")
        ...
        srv.restart()                                      # same port, same data

`serve(script="app.py", env=None, args=())` starts
`python -m streamlit run <script> --server.port <free port> --server.headless true`
from the repository root with SOBREMESA_DATA set to a fresh tmp dir (unless
`env` sets it), waits for /_stcore/health, and kills the server at teardown.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("SOBREMESA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--headless",
    # Pinned, not left to the browser's defaults: the wall's sound may start without a gesture
    # (tests/browser/test_wall_keys_and_sound.py makes it blocked where it wants it blocked).
    "--autoplay-policy=no-user-gesture-required",
    # With no GPU, compositing is software either way: in the browser's own process it saves the
    # trips to a GPU process (7% of the browser tests' CPU, measured on the stage size tests).
    "--in-process-gpu",
]
START_TIMEOUT = 40.0
# Chromium's features the tests turn off beside Playwright's own. Chromium 156 opens each new
# context's window with its omnibox's two popups drawn in a renderer of their own (WebUI pages,
# chrome://omnibox-popup.top-chrome/), never shown headless: a blank page in a new context cost
# 1.27-1.33 s of a core with them, 0.44 s without (alternated). The suite makes a context per tab.
DISABLED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]


def browsers_disabled_features(left_out: Collection[int] = ()) -> list[set[str]]:
    """Each running Chromium browser process's disabled features but those of `left_out`'s pids, as
    Chromium reads them: the last `--disable-features` switch wins (Linux's /proc)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) in left_out:
            continue
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--remote-debugging-pipe" in argv and not any(a.startswith(b"--type=") for a in argv):
            last = [a.decode() for a in argv if a.startswith(b"--disable-features=")][-1:]
            found.append(set(last[0].split("=", 1)[1].split(",")) - {""} if last else set())
    return found


def launch_chromium(playwright, args: Sequence[str] = ()):
    """Headless Chromium with the suite's switches and features (CHROMIUM_ARGS, DISABLED_FEATURES)."""
    before = {int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()}
    probe = playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *args])
    theirs = set().union(*browsers_disabled_features(before))  # Playwright's, which ours must carry
    probe.close()
    features = ",".join(sorted(theirs | set(DISABLED_FEATURES)))
    return playwright.chromium.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *args, f"--disable-features={features}"]
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StreamlitServer:
    """One `streamlit run` process; `restart()` keeps port, env and data dir."""

    def __init__(
        self,
        script: str | Path,
        env: Mapping[str, str],
        args: Sequence[str] = (),
        port: int | None = None,
        log_path: Path | None = None,
        prefix: Sequence[str] = (),
    ) -> None:
        self.script = str(script)
        self.prefix = list(prefix)  # a command the server runs under (prlimit, for the attack tests)
        self.env = dict(env)
        self.args = list(args)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def python(self, code: str, *argv: str) -> str:
        """Run Python as a script or a bot would, `json`, `sys`, `tables` and `past_the_reveal`
        (tests/helpers.py: a script plays faster than a class watches) at hand, on the
        server's database; return what it printed. It runs in the test's own process: to the
        server it is another process all the same (it learns of the change through the store),
        and a fresh interpreter per call cost 0.3 s of a busy core each time."""
        keys = ("SOBREMESA_DATA", "SOBREMESA_DATABASE_URL")
        before = {k: os.environ.get(k) for k in keys}
        out = io.StringIO()
        from engine import tables
        from tests.helpers import past_the_reveal

        for k in keys:
            if self.env.get(k) is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = self.env[k]
        tables.reset()
        saved_argv = sys.argv
        sys.argv = ["-c", *argv]
        try:
            with contextlib.redirect_stdout(out):
                exec(
                    compile(code, "<script>", "exec"),
                    {
                        "__name__": "__main__",
                        "json": json,
                        "sys": sys,
                        "tables": tables,
                        "past_the_reveal": past_the_reveal,
                    },
                )
        finally:
            sys.argv = saved_argv
            tables.reset()
            for k, v in before.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        return out.getvalue()

    def start(self) -> StreamlitServer:
        cmd = [
            *self.prefix, sys.executable, "-m", "streamlit", "run", self.script,
            "--server.port", str(self.port),
            "--server.address", "127.0.0.1",
            "--server.headless", "true",
            "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none",
            *self.args,
        ]  # fmt: skip
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        finally:
            if self.log_path:
                log.close()
        self._wait_healthy()
        return self

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited early ({self.proc.returncode}):\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"streamlit not healthy after {START_TIMEOUT}s:\n{self.log()}")

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(proc.pid, sig)  # its own session: only what we started
            except ProcessLookupError:
                return
            try:
                proc.wait(wait)
                return
            except subprocess.TimeoutExpired:
                continue

    def restart(self) -> StreamlitServer:
        self.stop()
        return self.start()

    def log(self) -> str:
        if self.log_path and self.log_path.exists():
            return self.log_path.read_text(errors="replace")[-4000:]
        return "(no log)"

    def laptop_key(self) -> str:
        """The laptop's key (engine.laptop), which the server makes at its start, read from its SQLite file."""
        with sqlite3.connect(Path(self.env["SOBREMESA_DATA"]) / "sobremesa.db") as db:
            return db.execute("SELECT value FROM settings WHERE name = 'laptop_key'").fetchone()[0]

    def laptop_link(self, base: str | None = None) -> str:
        """A start command's link (engine.laptop.one_time_link), made in the server's own database."""
        from engine import laptop, tables

        before = os.environ.get("SOBREMESA_DATA")
        os.environ["SOBREMESA_DATA"] = self.env["SOBREMESA_DATA"]
        tables.reset()
        try:
            return laptop.one_time_link(base or self.url)
        finally:
            if before is None:
                os.environ.pop("SOBREMESA_DATA", None)
            else:
                os.environ["SOBREMESA_DATA"] = before
            tables.reset()

    def as_laptop(self, page):
        """`page` becomes the laptop's own browser, as the start command's link makes it (its cookie)."""
        page.context.add_cookies([{"name": "sobremesa_laptop", "value": self.laptop_key(), "url": self.url}])
        return page

    def post(self, path: str, timeout: float = 5) -> bytes:
        req = urllib.request.Request(self.url + path, method="POST")
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.read()

    def get(self, path: str, timeout: float = 5) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=timeout) as r:
            return r.read()


def boots(page, code: str) -> tuple[str | None, str | None]:
    """(the process that drew the page, the process its socket is on) for the room `code`; both
    None while its socket is not connected."""
    info = page.evaluate("c => window.__sobremesaPushRooms?.[c] ?? {}", code)
    return (info.get("boot"), info.get("socketBoot")) if info.get("connected") else (None, None)


def on_the_new_process(page, code: str, old: str, within: float = 30) -> None:
    """Wait until the page was drawn by a process other than `old` and its socket is connected to
    that one. After a restart either the page reloads itself (its socket reached the new process
    first) or Streamlit's own reconnection reruns it there before the socket is back: both are a
    working page. Polled from here: a wait set up in a page that reloads itself can miss the new one."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + within
    while True:
        try:
            drew, serves = boots(page, code)
            if drew not in (None, old) and drew == serves:
                return
        except PlaywrightError:  # the page is between two documents
            pass
        assert time.monotonic() < deadline, f"the page never came back on the new process ({old} before)"
        time.sleep(0.2)


def _server(folder: Path, script: str | Path = "app.py", env: Mapping[str, str] | None = None, args=()):
    data = folder / "data"
    data.mkdir()
    full_env = {
        **os.environ,
        "SOBREMESA_DATA": str(data),
        "SOBREMESA_COMPUTER_PLAYERS": "on",
        "SOBREMESA_CLOCK": "on",
        **(env or {}),
    }
    return StreamlitServer(script, full_env, args, log_path=folder / "server.log")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., StreamlitServer]]:
    """Factory: `serve(script="app.py", env={...}, args=[...])` -> started server."""
    servers: list[StreamlitServer] = []

    def start(
        script: str | Path = "app.py",
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> StreamlitServer:
        folder = tmp_path / f"server{len(servers)}"
        folder.mkdir()
        srv = _server(folder, script, env, args)
        servers.append(srv)
        return srv.start()

    yield start
    for srv in servers:
        srv.stop()


@pytest.fixture(scope="session")
def house(tmp_path_factory) -> Iterator[StreamlitServer]:
    """One app server per test worker, for the tests that only play and look at rooms they make
    themselves: nothing of theirs depends on a fresh server (no restart, no settings of its own, no
    archive or statistics read whole, no laptop). A server and its first page cost 1.5 s of a core;
    these tests are a third of the browser suite."""
    srv = _server(tmp_path_factory.mktemp("house")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium via Playwright (never `playwright install`)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} missing (apt-get install chromium; `make test` does)")
    from playwright.sync_api import sync_playwright

    if _RUNNING:  # another suite's conftest shares this fixture (tests/faults): one Playwright per process
        yield _RUNNING[0]
        return
    with sync_playwright() as p:
        b = launch_chromium(p)
        _RUNNING.append(b)
        yield b
        _RUNNING.clear()
        b.close()


_RUNNING: list = []


@pytest.fixture(autouse=True)
def close_pages(request):
    """Each test's pages close with it: the browser is the session's, and a page left open keeps
    reconnecting to its stopped server (and polling), which slowed every later test."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


def host_menu(page, timeout: float = 20_000):
    """Open the wall's host menu (issue 50: Esc on a wall that proved the host's key) and return it."""
    from playwright.sync_api import expect

    menu = page.locator(".st-key-host-menu")
    expect(page.locator(".sm-stage")).to_be_visible(timeout=timeout)
    for _ in range(20):
        if menu.is_visible():
            return menu
        page.wait_for_function(
            "() => Object.values(window.__sobremesaPushRooms || {}).some((r) => r.connected)", polling=100
        )
        page.keyboard.press("Escape")
        page.wait_for_timeout(250)
    expect(menu).to_be_visible(timeout=timeout)
    return menu
