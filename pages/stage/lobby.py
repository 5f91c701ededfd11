"""The wall's lobby, a stage scene like every other: the QR code, the room's code and address, who
has joined (each with the dot of their phone: up to 12) and the audience's count with its latest
names, drawn from the room's socket so that a join shows at once, with no rerun. It fits the stage
at every size, as the game's scenes do."""

from __future__ import annotations

import functools

import segno

from pages.stage.render import Speaker, render


@functools.lru_cache(maxsize=64)
def qr(url: str) -> str:
    """The join link's QR code, as an SVG data URI: made once per address."""
    return segno.make(url, error="m").svg_data_uri(dark="#2A1F1A", light="#FBF5EC", border=2, omitsize=True)


def draw(view: dict, lang: str, extra: dict) -> str:
    t = Speaker(lang)
    size = extra.get("audience") or {}
    audience = ""
    if size.get("count"):
        audience = "👀 " + t.n_("{n} in the audience", "{n} in the audience", size["count"])
    fewest, most = view["seats_allowed"]
    link = extra.get("link")
    return render(
        "lobby.html",
        lang,
        view=view,
        connected=set(extra.get("connected", ())),
        audience=audience,
        latest=size.get("latest", []) if size.get("count") else [],
        join=extra.get("join"),
        qr=qr(link) if link else None,
        fewest=fewest,
        most=most,
        columns=1 if len(view["names"]) <= 6 else 2,
    )
