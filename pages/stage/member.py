"""An audience member's phone on the stage, the same frame for every game: their name and points,
what they may pick now (drawn by the game's stage `member`, or as plain buttons), how their last
pick went, and the public table, short. No Streamlit."""

from __future__ import annotations

import threading

from markupsafe import Markup

from pages.stage import kit
from pages.stage.render import Speaker, render

WATCH = "Follow the game on the shared screen: there is nothing to pick in this one."
DONE = "You are done for this turn: wait for the next one."


def pick_text(pick: dict, stage, t: Speaker) -> str:
    """A pick in words: the game's own (`pick_text` in its stage module), else its values."""
    own = getattr(stage, "pick_text", None)
    if own is not None:
        return own(pick, t)
    return ", ".join(str(v) for k, v in pick.items() if k != "type")


def _member_done(view, stage) -> str:
    """What a member done for this turn reads: the game's words (`MEMBER_DONE` in its stage module:
    Maudit Mot Dit's "You found the word!"), else ours."""
    return getattr(stage, "MEMBER_DONE", None) or DONE


_fragments: dict[tuple, Markup] = {}
_fragments_guard = threading.Lock()


def _reveal_fragment(view, lang: str, stage, extra: dict) -> Markup:
    """What the whole audience reads at a reveal (the game's `reveal_answer`: which was right), drawn
    once per room, version and language however many members there are."""
    key = (lang, view.get("code"), view.get("version"), extra.get("reveal_from"))
    with _fragments_guard:
        found = _fragments.get(key)
    if found is None:
        answer = getattr(stage, "reveal_answer", None)
        found = Markup(render("member_fragment.html", lang, answer=answer(view, Speaker(lang)) if answer else ""))
        with _fragments_guard:
            _fragments[key] = found
            while len(_fragments) > 256:
                _fragments.pop(next(iter(_fragments)))
    return found


def _my_line(me: dict, what: str, t: Speaker) -> str:
    """A member's own line at a reveal: how their pick went, and where they stand in the audience."""
    last = me.get("last") or {}
    if last.get("points"):
        how = "✅ " + t.n_(
            "You picked {pick}: +{n} point.", "You picked {pick}: +{n} points.", last["points"], pick=what
        )
    elif what:
        how = t._("You picked {pick}.", pick=what)
    else:
        how = t._("You did not pick this time.")
    place = t.place(me.get("place", 1), me.get("of", 1), bool(me.get("tied")))
    return how + " " + t._("You're {place} in the audience.", place=place)


def draw(view, me: dict, lang: str, stage=None, extra: dict | None = None) -> str:
    """The member's screen. `me`: the service's (name, points, picks, may_pick, done, does, last).
    At a reveal: the audience's one fragment, and the member's own line."""
    t = Speaker(lang)
    if (extra or {}).get("revealing"):
        last = me.get("last") or {}
        what = " & ".join(pick_text(p, stage, t) for p in last.get("picks") or [])
        return render(
            "member_reveal.html",
            lang,
            view=view,
            me=me,
            fragment=_reveal_fragment(view, lang, stage, extra or {}),
            mine=_my_line(me, what, t),
            good=bool(last.get("points")),
        )
    shown = dict(me)
    shown["done_text"] = t._(_member_done(view, stage))
    shown["does_text"] = t._(me.get("does") or WATCH)
    last = me.get("last")
    if last and last.get("picks"):
        what = " & ".join(pick_text(p, stage, t) for p in last["picks"])
        shown["last"] = {
            "points": last["points"],
            "text": (
                "✅ "
                + t.n_("You picked {pick}: +{n} point", "You picked {pick}: +{n} points", last["points"], pick=what)
                if last["points"]
                else t._("You picked {pick}: no points this time.", pick=what)
            ),
        }
    else:
        shown["last"] = None
    if stage is not None and hasattr(stage, "member"):
        return stage.member(view, shown, lang, extra)
    return render("member_buttons.html", lang, view=view, me=shown, **kit.member_extra(view, shown, extra, t))
