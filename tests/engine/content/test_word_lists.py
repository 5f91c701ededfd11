"""A host's own word list for Maudit Mot Dit: checked, kept in the data directory, played with."""

import pytest

from engine import tables, words

CARDS = "\n".join(", ".join(f"w{c}x{i}" for i in range(8)) for c in range(14))


def test_a_list_of_cards_is_kept_and_a_room_plays_with_it():
    list_id, count = words.import_word_list("Year 6 — Romans", ("# our words\n" + CARDS).encode())
    assert count == 14 and words.word_lists() == {list_id: "Year 6 — Romans"}
    room = tables.create_room("maudit_mot_dit", options={"words": list_id}, seed=3)
    seats = [tables.join(room.code, n) for n in ("Ana", "Ben", "Cleo")]
    tables.start(room.code, room.host_token)
    card = [c["word"] for c in tables.view(room.code, 0, seats[0].token)["card"]]
    assert all(w.startswith("w") and "x" in w for w in card)


def test_one_word_per_line_is_taken_eight_at_a_time():
    text = "\n".join(f"word{i}" for i in range(8 * 12 + 5))
    assert [len(c) for c in words.parse_word_list(text)] == [8] * 12  # the 5 left over make no card


@pytest.mark.parametrize(
    "name,data,reason",
    [
        ("", CARDS.encode(), "name"),
        ("x", b"\xff\xfe\x00", "plain text"),
        ("x", b"a, a, b, c, d, e, f, g\n" + CARDS.encode(), "repeats a word"),
        ("x", "\n".join(CARDS.splitlines()[:5]).encode(), "at least 12"),
        ("x", ("two words, b, c, d, e, f, g, h\n" + CARDS).encode(), "one word"),
        ("x", b"a" * 300_000, "too large"),
    ],
)
def test_a_bad_list_is_refused_with_a_reason_and_nothing_is_kept(name, data, reason):
    with pytest.raises(words.WordListRejected, match=reason):
        words.import_word_list(name, data)
    assert words.word_lists() == {}


def test_two_names_that_would_share_a_file_are_refused():
    words.import_word_list("Animals", CARDS.encode())
    words.import_word_list("animals", CARDS.encode())  # the same list again: replaced
    with pytest.raises(words.WordListRejected, match="same name"):
        words.import_word_list("Animals!", CARDS.encode())
    assert words.word_lists() == {"animals": "animals"}
