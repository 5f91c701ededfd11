"""Pictomania's reveal tells the class how the audience read each drawing in words (issue 50): "Ana:
2 of 3 right", counting the guesses on the drawer's own number; a drawing nobody guessed says
nothing, and with no guess at all there is no line (not an empty "The audience:")."""

from __future__ import annotations

from pages.games.pictomania.screens import audience_line
from pages.stage.render import Speaker


def reveal(counts: dict) -> dict:
    return {
        "names": ["Ana", "Bo", "Cy"],
        "history_length": 1,
        "history": [{"assignments": {"0": {"letter": "A", "number": 3}, "1": {"letter": "B", "number": 2}}}],
        "audience_reveal": {"turn": 0, "counts": counts},
    }


def test_the_audience_line_says_how_many_read_each_drawing_right():
    line = audience_line(reveal({"0": {"3": 2, "5": 1}, "1": {"4": 1}, "2": {}}), Speaker("en"))
    assert line == "👀 The audience: Ana: 2 of 3 right · Bo: 0 of 1 right"
    assert "×" not in line


def test_no_guess_means_no_line():
    assert audience_line(reveal({"0": {}, "1": {}}), Speaker("en")) == ""
    assert audience_line(reveal({}), Speaker("en")) == ""
