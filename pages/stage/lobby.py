"""The wall's lobby on the stage: who has joined, each with the dot of their phone, and the audience's
count, drawn from the room's socket so that a join or a phone coming shows at once, with no rerun.
The page draws the rest of the lobby (the QR code, the code, the address, the host's controls)."""

from __future__ import annotations

from pages.stage.render import Speaker, render


def draw(view: dict, lang: str, extra: dict) -> str:
    t = Speaker(lang)
    size = extra.get("audience") or {}
    audience = ""
    if size.get("count"):
        audience = "👀 " + t.n_("{n} in the audience", "{n} in the audience", size["count"])
    return render("lobby.html", lang, view=view, connected=set(extra.get("connected", ())), audience=audience)
