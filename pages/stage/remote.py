"""The host's remote: every control of the host (start, Next and Hold, the clock, skipping and
removing players, computer players, requests to come in, the audience, the end, the wall's sound)
as a stage screen, drawn from the room's socket like every other screen and tapped back as host
moves (`tables.host_move`). Its socket proved the host's key in its first message; a renewed key
blanks it. Shown on the teacher's phone, in a second window of the laptop, or as a seat's *Host*
tab. What stays the laptop's (the address for the phones, uploads) is in the wall's Esc menu."""

from __future__ import annotations

from engine import tables
from engine.core import SobremesaError
from pages.stage import kit
from pages.stage.render import N_, render

PACES = {"off": N_("No clock"), "relaxed": N_("Relaxed"), "brisk": N_("Brisk"), "host": N_("Host's Next")}
LEVELS = {"normal": N_("Add a computer player"), "easy": N_("Add an easy computer player")}
# What the host sees of a device asking to come in (`gate.device_kind`); brand names stay as they are.
KINDS = {
    "Android phone": N_("Android phone"),
    "Android tablet": N_("Android tablet"),
    "Windows computer": N_("Windows computer"),
    "Linux computer": N_("Linux computer"),
}
BRANDS = ("iPhone", "iPad", "Mac", "Chromebook")


def device(kind: str, t) -> str:
    """A device's kind as the host reads it (brand names stay as they are)."""
    label = KINDS.get(kind)
    return t._(label) if label else kind if kind in BRANDS else t._("a device")


def host_extra(code: str, key: str, view: dict) -> dict:
    """What only the host sees, read at each draw of a remote: the requests to come in, the
    audience's members, the wall's sound. (A few remotes a room: their reads cost nothing beside
    the walls' and phones'.)"""
    extra: dict = {"sound": tables.sound(code) or {"muted": False, "volume": 70}}
    try:
        if view.get("asking"):
            extra["rejoins"] = tables.rejoin_requests(code, key)
        if view.get("joining"):
            extra["joins"] = tables.join_requests(code, key)
        watched = tables.games()[view["game"]].audience
        if watched is not None and watched.of(view["options"]) is not None and view["status"] != "finished":
            size = tables.audience_size(code)
            extra["audience"] = {
                "count": size["count"],
                "open": size["open"],
                "members": tables.audience_members(code, key) if size["count"] else [],
            }
    except SobremesaError:
        pass
    return extra


def draw(view: dict, lang: str, extra: dict, stage) -> str:
    from pages.stage.render import Speaker

    t = Speaker(lang)
    game = tables.games()[view["game"]]
    names = view["names"]
    status = view["status"]
    people = [s for s in range(len(names)) if s not in view.get("out", []) and s not in view.get("bots", [])]
    pace_names = getattr(stage, "PACE_NAMES", None)
    bots = None
    if game.bots is not None and status != "finished":
        ready = game.bots.ready is None or game.bots.ready(view["options"])
        bots = {"ready": ready, "people": people if status == "playing" else [], "handed": view.get("handed", [])}
    for r in extra.get("rejoins", []) + extra.get("joins", []):
        r["device"] = device(r["kind"], t)
        r["ago"] = ago(r["seconds"], t)
    fewest, most = view.get("seats_allowed") or (len(names), len(names))
    counts = view.get("seat_counts") or list(range(fewest, most + 1))
    return render(
        "remote.html",
        lang,
        view=view,
        scene=kit.scene_of(view, extra) if status != "lobby" else "lobby",
        revealing=bool(extra.get("revealing")),
        podium=status == "finished" and bool(view.get("reveal_since")),
        clock=kit.clock(view),
        paces=[(p, t._(label)) for p, label in PACES.items()],
        pace_names=pace_names,
        bots=bots,
        levels=[(level, t._(label)) for level, label in LEVELS.items()],
        startable=len(names) in counts,
        fewest=fewest,
        most=most,
        counts=", ".join(str(n) for n in counts) if view.get("seat_counts") else "",
        still_in=[s for s in range(len(names)) if s not in view.get("out", [])] if status != "finished" else [],
        rejoins=extra.get("rejoins", []),
        joins=extra.get("joins", []),
        audience=extra.get("audience"),
        sound=extra["sound"],
    )


def ago(seconds: int, t) -> str:
    if seconds < 60:
        return t.n_("{n} second ago", "{n} seconds ago", seconds)
    if seconds < 3600:
        return t.n_("{n} minute ago", "{n} minutes ago", seconds // 60)
    return t.n_("{n} hour ago", "{n} hours ago", seconds // 3600)
