"""What every game's stage screens share, in Python: a seat's name, the waiting line, the winners
line, the clock's deadline, the podium, and the parts of a screen that come from beside the
view (`extra`: who is connected, the audience's size, the reveal). The markup is in
templates/kit.html. No game's rules here, and no Streamlit."""

from __future__ import annotations

from datetime import datetime

from engine.core import ranking
from pages.stage.render import Speaker, name_of  # noqa: F401  (name_of: the games' screens read it here)


def winners_line(view, t: Speaker) -> str:
    best = max(view["scores"], default=0)
    winners = [n for n, s in zip(view["names"], view["scores"], strict=False) if s == best]
    return "🏆 " + t.n_(
        "{names} wins with {points}",
        "{names} win with {points}",
        len(winners),
        names=" & ".join(winners),
        points=t.points(best),
    )


def clock(view) -> dict | None:
    """The pace clock as drawn: {"deadline": epoch ms} while it runs (the browser counts down to it,
    so the screen is the same whenever it is drawn), {"left": ms} while paused, or None with no countdown."""
    if view.get("status") != "playing":
        return None
    if view.get("paused"):
        return None if view.get("left") is None else {"left": int(view["left"]) * 1000}
    if not view.get("deadline"):
        return None
    deadline = datetime.fromisoformat(view["deadline"].replace("Z", "+00:00"))
    return {"deadline": int(deadline.timestamp() * 1000)}


def scene_of(view, extra: dict | None) -> str:
    """The scene the wall plays: the reveal while it holds the stage (the last turn's too, before
    the podium), else the phase, or the end."""
    if (extra or {}).get("revealing"):
        return "reveal"
    if view["phase"] == "end" or view.get("status") == "finished":
        return "end"
    return view["phase"]


def podium(view, t: Speaker) -> list[dict]:
    """The players placed 1 to 3 (ties share a place), at most 8 names."""
    scores = view["scores"]
    shown, _more = ranking.top(scores)
    at = ranking.places(scores)
    return [{"place": at[i], "name": view["names"][i], "points": scores[i]} for i in shown]


def podium_more(view) -> int:
    return ranking.top(view["scores"])[1]


def skipped_line(view, t: Speaker, scene: str = "") -> str:
    """Whom the clock skipped, and why: this turn's while it is on, the closed turn's with its
    reveal, and nothing from an earlier scene after it."""
    skips = view.get("clock_skips") or []
    if bool(view.get("clock_skips_closed")) != (scene == "reveal"):
        return ""
    late = [s["seat"] for s in skips if s.get("by") == "clock"]
    quiet = [s["seat"] for s in skips if s.get("by") == "quiet"]
    names = lambda seats: ", ".join(name_of(view, s) for s in seats)  # noqa: E731
    lines = []
    if late:
        lines.append("⏱ " + t._("Time ran out for {names}: the table went on.", names=names(late)))
    if quiet:
        lines.append("📵 " + t._("{names}: phone away for 30 s, skipped.", names=names(quiet)))
    return " ".join(lines)


def wall_extra(view, extra: dict | None, t: Speaker) -> dict:
    extra = extra or {}
    size = extra.get("audience") or {}
    audience = ""
    if size.get("count"):
        audience = "👀 " + t.n_("{n} in the audience", "{n} in the audience", size["count"])
        if size.get("picked") and view["phase"] not in ("end",):
            audience += " · " + t.n_("{n} has picked", "{n} have picked", size["picked"])
    return {
        "connected": set(extra.get("connected") or ()),
        "clock": clock(view),
        "audience": audience,
        "audience_reveal": extra.get("audience_line") or "",
        "podium": podium(view, t),
        "podium_more": podium_more(view),
        "audience_top": view.get("audience_top") or [],
        "audience_more": view.get("audience_more") or 0,
        "skipped": skipped_line(view, t, scene_of(view, extra)),
        "join": extra.get("join") or "",
        "code": view["code"],
    }


def skipped_here(view, seat: int, t: Speaker) -> str:
    """What a seat the clock skipped reads instead of "the host skipped you"; "" otherwise."""
    by = {s["seat"]: s.get("by") for s in view.get("clock_skips") or []}.get(seat)
    rounds = view.get("turn_word") == "round"
    if by == "clock":
        if rounds:
            return t._("Time ran out, so the table went on without you. You are back in next round.")
        return t._("Time ran out, so the table went on without you. You are back in next turn.")
    if by == "quiet":
        if rounds:
            return t._("Your phone was away, so the table went on without you. You are back in next round.")
        return t._("Your phone was away, so the table went on without you. You are back in next turn.")
    return ""


def phone_extra(view, extra: dict | None, t: Speaker) -> dict:
    extra = extra or {}
    seat = view["you"]
    alone = view.get("status") == "playing" and bool(view.get("waiting_on_you_alone"))
    return {
        "me": view["names"][seat],
        "my_points": view["scores"][seat] if view.get("scores") else 0,
        "alone": alone,
        "clock": clock(view) if view.get("waiting_on_you") else None,
        "sitting_out": seat in (view.get("sitting_out") or []),
        "skipped_why": skipped_here(view, seat, t),
        "out_of_game": seat in (view.get("out") or []),
    }


def member_extra(view, me: dict, extra: dict | None, t: Speaker) -> dict:
    ranked = sorted(zip(view["scores"], view["names"], strict=False), key=lambda sn: -sn[0])
    return {
        "scores_line": " · ".join(f"{name} {score}" for score, name in ranked),
        "winners": winners_line(view, t) if view.get("status") == "finished" else "",
        "audience_top": view.get("audience_top") or [],
        "audience_more": view.get("audience_more") or 0,
        "last": me.get("last"),
        "audience_top_line": _top_line(view, t),
    }


def _top_line(view, t: Speaker) -> str:
    best = " · ".join(f"{m['place']}. {m['name']} {t.points(m['points'])}" for m in view.get("audience_top") or [])
    if view.get("audience_more"):
        best += " · " + t.n_("+ {n} more", "+ {n} more", view["audience_more"])
    return best
