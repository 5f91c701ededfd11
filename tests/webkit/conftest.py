"""WebKit-test fixtures: Safari's engine (Debian's WebKitGTK, driven by Selenium through
WebKitWebDriver) on an X display of our own (Xvfb), against the `serve` fixture's real server.

    def test_x(serve, webkit):
        srv = serve()
        wall = webkit.wall(); wall.get(srv.url + "/table?room=KQZP")
        phone = webkit.phone(); phone.get(srv.url + "/play?room=KQZP")
        tap(phone, find(phone, "button", "Take a seat"))

Every iPhone browser is WebKit. Playwright cannot drive Debian's WebKit (it wants a WebKit build of
its own), so these use Selenium's `webdriver.WebKitGTK`. WebKitGTK has no headless mode: it needs a
display, so the session starts one Xvfb on a free display (`-displayfd`) and hands DISPLAY to
WebKitWebDriver. A missing driver or Xvfb fails the tests with the command that installs them
(`make test` runs it): the suite is never skipped for want of them.

Browsers are few and reused: the walls and phones a test asked for live for the whole session,
the next test takes them again, and each is left on about:blank between tests. A phone's window is sized so that its
page's viewport is an iPhone's, 390 x 844 CSS pixels, with an iPhone's Safari user agent; the wall's
viewport is 1280 x 720.

Environment: as root in a container, WebKitGTK 2.50 (Debian 12) needs no switch: neither
WEBKIT_DISABLE_COMPOSITING_MODE nor WEBKIT_DISABLE_DMABUF_RENDERER (Xvfb's software GL draws it),
and no sandbox switch, since with the webkit2gtk-4.1 API the bubblewrap sandbox is opt-in and
MiniBrowser turns it on only with --enable-sandbox (its web process runs unsandboxed here; a WebKitGTK
that sandboxes by default where bwrap cannot run would want WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS=1).
No D-Bus session is needed. One cosmetic tweak: MiniBrowser's toolbar keeps its window at least 447 px
wide, wider than an iPhone, so the browsers read a GTK stylesheet of ours (XDG_CONFIG_HOME) that
shrinks the toolbar's widgets; it styles MiniBrowser's own widgets, never the page (WebKitGTK draws a
page's form controls itself), and `viewport()` then sizes each window so that the page gets exactly
the wanted viewport.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.conftest import serve  # noqa: F401  (the same real-server fixture as the Chromium tests)

INSTALL = "apt-get install webkit2gtk-driver xvfb"
DRIVER = os.environ.get("SOBREMESA_WEBKITWEBDRIVER", "WebKitWebDriver")
PHONE = (390, 844)  # an iPhone 12 to 15's viewport in CSS pixels
WALL = (1280, 720)
IPHONE_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
# MiniBrowser's toolbar, shrunk (see above): GTK 3 reads $XDG_CONFIG_HOME/gtk-3.0/gtk.css.
GTK_CSS = (
    "* { font-size: 1px; min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0;"
    " -gtk-icon-transform: scale(0.01); }\n"
)
START_TIMEOUT = 30.0


def missing(what: str) -> None:
    pytest.fail(
        f"{what} is missing: the WebKit tests need Debian's WebKitGTK driver and Xvfb "
        f"(as root: apt-get update && {INSTALL}; `make test` does it)",
        pytrace=False,
    )


class Xvfb:
    """An X server on the first free display; `display` is ":N"."""

    def __init__(self, log: Path) -> None:
        binary = shutil.which("Xvfb")
        if binary is None:
            missing("Xvfb")
        read, write = os.pipe()
        with open(log, "ab") as out:
            # 2000 px tall: a phone's window with its toolbar fits whole.
            self.proc = subprocess.Popen(
                [binary, "-displayfd", str(write), "-screen", "0", "1920x2000x24", "-nolisten", "tcp"],
                pass_fds=(write,),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        os.close(write)
        number = b""
        deadline = time.monotonic() + START_TIMEOUT
        try:
            while not number.endswith(b"\n") and time.monotonic() < deadline:
                chunk = os.read(read, 16)
                if not chunk:
                    break
                number += chunk
        finally:
            os.close(read)
        if not number.strip().isdigit():
            self.stop()
            raise RuntimeError(f"Xvfb did not start:\n{log.read_text(errors='replace')[-2000:]}")
        self.display = ":" + number.decode().strip()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class WebKit:
    """The session's WebKitGTK browsers. `phone()` and `wall()` hand out one not yet taken by the
    running test, starting it the first time."""

    def __init__(self, display: str, logs: Path) -> None:
        self.display, self.logs = display, logs
        config = logs / "config" / "gtk-3.0"
        config.mkdir(parents=True)
        (config / "gtk.css").write_text(GTK_CSS)
        self.env = {**os.environ, "DISPLAY": display, "XDG_CONFIG_HOME": str(logs / "config")}
        self.idle: dict[str, list] = {"phone": [], "wall": []}
        self.taken: list[tuple[str, object]] = []
        self.all: list = []

    def _start(self, kind: str):
        from selenium import webdriver

        options = webdriver.WebKitGTKOptions()
        # Browser arguments need the browser's path. Given one, WebKitWebDriver no longer adds
        # --automation (without it MiniBrowser never answers), and it names the browser after the
        # binary's --version ("WebKitGTK"), which the default browserName "MiniBrowser" fails to match.
        options.binary_location = self.browser_path
        options.add_argument("--automation")
        options.set_capability("browserName", None)
        if kind == "phone":
            options.add_argument(f"--user-agent={IPHONE_UA}")
        n = len(self.all)
        service = webdriver.WebKitGTKService(
            executable_path=self.driver_path, env=self.env, log_output=str(self.logs / f"webkit{n}-{kind}.log")
        )
        driver = webdriver.WebKitGTK(options=options, service=service)
        self.all.append(driver)
        driver.set_script_timeout(20)
        viewport(driver, *(PHONE if kind == "phone" else WALL))
        return driver

    @property
    def browser_path(self) -> str:
        found = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))
        if not found:
            missing("MiniBrowser (WebKitGTK's, a dependency of webkit2gtk-driver)")
        return found[-1]

    @property
    def driver_path(self) -> str:
        path = shutil.which(DRIVER)
        if path is None:
            missing("WebKitWebDriver")
        return path

    def _take(self, kind: str):
        driver = self.idle[kind].pop() if self.idle[kind] else self._start(kind)
        self.taken.append((kind, driver))
        return driver

    def phone(self):
        return self._take("phone")

    def wall(self):
        return self._take("wall")

    def give_back(self) -> None:
        for kind, driver in self.taken:
            try:
                driver.get("about:blank")  # closes the page's sockets before its server stops
                self.idle[kind].append(driver)
            except Exception:  # a browser that died is not reused
                self.all.remove(driver)
                _quit(driver)
        self.taken.clear()

    def close(self) -> None:
        for driver in self.all:
            _quit(driver)


def _quit(driver) -> None:
    try:
        driver.quit()
    except Exception:
        pass


def viewport(driver, width: int, height: int) -> None:
    """Size the window so that the page's viewport is width x height CSS pixels (the window holds
    MiniBrowser's toolbar too)."""
    driver.set_window_size(width, height)
    for _ in range(3):
        inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
        if inner == [width, height]:
            return
        size = driver.get_window_size()
        driver.set_window_size(size["width"] + width - inner[0], size["height"] + height - inner[1])
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    assert inner == [width, height], f"viewport {inner}, wanted {[width, height]}"


@pytest.fixture(scope="session")
def webkit_session(tmp_path_factory) -> Iterator[WebKit]:
    if shutil.which(DRIVER) is None:
        missing("WebKitWebDriver")
    logs = tmp_path_factory.mktemp("webkit")
    x = Xvfb(logs / "xvfb.log")
    browsers = WebKit(x.display, logs)
    try:
        yield browsers
    finally:
        browsers.close()
        x.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when == "call":
        item.webkit_failed = outcome.get_result().failed


@pytest.fixture
def webkit(webkit_session: WebKit, request) -> Iterator[WebKit]:
    """`webkit.phone()` / `webkit.wall()`: WebKitGTK windows for this test. A failed test leaves a
    screenshot of each in the session's log folder."""
    try:
        yield webkit_session
    finally:
        if getattr(request.node, "webkit_failed", False):
            for n, (kind, driver) in enumerate(webkit_session.taken):
                shot = webkit_session.logs / f"{request.node.name}-{n}-{kind}.png"
                try:
                    driver.save_screenshot(str(shot))
                    print(f"screenshot: {shot} ({driver.current_url})")
                except Exception:
                    pass
        webkit_session.give_back()
