"""Several Sobremesa server processes behind one address, on this machine: `make cluster N=2`.

    python deploy/cluster.py --processes 2 --port 8500

Starts N processes of the app on 127.0.0.1, ports PORT+1 to PORT+N, all on one PostgreSQL database
(SOBREMESA_DATABASE_URL, or a throwaway local one when it is unset: initdb in a temporary folder,
gone when the cluster stops), and Debian's nginx in front on PORT with deploy/nginx.conf (sticky by
the browser's device cookie, WebSockets passed through). Each process trusts the proxy's
X-Forwarded-For (SOBREMESA_TRUSTED_PROXIES) and shows players the proxy's address
(SOBREMESA_PUBLIC_URL, unless set). Ctrl-C stops everything it started.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL server in a temporary folder, on a Unix socket only: yields a URL with `%s` where
    the database's name goes. Needs Debian's postgresql (its binaries, not its service)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("PostgreSQL is not installed: apt-get install postgresql (or set SOBREMESA_DATABASE_URL)")
    bindir = os.path.dirname(found[-1])
    # Not under a private temporary folder: the server runs as the postgres user when we are root.
    root = Path(tempfile.mkdtemp(prefix="sobremesa-pg-"))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    as_owner: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
        as_owner = ["runuser", "-u", "postgres", "--"]
    port = str(free_port())

    def run(*cmd: str) -> None:
        subprocess.run([*as_owner, *cmd], check=True, capture_output=True, text=True)

    run(f"{bindir}/initdb", "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync")
    options = f"-p {port} -k {sock} -c listen_addresses='' -c fsync=off -c synchronous_commit=off"
    run(f"{bindir}/pg_ctl", "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start")
    try:
        yield f"postgresql://postgres@/%s?host={sock}&port={port}"
    finally:
        subprocess.run([*as_owner, f"{bindir}/pg_ctl", "-D", str(data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


def create_database(server: str, name: str) -> str:
    import psycopg

    with psycopg.connect(server % "postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return server % name


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


class Cluster:
    """N server processes and an nginx in front, started and stopped together."""

    def __init__(
        self, processes: int, port: int, database_url: str, folder: Path, env: dict | None = None, host: str = ""
    ):
        self.port = port
        self.host = host  # the proxy's address: every interface (phones on the network), or one (the tests: loopback)
        self.url = f"http://127.0.0.1:{port}"
        self.folder = folder
        self.ports = [free_port() for _ in range(processes)]
        self.env = {
            **os.environ,
            **(env or {}),
            "SOBREMESA_DATABASE_URL": database_url,
            "SOBREMESA_TRUSTED_PROXIES": "127.0.0.1,::1",
            # One secret for every process: a browser's cookies are then good wherever it lands.
            "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32),
        }
        self.env.setdefault("SOBREMESA_PUBLIC_URL", f"http://{_lan_address()}:{port}")
        self.servers: dict[int, subprocess.Popen] = {}
        self.proxy: subprocess.Popen | None = None

    def start_server(self, port: int) -> None:
        data = self.folder / f"data-{port}"  # per process: nothing players share lives here
        data.mkdir(exist_ok=True)
        log = open(self.folder / f"server-{port}.log", "ab")
        cmd = [
            sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
            "--server.port", str(port), "--server.address", "127.0.0.1", "--server.headless", "true",
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
        ]  # fmt: skip
        env = {**self.env, "SOBREMESA_DATA": str(data)}
        self.servers[port] = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()

    def start(self) -> Cluster:
        for port in self.ports:
            self.start_server(port)
        deadline = time.monotonic() + 120
        for port in self.ports:
            while not healthy(f"http://127.0.0.1:{port}"):
                if self.servers[port].poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    log = (self.folder / f"server-{port}.log").read_text(errors="replace")[-3000:]
                    raise RuntimeError(f"the server on port {port} did not start:\n{log}")
                time.sleep(0.2)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(nginx):
            self.stop()
            raise SystemExit("nginx is not installed: apt-get install nginx")
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.folder / sub).mkdir(exist_ok=True)
        servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;" for p in self.ports)
        conf = (HERE / "nginx.conf").read_text()
        conf = conf.replace("@PREFIX@", str(self.folder)).replace("@SERVERS@", servers)
        conf = conf.replace("@LISTEN@", f"{self.host}:{self.port}" if self.host else str(self.port))
        (self.folder / "nginx.conf").write_text(conf)
        self.proxy = subprocess.Popen(
            [nginx, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "nginx.out", "ab"),
            start_new_session=True,
        )
        while not healthy(self.url):
            if self.proxy.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("nginx did not start: " + (self.folder / "nginx.out").read_text()[-2000:])
            time.sleep(0.1)
        return self

    def kill(self, port: int) -> None:
        """kill -9 one process (a crash), as the failure tests do."""
        proc = self.servers.pop(port)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop(self) -> None:
        for proc in [*self.servers.values(), *([self.proxy] if self.proxy else [])]:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10  # one wait for all: a server slow to stop held Ctrl-C 10 s each
        for proc in [*self.servers.values(), *([self.proxy] if self.proxy else [])]:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
        self.servers.clear()
        self.proxy = None


def laptop_link(cluster) -> str:
    """The start page with a one-time link of the laptop's (engine/laptop.py), from the cluster's database."""
    found = subprocess.run(
        [sys.executable, "-c", "from engine import laptop; print(laptop.one_time_link('').split('=', 1)[1])"],
        cwd=ROOT,
        env=cluster.env,
        capture_output=True,
        text=True,
    )
    return f"{cluster.url}/?laptop={found.stdout.strip()}" if found.returncode == 0 else cluster.url


def _lan_address() -> str:
    sys.path.insert(0, str(ROOT))
    from engine import address

    return address.best()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--port", type=int, default=8500)
    ap.add_argument("--listen", default="", help="the proxy's address (default: every interface)")
    args = ap.parse_args()
    # Ctrl-C stops everything, even when this command was started with SIGINT ignored (a job put in
    # the background by a non-interactive shell inherits that, and Python then never raises
    # KeyboardInterrupt: the cluster command's test hung that way in full runs started with `&`).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    folder = Path(tempfile.mkdtemp(prefix="sobremesa-cluster-"))
    with contextlib.ExitStack() as stack:
        url = os.environ.get("SOBREMESA_DATABASE_URL")
        if not url:
            url = create_database(stack.enter_context(throwaway_postgres()), "sobremesa")
            print("No SOBREMESA_DATABASE_URL: a throwaway PostgreSQL, gone when the cluster stops.")
        cluster = Cluster(args.processes, args.port, url, folder, host=args.listen).start()
        stack.callback(cluster.stop)
        link = laptop_link(cluster)  # before "Open": a Ctrl-C right after it finds nothing half done
        print(
            f"{args.processes} processes on ports {', '.join(map(str, cluster.ports))}, behind nginx on port {args.port}."
        )
        print(f"Open {cluster.env['SOBREMESA_PUBLIC_URL']} (on this computer: {cluster.url}). Ctrl-C stops everything.")
        print(f"This computer's own browser, to host, upload and see the whole archive: {link}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
            while all(p.poll() is None for p in cluster.servers.values()):
                time.sleep(1)


if __name__ == "__main__":
    main()
