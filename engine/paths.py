"""Where runtime data lives: never inside the source tree."""
from __future__ import annotations

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
    """`SOBREMESA_DATABASE_URL`, or a SQLite file in the data directory."""
    url = os.environ.get("SOBREMESA_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{data_dir() / 'sobremesa.db'}"
