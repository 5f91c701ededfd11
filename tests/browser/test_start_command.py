"""`python run.py` as a teacher runs it, from another folder: the server answers, its start page
creates a Dixit room, and the shared screen shows the QR code."""

import os
import signal
import subprocess
import sys
import time
import urllib.request

from playwright.sync_api import expect

from tests.browser.conftest import ROOT, free_port

WAIT = 30_000


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


def stop(proc: subprocess.Popen) -> None:
    """The whole tree it started (run.py, then the server): its own session."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(10)
            return
        except subprocess.TimeoutExpired:
            continue


def test_the_start_command_from_another_folder(browser, tmp_path):
    elsewhere = tmp_path / "somewhere-else"
    elsewhere.mkdir()
    port = free_port()
    env = {**os.environ, "SOBREMESA_DATA": str(tmp_path / "data")}
    env.pop("SOBREMESA_HOST", None)
    env.pop("SOBREMESA_PUBLIC_URL", None)
    log = tmp_path / "run.log"
    python = getattr(sys, "_base_executable", sys.executable)  # the system's Python, not the venv's
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [python, str(ROOT / "run.py"), "--no-browser", "--port", str(port)],
            cwd=elsewhere,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60  # the venv exists: reused, no pip
        while not healthy(port):
            assert proc.poll() is None, f"run.py exited ({proc.returncode}):\n{log.read_text()}"
            assert time.monotonic() < deadline, f"no health check after 60 s:\n{log.read_text()}"
            time.sleep(0.2)
        deadline = time.monotonic() + 20
        while "Phones on the same Wi-Fi: http" not in log.read_text():
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        assert "Installing" not in log.read_text()

        page = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.get_by_role("button", name="Create the room").wait_for(timeout=WAIT)
        # The project's own settings were read although the command started elsewhere: its theme
        # (on the start page: the wall's stage is letterboxed in a dark frame of its own).
        background = page.evaluate("getComputedStyle(document.querySelector('.stApp')).backgroundColor")
        assert background == "rgb(251, 245, 236)"
        page.get_by_role("button", name="Create the room").click(timeout=WAIT)
        expect(page.get_by_text("Join Dixit")).to_be_visible(timeout=WAIT)
        expect(page.locator("img.sm-qr")).to_be_visible(timeout=WAIT)
        link = page.locator(".sm-url").inner_text()  # the join link as typed: host:port/CODE
        code = page.url.split("room=")[1].split("&")[0]
        assert link.endswith(f":{port}/{code}")
        page.context.close()
    finally:
        stop(proc)
    assert proc.poll() is not None
