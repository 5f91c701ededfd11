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

TEMPLATES = Path(__file__).resolve().parent / "templates"  # the kit's, every game's screens share them


class _Templates(jinja2.BaseLoader):
    """The kit's templates, then each game's (pages/games/<folder>/templates: a game's are named
    after its folder), the games read from the engine's registry when a template is first asked for."""

    def get_source(self, environment, template):
        from pages import games

        folders = [TEMPLATES] + sorted({games.templates(name) for name in games.SETUPS})
        for folder in folders:
            path = folder / template
            if path.is_file():
                return path.read_text(encoding="utf-8"), str(path), lambda: True
        raise jinja2.TemplateNotFound(template)


def name_of(view, seat) -> str:
    """A seat's name as the screens show it ("?" for none)."""
    return view["names"][seat] if isinstance(seat, int) and 0 <= seat < len(view["names"]) else "?"


def card_em(count: int, width: float, height: float, under: float, gap: float = 0.6) -> float:
    """The widest card (in em) that lets `count` cards of 2:3, each with `under` em of text below it,
    fit in `width` x `height` em, over one to four rows."""
    best = 0.0
    for rows in range(1, 5):
        cols = -(-max(count, 1) // rows)
        across = (width - gap * (cols - 1)) / cols
        down = ((height - gap * (rows - 1)) / rows - under) / 1.5
        best = max(best, min(across, down))
    return round(min(best, 11.0), 2)


TALLER = 7.0  # em of the 10 a 4:3 stage has beyond a 16:9 one (40em tall, not 30): the rest is for the
# lines that wrap more there (the waiting line, a long phrase)


def card_style(count: int, width: float, height: float, under: float) -> str:
    """The cards' width on a 16:9 stage (`--card`) and on a 4:3 one (`--card-tall`, the same box
    TALLER em taller): one screen's HTML for both aspects, the stage's CSS choosing by the screen's
    (pages/assets/stage.css), so that every viewer still shares it."""
    return f"--card: {card_em(count, width, height, under)}em; --card-tall: {card_em(count, width, height + TALLER, under)}em"


@functools.cache
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=_Templates(),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.filters["json"] = _json
    env.globals["card_em"] = card_em
    env.globals["card_style"] = card_style
    env.globals["cards_html"] = cards_html
    env.filters["name_of"] = lambda seat, view: name_of(view, seat)
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

    def ordinal(self, n: int) -> str:
        """A place as this language writes it: 1st, 2nd, 23rd; 1.º; 1º."""
        if self.lang == "es":
            return f"{n}.º"
        if self.lang == "it":
            return f"{n}º"
        tens = n % 100
        suffix = "th" if 11 <= tens <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"

    def place(self, place: int, of: int, tied: bool) -> str:
        """Where a seat finished: "2nd of 5", or "tied 2nd of 5"."""
        if tied:
            return self._("tied {place} of {n}", place=self.ordinal(place), n=of)
        return self._("{place} of {n}", place=self.ordinal(place), n=of)


_grids: dict[str, Markup] = {}
_grids_guard = threading.Lock()


def cards_html(lang: str, **grid) -> Markup:
    """A card grid (templates/cards.html), kept by what it shows: the hand a phone holds is drawn once
    for every screen it appears on, not at every version."""
    key = lang + _json(grid)
    with _grids_guard:
        found = _grids.get(key)
    if found is None:
        found = Markup(_grid(lang, **grid))
        with _grids_guard:
            _grids[key] = found
            while len(_grids) > 4096:
                _grids.pop(next(iter(_grids)))
    return found


def _grid(lang, cards, pick, pick_min, button, move, labels, size, nonce, card_em) -> str:
    """templates/cards.html written out in Python: the same HTML, five times faster (a phase change
    draws a new hand on every phone). tests/stage/test_cards.py holds the two to the same DOM."""

    def shown(card: dict, key: str):  # a field as the template read it: missing is empty
        return card[key] if key in card else ""

    say = Speaker(lang)._
    if isinstance(card_em, str):
        style = f' style="{escape(card_em)}"'
    elif card_em:
        style = f' style="--card: {escape(card_em)}em"'
    else:
        style = ""
    least = pick_min if pick_min is not None else pick
    out = [
        f'<div class="sm-cards sm-{escape(size)}"{style} data-pick="{escape(pick)}" data-pick-min="{escape(least)}"'
        f' data-nonce="{escape(nonce)}" role="{"group" if pick else "list"}">'
    ]
    for card in cards:
        cid, value, label, alt, badge = (shown(card, k) for k in ("id", "value", "label", "alt", "badge"))
        if "label_text" in card:
            named = card["label_text"]
        else:
            named = say("Card {number}", number=label) if label else say("picture card")
        named = escape(named)
        also = escape(" · " + str(alt)) if alt else ""  # the picture's own words
        more = escape(" · " + str(badge)) if badge else ""  # and its badge, on a button
        src = escape(shown(card, "src") or f"/cards/{cid}")
        blank = shown(card, "blank")
        out.append(
            f'<figure data-testid="card" role="{"none" if pick else "listitem"}"'
            f' class="{"glow" if shown(card, "glow") else ""} {"off" if shown(card, "off") else ""}"'
            f' data-id="{escape(cid)}" data-value="{escape(_json(value))}" id="card-{escape(nonce)}-{escape(cid)}">'
        )
        if pick:
            off = "disabled" if shown(card, "off") else ""
            image = "" if blank else f'<img src="{src}" alt="" loading="lazy" draggable="false">'
            out.append(
                f'<button type="button" class="sm-card-pick" aria-pressed="false" {off}'
                f' aria-label="{named}{also}{more}">{image}</button>'
            )
        elif not blank:
            out.append(f'<img src="{src}" alt="{named}{also}" loading="lazy" draggable="false">')
        caption = shown(card, "caption")
        if caption:
            out.append(f"<figcaption>{escape(caption)}</figcaption>")
        if label:
            out.append(f'<span class="label" aria-hidden="true">{escape(label)}</span>')
        if badge:
            out.append(f'<div class="badge">{escape(badge)}</div>')
        if not blank and not shown(card, "src"):
            out.append(f'<button type="button" class="zoom" aria-label="{escape(say("Enlarge"))} · {named}">⤢</button>')
        out.append("</figure>")
    out.append("</div>")
    if pick:
        out.append(
            f'<button type="button" class="sm-confirm" data-testid="confirm-pick" disabled'
            f' data-move="{escape(_json(move))}" data-labels="{escape(_json(labels or {}))}">{escape(button)}</button>'
        )
    return "".join(out)


def render(template: str, lang: str, **context):
    """The template's HTML, or a `Screen` when it is made of fragments (pages/stage/fragments.py)."""
    from pages.stage import fragments

    values = dict(_speaking(lang), kit=_kit(lang), **context)
    return fragments.screen(_env().get_template(template), values, lang)


@functools.cache
def _speaking(lang: str) -> dict:
    speaker = Speaker(lang)
    return dict(_=speaker._, n_=speaker.n_, _h=speaker._h, points=speaker.points, lang=lang)


@functools.cache
def _kit(lang: str):
    """The screen kit's macros (templates/kit.html) in one language, made once: every screen had
    imported it at each render (a twentieth of a millisecond). Its macros read only their arguments
    and the language's functions (tests/stage/test_fragments.py), so one module serves every screen."""
    return _env().get_template("kit.html").make_module({**_env().globals, **_speaking(lang)})


def warm() -> None:
    """Compile every screen's template, and the kit in every language, before the first screen
    asks: a hall's first vote waited about a tenth of a second on its templates (the server's
    warm-up thread calls this)."""
    from engine.core.game import LANGUAGES
    from pages import games

    folders = [TEMPLATES] + sorted({games.templates(name) for name in games.SETUPS})
    for folder in folders:
        for path in sorted(folder.glob("*.html")):
            _env().get_template(path.name)
    for lang in LANGUAGES:
        _kit(lang)
