import dataclasses

import pytest

from engine import tables
from engine.games import GAMES
from tests.helpers import fake_cards


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Every test gets its own data directory and database; the user's own is never touched."""
    monkeypatch.setenv("SOBREMESA_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("SOBREMESA_DATABASE_URL", raising=False)
    tables.reset()
    yield tmp_path / "data"
    tables.reset()


@pytest.fixture
def plain_cards(monkeypatch):
    """Service tests play with numbered cards: they test the table, not the art."""
    for name in ("dixit", "odyssey"):
        if name in GAMES:
            monkeypatch.setitem(GAMES, name, dataclasses.replace(GAMES[name], content=lambda o, s: fake_cards(100)))
