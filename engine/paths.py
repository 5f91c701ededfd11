"""Where runtime data lives: never inside the source tree."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """`SOBREMESA_DATA`, or the per-user data directory (e.g. ~/.local/share/sobremesa)."""
    root = os.environ.get("SOBREMESA_DATA") or platformdirs.user_data_dir("sobremesa")
    path = Path(root).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_url() -> str:
    """`SOBREMESA_DATABASE_URL`, or a SQLite file in the data directory. Asked for on every read of
    the store: the directory is made once per setting, not on every call."""
    return _database_url(os.environ.get("SOBREMESA_DATABASE_URL"), os.environ.get("SOBREMESA_DATA"))


@functools.lru_cache(maxsize=64)
def _database_url(url: str | None, _data: str | None) -> str:
    return url or f"sqlite:///{data_dir() / 'sobremesa.db'}"
