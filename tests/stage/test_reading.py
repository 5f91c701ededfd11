"""What a screen read of its view (pages/stage/reading.py): the stage keys a screen by it, and a page
with a Streamlit part of its own reruns only when the fields that part read change."""

from __future__ import annotations

import pytest

from engine import tables
from pages.stage.reading import ALL, Reading, page_key, valid_fields
from pages.stage.serve import SERVE, Viewer

pytestmark = pytest.mark.usefixtures("plain_cards")


def test_a_reading_notes_each_field_however_it_is_read():
    view = Reading({"a": 1, "b": 2, "c": 3, "version": 9})
    assert view["a"] == 1 and view.get("b") == 2 and "z" not in view
    assert view.peek("c") == 3  # a field the screen's own doing changes: not noted
    assert view.fields() == ("a", "b", "z")
    view.get("version")
    assert "version" not in view.fields()  # it moves with every move: never a reason to rerun
    whole = Reading({"a": 1})
    dict(whole)
    assert whole.fields() == (ALL,)


@pytest.mark.parametrize(
    "fields,expected",
    [
        (["status", "game_no", "status"], ("game_no", "status")),
        ([], ()),
        ("status", None),
        ([1], None),
        (["x" * 41], None),
        (["f"] * 65, None),
        (None, None),
    ],
)
def test_a_hellos_list_of_fields_is_checked(fields, expected):
    assert valid_fields(fields) == expected


def test_the_sockets_page_key_matches_the_pages_until_a_field_it_read_changes():
    room = tables.create_room("dixit", seed=3)
    seats = [tables.join(room.code, n) for n in ("Ana", "Bo", "Cy")]
    view = tables.view(room.code)
    seen = Reading(view)
    seen["status"], seen.get("game_no")
    fields = seen.fields()
    drawn_with = page_key(view, fields)
    who = tables.stage_who(room.code)
    socket = Viewer(who, None, "en", page=fields)
    assert SERVE.draw(room.code, socket).page == drawn_with  # nothing moved: no rerun
    tables.join(room.code, "Di")  # names changed, not what the page read
    assert SERVE.draw(room.code, socket).page == drawn_with
    tables.start(room.code, room.host_token)
    assert SERVE.draw(room.code, socket).page != drawn_with  # the game began: the page draws again
    waiting = Viewer(who, None, "en", page=("version",), quiet=True)
    before = SERVE.draw(room.code, waiting)
    assert before.html() == ""  # a phone waiting for the host: no screen, only the key
    tables.submit(room.code, 0, seats[0].token, {"type": "claim"})
    assert SERVE.draw(room.code, waiting).page != before.page
