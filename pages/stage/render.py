"""Render a stage screen: Jinja2 templates with autoescaping, in the language they are given.

Every value a template prints is escaped unless it is `Markup`, so a name, a phrase or a clue is
text by construction. A message is translated by `_` (its parameters are inserted before the
escape, so the whole line is escaped) or by `_h` for a message that carries markup of ours (its
parameters are escaped, its own text is not). No Streamlit here: the socket renders off the
script thread."""

from __future__ import annotations

import functools
import threading
from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from engine.i18n import translate, translate_plural

TEMPLATES = Path(__file__).resolve().parent / "templates"
_paths: list[Path] = [TEMPLATES]


def add_templates(folder: Path) -> None:
    """A game outside the project (tests/toy) adds its own templates' folder."""
    if folder not in _paths:
        _paths.append(folder)
        _env.cache_clear()


@functools.cache
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in _paths]),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.filters["json"] = _json
    from pages.stage.kit import card_em

    env.globals["card_em"] = card_em
    env.globals["cards_html"] = cards_html
    env.filters["name_of"] = lambda seat, view: view["names"][seat] if 0 <= seat < len(view["names"]) else "?"
    env.filters["seats_by_score"] = lambda names, scores: sorted(range(len(names)), key=lambda s: (-scores[s], s))
    env.filters["as_card"] = lambda card: {"id": card, "value": card}
    return env


def _json(value) -> str:
    """A move or a value for a `data-` attribute (escaped by autoescape as an attribute)."""
    import json

    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; it is translated where shown."""
    return message


class Speaker:
    """The translation functions a template calls, in one language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def _(self, message: str, **params) -> str:
        return translate(self.lang, message, **params)

    def n_(self, singular: str, plural: str, n: int, **params) -> str:
        return translate_plural(self.lang, singular, plural, n, **params)

    def _h(self, message: str, **params) -> Markup:
        """A message with markup of ours in it (`<b>`): its parameters are escaped, it is not."""
        text = translate(self.lang, message)
        return Markup(text).format(**{k: escape(v) if not isinstance(v, Markup) else v for k, v in params.items()})

    def fill(self, message: str, **params) -> Markup:
        """A message already in this language, with placeholders left in (`n_(..., word="{word}")`),
        filled with markup of ours or escaped text: a plural that carries markup."""
        return Markup(message).format(**{k: escape(v) if not isinstance(v, Markup) else v for k, v in params.items()})

    def points(self, n: int) -> str:
        return translate_plural(self.lang, "{n} point", "{n} points", n)


_grids: dict[str, Markup] = {}
_grids_guard = threading.Lock()


def cards_html(lang: str, **grid) -> Markup:
    """A card grid (templates/cards.html), kept by what it shows: the hand a phone holds is drawn once
    for every screen it appears on, not at every version."""
    key = lang + _json(grid)
    with _grids_guard:
        found = _grids.get(key)
    if found is None:
        found = Markup(render("cards.html", lang, **grid))
        with _grids_guard:
            _grids[key] = found
            while len(_grids) > 4096:
                _grids.pop(next(iter(_grids)))
    return found


def render(template: str, lang: str, **context) -> str:
    speaker = Speaker(lang)
    return (
        _env()
        .get_template(template)
        .render(_=speaker._, n_=speaker.n_, _h=speaker._h, points=speaker.points, lang=lang, **context)
    )
