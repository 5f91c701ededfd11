"""`make cluster`'s command as the README's "Serving many rooms" gives it: N processes behind nginx
on a throwaway PostgreSQL, one address that answers, and Ctrl-C stops everything it started."""

from __future__ import annotations

import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from deploy.cluster import free_port

ROOT = Path(__file__).resolve().parents[2]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


@pytest.mark.skipif(
    not glob.glob("/usr/lib/postgresql/*/bin/initdb")
    or not (shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")),
    reason="needs Debian's postgresql and nginx (make test installs them)",
)
def test_the_cluster_command_serves_one_address_and_stops_on_ctrl_c(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make cluster N=2" in readme.split("## Serving many rooms")[1].split("\n## ")[0]
    assert "deploy/cluster.py --processes $(N) --port $(PORT)" in (ROOT / "Makefile").read_text()
    if not shutil.which("git") or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout to make a clean copy")
    # A clean copy of the working tree (tracked files as they are now), as a new user gets it.
    tree = subprocess.run(["git", "stash", "create"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", tree or "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tmp_path)], input=archive, check=True)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("SOBREMESA_DATABASE_URL", "SOBREMESA_DATA")}
    proc = subprocess.Popen(
        [sys.executable, "deploy/cluster.py", "--processes", "2", "--port", str(port), "--listen", "127.0.0.1"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    said = []
    try:
        for line in proc.stdout:
            said.append(line)
            if line.startswith("Open "):
                break
        # Read on in the background: a full pipe would block the command's own logging (and so its
        # shutdown) once the test stops reading.
        threading.Thread(target=lambda: said.extend(proc.stdout), daemon=True).start()
        assert any("2 processes on ports" in line for line in said), "".join(said)
        backends = [int(p) for p in re.findall(r"\d+", "".join(said).split("on ports ")[1].split("behind")[0])]
        assert len(backends) == 2
        assert answers(f"http://127.0.0.1:{port}/_stcore/health")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
            assert "sobremesa_device=" in (r.headers.get("Set-Cookie") or "")  # the sticky key, from the app
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in its terminal
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            where = subprocess.run(  # where the command was stuck, for the next person
                [str(Path(sys.executable).parent / "py-spy"), "dump", "--pid", str(proc.pid)],
                capture_output=True,
                text=True,
            ).stdout
            raise AssertionError(
                "Ctrl-C did not stop the cluster in 30 s:\n" + "".join(said[-40:]) + "\n" + where[-3000:]
            ) from None
        time.sleep(0.5)
        assert not answers(f"http://127.0.0.1:{port}/_stcore/health")
        for backend in backends:
            assert not answers(f"http://127.0.0.1:{backend}/_stcore/health")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            # Its servers run in sessions of their own: a command that was stuck leaves them behind.
            subprocess.run(["pkill", "-9", "-f", str(tmp_path)], capture_output=True)
