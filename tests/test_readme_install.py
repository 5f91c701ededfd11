"""README's Linux steps, as a new user follows them: a source zip of this checkout (no git inside),
unpacked elsewhere, then the start command as printed. The venv is made from scratch (pip's cache
keeps that to a minute). The one change: a free port, since others may serve on 8501."""

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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
