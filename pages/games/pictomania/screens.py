"""Pictomania on the stage: the wall and an audience member's phone, as functions of a view (the
seats' phones are Streamlit's, pages/games/pictomania/pictomania.py, around the drawing pad). The wall plays
the round: the words, the drawings live as SVG in the stage's sheets, as large as the scene allows,
then the reveal, where every drawing replays by itself (its strokes' own times, `schedule`) with who
guessed what and the scores. The words are those of the Streamlit screens, so their translations
carry over. No Streamlit here."""

from __future__ import annotations

import json
import threading
from urllib.parse import urlencode

from markupsafe import Markup, escape

from engine import tables
from engine.core import ranking
from engine.pictures.pictomania_keepsake import schedule
from pages.stage import kit
from pages.stage.render import N_, Speaker, render

_RULES = tables.games()["pictomania"].content.constants
(CANVAS_WIDTH, CANVAS_HEIGHT), ERASER = _RULES["canvas"], _RULES["eraser"]
PAPER = "#ffffff"  # the sheet; the eraser paints with it
DECK_COLOURS = {"green": "#2F7D46", "yellow": "#8A6500", "orange": "#B4541A", "red": "#B03A2E"}
REPLAY_S = 8  # every drawing's replay lasts this long, however long it took to draw
# The reveal's steps (pages/stage/kit.steps): the drawings replay, then who guessed what lands on
# each, then the round's points count into the totals (engine/games/pictomania.REVEAL: 12 s).
REVEAL = (("drawings", REPLAY_S), ("guesses", 1.5), ("points", 1.5))
BREAKDOWN = (  # the scoring breakdown's columns (pages/games/pictomania/results.py's words)
    N_("Player"),
    N_("Tokens received"),
    N_("Black token"),
    N_("Unclaimed"),
    N_("Errors"),
    N_("Round"),
    N_("Game"),
)


# ---- engine strokes → SVG ----------------------------------------------------------------------


def path_d(points: list) -> str:
    """Relative moves keep the data small: most steps are one or two digits."""
    (x, y), rest = points[0], points[1:]
    if not rest:
        return f"M{x} {y}l0 0"
    steps = []
    for px, py in rest:
        steps.append(f"{px - x} {py - y}")
        x, y = px, py
    return f"M{points[0][0]} {points[0][1]}l" + " ".join(steps)


def paths(strokes: list) -> list[list]:
    """Engine strokes → [[colour, width, svg path data]]."""
    return [[PAPER if s["color"] == ERASER else s["color"], s["width"], path_d(s["points"])] for s in strokes]


_sheets: dict[tuple, Markup] = {}
_sheets_guard = threading.Lock()


def sheet(strokes: list, seat, replay: bool = False) -> Markup:
    """A drawing as SVG markup; with `replay`, each path carries its moment in the replay (its start
    and length, in seconds), which the browser animates by itself. Kept by what it draws: one stroke
    redraws the wall and every phone, and each shows the same drawings."""
    last = strokes[-1] if strokes else None
    key = (seat, replay, len(strokes), json.dumps(strokes[0] if strokes else None), json.dumps(last))
    with _sheets_guard:
        found = _sheets.get(key)
    if found is not None:
        return found
    body = []
    plan = schedule(strokes) if replay else [None] * len(strokes)
    for (colour, width, d), moment in zip(paths(strokes), plan, strict=True):
        timing = ""
        if moment is not None:
            a, b = moment
            timing = f' pathLength="1" style="--at: {round(a * REPLAY_S, 3)}s; --for: {round(max(b - a, 0.002) * REPLAY_S, 3)}s"'
        body.append(f'<path d="{d}" stroke="{escape(colour)}" stroke-width="{int(width)}"{timing}/>')
    found = Markup(
        f'<svg viewBox="0 0 {CANVAS_WIDTH} {CANVAS_HEIGHT}" class="pm-sheet{" pm-replay" if replay else ""}" '
        f'aria-hidden="true" data-seat="{escape(seat)}" data-strokes="{len(strokes)}">'
        f'<rect width="{CANVAS_WIDTH}" height="{CANVAS_HEIGHT}" fill="{PAPER}"/>'
        f'<g fill="none" stroke-linecap="round" stroke-linejoin="round">{"".join(body)}</g></svg>'
    )
    with _sheets_guard:
        _sheets[key] = found
        while len(_sheets) > 512:
            _sheets.pop(next(iter(_sheets)))
    return found


# ---- the wall ----------------------------------------------------------------------------------


def _name(view, seat) -> str:
    return kit.name_of(view, seat)


def phase_line(view, t: Speaker) -> str:
    phase, rnd = view["phase"], view["round"]
    if phase == "words":
        return t._("Round {round} of {rounds} · read the 21 words, then tap Ready", round=rnd, rounds=view["rounds"])
    if phase == "draw":
        return t._("Round {round} of {rounds} · everyone draws, everyone guesses", round=rnd, rounds=view["rounds"])
    if phase == "end":
        return t._("The game is over")
    return t._("Waiting for players")


def _status(view, seat, t: Speaker) -> str:
    if seat in view.get("wrong_word", []):
        return "⚠️ " + t._("drew the wrong word")
    done = view.get("finished", {})
    if str(seat) in done:
        token = done[str(seat)]
        return "✅ " + (t._("done · took black {token}", token=token) if token is not None else t._("done · no token"))
    if seat in view.get("frozen", []):
        return "🔒 " + t._("guessing")
    return "✏️ " + t._("drawing")


def _live(view, t: Speaker) -> list[dict]:
    """The drawings as they are drawn: whose, what they are doing, and who has a guess card on it
    (face down: never the number)."""
    tiles = []
    for seat in view["participants"]:
        on = sorted((g for g in view.get("guesses", []) if g["drawer"] == seat), key=lambda g: g["order"])
        tiles.append(
            {
                "seat": seat,
                "name": _name(view, seat),
                "status": _status(view, seat, t),
                "guessers": ", ".join(_name(view, g["guesser"]) for g in on),
                "frozen": seat in view.get("frozen", []),
                "svg": sheet(view["drawings"].get(str(seat), []), seat),
            }
        )
    return tiles


def _cards(cards: dict) -> list[dict]:
    return [
        {"slot": slot, "theme": card.get("theme", ""), "words": list(card["words"])} for slot, card in cards.items()
    ]


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def revealed(view, record, t: Speaker) -> dict:
    """A scored round, fully revealed: what each drew, who guessed what (right or the number
    placed), the scoring breakdown; each drawing replays by itself."""
    seats = sorted(int(s) for s in record["assignments"])
    tiles = []
    for s in seats:
        a = record["assignments"][str(s)]
        word = record["cards"][a["letter"]][a["number"] - 1]
        on = sorted((g for g in record["guesses"] if g["drawer"] == s), key=lambda g: g["order"])
        tiles.append(
            {
                "seat": s,
                "name": _name(view, s),
                "word": f"{a['letter']}{a['number']} {word}",
                "wrong": s in record["wrong_word"],
                "guesses": [
                    {
                        "who": _name(view, g["guesser"]),
                        "right": g["number"] == a["number"],
                        "number": g["number"],
                    }
                    for g in on
                ],
                "svg": sheet(record["drawings"].get(str(s), []), s, replay=True),
            }
        )
    rows = []
    for s in sorted(seats, key=lambda s: -record["scores"].get(str(s), 0)):
        tokens = record["tokens"][str(s)]
        received = sum(r["value"] for r in tokens["received"])
        got = " + ".join(str(r["value"]) for r in tokens["received"]) or "–"
        if len(tokens["received"]) > 1:
            got += f" = {received}"
        black = tokens["black"]
        rows.append(
            {
                "seat": s,
                "name": _name(view, s) + (" 🐑" if record.get("black_sheep") == s else ""),
                "received": got,
                "black": "–"
                if black is None
                else (
                    f"{black} → {_signed(tokens['black_counts'])}" if tokens["black_counts"] != black else str(black)
                ),
                "unclaimed": -sum(tokens["unclaimed"]),
                "errors": tokens["errors"],
                "round": _signed(record["scores"].get(str(s), 0)),
                "game": view["scores"][s] if s < len(view["scores"]) else 0,
            }
        )
    sheep = record.get("black_sheep")
    return {
        "round": record["round"],
        "title": t._("Round {round} — the answers", round=record["round"]),
        "tiles": tiles,
        "rows": rows,
        "sheep": (
            "🐑 "
            + t._(
                "Black sheep: {name} (most wrong guesses): their black token counts against them.",
                name=_name(view, sheep),
            )
            if sheep is not None
            else t._("No black sheep this round.")
        ),
    }


def _before(view, record) -> dict:
    """Each seat's game total before the round just revealed (its points step counts them in)."""
    return {
        s: (view["scores"][s] if s < len(view["scores"]) else 0) - record["scores"].get(str(s), 0)
        for s in range(len(view["names"]))
    }


def _my_reveal(view, record, t: Speaker) -> list[dict]:
    """A seat's own side of the round just revealed, each line at its step: the word it drew, who
    found it, how its own guesses went, whether it is the black sheep, its points and place."""
    you, lines = view["you"], []
    a = (record["assignments"] or {}).get(str(you))
    if a:
        word = record["cards"][a["letter"]][a["number"] - 1]
        lines.append({"step": "drawings", "text": t._("You drew {word}.", word=f"{a['letter']}{a['number']} {word}")})
        found = [g["guesser"] for g in record["guesses"] if g["drawer"] == you and g["number"] == a["number"]]
        text = (
            t._("{names} found your drawing.", names=", ".join(_name(view, s) for s in found))
            if found
            else t._("Nobody found your drawing.")
        )
        lines.append({"step": "guesses", "text": text, "good": bool(found)})
    mine = [g for g in record["guesses"] if g["guesser"] == you]
    if mine:
        right = sum(1 for g in mine if g["number"] == (record["assignments"].get(str(g["drawer"])) or {}).get("number"))
        lines.append(
            {
                "step": "guesses",
                "text": t._("Your guesses: {right} of {n} right.", right=right, n=len(mine)),
                "good": right == len(mine),
            }
        )
    if record.get("black_sheep") == you:
        lines.append(
            {"step": "guesses", "text": "🐑 " + t._("You are the black sheep: your black token counts against you.")}
        )
    gained = record["scores"].get(str(you), 0)
    places = ranking.places(view["scores"])
    place = t.place(places[you], len(places), places.count(places[you]) > 1)
    lines.append(
        {
            "step": "points",
            "text": t._("{points} this round · you're {place}", points=_signed(gained), place=place),
            "good": gained > 0,
        }
    )
    return lines


def tile_em(count: int, width: float, height: float, under: float, gap: float = 0.5) -> float:
    """The widest drawing (4:3, with `under` em of caption below it) that lets `count` drawings fit
    in `width` x `height` em, over one to three rows."""
    best = 0.0
    for rows in range(1, 4):
        cols = -(-max(count, 1) // rows)
        across = (width - gap * (cols - 1)) / cols
        down = ((height - gap * (rows - 1)) / rows - under) * 4 / 3
        best = max(best, min(across, down))
    return round(best, 2)


def scene_of(view, extra: dict | None) -> str:
    """The wall's scene: the reveal while it holds the stage (a round just scored, the last one
    too), else the phase."""
    if (extra or {}).get("revealing") and view.get("last_round"):
        return "reveal"
    return kit.scene_of(view, extra)


def wall(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    scene = scene_of(view, extra)
    context: dict = {}
    if scene == "draw":
        context["tiles"] = _live(view, t)
        context["tile_em"] = tile_em(len(context["tiles"]), 38.5, 24.5, 2.6)
        taken = [x for x in (view.get("finished") or {}).values() if x is not None]
        context["blacks"] = [{"n": n, "gone": False} for n in view.get("black_supply") or []] + [
            {"n": n, "gone": True} for n in sorted(taken, reverse=True)
        ]
        context["pays"] = t._(
            "each drawing pays its right guessers {tokens}, in order",
            tokens=", ".join(map(str, view.get("scoring_tokens") or [])),
        )
        context["rule"] = (
            t._("Competitive: the round ends when the last black token is taken.")
            if view["options"].get("competitive")
            else t._("The round ends when everyone is done.")
        )
    if scene == "reveal":
        context["shown"] = revealed(view, view["last_round"], t)
        context["reveal"] = kit.reveal(REVEAL, extra)
        before = _before(view, view["last_round"])
        for row in context["shown"]["rows"]:
            row["before"] = before.get(row["seat"], row["game"])
        # The black sheep's sentence takes two lines of the foot, and "Replay the drawings" a third.
        tall = 23.5 - (2.6 if view["last_round"].get("black_sheep") is not None else 0)
        context["tile_em"] = tile_em(len(context["shown"]["tiles"]), 38.5, tall, 2.6)
    elif view["phase"] == "words" and view.get("last_round"):
        context["rows"] = revealed(view, view["last_round"], t)["rows"]
    return render(
        "pictomania_wall.html",
        lang,
        view=view,
        scene=scene,
        phase_line=phase_line(view, t),
        cards=_cards(view.get("cards") or {}),
        deck=DECK_COLOURS.get(view.get("deck"), "#6B5A4E"),
        breakdown=[t._(h) for h in BREAKDOWN],
        canvas=(CANVAS_WIDTH, CANVAS_HEIGHT),
        paper=PAPER,
        winners=kit.winners_line(view, t) if scene == "end" else "",
        audience_guesses=audience_line(view, t),
        **context,
        **kit.wall_extra(view, extra, t),
    )


def audience_line(view, t: Speaker) -> str:
    """How the audience read each drawing at the last reveal, as a class says it: "Ana: 3 of 5
    right" (drawn here, not by the socket's generic line: it names the drawers). Nothing when no
    member guessed."""
    shown = view.get("audience_reveal")
    history = view.get("history") or []
    if not shown or shown["turn"] != view.get("history_length", 0) - 1 or not shown["counts"] or not history:
        return ""
    dealt = history[-1].get("assignments") or {}
    parts = []
    for drawer, numbers in sorted(shown["counts"].items(), key=lambda kv: int(kv[0])):
        guessed = sum(numbers.values())
        if not guessed:
            continue
        word = str((dealt.get(str(drawer)) or {}).get("number"))
        right = sum(c for n, c in numbers.items() if str(n) == word)
        parts.append(t._("{name}: {right} of {n} right", name=_name(view, int(drawer)), right=right, n=guessed))
    return "👀 " + t._("The audience: {counts}", counts=" · ".join(parts)) if parts else ""


# ---- a seat's phone ------------------------------------------------------------------------------
# The drawer's pad is Streamlit's (streamlit-drawable-canvas), above this screen on the page
# (pages/games/pictomania/pictomania.py `above_stage`): the rest of the phone is the stage's.


def _frozen_why(view, done: bool, t: Speaker) -> str:
    """Whole sentences, one per reason: a reason alone would not fit every language's sentence."""
    if done:
        return t._("Your drawing is frozen: you are done.")
    if view["you"] in view["wrong_word"]:
        return t._("Your drawing is frozen: you admitted the wrong word.")
    return t._("Your drawing is frozen: you have started guessing.")


def _to_guess(view, t: Speaker) -> list[dict]:
    """Everyone else's drawing, live, each with the guess placed on it or the numbers left to place."""
    seat = view["you"]
    mine = {g["drawer"]: g for g in view.get("my_guesses", [])}
    left = view.get("numbers_left") or []
    tiles = []
    for drawer in (s for s in view["participants"] if s != seat):
        tile = {
            "seat": drawer,
            "name": _name(view, drawer),
            "status": _status(view, drawer, t),
            "frozen": drawer in view.get("frozen", []),
            "svg": sheet(view["drawings"].get(str(drawer), []), drawer),
        }
        if drawer in mine:
            tile["guessed"] = t._("your guess: {number} (final)", number=mine[drawer]["number"])
        elif drawer in view.get("can_guess_on", []) and left:
            tile["numbers"] = [
                {"id": f"n{drawer}-{n}", "value": n, "blank": True, "label": str(n), "label_text": str(n)} for n in left
            ]
            tile["confirm"] = t._("Place it on {name}'s drawing — final", name=_name(view, drawer))
        tiles.append(tile)
    return tiles


def _my_round(view, record, t: Speaker, token: str | None) -> dict:
    seat = view["you"]
    shown = revealed(view, record, t)
    save = {}
    if token:  # "Save the drawings" (pages/routes.keepsake): the seat's link proves the phone
        query = urlencode({"seat": seat, "token": token, "game": view.get("game_no"), "round": record["round"]})
        save = {
            "mine": f"/keepsakes/{view['code']}?{query}&file=mine" if record["drawings"].get(str(seat)) else "",
            "sheet": f"/keepsakes/{view['code']}?{query}&file=sheet",
        }
    return {
        **shown,
        "save": save,
        "mine": f"{record['scores'].get(str(seat), 0):+d}",
        "summary": t._(
            "Round {round}: you scored {score}", round=record["round"], score=f"{record['scores'].get(str(seat), 0):+d}"
        ),
    }


def phone(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    if view["status"] == "lobby":  # the frame's own wait (templates/phone.html)
        return render("pictomania_phone.html", lang, view=view, **kit.phone_extra(view, extra, t))
    seat, phase = view["you"], view["phase"]
    context: dict = {"cards": _cards(view.get("cards") or {}), "deck": DECK_COLOURS.get(view.get("deck"), "#6B5A4E")}
    if scene_of(view, extra) == "reveal":  # the round just scored, this seat's side: nothing of the next
        record = view["last_round"]
        context["reveal"] = kit.reveal(REVEAL, extra)
        context["shown"] = revealed(view, record, t)
        context["mine_lines"] = _my_reveal(view, record, t)
        phase = "reveal"
    elif phase == "words":
        context["line"] = t._(
            "Round {round} of {rounds}: read the 21 words", round=view["round"], rounds=view["rounds"]
        )
        replaced = view.get("replaced")
        if replaced and view["waiting_on_you"]:
            context["replaced"] = (
                t._("You replaced card {slot}, so everyone reads it and taps Ready again.", slot=replaced["slot"])
                if replaced["seat"] == seat
                else t._(
                    "{name} replaced card {slot}, so everyone reads it and taps Ready again.",
                    name=_name(view, replaced["seat"]),
                    slot=replaced["slot"],
                )
            )
        others = [s for s in view["waiting_for"] if s != seat]
        context["also"] = (
            t._("Also waiting for: {names}", names=", ".join(_name(view, s) for s in others)) if others else ""
        )
        ready = len(view.get("ready") or [])
        context["again"] = (
            t.n_(
                "Everyone then reads it and taps Ready again ({n} already tapped Ready).",
                "Everyone then reads it and taps Ready again ({n} already tapped Ready).",
                ready,
            )
            if ready
            else t._("Everyone then reads it and taps Ready again.")
        )
    elif phase == "draw" and seat in view["participants"]:
        done = str(seat) in view["finished"]
        context["playing"] = True
        context["done"] = done
        context["frozen"] = seat in view["frozen"]
        context["mine"] = (view.get("letter"), view.get("number"))
        if context["frozen"]:
            context["my_svg"] = sheet(view["drawings"].get(str(seat), []), seat)
            context["why"] = _frozen_why(view, done, t)
        context["to_guess"] = _to_guess(view, t)
        context["freeze"] = "" if context["frozen"] else " " + t._("Your own drawing freezes now.")
        if done:
            token = view["finished"][str(seat)]
            context["you_done"] = (
                t._("You're done with black token {token}.", token=token)
                if token is not None
                else t._("You're done (no black token).")
            )
        else:
            supply = sorted(set(view.get("black_supply") or []), reverse=True)
            context["tokens"] = [
                {
                    "id": f"b{n}",
                    "value": n,
                    "blank": True,
                    "label": str(n),
                    "label_text": t._("Black token {token}", token=n),
                }
                for n in supply
            ] + [{"id": "b-none", "value": None, "blank": True, "label": "–", "label_text": t._("No black token")}]
            context["left"] = ", ".join(map(str, view.get("black_supply") or [])) or t._("none")
    if view.get("last_round") and phase in ("words", "end"):
        context["last"] = _my_round(view, view["last_round"], t, (extra or {}).get("token"))
    if phase == "end":
        best = max(view["scores"]) if view["scores"] else 0
        winners = [n for n, sc in zip(view["names"], view["scores"], strict=False) if sc == best]
        context["won"] = view["scores"][seat] == best
        context["winners"] = t.n_("Winner: {names}.", "Winners: {names}.", len(winners), names=" & ".join(winners))
        context["history"] = view.get("history") or []
    return render(
        "pictomania_phone.html",
        lang,
        view=view,
        shown_phase=phase,
        breakdown=[t._(h) for h in BREAKDOWN],
        canvas=(CANVAS_WIDTH, CANVAS_HEIGHT),
        paper=PAPER,
        **context,
        **kit.phone_extra(view, extra, t),
    )


# ---- an audience member's phone ------------------------------------------------------------------


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


def reveal_answer(view, t: Speaker) -> str:
    """What the audience was asked, answered, for every member's phone at the reveal: each
    drawing's number."""
    record = view.get("last_round")
    if not record:
        return ""
    answers = " · ".join(
        f"{_name(view, int(s))}: {a['number']}"
        for s, a in sorted(record["assignments"].items(), key=lambda kv: int(kv[0]))
    )
    return t._("The answers: {answers}", answers=answers)


def pick_text(pick: dict, t: Speaker) -> str:
    """A guess is the number of a word on the shared screen's cards, the same in every language
    (as the wall's count of the audience's guesses writes it)."""
    return str(pick.get("number", "?"))
