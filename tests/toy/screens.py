"""Pebbles on the stage (tests/toy: a game outside the app), from the stage's kit alone; its
templates are in its folder's templates/, as every game's (pages/games)."""

from __future__ import annotations

from pages.stage import kit
from pages.stage.render import Speaker, render


def wall(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    history = [{**h, "turn": h["round"]} for h in view.get("history") or []]
    return render(
        "pebbles_wall.html",
        lang,
        view={**view, "history": history},
        scene=kit.scene_of(view, extra),
        phase_line=f"{view.get('round', '')} / {view.get('rounds', '')}",
        winners=kit.winners_line(view, t) if view["phase"] == "end" else "",
        **kit.wall_extra(view, extra, t),
    )


def phone(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    return render("pebbles_phone.html", lang, view=view, **kit.phone_extra(view, extra, t))
