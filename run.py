"""Start Sobremesa on this computer: the same command on Windows, macOS and Linux.

    python run.py                 (Windows: py run.py also works)
    python run.py --port 8600
    python run.py --no-browser

Needs only Python 3.11 or newer, and only its standard library: it creates (or reuses) a virtual
environment in `.venv` beside this file, installs Sobremesa in it the first time and whenever
pyproject.toml changed (a stamp named after pyproject's hash, the one the Makefile writes too),
then starts the server from this folder (engine/launch.py), which prints the address the phones
open and opens the start page in the browser.
"""

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
NEEDED = (3, 11)


def venv_python(venv, windows=os.name == "nt"):
    """The venv's interpreter in either layout (Scripts\\python.exe on Windows, bin/python
    elsewhere), this system's first; None if there is none yet."""
    layouts = [Path("Scripts") / "python.exe", Path("bin") / "python"]
    if not windows:
        layouts.reverse()
    for relative in layouts:
        if (venv / relative).is_file():
            return venv / relative
    return None


def digest(pyproject):
    """The first 12 hex digits of pyproject.toml's SHA-1: what the Makefile's stamp is named after."""
    return hashlib.sha1(Path(pyproject).read_bytes()).hexdigest()[:12]


def installed(venv, stamp):
    """`make` installs the app with its test tools (.installed-*); this script the app alone (.app-*)."""
    return (venv / (".installed-" + stamp)).exists() or (venv / (".app-" + stamp)).exists()


def run(command):
    print("  " + " ".join(str(c) for c in command), flush=True)
    subprocess.check_call([str(c) for c in command], cwd=str(ROOT))


def set_up(venv=VENV):
    """The venv's Python, with Sobremesa installed as pyproject.toml now says."""
    python = venv_python(venv)
    ever_installed = any(venv.glob(".installed-*")) or any(venv.glob(".app-*"))
    if python is None or not ever_installed:  # none yet, or one whose first setting up failed half-way
        print(
            "First start: setting up Sobremesa in " + str(venv) + " (a few minutes; needs the internet once).",
            flush=True,
        )
        run([sys.executable, "-m", "venv", *(["--clear"] if venv.exists() else []), venv])
        python = venv_python(venv)
        if python is None:
            raise SystemExit("Could not create a virtual environment in " + str(venv) + ".")
    stamp = digest(ROOT / "pyproject.toml")
    if not installed(venv, stamp):
        print("Installing Sobremesa and what it needs (only when it changed)...", flush=True)
        run([python, "-m", "pip", "install", "--disable-pip-version-check", "--editable", ROOT])
        for old in venv.glob(".app-*"):
            old.unlink()
        (venv / (".app-" + stamp)).touch()
    return python


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python run.py", description="Start Sobremesa on this computer.")
    parser.add_argument("--port", type=int, default=8501, help="the port to serve on (default 8501)")
    parser.add_argument("--no-browser", action="store_true", help="do not open the start page in a browser")
    args = parser.parse_args(argv)
    if sys.version_info < NEEDED:
        print(
            "Sobremesa needs Python 3.11 or newer; this is " + sys.version.split()[0] + ". "
            "Install a newer one from https://www.python.org/downloads/",
            file=sys.stderr,
        )
        return 1
    try:
        python = set_up()
    except (subprocess.CalledProcessError, OSError) as exc:
        print(
            "\nSetting Sobremesa up did not work (" + str(exc) + "). Check the internet connection and run "
            "the same command again. On Debian or Ubuntu, install Python's venv module first: "
            "sudo apt install python3-venv",
            file=sys.stderr,
        )
        return 1
    command = [str(python), "-m", "engine.launch", "--port", str(args.port)]
    if args.no_browser:
        command.append("--no-browser")
    server = subprocess.Popen(command, cwd=str(ROOT))
    try:
        return server.wait()
    except KeyboardInterrupt:  # Ctrl+C reaches the server too: give it time to stop
        try:
            return server.wait(15)
        except (KeyboardInterrupt, subprocess.TimeoutExpired):
            server.terminate()
            return server.wait()


if __name__ == "__main__":
    sys.exit(main())
