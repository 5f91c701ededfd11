"""An audience member's phone on the stage, the same frame for every game: their name and points,
what they may pick now (drawn by the game's stage `member`, or as plain buttons), how their last
pick went, and the public table, short. No Streamlit."""

from __future__ import annotations

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


def draw(view, me: dict, lang: str, stage=None, extra: dict | None = None) -> str:
    """The member's screen. `me`: the service's (name, points, picks, may_pick, done, does, last)."""
    t = Speaker(lang)
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
