"""Statistics is the laptop's: a phone sees only the saved games its own browser played in (its
device held a seat or an audience membership when the game was saved), and the laptop can erase a
game or a person from the archive, as a school must when asked."""

from __future__ import annotations

import pytest

from engine import gate, stats, tables
from engine.core import SobremesaError
from engine.tables.erase import NobodyOfThatName, NoSavedGame

pytestmark = pytest.mark.usefixtures("plain_cards")


_addresses: dict[str, str] = {}


def phone(name: str, address: str | None = None) -> gate.Device:
    """Each person's own phone, on the school's Wi-Fi: an address of its own (an address holds at
    most two seats of a room: `gate.per_address`)."""
    address = address or _addresses.setdefault(name, f"10.20.0.{len(_addresses) + 1}")
    return gate.Device(f"device-of-{name}-0123456789", address, "Android phone")


def played(names, game="dixit", members=(), audience=False):
    """A room whose seats (and members) join from their own phones; the host ends the game after its
    first turn, so it is saved. Returns the room."""
    options = {"audience": True} if audience or members else {}
    room = tables.create_room(game, options=options, seed=4)
    for name in names:
        tables.join(room.code, name, device=phone(name))
    for name in members:
        tables.join_audience(room.code, name, device=phone(name))
    tables.start(room.code, room.host_token)
    tables.end(room.code, room.host_token)
    assert tables.record(room.code) is not None
    return room


def people_in(blobs) -> set[str]:
    archive = stats.from_rows(blobs)
    return set(archive.results["name"]) | set(archive.audience["member"])


def test_each_phone_sees_only_the_games_it_played_in():
    first = played(["Ana", "Bo", "Cy"], members=["Lu"])
    second = played(["Dani", "Eli", "Fer"])
    tables.settle()

    assert people_in(tables.stat_rows()) == {"Ana", "Bo", "Cy", "Lu", "Dani", "Eli", "Fer"}  # the laptop
    for device, mine, others in [
        (phone("Ana"), first, second),
        (phone("Lu"), first, second),  # a member played in it too
        (phone("Eli"), second, first),
    ]:
        seen = people_in(tables.stat_rows(played_by=device.id))
        assert seen == ({"Ana", "Bo", "Cy", "Lu"} if mine is first else {"Dani", "Eli", "Fer"})
        assert tables.archive_version(played_by=device.id)[0] == 1
        assert tables.saved_game(mine.code, 1, played_by=device.id)["room"] == mine.code
        assert tables.saved_game(others.code, 1, played_by=device.id) is None

    stranger = phone("stranger").id
    assert tables.stat_rows(played_by=stranger) == [] and tables.archive_version(played_by=stranger)[0] == 0
    assert tables.stat_rows(played_by="") == []  # a browser without a device id played in nothing
    assert tables.saved_game(first.code, 1, played_by="") is None


def test_a_device_that_played_two_games_of_a_room_sees_both():
    room = played(["Ana", "Bo", "Cy"])
    tables.play_again(room.code, room.host_token)
    if tables.view(room.code)["status"] == "lobby":
        tables.start(room.code, room.host_token)
    tables.end(room.code, room.host_token)
    tables.settle()
    assert len(tables.stat_rows(played_by=phone("Bo").id)) == 2


def test_erasing_a_game_leaves_nothing_of_it():
    gone = played(["Ana", "Bo", "Cy"])
    kept = played(["Dani", "Eli", "Fer"])
    tables.settle()
    before = tables.archive_version()

    tables.erase_game(gone.code.lower(), 1)

    assert tables.archive_version()[0] == before[0] - 1 and tables.archive_version() != before
    assert [r["room"] for r in tables.records()] == [kept.code]
    assert people_in(tables.stat_rows()) == {"Dani", "Eli", "Fer"}
    assert tables.saved_game(gone.code, 1) is None and tables.move_log(gone.code, 1) == []
    assert tables.stat_rows(played_by=phone("Ana").id) == []
    with pytest.raises(SobremesaError):  # the room it ended on went with it: no shared screen shows it
        tables.view(gone.code)
    with pytest.raises(SobremesaError):
        tables.keepsake(gone.code, 1)
    with pytest.raises(NoSavedGame):
        tables.erase_game(gone.code, 1)
    with pytest.raises(NoSavedGame):
        tables.erase_game(kept.code, 2)
    assert [r["room"] for r in tables.records()] == [kept.code]


def test_erasing_a_person_renames_them_in_every_game_and_keeps_the_games():
    first = played(["Ana", "Bo", "Cy"], members=["Lu"])
    second = played(["Cy", "Eli", "Fer"])
    third = played(["Dani", "Eli", "Fer"], members=["cy "])  # the same person, in the audience
    tables.merge_players("Cyrus", "Cy")  # a nickname the host merged
    tables.settle()
    rows_before = people_in(tables.stat_rows())
    assert "Cy" in rows_before

    assert tables.erase_player("CY") == 3

    records = tables.records()
    assert len(records) == 3
    for record in records:
        names = [p["name"] for p in record["players"]] + [m["name"] for m in record.get("audience", [])]
        assert not any(tables.player_key(n) in ("cy", "cyrus") for n in names), names
    assert [p["name"] for p in tables.saved_game(first.code, 1)["players"]] == ["Ana", "Bo", "Player 3"]
    assert [p["name"] for p in tables.saved_game(second.code, 1)["players"]] == ["Player 1", "Eli", "Fer"]
    assert [m["name"] for m in tables.saved_game(third.code, 1)["audience"]] == ["Member 1"]
    assert "Cy" not in people_in(tables.stat_rows()) and "cy" not in people_in(tables.stat_rows())
    assert tables.player_aliases() == {}
    assert "Cy" not in tables.view(second.code)["names"]  # the shared screen of the room that ended on it
    assert [r["final_scores"] for r in records] == [r["final_scores"] for r in tables.records()]
    with pytest.raises(NobodyOfThatName):
        tables.erase_player("Cy")
    with pytest.raises(NobodyOfThatName):
        tables.erase_player("   ")


def test_an_erased_name_is_left_nowhere_in_the_rooms_store():
    room = played(["Ana", "Bo", "Cy"])
    assert tables.erase_player("Cy") == 1
    kept = tables.store().holders(room.code)
    assert kept and not any(h["ref"] == "Cy" for h in kept), kept  # one place per phone keeps no name


def test_the_placeholder_never_takes_another_players_name():
    played(["Player 2", "Bo", "Cy"])
    tables.erase_player("Bo")
    names = [p["name"] for p in tables.records()[0]["players"]]
    assert names[0] == "Player 2" and names[1] != "Player 2" and "Bo" not in names
    assert len({tables.player_key(n) for n in names}) == 3
