"""One tap's path through our code: the functions a stage tap calls, from the socket's hand-off
(`Serve.move`) to the acting tab's screen drawn with its answer (`Serve.draw`), and how often the
path crosses from one file to another (a "hop"). Prints figures; asserts nothing.

    .venv/bin/python bench/tap_trace.py

Only the project's own files count (engine/, pages/); the standard library, Streamlit and Jinja
do not. The room is warm, as a live one is (its state and views already in this process).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SOBREMESA_DATA", tempfile.mkdtemp(prefix="sobremesa-trace-"))


def ours(filename: str) -> str | None:
    path = Path(filename)
    try:
        relative = path.resolve().relative_to(ROOT)
    except ValueError:
        return None
    return str(relative) if relative.parts[0] in ("engine", "pages") else None


def trace(work) -> tuple[set, set, set]:
    """(functions, files, hops) of what `work()` calls in our code, Python's alone (a template's
    compiled code is Jinja's): a hop is a distinct call from a function of one file to a function
    of another."""
    functions: set[tuple[str, str]] = set()
    files: set[str] = set()
    hops: set[tuple] = set()
    stack: list[tuple[str, str] | None] = []

    def profile(frame, event, arg):
        if event == "call":
            here = ours(frame.f_code.co_filename)
            me = (here, frame.f_code.co_qualname) if here and here.endswith(".py") else None
            caller = next((f for f in reversed(stack) if f is not None), None)
            if me is not None:
                functions.add(me)
                files.add(me[0])
                if caller is not None and caller[0] != me[0]:
                    hops.add((caller, me))
            stack.append(me)
        elif event == "return" and stack:
            stack.pop()

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return functions, files, hops


def main() -> None:
    import dataclasses

    from bench.measure import figure
    from engine import tables
    from engine.games import GAMES
    from pages.stage.serve import SERVE, Viewer
    from tests.helpers import fake_cards

    GAMES["dixit"] = dataclasses.replace(
        GAMES["dixit"], content=dataclasses.replace(GAMES["dixit"].content, cards=lambda o, s: fake_cards(100))
    )
    room = tables.create_room("dixit", seed=3)
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy", "Di")]
    tables.start(room.code, room.host_token)
    who = tables.stage_who(room.code, seats[2].token)
    viewer = Viewer(who, seats[2].token, "en", 2)
    SERVE.draw(room.code, viewer).html()  # warm: the state, the views, the templates
    for s in seats:
        tables.view(room.code, s.seat, s.token)

    def tap():
        answer = SERVE.move(room.code, viewer, "tap-1", {"type": "claim"}, None)
        assert "ack" in answer, answer
        SERVE.draw(room.code, viewer).html()  # the acting tab's own screen, sent with its answer

    functions, files, hops = trace(tap)
    print(f"one tap: {len(functions)} functions in {len(files)} files, {len(hops)} file-to-file hops")
    for name in sorted(files):
        print(f"  {name}: " + ", ".join(sorted(f for n, f in functions if n == name)))
    figure("one tap's path: file-to-file hops", str(len(hops)))
    figure("one tap's path: functions", str(len(functions)))
    figure("one tap's path: files", str(len(files)))


if __name__ == "__main__":
    main()
