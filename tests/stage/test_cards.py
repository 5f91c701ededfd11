"""A card grid is written out in Python (`render._grid`) for speed: it must give the DOM the
template (templates/cards.html) gives, for every kind of card the games draw."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from pages.stage import render

CARDS = [
    {"id": "dreams/dream-001", "value": "dreams/dream-001"},
    {"id": "d2", "value": {"position": 2}, "label": "2", "glow": True, "badge": "yours", "alt": "a <b>tall</b> tower"},
    {"id": "d3", "value": 3, "label": 3, "off": True, "caption": "Joy & <i>fear</i>"},
    {"id": "n1-4", "value": None, "blank": True, "label": "4", "label_text": "Black token 4"},
    {"id": "f1", "value": "f1", "src": "/pictures/trading_faces/joy.svg", "caption": "joy", "glow": False},
    {"id": "b-none", "value": None, "blank": True, "label": "–", "label_text": None},
]
GRIDS = [
    {
        "pick": 0,
        "pick_min": None,
        "button": "",
        "move": None,
        "labels": None,
        "size": "md",
        "nonce": "hand",
        "card_em": None,
    },
    {
        "pick": 1,
        "pick_min": None,
        "button": "Vote <now>",
        "move": {"type": "vote", "position": "$one"},
        "labels": None,
        "size": "sm",
        "nonce": "vote-3",
        "card_em": "--card: 4em; --card-tall: 5em",
    },
    {
        "pick": 2,
        "pick_min": 1,
        "button": "Give",
        "move": {"type": "give", "cards": "$picked"},
        "labels": {"1": "Give it", "2": "Give them"},
        "size": "lg",
        "nonce": "give-'1'",
        "card_em": 3.5,
    },
]


class _Dom(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list = []

    def handle_starttag(self, tag, attrs):
        self.events.append(("<", tag, sorted((k, " ".join((v or "").split())) for k, v in attrs)))

    def handle_endtag(self, tag):
        self.events.append((">", tag))

    def handle_data(self, data):
        if data.strip():
            self.events.append(("text", " ".join(data.split())))


def dom(html: str) -> list:
    parsed = _Dom()
    parsed.feed(html)
    return parsed.events


@pytest.mark.parametrize("lang", ["en", "es", "it"])
@pytest.mark.parametrize("grid", GRIDS, ids=["shown", "one to pick", "two to pick"])
def test_the_grid_in_python_is_the_templates(grid, lang):
    template = render.render("cards.html", lang, cards=CARDS, **grid)
    written = render._grid(lang, cards=CARDS, **grid)
    assert dom(written) == dom(template)
    assert "<b>" not in written and "<i>" not in written  # player text is text
