"""Which fields of a view a phone's screen read, and their signature (engine.push.glance): a move that
leaves them as they were may move the phone on without a rerun; anything else must not."""

from __future__ import annotations

import json

import pytest

from engine import gate, tables
from engine.push.glance import ALL, Watched, sign, valid_keys
from tests.engine.tables.test_tables import act, new_table


def test_a_watched_view_notes_each_field_read_however_it_is_read():
    seen = Watched({"phase": "give", "hand": ["a"], "version": 9, "scores": [1]})
    assert seen["phase"] == "give"
    assert seen.get("missing", 3) == 3
    assert "hand" in seen
    assert seen["version"] == 9  # read, but a version moves on with every move: never compared
    assert seen.read() == ["hand", "missing", "phase"]
    assert dict(seen) == {"phase": "give", "hand": ["a"], "version": 9, "scores": [1]}
    assert seen.read() == [ALL]  # the whole view was read: every field counts


def test_a_watched_view_is_not_a_dict_so_no_path_reads_it_unseen():
    seen = Watched({"phase": "give"})
    with pytest.raises(TypeError):
        json.dumps(seen)
    with pytest.raises(AttributeError):
        seen.copy()
    with pytest.raises(TypeError):
        seen["phase"] = "vote"


@pytest.mark.parametrize(
    "keys,expected",
    [
        (["hand", "phase", "hand"], ["hand", "phase"]),
        ([], []),
        ("hand", None),
        ([1], None),
        ([""], None),
        (["x" * 41], None),
        (["k"] * 65, None),
        (None, None),
    ],
)
def test_a_sockets_list_of_fields_is_checked(keys, expected):
    assert valid_keys(keys) == expected


def test_the_signature_covers_the_fields_read_the_seat_and_its_token_and_nothing_else(monkeypatch):
    view = {"phase": "give", "hand": ["a", "b"], "waiting_for": [1, 2], "version": 4}
    base = sign("ROOM", 1, "t", ["hand", "phase"], view)
    assert sign("ROOM", 1, "t", ["hand", "phase"], {**view, "waiting_for": [2], "version": 5}) == base
    assert sign("ROOM", 1, "t", ["hand", "phase"], {**view, "hand": ["a", "c"]}) != base
    assert sign("ROOM", 2, "t", ["hand", "phase"], view) != base
    assert sign("ROOM", 1, "u", ["hand", "phase"], view) != base  # a new token for the seat
    assert sign("ROOM", 1, "t", ["hand", "phase", "waiting_for"], view) != base
    assert sign("ROOM", 1, "t", [ALL], view) != sign("ROOM", 1, "t", [ALL], {**view, "waiting_for": [2]})
    # keyed with the server's secret: without it, a phone cannot test guesses at a view against it
    monkeypatch.setattr(gate, "secret", lambda: b"another server" * 3)
    assert sign("ROOM", 1, "t", ["hand", "phase"], view) != base


def test_the_servers_glance_matches_the_page_until_a_field_it_read_changes():
    room, seats = new_table(4)
    ana, bo, cy, di = seats
    act(ana, type="claim")
    act(ana, **tables.legal(room.code, 0, ana.token)[0])
    view = tables.view(room.code, 3, di.token)
    seen = Watched(view)
    assert seen["waiting_on_you"] and seen["hand"] and seen["phase"] == "give"
    keys = seen.read()
    rendered = tables.signature(view, di.token, keys)
    assert tables.glance_now(room.code, 3, keys) == (view["version"], rendered)

    moved = act(bo, **tables.legal(room.code, 1, bo.token)[0])  # Bo gives: Di's hand and phase are as they were
    assert tables.glance_now(room.code, 3, keys) == (moved, rendered)
    assert tables.glance_now(room.code, 3, keys + ["waiting_for"]) != (moved, rendered)
    assert tables.view(room.code, 1, bo.token)["waiting_on_you"] is False

    moved = act(di, **tables.legal(room.code, 3, di.token)[0])  # Di gives: her hand changed
    assert tables.glance_now(room.code, 3, keys)[1] != rendered

    assert tables.glance_now(room.code, 9, keys) is None  # no such seat
    assert tables.glance_now("ZZZZ", 3, keys) is None  # no such room


def test_a_seat_let_back_in_on_another_phone_no_longer_matches_the_old_one():
    room, seats = new_table(3)
    cy = seats[2]
    view = tables.view(room.code, 2, cy.token)
    keys = Watched(view).read() or ["phase"]
    old = tables.signature(view, cy.token, keys)
    asked = tables.ask_to_rejoin(room.code, "Cy")
    tables.let_back_in(room.code, room.host_token, 2)
    assert tables.glance_now(room.code, 2, keys)[1] != old
    assert tables.glance_now(room.code, 2, keys)[1] == tables.signature(
        tables.view(room.code, 2, asked.token), asked.token, keys
    )
