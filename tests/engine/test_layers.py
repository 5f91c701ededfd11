"""The layers of docs/ARCHITECTURE.md, enforced: every import of engine/, pages/ and app.py, the ones
inside functions included, goes to its own layer or one below, and no import cycle joins modules of
different packages. The layers are read from the document itself (its "layers:" block), so the
picture and the rule cannot drift apart. Like tests/engine/test_game_names.py, it reads source with `ast`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Imports against the layers that stay, each with its reason. (importer module, imported unit)
ALLOWED: dict[tuple[str, str], str] = {}

# Engine modules that may import Streamlit, each with its reason.
STREAMLIT: dict[str, str] = {
    "engine.launch": "the start command runs Streamlit's server (streamlit.web.cli) in its process; it draws nothing",
}


def layers() -> list[list[str]]:
    """The units of each layer, bottom first, as docs/ARCHITECTURE.md lists them."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    block = re.search(r"```text\nlayers:.*?\n(.*?)```", text, re.S)
    assert block, "docs/ARCHITECTURE.md has no ```text layers: block"
    found = []
    for line in block.group(1).splitlines():
        numbered = re.match(r"\s*\d+\.\s+(.*?)(\s{2,}.*)?$", line)
        if numbered:
            found.append([u.strip() for u in numbered.group(1).split(",") if u.strip()])
    return found


def modules() -> dict[str, Path]:
    found = {"app": ROOT / "app.py"}
    for folder in ("engine", "pages"):
        for path in (ROOT / folder).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if name != "engine.__init__":  # the package's marker, which imports nothing
                found[name.removesuffix(".__init__")] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> list[tuple[str, int]]:
    """(module imported, line) for every import of ours in the file, at any depth."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.append((target, node.lineno))
            parent = target.rpartition(".")[0]  # importing a.b.c runs a/b/__init__.py first
            while parent:
                if parent in known and not (name + ".").startswith(parent + "."):
                    found.append((parent, node.lineno))
                parent = parent.rpartition(".")[0]
    return found


def unit(module: str) -> str:
    """What a layer lists: engine's top-level package or module ("engine.tables" -> "tables"), pages, app."""
    parts = module.split(".")
    return parts[1] if parts[0] == "engine" and len(parts) > 1 else parts[0]


def graph() -> dict[str, list[tuple[str, int]]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_every_unit_has_a_layer_and_the_layers_are_named_once():
    listed = [u for layer in layers() for u in layer]
    assert len(listed) == len(set(listed)), "a unit is in two layers"
    missing = sorted({unit(m) for m in modules()} - set(listed))
    assert not missing, f"docs/ARCHITECTURE.md's layers do not place: {missing}"


def test_imports_go_down_the_layers():
    level = {u: i for i, layer in enumerate(layers()) for u in layer}
    wrong = []
    for name, found in graph().items():
        for target, line in found:
            if level[unit(target)] > level[unit(name)] and (name, unit(target)) not in ALLOWED:
                wrong.append(f"{name}:{line} imports {target} (layer {unit(target)} is above {unit(name)})")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle_joins_two_packages():
    """Inside one package (engine/tables, say) modules may lean on each other; across packages, never
    both ways: a cycle there is a layer the picture does not show."""
    edges = {name: {t for t, _ in found} for name, found in graph().items()}
    crossing = [c for c in _cycles(edges) if len({unit(m) for m in c}) > 1]
    assert not crossing, "import cycles across packages:\n" + "\n".join(" <-> ".join(c) for c in crossing)


def test_the_engine_never_imports_streamlit_or_the_pages():
    wrong = []
    for name, path in modules().items():
        if not name.startswith("engine") or name in STREAMLIT:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            wrong += [f"{name}:{node.lineno} {n}" for n in names if n.split(".")[0] in ("streamlit", "pages")]
    assert not wrong, wrong


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_a_game_is_its_rules_plus_the_parts_it_uses():
    """`Game` grew a field per feature (42); its optional parts (engine/core/parts.py) hold them now."""
    import dataclasses

    from engine.core.game import Game

    assert len(dataclasses.fields(Game)) <= 30
    declared = list((ROOT / "engine" / "games").glob("*.py")) + [ROOT / "tests" / "toy" / "__init__.py"]
    for path in declared:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Game":
                assert len(node.keywords) <= 18, f"{path.name}: Game(...) with {len(node.keywords)} keywords"
