"""Trading Faces' audience member on the stage (the wall and the seats' phones are Streamlit's,
pages/screens/trading_faces.py): when a face is made, the emotion they see, one tap each, which
they may change until the face is revealed (engine/games/trading_faces_audience.py). The words are
those of the Streamlit screen it replaces, so their translations carry over. No Streamlit here."""

from __future__ import annotations

from engine.pictures.trading_faces_emotions import EMOTIONS
from pages.stage import kit
from pages.stage.render import N_, Speaker, render

WORDS = {  # the emotions' names, translated where shown (pages/screens/trading_faces.py's)
    "angry": N_("angry"),
    "bored": N_("bored"),
    "confused": N_("confused"),
    "disgusted": N_("disgusted"),
    "embarrassed": N_("embarrassed"),
    "happy": N_("happy"),
    "excited": N_("excited"),
    "proud": N_("proud"),
    "sad": N_("sad"),
    "scared": N_("scared"),
    "surprised": N_("surprised"),
    "tired": N_("tired"),
    "in_love": N_("in love"),
}


def word(emotion: str, t: Speaker) -> str:
    return t._(WORDS[emotion]) if emotion in WORDS else str(emotion)


def label(emotion: str, t: Speaker) -> str:
    """ "6 · happy": the card's number and its word, as on the card."""
    number = EMOTIONS.index(emotion) + 1 if emotion in EMOTIONS else "?"
    return f"{number} · {word(emotion, t)}"


def member(view, me: dict, lang: str, extra: dict | None = None) -> str:
    """Whose face it is, the emotions on offer (the member's pick pressed), and their pick."""
    t = Speaker(lang)
    picked = me["picks"][-1]["emotion"] if me["picks"] else None
    emotions = [{"label": label(p["emotion"], t), "move": p, "on": p["emotion"] == picked} for p in me["may_pick"]]
    face = view.get("face") or {}
    return render(
        "trading_faces_member.html",
        lang,
        view=view,
        me=me,
        maker=kit.name_of(view, face.get("maker")),
        picked=label(picked, t) if picked else None,
        emotions=emotions,
        **kit.member_extra(view, me, extra, t),
    )


def pick_text(pick: dict, t: Speaker) -> str:
    """The emotion picked, in words: "You picked happy: +1 point"."""
    return word(pick.get("emotion"), t)
