"""The start, rules and statistics pages, in Spanish and in Italian, show no English from the
catalogue; two tabs of one room read two languages. Every game's screens, in every language, are
the page contract's (tests/pages/test_page_contract.py).

A room's language is the default for its wall and its phones; the start, rules and statistics
pages follow the tab's language."""

from __future__ import annotations

import functools
import html
import re

import pytest
from streamlit.testing.v1 import AppTest

from engine import i18n, tables
from tests.helpers import source_messages
from tests.pages.test_pages import ROOT, TIMEOUT, run, stage_of

pytestmark = pytest.mark.usefixtures("plain_cards")
LANGS = [lang for lang in i18n.NAMES if lang != i18n.SOURCE]


def shown(at) -> str:
    """Everything a reader of the page can see, as text."""
    parts = [
        e.value
        for kind in ("markdown", "caption", "info", "success", "error", "warning", "title", "subheader", "header")
        for e in getattr(at, kind)
    ]
    parts += [h.proto.body for h in at.get("html")]
    parts += [b.label for b in at.button] + [e.label for e in at.expander]
    for widget in [*at.selectbox, *at.radio, *at.text_input, *at.multiselect]:
        parts.append(widget.label)
        parts += [str(o) for o in getattr(widget, "options", [])]
    parts += [c.proto.json for c in at.get("bidi_component")]
    return html.unescape("\n".join(str(p) for p in parts))


def english_left(text: str, lang: str) -> list[str]:
    """Pieces of English messages (ones whose translation differs) found in the text."""
    words, (keyed, always) = set(re.findall(r"\w+", text)), _by_word(lang)
    candidates = always + [found for word in words & keyed.keys() for found in keyed[word]]
    return sorted({piece for piece, translated in candidates if piece in text and piece not in translated})


@functools.cache
def _by_word(lang: str) -> tuple[dict[str, list], list]:
    """The pieces by their longest inner word (one not at either end, so whole in any text that
    holds the piece): the page contract asks on every page, and most pages hold few of the words;
    the few pieces with no inner word are searched every time."""
    keyed: dict[str, list] = {}
    always = []
    for piece, translated in _pieces(lang):
        inner = re.findall(r"\w+", piece)[1:-1]
        if inner:
            keyed.setdefault(max(inner, key=len), []).append((piece, translated))
        else:
            always.append((piece, translated))
    return keyed, always


@functools.cache
def _pieces(lang: str) -> tuple[tuple[str, str], ...]:
    """(a piece of an English message, its message's translation), once per language and run (the
    source's messages are extracted once a run: `source_messages`); the page contract asks on every
    page."""
    found, catalogue = [], i18n.translations(lang)
    for message in source_messages():
        if not message.id:
            continue
        if isinstance(message.id, str):
            keys, translated = [message.id], catalogue.gettext(message.id)
        else:  # a plural: both English forms, against both translated ones
            keys = list(message.id)
            translated = catalogue.ngettext(*message.id, 1) + " " + catalogue.ngettext(*message.id, 2)
        for key in keys:
            for piece in re.split(r"\{\w*\}|\*\*|[:.·?!]", key):
                piece = piece.strip()
                if len(piece) >= 14 and " " in piece:
                    found.append((piece, translated))
    return tuple(found)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", ["home", "rules", "stats"])
def test_the_start_rules_and_statistics_pages_follow_the_tabs_language(page, lang):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.session_state["lang"] = lang
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception
    assert english_left(shown(at), lang) == []


def test_two_tabs_of_one_room_can_read_two_languages():
    room = tables.create_room("dixit", language="it")
    seat = tables.join(room.code, "Ana")
    italian = run("play", room=room.code, seat=0, token=seat.token)
    spanish = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    spanish.session_state["lang"] = "es"
    for k, v in {"room": room.code, "seat": 0, "token": seat.token}.items():
        spanish.query_params[k] = str(v)
    spanish.switch_page("pages/play.py").run()
    waiting = "The host starts the game when everyone has joined ({count} so far)."
    # The phone's screen is the stage's, drawn in the language its tab mounted it with.
    assert i18n.translate("it", waiting, count=1) in stage_of(italian)
    assert i18n.translate("es", waiting, count=1) in stage_of(spanish)
    assert english_left(stage_of(italian), "it") == english_left(stage_of(spanish), "es") == []
