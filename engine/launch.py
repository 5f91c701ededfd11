"""Start the server: `sobremesa` (the command the package installs in the venv), `python -m
engine.launch`, and what `python run.py` ends with.

    sobremesa [--port 8501] [--no-browser]

Runs `streamlit run <project>/app.py` in this process from the project folder, so Streamlit reads
the project's own settings (.streamlit/config.toml) whatever folder it was started from. Once the
server answers its health check, prints the address phones open and opens the start page in the
default browser.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import urllib.error
import urllib.request
import webbrowser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PORT = 8501


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="sobremesa", description="Start Sobremesa on this computer.")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="the port to serve on (default 8501)")
    parser.add_argument("--no-browser", action="store_true", help="do not open the start page in a browser")
    return parser.parse_args(argv)


def healthy(port: int, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=timeout) as reply:
            return reply.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def can_open_browser() -> bool:
    """Linux without a display would open a text browser in this terminal: not that."""
    if sys.platform.startswith(("linux", "freebsd", "openbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def phones_address(port: int) -> str:
    from engine import tables

    try:
        return tables.join_base(port)
    except Exception:  # the database could not be read: the address without the host's pick
        from engine import address

        return address.base_url(port)


def laptop_link(port: int) -> str:
    """The start page with a ticket that works once (engine.laptop): the browser that opens it is
    this computer's. Without the database, the plain address."""
    from engine import laptop

    here = f"http://localhost:{port}"
    try:
        return laptop.one_time_link(here)
    except Exception:
        return here


def announce(port: int, open_browser: bool, wait: float = 180.0) -> None:
    """Once the server answers: where to go, on this laptop and on the phones."""
    deadline = time.monotonic() + wait
    while not healthy(port):
        if time.monotonic() > deadline:
            return
        time.sleep(0.25)
    here = laptop_link(port)  # printed; the browser opens another, so each works once
    lines = [
        "",
        "  Sobremesa is running.",
        f"  On this computer, open:   {here}",
        "  (that link makes one browser this laptop's: it hosts, uploads and sees Statistics. It works once,",
        "  within ten minutes; run the same command again for a new one)",
        f"  Phones on the same Wi-Fi: {phones_address(port)}",
        "  (the shared screen shows this address as a QR code; stop with Ctrl+C)",
        "",
    ]
    print("\n".join(lines), flush=True)
    if open_browser and can_open_browser():
        webbrowser.open(laptop_link(port))


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    app = ROOT / "app.py"
    if not app.is_file():
        print(
            f"Sobremesa's app.py is not in {ROOT}: run it from the Sobremesa folder (python run.py).", file=sys.stderr
        )
        return 1
    if healthy(args.port, timeout=0.5):
        print(f"Sobremesa is already running on port {args.port}.", flush=True)
        announce(args.port, not args.no_browser)
        return 0
    os.chdir(ROOT)  # Streamlit reads .streamlit/config.toml from the working directory
    from engine.connections import raise_open_files

    raise_open_files()  # a hall needs more sockets than a laptop's usual 1,024 open files
    threading.Thread(
        target=announce, args=(args.port, not args.no_browser), name="sobremesa-announce", daemon=True
    ).start()
    from streamlit.web import cli

    # Our own message (announce) replaces Streamlit's, which would also ask the internet for an external IP.
    cli.main(
        args=["run", str(app), "--server.port", str(args.port), "--logger.hideWelcomeMessage", "true"],
        prog_name="streamlit",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
