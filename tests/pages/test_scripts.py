"""The components' JavaScript under versions that cover their imports (pages/scripts.py): a module
a browser keeps for a year must not keep importing an older sound.js or idiomorph.js."""

import re

from pages import routes, scripts


def _fresh(monkeypatch, folder):
    monkeypatch.setattr(scripts, "ASSETS", folder)
    scripts.version.cache_clear()
    scripts.served.cache_clear()


def test_a_modules_version_moves_with_what_it_imports(tmp_path, monkeypatch):
    (tmp_path / "top.js").write_text('import { Low } from "./low.js";\nexport const top = 1;\n')
    (tmp_path / "low.js").write_text("export class Low {}\n")
    try:
        _fresh(monkeypatch, tmp_path)
        top, low = scripts.version("top.js"), scripts.version("low.js")
        assert f'from "./low.js?v={low}"' in scripts.served("top.js").decode()
        (tmp_path / "low.js").write_text("export class Low { rest() {} }\n")  # the import alone changes
        _fresh(monkeypatch, tmp_path)
        assert scripts.version("low.js") != low and scripts.version("top.js") != top
        assert f'from "./low.js?v={scripts.version("low.js")}"' in scripts.served("top.js").decode()
    finally:
        scripts.version.cache_clear()
        scripts.served.cache_clear()


def test_the_stage_is_served_with_its_imports_versioned():
    class Request:
        path_params = {"name": "stage.js"}

    route = routes.script_asset(Request())
    try:  # it awaits nothing: run here (a browser test's event loop may be running in this worker)
        route.send(None)
    except StopIteration as done:
        answer = done.value
    body = answer.body.decode()
    imports = re.findall(r'from "\./([\w.-]+\.js)(\?v=\w+)?"', body)
    assert {name for name, _ in imports} >= {"sound.js", "idiomorph.js"}
    assert all(v == f"?v={scripts.version(name)}" for name, v in imports), imports
    assert "immutable" in answer.headers["cache-control"]
