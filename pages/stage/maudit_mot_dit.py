"""Maudit Mot Dit's audience member on the stage (the wall and the seats' phones are Streamlit's,
pages/screens/maudit_mot_dit.py): after each clue, one typed answer, hidden from everyone until the
round ends (engine/games/maudit_audience.py). The words are those of the Streamlit screen it
replaces, so their translations carry over. No Streamlit here."""

from __future__ import annotations

from engine.games.maudit_audience import ANSWER_MAX
from pages.stage import kit
from pages.stage.render import N_, Speaker, render

# A member whose answer found the word answers no more this round (pages/stage/member.py shows it).
MEMBER_DONE = N_("You found the word! 1 point, counted when the round ends. No more answers this round.")


def member(view, me: dict, lang: str, extra: dict | None = None) -> str:
    """The clues so far and a box for one answer after the latest one, or, once it is sent, the
    member's answers so far (theirs alone: nobody else sees them before the round ends)."""
    t = Speaker(lang)
    offered = me["may_pick"]
    return render(
        "maudit_mot_dit_member.html",
        lang,
        view=view,
        me=me,
        clue=offered[0]["clue"] if offered else None,
        said=", ".join(p["answer"] for p in me["picks"] if p.get("answer")),
        most=ANSWER_MAX,
        **kit.member_extra(view, me, extra, t),
    )


def pick_text(pick: dict, t: Speaker) -> str:
    """An answer as the member typed it, quoted: "You picked “sea”: +1 point"."""
    return f"“{pick.get('answer') or ''}”"
