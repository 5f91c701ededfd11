"""The one start command (`python run.py`): standard library only, and it finds the venv's Python
on every system."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import run  # noqa: E402  (the script at the project's root)


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "run.py imports nothing of the project's own"
            found.add(node.module.split(".")[0])
    return found


def test_the_start_command_needs_only_the_standard_library():
    modules = imported_modules(ROOT / "run.py")
    assert modules, "no imports found: the test reads the wrong file"
    assert modules - set(sys.stdlib_module_names) == set()


def test_the_start_command_runs_on_a_bare_python_and_says_what_it_does():
    """Its help comes from a Python with no site-packages at all (-S -I), before any setup."""
    done = subprocess.run(
        [sys.executable, "-S", "-I", str(ROOT / "run.py"), "--help"],
        capture_output=True,
        text=True,
        timeout=30,
        cwd="/",
    )
    assert done.returncode == 0, done.stderr
    assert "--port" in done.stdout and "--no-browser" in done.stdout


def test_the_venvs_python_in_both_layouts(tmp_path):
    assert run.venv_python(tmp_path / "none") is None
    windows = tmp_path / "win" / ".venv"
    (windows / "Scripts").mkdir(parents=True)
    (windows / "Scripts" / "python.exe").write_bytes(b"MZ")  # a Windows venv, faked
    assert run.venv_python(windows) == windows / "Scripts" / "python.exe"
    posix = tmp_path / "posix" / ".venv"
    (posix / "bin").mkdir(parents=True)
    (posix / "bin" / "python").write_text("#!/bin/sh\n")
    assert run.venv_python(posix) == posix / "bin" / "python"
    # This checkout's own venv, the one `make` set up.
    if (ROOT / ".venv" / "bin" / "python").exists():
        assert run.venv_python(ROOT / ".venv") == ROOT / ".venv" / "bin" / "python"
    # With both, the system's own layout wins.
    (posix / "Scripts").mkdir()
    (posix / "Scripts" / "python.exe").write_bytes(b"MZ")
    assert run.venv_python(posix, windows=True) == posix / "Scripts" / "python.exe"
    assert run.venv_python(posix, windows=False) == posix / "bin" / "python"


def test_the_stamp_is_the_makefiles(tmp_path):
    stamp = run.digest(ROOT / "pyproject.toml")
    made = subprocess.run(
        "(sha1sum pyproject.toml 2>/dev/null || shasum -a 1 pyproject.toml) | cut -c1-12",
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert made.stdout.strip() == stamp  # the Makefile's own line
    assert (
        "(sha1sum pyproject.toml 2>/dev/null || shasum -a 1 pyproject.toml) | cut -c1-12"
        in (ROOT / "Makefile").read_text()
    )
    venv = tmp_path / ".venv"
    venv.mkdir()
    assert not run.installed(venv, stamp)
    (venv / f".app-{stamp}").touch()
    assert run.installed(venv, stamp)


def test_an_existing_venv_with_its_stamp_is_reused_without_pip(tmp_path, monkeypatch):
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    (venv / f".installed-{run.digest(ROOT / 'pyproject.toml')}").touch()
    monkeypatch.setattr(run.subprocess, "Popen", lambda *a, **k: pytest.fail(f"ran {a}"))
    assert run.set_up(venv) == venv / "bin" / "python"


def test_a_venv_whose_first_setting_up_failed_is_made_again(tmp_path, monkeypatch):
    """Debian without python3-venv leaves a venv with no pip: this script marked it unfinished when
    it began, so it is made again (--clear), and once installed it is marked no more."""
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    (venv / run.UNFINISHED).touch()
    ran = []
    monkeypatch.setattr(run, "step", lambda title, command, log: ran.append([str(c) for c in command]))
    run.set_up(venv)
    assert ran[0][1:4] == ["-m", "venv", "--clear"] and ran[1][1:4] == ["-m", "pip", "install"]
    assert run.installed(venv, run.digest(ROOT / "pyproject.toml")) and not (venv / run.UNFINISHED).exists()
    ran.clear()
    run.set_up(venv)
    assert ran == []


def test_a_venv_made_by_hand_keeps_everything_in_it(tmp_path, monkeypatch):
    """A developer's own .venv (their test tools in it, no stamp of this script's) was taken for a
    half-done first start and cleared. Now what is missing is installed into it, and nothing goes."""
    venv = tmp_path / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    python = run.venv_python(venv)
    site = next(venv.glob("lib/python*/site-packages"))
    (site / "their_own_tool.py").write_text("WORKS = True\n")  # an extra package of theirs
    ran = []

    def step(title, command, log):
        ran.append([str(c) for c in command])
        if "venv" in command[1:3]:
            run.step(title, command, log)  # really: a --clear would empty the folder

    monkeypatch.setattr(run, "step", step)
    assert run.set_up(venv) == python
    assert not any("venv" in c[1:3] for c in ran), ran  # not made again
    assert ran == [[str(python), "-m", *run.PIP_INSTALL, str(ROOT)]]
    assert (site / "their_own_tool.py").exists()
    found = subprocess.run([str(python), "-c", "import their_own_tool"], capture_output=True, timeout=30)
    assert found.returncode == 0, found.stderr


def test_a_first_start_marks_its_venv_until_it_is_installed(tmp_path, monkeypatch):
    venv = tmp_path / ".venv"
    seen = []

    def step(title, command, log):
        seen.append((venv / run.UNFINISHED).exists())
        if "venv" in [str(c) for c in command][1:3]:
            (venv / "bin").mkdir(parents=True, exist_ok=True)
            (venv / "bin" / "python").write_text("")
        else:
            raise run.StepFailed(title, log, "no internet")

    monkeypatch.setattr(run, "step", step)
    with pytest.raises(run.StepFailed):
        run.set_up(venv)
    assert seen == [True, True] and (venv / run.UNFINISHED).exists()  # the next start may make it again


def test_a_step_prints_one_line_and_keeps_the_commands_output_in_the_log(tmp_path, capfd):
    log = run.Log(tmp_path / ".venv")
    chatty = "for i in range(150): print('WARNING: pip says', i)"
    run.step("Installing what Sobremesa needs", [sys.executable, "-c", chatty], log)
    shown = capfd.readouterr()
    assert shown.out.splitlines() == ["  Installing what Sobremesa needs  done"] and shown.err == ""
    assert log.path == tmp_path / ".venv" / "setup.log"
    assert "WARNING: pip says 149\n" in log.path.read_text()


def test_a_failed_step_names_itself_and_its_log(tmp_path, monkeypatch, capsys):
    log = run.Log(tmp_path / ".venv")
    failing = "print('ERROR: No matching distribution found for streamlit'); raise SystemExit(3)"
    monkeypatch.setattr(
        run, "set_up", lambda: run.step("Installing what Sobremesa needs", [sys.executable, "-c", failing], log)
    )
    assert run.main(["--no-browser"]) == 1
    said = capsys.readouterr()
    assert said.out.splitlines() == ["  Installing what Sobremesa needs  failed"]
    assert 'stopped at the step "Installing what Sobremesa needs" (it ended with code 3)' in said.err
    assert f"The full log is {log.path}" in said.err
    assert "    ERROR: No matching distribution found for streamlit\n" in said.err  # what the log says went wrong
    assert "run the same command again" in said.err
