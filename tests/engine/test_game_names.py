"""Shared code names no game: what it needs to know about one comes from its `Game` (or the view).

A module is a game's own when it lives in engine/games/ or in the game's UI folder (pages/games/<its
name or statistics family>/), or its file is named after the game or its statistics family
(`engine/stats/dixit_family.py`, `engine/pictures/trading_faces.py`).
Everything else under engine/ and pages/, and app.py, is shared: it may not hold a game's name or
title as a string, nor import a game's own module. Docstrings and comments may name games.
"""

from __future__ import annotations

import ast
from pathlib import Path

from engine.games import GAMES

ROOT = Path(__file__).resolve().parents[2]

# The few shared places that name a game, each with the reason. At most five.
ALLOWED = {
    # Computer players play the Dixit family, whose pictures are described; the runner is shared.
}


def owners() -> list[str]:
    names = set(GAMES) | {g.family for g in GAMES.values() if g.family}
    return sorted(names, key=len, reverse=True)


def owned(path: Path, root: Path = ROOT) -> bool:
    relative = path.relative_to(root)
    if relative.parts[:2] == ("engine", "games"):
        return True
    if relative.parts[:2] == ("pages", "games") and len(relative.parts) > 3 and relative.parts[2] in owners():
        return True  # a game's UI folder
    return any(path.stem == name or path.stem.startswith(name + "_") for name in owners())


def shared_modules() -> list[Path]:
    found = [ROOT / "app.py"]
    for top in ("engine", "pages"):
        found += [p for p in (ROOT / top).rglob("*.py") if not owned(p)]
    return sorted(found)


def docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def namings(path: Path) -> list[str]:
    words = set(GAMES) | {g.title for g in GAMES.values()}
    own_modules = {f"engine.games.{p.stem}" for p in (ROOT / "engine" / "games").glob("*.py")} - {
        "engine.games.__init__"
    }
    own_packages = tuple(f"pages.games.{name}" for name in owners())  # each game's UI folder
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if node.value in words:
                found.append(f"{node.value!r} at line {node.lineno}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                if node.module in own_modules or target in own_modules or target.startswith(own_packages):
                    found.append(f"imports {target} at line {node.lineno}")
        elif isinstance(node, ast.Import):
            found += [
                f"imports {a.name} at line {node.lineno}"
                for a in node.names
                if a.name in own_modules or a.name.startswith(own_packages)
            ]
    return found


def test_no_shared_module_names_a_game():
    assert len(ALLOWED) <= 5
    named = {}
    for path in shared_modules():
        relative = str(path.relative_to(ROOT))
        found = namings(path)
        if found and relative not in ALLOWED:
            named[relative] = found
    assert named == {}, named


def test_the_guard_sees_a_shared_module_that_names_a_game(tmp_path):
    """A shared page that names a game is seen. The probe is made in a copy of the tree's shape, not
    in pages/: a Streamlit page test running meanwhile lists pages/, and failed on a probe gone."""
    game = next(iter(GAMES))
    probe = tmp_path / "pages" / "probe_for_the_guard.py"
    probe.parent.mkdir()
    probe.write_text(f'"""Names {game} in its docstring only: allowed."""\nKIND = {game!r}\n', encoding="utf-8")
    assert not owned(probe, root=tmp_path)
    assert namings(probe) == [f"{game!r} at line 2"]
