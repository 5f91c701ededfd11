"""Pictomania's audience member on the stage (the wall and the seats' phones are Streamlit's,
pages/screens/pictomania.py): while the players draw, a number for each drawing, from the word
cards on the shared screen (engine/games/pictomania_audience.py); a later number on a drawing
replaces the earlier one until the round is scored. The words are those of the Streamlit screen
it replaces, so their translations carry over. No Streamlit here."""

from __future__ import annotations

from pages.stage import kit
from pages.stage.render import Speaker, render


def member(view, me: dict, lang: str, extra: dict | None = None) -> str:
    """Each drawing with one button per number on offer, the member's guess on it pressed."""
    t = Speaker(lang)
    guessed = {p["drawer"]: p["number"] for p in me["picks"]}
    drawings = []
    for drawer in sorted({p["drawer"] for p in me["may_pick"]}):
        numbers = [
            {"number": p["number"], "move": p, "on": guessed.get(drawer) == p["number"]}
            for p in me["may_pick"]
            if p["drawer"] == drawer
        ]
        drawings.append({"drawer": drawer, "name": kit.name_of(view, drawer), "numbers": numbers})
    return render(
        "pictomania_member.html",
        lang,
        view=view,
        me=me,
        drawings=drawings,
        **kit.member_extra(view, me, extra, t),
    )


def pick_text(pick: dict, t: Speaker) -> str:
    """A guess is the number of a word on the shared screen's cards, the same in every language
    (as the wall's count of the audience's guesses writes it)."""
    return str(pick.get("number", "?"))
