"""README's Linux steps, as a new user follows them: a source zip of this checkout (no git inside),
unpacked elsewhere, then the start command as printed. The venv is made from scratch (pip's cache
keeps that to a minute). The one change: a free port, since others may serve on 8501. The first
start prints a handful of lines, pip's output going to .venv/setup.log; a start whose install fails
first (the same fresh copy, so one install serves both checks) names that log."""

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def linux_steps() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("### Linux", 1)[1].split("\n### ", 1)[0]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


def test_the_readme_linux_steps_from_a_source_zip(tmp_path):
    steps = linux_steps()
    unpack, enter = "unzip sobremesa.zip", "cd sobremesa"
    assert f"`{unpack}`" in steps and f"`{enter}`" in steps
    start = re.search(r"```\n\s*(python3 run\.py)\n\s*```", steps).group(1)
    if not shutil.which("git") or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout to make the zip")
    # The working tree as it is (committed or not), as `git archive` packs a release.
    tree = subprocess.run(["git", "stash", "create"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    subprocess.run(
        [
            "git",
            "archive",
            "--format=zip",
            "--prefix=sobremesa/",
            "-o",
            str(tmp_path / "sobremesa.zip"),
            tree or "HEAD",
        ],
        cwd=ROOT,
        check=True,
    )
    if shutil.which("unzip"):
        subprocess.run(unpack.split(), cwd=tmp_path, check=True, capture_output=True)
    else:
        import zipfile

        zipfile.ZipFile(tmp_path / "sobremesa.zip").extractall(tmp_path)
    folder = tmp_path / enter.split()[1]
    assert (folder / "run.py").is_file() and not (folder / ".git").exists()

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "SOBREMESA_HOST", "SOBREMESA_PUBLIC_URL")}
    env["SOBREMESA_DATA"] = str(tmp_path / "data")
    env["BROWSER"] = "true"  # the command as printed opens a browser: here, one that does nothing
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    # First a start whose install fails: pip's own PIP_NO_INDEX leaves it no package to find (no
    # hook in run.py). The venv step works; the install step fails and names the log.
    failed = subprocess.run(
        [*start.split(), "--port", str(port)],
        cwd=folder,
        env={**env, "PIP_NO_INDEX": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    said = failed.stdout + failed.stderr
    setup_log = folder / ".venv" / "setup.log"
    assert failed.returncode == 1, said
    assert 'stopped at the step "Installing what Sobremesa needs"' in said and f"The full log is {setup_log}" in said
    assert "No matching distribution" in setup_log.read_text() or "Could not find" in setup_log.read_text()
    assert len(said.splitlines()) <= 15, said

    # Then the start as printed: the venv made again, everything installed, a handful of lines.
    log = tmp_path / "run.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*start.split(), "--port", str(port)],
            cwd=folder,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 600
        while not healthy(port):
            assert proc.poll() is None, f"exited ({proc.returncode}):\n{log.read_text()[-3000:]}"
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.5)
        assert (folder / ".venv").is_dir()
        while f":{port}" not in log.read_text():  # the address, printed once the server answers
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
        printed = log.read_text()
        assert len(printed.splitlines()) <= 15, printed
        assert "Setting up Sobremesa" in printed and str(setup_log) in printed
        assert "pip" in setup_log.read_text() and "WARNING" not in printed
    finally:
        for sig in (signal.SIGINT, signal.SIGKILL):  # Ctrl+C first, as the README says
            try:
                os.killpg(proc.pid, sig)
                proc.wait(15)
                break
            except ProcessLookupError:
                break
            except subprocess.TimeoutExpired:
                continue
