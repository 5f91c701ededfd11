"""Statistics through the real entry point (AppTest): a phone's tab sees only the games its browser
played in, and nothing of another room; the laptop's tab erases a game or a person."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine import gate, i18n, tables
from pages import ui

TIMEOUT = 60
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.usefixtures("plain_cards")

OURS, THEIRS = ["Ana", "Bo", "Cy"], ["Dani", "Eli", "Fer"]


_addresses: dict[str, str] = {}


def phone(name: str) -> gate.Device:
    """Each person's own phone, with an address of its own on the school's Wi-Fi."""
    address = _addresses.setdefault(name, f"10.20.0.{len(_addresses) + 1}")
    return gate.Device(f"device-of-{name}-0123456789", address, "Android phone")


def played(names, members=()):
    room = tables.create_room("dixit", options={"audience": bool(members)}, seed=4)
    for name in names:
        tables.join(room.code, name, device=phone(name))
    for name in members:
        tables.join_audience(room.code, name, device=phone(name))
    tables.start(room.code, room.host_token)
    tables.end(room.code, room.host_token)
    return room


@pytest.fixture
def two_rooms():
    ours, theirs = played(OURS, members=["Lu"]), played(THEIRS, members=["Zoe"])
    tables.settle()
    return ours, theirs


def on(monkeypatch, device: gate.Device | None):
    """This tab's browser: the laptop (None) or a phone."""
    monkeypatch.setattr(ui, "is_local_request", lambda: device is None)
    if device is not None:
        monkeypatch.setattr(ui, "device", lambda: device)


def run(at=None):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT) if at is None else at
    at.switch_page("pages/stats.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def rerun(at, **state):
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def everything(at) -> str:
    """Every text, table and choice the page holds."""
    parts = [str(x.value) for x in [*at.info, *at.caption, *at.markdown, *at.success, *at.error]]
    parts += [frame.value.to_csv() for frame in at.dataframe]
    parts += [h.proto.body for h in at.get("html")]  # the archive's table among them
    for widget in [*at.selectbox, *at.multiselect]:
        parts += [str(option) for option in widget.options]
    return "\n".join(parts)


def test_a_phone_sees_only_the_games_it_played_in(monkeypatch, two_rooms):
    ours, theirs = two_rooms
    on(monkeypatch, phone("Ana"))
    at = run()
    seen = everything(at)
    assert "Only the games played from this phone" in seen and "1 game ·" in seen
    assert all(name in seen for name in OURS)
    for tab in ["🎬 Replay", "🏆 Players", "🃏 Dixit & Odyssey"]:
        seen += everything(rerun(at, **{"stats-tabs": tab}))
    assert "Lu" in seen  # our audience's reader
    for name in [*THEIRS, "Zoe", theirs.code]:
        assert name not in seen, name
    assert not any(b.label == "Erase the game" for b in at.button)
    assert "Erase from the archive" not in [e.label for e in at.expander]


def test_a_member_phone_sees_the_game_it_watched(monkeypatch, two_rooms):
    on(monkeypatch, phone("Zoe"))
    seen = everything(run())
    assert "Dani" in seen and "Ana" not in seen


def test_a_phone_that_played_nothing_is_told_where_the_archive_is(monkeypatch, two_rooms):
    on(monkeypatch, phone("stranger"))
    at = run()
    seen = everything(at)
    assert "Statistics shows the games played from this phone" in seen
    assert "computer that runs Sobremesa" in seen
    assert (
        not at.tabs
        and not at.dataframe
        and "sm-archive" not in seen
        and not any(b.label == "Load demo data" for b in at.button)
    )
    for name in [*OURS, *THEIRS]:
        assert name not in seen


def test_a_phone_without_a_device_id_sees_no_game(monkeypatch, two_rooms):
    on(monkeypatch, gate.Device(None, "10.20.0.9", "Android phone"))
    at = run()
    seen = everything(at)
    assert not at.dataframe and "sm-archive" not in seen and "Statistics shows the games played from this phone" in seen


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_phone_page_is_in_the_readers_language(monkeypatch, two_rooms, lang):
    on(monkeypatch, phone("stranger"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    seen = everything(run(at))
    nothing = "Statistics shows the games played from this phone, and none was played from it yet. "
    assert i18n.translate(lang, nothing + "The whole archive is on the computer that runs Sobremesa.") in seen
    assert "Statistics shows" not in seen


def test_the_laptop_erases_a_game_after_a_confirmation(monkeypatch, two_rooms):
    ours, theirs = two_rooms
    on(monkeypatch, None)
    at = rerun(run(), **{"erase-open": True})
    go = next(b for b in at.button if b.label == "Erase the game")
    assert go.disabled  # not before the confirmation
    gid = [r["room"] for r in tables.records()].index(theirs.code)  # a game's id: its place in the archive
    rerun(at, **{"erase-game": gid, "erase-game-sure": True})
    assert at.selectbox(key="erase-game").value == gid
    next(b for b in at.button if b.label == "Erase the game").click()
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert "Erased from the archive" in everything(at)
    assert [r["room"] for r in tables.records()] == [ours.code]
    assert "Dani" not in everything(at).replace(at.success[0].value, "")  # but in the message that says so
    assert not next(c for c in at.checkbox if c.key == "erase-game-sure").value  # asks again next time


def test_the_laptop_erases_a_person_from_every_game(monkeypatch, two_rooms):
    on(monkeypatch, None)
    played(["Bo", "Eli", "Gil"])
    tables.settle()
    at = rerun(run(), **{"erase-open": True})
    next(s for s in at.selectbox if s.label == "A person").set_value("Bo")
    next(c for c in at.checkbox if c.key == "erase-player-sure").check()
    at.run()
    next(b for b in at.button if b.label == "Erase the name").click()
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert "Bo is erased from 2 saved games" in everything(at)
    names = {p["name"] for r in tables.records() for p in r["players"]}
    assert "Bo" not in names and "Player 2" in names and "Ana" in names
    assert "Bo" not in next(s for s in at.selectbox if s.label == "A person").options
