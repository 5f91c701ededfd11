"""Start Sobremesa on this computer: the same command on Windows, macOS and Linux.

    python run.py                 (Windows: py run.py also works)
    python run.py --port 8600
    python run.py --no-browser

Needs only Python 3.11 or newer, and only its standard library: it creates (or reuses) a virtual
environment in `.venv` beside this file (or uses the one there, removing nothing from it), installs
Sobremesa in it the first time and whenever pyproject.toml changed (a stamp named after pyproject's hash, the one the Makefile writes too),
then starts the server from this folder (engine/launch.py), which prints the address the phones
open and opens the start page in the browser. Setting up prints one line a step; pip's output goes
to `.venv/setup.log`, which a failed step names.
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
NEEDED = (3, 11)
LOG_NAME = "setup.log"  # in the venv folder: the setting up's full output
DOT_SECONDS = 2  # while a step works, a dot this often: it is alive
MAKING = "Making its own Python environment"  # the first step
UNFINISHED = ".run-unfinished"  # in a venv this script began making: it may make that one again
# --no-compile: pip would compile every module of every package (8 of a first install's 20 s here);
# Python compiles the few the app imports on its first start instead.
PIP_INSTALL = ["pip", "install", "--disable-pip-version-check", "--progress-bar", "off", "--no-compile", "--editable"]


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


class StepFailed(Exception):
    """A step of the setting up that did not work: its name, and where its output went."""

    def __init__(self, title, log, why):
        super().__init__(title)
        self.title, self.log, self.why = title, log, why


class Log:
    """The setting up's full output (pip's ~150 lines), kept out of the terminal: `setup.log` in
    the venv folder, written after each step (a step's output is held until it ends, since the
    first step, `venv --clear`, empties that folder). A venv folder that cannot be written to gives
    a log in the system's temporary folder."""

    def __init__(self, venv):
        self.path, self.started = Path(venv) / LOG_NAME, False

    def write(self, text):
        for path in (self.path, Path(tempfile.gettempdir()) / ("sobremesa-" + LOG_NAME)):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                with path.open("a" if self.started else "w", encoding="utf-8", errors="replace") as out:
                    out.write(text)
            except OSError:
                continue
            self.path, self.started = path, True
            return

    def why(self, most=4):
        """The log's own words for what went wrong: pip's ERROR lines, else its last lines."""
        try:
            lines = [line.strip() for line in self.path.read_text(encoding="utf-8", errors="replace").splitlines()]
        except OSError:
            return []
        errors = [line for line in lines if line.startswith("ERROR:")]
        return list(dict.fromkeys(errors))[:most] or [line for line in lines if line][-most:]


def step(title, command, log):
    """One step: one line, a dot every few seconds while it works (a first pip install is quiet
    for a minute at a time), then "done"; what the command prints goes to `log`."""
    print("  " + title + " ", end="", flush=True)
    command = [str(c) for c in command]
    try:
        proc = subprocess.Popen(
            command, cwd=str(ROOT), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
    except OSError as exc:
        log.write("$ " + " ".join(command) + "\n" + str(exc) + "\n")
        print("failed", flush=True)
        raise StepFailed(title, log, str(exc)) from exc
    while True:
        try:
            output, _ = proc.communicate(timeout=DOT_SECONDS)  # a timeout keeps what was read so far
            break
        except subprocess.TimeoutExpired:
            print(".", end="", flush=True)
    log.write("$ " + " ".join(command) + "\n" + output.decode("utf-8", "replace") + "\n")
    if proc.returncode != 0:
        print(" failed", flush=True)
        raise StepFailed(title, log, "it ended with code " + str(proc.returncode))
    print(" done", flush=True)


def set_up(venv=VENV):
    """The venv's Python, with Sobremesa installed as pyproject.toml now says. One line a step;
    the full output in the venv's setup.log.

    Only a venv this script began making and never finished (it marks it `UNFINISHED` until its
    install is done: Debian without python3-venv leaves one with no pip) is made again from
    nothing. Into any other venv that works, a developer's own with their tools in it, it installs
    what is missing, and removes nothing."""
    log = Log(venv)
    python = venv_python(venv)
    unfinished = venv / UNFINISHED
    stamp = digest(ROOT / "pyproject.toml")
    if python is None or unfinished.exists():
        print("Setting up Sobremesa (first start, about a minute; it needs the internet once)...", flush=True)
        title = MAKING + " in " + str(venv)
        again = unfinished.exists()  # ours, half made: made again from nothing
        venv.mkdir(parents=True, exist_ok=True)
        unfinished.touch()
        step(title, [sys.executable, "-m", "venv", *(["--clear"] if again else []), venv], log)
        unfinished.touch()  # --clear emptied the folder
        python = venv_python(venv)
        if python is None:
            raise StepFailed(title, log, "it made no Python there")
    elif not installed(venv, stamp):
        print("Updating Sobremesa's setup (pyproject.toml changed, or a venv of your own)...", flush=True)
    if not installed(venv, stamp):
        step("Installing what Sobremesa needs", [python, "-m", *PIP_INSTALL, ROOT], log)
        for old in venv.glob(".app-*"):
            old.unlink()
        (venv / (".app-" + stamp)).touch()
        unfinished.unlink(missing_ok=True)
        print("  Ready. The full setup log: " + str(log.path), flush=True)
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
    except KeyboardInterrupt:  # Ctrl+C while setting up: the next start makes the venv again
        print("\nStopped before Sobremesa was set up. Run the same command to go on.", file=sys.stderr)
        return 130
    except StepFailed as failed:
        said = "".join("    " + line + "\n" for line in failed.log.why())
        advice = "Check the internet connection and run the same command again."
        if failed.title.startswith(MAKING):
            advice += " On Debian or Ubuntu, install Python's venv module first: sudo apt install python3-venv"
        print(
            f'\nSetting Sobremesa up stopped at the step "{failed.title}" ({failed.why}).\n'
            f"The full log is {failed.log.path}; it says:\n{said}{advice}",
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
