"""The docs are held to the code: every path, module and `module.name` that docs/ARCHITECTURE.md or a
module's docstring names in backquotes exists. A renamed file or function fails here until the
doc that names it is mended. The source is read with `ast`, never imported."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOPS = ("engine", "pages", "tests", "bench", "deploy")
ROOTS = (*TOPS, "docs", "data", ".streamlit", ".ci", "app.py", "run.py", "Makefile")  # where a path starts
# What the docs write short: `tables.submit` is engine.tables' submit.
SHORT = {
    "tables": "engine.tables",
    "live": "engine.push.live",
    "gate": "engine.gate",
    "laptop": "engine.laptop",
    "presence": "engine.presence",
    "outage": "engine.outage",
    "connections": "engine.connections",
    "guard": "pages.guard",
    "ui": "pages.ui",
    "games": "pages.games",
    "kit": "pages.stage.kit",
    "render": "pages.stage.render",
    "reading": "pages.stage.reading",
    "serve": "pages.stage.serve",
}
SUFFIXES = (".py", ".html", ".js", ".css", ".md", ".toml", ".conf", ".json", ".txt", ".po", ".pot", ".woff2")
QUOTED = re.compile(r"`([^`\n]+)`")


def module_file(name: str) -> Path | None:
    path = ROOT.joinpath(*name.split("."))
    for found in (path.with_suffix(".py"), path / "__init__.py"):
        if found.is_file():
            return found
    return None


def defines(path: Path, name: str) -> bool:
    """Whether the module at `path` defines or imports `name` at its top (a function, a class, a
    constant, a name imported into it), or its classes do (`Class.method` is checked as `method`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name) and leaf.id == name:
                        return True
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if any((a.asname or a.name).split(".")[0] == name for a in node.names):
                return True
    return False


def broken(reference: str) -> str | None:
    """Why a quoted reference names nothing, or None when it names something (or is not a name)."""
    ref = reference.strip().rstrip(".,:;")
    ref = re.sub(r"\(.*\)$", "", ref)  # `tables.view(code)`: the function
    if not ref or any(c in ref for c in " <>*{}[]$=|:\\\"'") or ref.startswith(("http", "/", "-", "#")):
        return None
    if "/" in ref:  # a path from the project's root (one beside it, ../shared, is not checked here)
        if not (ref.endswith(SUFFIXES) or ref.endswith("/")) or ref.split("/")[0] not in ROOTS:
            return None
        return None if (ROOT / ref).exists() else f"no such path: {ref}"
    parts = ref.split(".")
    if len(parts) < 2 or not all(p.isidentifier() for p in parts) or parts[-1] in ("py", "html", "js", "css"):
        return None  # not a dotted name (a file named alone, `kit.py`, is read with its folder's)
    if len(parts[-1]) == 1:
        return None  # `tables.x`: any name
    if parts[0] in SHORT:
        parts = SHORT[parts[0]].split(".") + parts[1:]
    elif parts[0] not in TOPS:
        return None
    for cut in range(len(parts), 0, -1):  # the longest prefix that is a module, then its names
        found = module_file(".".join(parts[:cut]))
        if found is not None:
            rest = parts[cut:]
            if not rest or defines(found, rest[-1] if len(rest) > 1 else rest[0]):
                return None
            return f"{'.'.join(parts[:cut])} has no {'.'.join(rest)}"
    return f"no such module: {'.'.join(parts)}"


def docstrings() -> list[tuple[str, str]]:
    """(where, text) of every module's docstring under engine/ and pages/, and app.py's."""
    found = []
    for path in [ROOT / "app.py", *sorted((ROOT / "engine").rglob("*.py")), *sorted((ROOT / "pages").rglob("*.py"))]:
        text = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        if text:
            found.append((str(path.relative_to(ROOT)), text))
    return found


def problems(texts: list[tuple[str, str]]) -> list[str]:
    said = []
    for where, text in texts:
        for reference in QUOTED.findall(text):
            why = broken(reference)
            if why:
                said.append(f"{where}: {why}")
    return said


def test_the_architecture_and_the_docstrings_name_only_what_exists():
    texts = [("docs/ARCHITECTURE.md", (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8"))]
    assert problems(texts + docstrings()) == []


def test_a_name_broken_on_purpose_is_found():
    doc = "The move path is `engine/tables/play.py` (`tables.submit`, `engine.tables.play.apply_in`)."
    assert problems([("doc", doc)]) == []
    broken_doc = doc.replace("play.py", "plays.py").replace("apply_in", "apply_inn").replace("submit", "sbmit")
    assert problems([("doc", broken_doc)]) == [
        "doc: no such path: engine/tables/plays.py",
        "doc: engine.tables has no sbmit",
        "doc: engine.tables.play has no apply_inn",
    ]


def test_the_architecture_is_a_map():
    assert len((ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8").splitlines()) <= 520
