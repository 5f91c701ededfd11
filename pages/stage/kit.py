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


# The podium's steps (seconds each): 3rd, then 2nd, then 1st, then the whole ranking.
PODIUM = (("third", 1.2), ("second", 1.2), ("first", 1.8), ("ranking", 0.0))
VOTE_STAGGER_MS, VOTES_AT_ONCE = 250, 6  # votes land one by one, or all at once past this many


def steps(named: tuple[tuple[str, float], ...], start_ms: int | None) -> dict | None:
    """A scene that plays in steps, as its screen draws it: `from` (epoch ms: when the scene began)
    and `at` (each step's start, ms after it). None when the scene is not playing in steps (all
    shown). pages/assets/stage.js starts each part's animation at its step, however late the
    screen is drawn; pages/assets/stage.css has the parts (`sm-in`, `sm-out`, `sm-resort`)."""
    if start_ms is None:
        return None
    at, ms = {}, 0
    for name, seconds in named:
        at[name] = ms
        ms += int(seconds * 1000)
    return {"from": start_ms, "at": at, "length": ms}


def reveal(named: tuple[tuple[str, float], ...], extra: dict | None) -> dict | None:
    """The reveal's steps (`steps`) while the room holds one, else None."""
    extra = extra or {}
    return steps(named, extra.get("reveal_from")) if extra.get("revealing") else None


def staggered(at_ms: int, n: int, i: int) -> int:
    """The i-th of n things landing from `at_ms` on: one by one, or all at once past VOTES_AT_ONCE."""
    return at_ms if n > VOTES_AT_ONCE else at_ms + i * VOTE_STAGGER_MS


def tally(view, gained: dict) -> list[dict]:
    """Everyone's points through a reveal, for the points and the re-sort: each seat's total
    before the turn and after it, what it gained, and its place in the order before and after
    (highest first, seats in order among ties)."""
    after = view.get("scores") or []
    rows = [
        {
            "seat": s,
            "name": view["names"][s],
            "gained": int(gained.get(str(s), 0)),
            "after": after[s] if s < len(after) else 0,
        }
        for s in range(len(view["names"]))
    ]
    for r in rows:
        r["before"] = r["after"] - r["gained"]
    for key, order in (("before", "order_before"), ("after", "order_after")):
        for i, r in enumerate(sorted(rows, key=lambda r: (-r[key], r["seat"]))):
            r[order] = i
    return rows


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


PODIUM_STEP = {1: "first", 2: "second", 3: "third"}  # the others come with the whole ranking


def standings(names: list[str], points: list[int]) -> list[dict]:
    """Everyone placed, best first, ties sharing a place (1, 2, 2, 4: RULES.md section 6): each with
    the podium's step that shows it (3rd, then 2nd, then 1st, then the whole ranking)."""
    at = ranking.places(points)
    order = sorted(range(len(points)), key=lambda i: (at[i], i))
    return [
        {
            "place": at[i],
            "name": names[i],
            "points": points[i],
            "tied": at.count(at[i]) > 1,
            "step": PODIUM_STEP.get(at[i], "ranking"),
        }
        for i in order
    ]


def podium(view, t: Speaker) -> list[dict]:
    """The players' standings (`standings`), or in a game of teams the teams' (a game's screen
    passes them instead)."""
    return standings(view["names"], view["scores"])


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
    scene = scene_of(view, extra)
    size = extra.get("audience") or {}
    audience = ""
    if size.get("count"):
        audience = "👀 " + t.n_("{n} in the audience", "{n} in the audience", size["count"])
        if size.get("picked") and view["phase"] not in ("end",):
            audience += " · " + t.n_("{n} has picked", "{n} have picked", size["picked"])
    return {
        "connected": set(extra.get("connected") or ()),
        "revealing": bool(extra.get("revealing")),  # nobody is waited on while the room watches
        "clock": None if extra.get("revealing") else clock(view),  # nothing of the next turn runs yet
        "audience": audience,
        "audience_reveal": extra.get("audience_line") or "",
        # A template resolves every variable its fragment names, shown or not (pages/stage/fragments.py):
        # the podium is worked out only for the scene that shows it, or every score would redraw it.
        "podium": podium(view, t) if view["phase"] == "end" or view.get("status") == "finished" else [],
        "podium_steps": steps(PODIUM, extra.get("podium_from")),
        "audience_top": view.get("audience_top") or [],
        "audience_more": view.get("audience_more") or 0,
        "skipped": skipped_line(view, t, scene),
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
    on = bool(extra.get("revealing"))
    alone = view.get("status") == "playing" and bool(view.get("waiting_on_you_alone")) and not on
    scores = view.get("scores") or []
    scene = scene_of(view, extra)
    ended = view["phase"] == "end" or view.get("status") == "finished"
    places = ranking.places(scores) if scores and ended else []  # shown at the end only (as the podium)
    return {
        "scene": scene,
        "my_place": t.place(places[seat], len(places), places.count(places[seat]) > 1) if places else "",
        "me": view["names"][seat],
        "my_points": view["scores"][seat] if view.get("scores") else 0,
        "alone": alone,
        "clock": clock(view) if view.get("waiting_on_you") and not extra.get("revealing") else None,
        "sitting_out": seat in (view.get("sitting_out") or []),
        "skipped_why": skipped_here(view, seat, t),
        "out_of_game": seat in (view.get("out") or []),
    }


def member_extra(view, me: dict, extra: dict | None, t: Speaker) -> dict:
    ranked = sorted(zip(view["scores"], view["names"], strict=False), key=lambda sn: -sn[0])
    return {
        "scene": scene_of(view, extra),
        "scores_line": " · ".join(f"{name} {score}" for score, name in ranked),
        "winners": winners_line(view, t) if view.get("status") == "finished" else "",
        "audience_top": view.get("audience_top") or [],
        "audience_more": view.get("audience_more") or 0,
        "last": me.get("last"),
        "audience_top_line": _top_line(view, t),
        "my_audience_place": t._(
            "You're {place} in the audience.", place=t.place(me.get("place", 1), me.get("of", 1), bool(me.get("tied")))
        )
        if "place" in me
        else "",
    }


def _top_line(view, t: Speaker) -> str:
    best = " · ".join(f"{m['place']}. {m['name']} {t.points(m['points'])}" for m in view.get("audience_top") or [])
    if view.get("audience_more"):
        best += " · " + t.n_("+ {n} more", "+ {n} more", view["audience_more"])
    return best
