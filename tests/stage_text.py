"""A stage screen as the tests read it: drawn as the socket draws it (pages/stage/serve.py) for a
viewer, then turned into the text a reader sees (its words, its labels and alt texts)."""

from __future__ import annotations

import html
import re

from engine import tables
from pages.stage.serve import SERVE, Viewer


def screen(code: str, lang: str, token: str | None = None, member: str | None = None) -> str:
    """The viewer's stage screen now, as HTML ("" when its token no longer holds)."""
    who = tables.stage_who(code, token, member)
    look = tables.stage_look(code, who)
    viewer = Viewer(who, token, lang, None if look is None else look.get("seat"))
    drawn = SERVE.draw(code, viewer)
    return "" if drawn is None else drawn.html()


def text(markup: str) -> str:
    """What a reader of the screen sees or hears: the text, then labels and alt texts."""
    said = re.findall(r'(?:aria-label|alt|title)="([^"]*)"', markup)
    words = re.sub(r"<[^>]+>", " ", markup)
    return html.unescape(words + "\n" + "\n".join(said))
