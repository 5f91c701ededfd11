"""The components' JavaScript as served (pages/assets): each module under a version that covers what
it imports. A browser keeps a module for a year (immutable), and `import "./sound.js"` in a kept
stage.js fetched sound.js by its bare name, kept just as long: a change to sound.js alone never
reached a browser that had played before. Served, each import names its module's version."""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

ASSETS = Path(__file__).resolve().parent / "assets"
_IMPORT = re.compile(r'(\bfrom\s+"\./)([\w.-]+\.js)(")')


@functools.cache
def version(name: str) -> str:
    """The module's bytes and its imports' versions, hashed."""
    body = (ASSETS / name).read_bytes()
    digest = hashlib.sha1(body)
    for _head, imported, _tail in _IMPORT.findall(body.decode("utf-8")):
        digest.update(version(imported).encode())
    return digest.hexdigest()[:12]


@functools.cache
def served(name: str) -> bytes:
    """The module as the browser gets it: each of its imports under its version."""
    text = (ASSETS / name).read_text(encoding="utf-8")
    return _IMPORT.sub(lambda m: f"{m[1]}{m[2]}?v={version(m[2])}{m[3]}", text).encode("utf-8")
