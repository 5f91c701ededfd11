"""Trading Faces on the stage, both variants: the wall, a seat's phone and an audience member's, as
functions of a view. Passing cards: who has passed, who called Stop, the face being made with its
guessing order, then the face revealed. Memory: the grid, the card lifted for one reader, the flip.
A member picks the emotion they see (engine/games/trading_faces_audience.py). The words are those
of the Streamlit screen it replaces, so their translations carry over. No Streamlit here."""

from __future__ import annotations

import functools
import hashlib

from engine.core import ranking
from engine.pictures.trading_faces import card_back_svg, face_svg
from engine.pictures.trading_faces_emotions import EMOTIONS
from pages.stage import kit
from pages.stage.render import N_, Speaker, render

FACES_SHOWN = 4  # the latest faces under the rest on the wall; the seats' scores count them all
# The reveal's steps (seconds each; within the game's Clock.reveal): the face (or the cards flipped),
# who read it, the cards won.
REVEAL = (("face", 1.5), ("result", 1.5), ("points", 1.5))
TURNS_SHOWN = 4  # the memory turns before the last, beside the grid

WORDS = {  # the emotions' names, translated where shown (pages/games/trading_faces/trading_faces.py's)
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


@functools.cache
def face_src(emotion: str) -> str:
    """An emotion's picture (pages/routes.py), under an address that changes with the picture, so
    the browser keeps it."""
    return f"/pictures/trading_faces/{emotion}.svg?v={hashlib.sha1(face_svg(emotion).encode()).hexdigest()[:10]}"


@functools.cache
def back_src() -> str:
    return f"/pictures/trading_faces/back.svg?v={hashlib.sha1(card_back_svg().encode()).hexdigest()[:10]}"


def _name(view, seat) -> str:
    return kit.name_of(view, seat)


def phase_line(view, t: Speaker) -> str:
    phase = view["phase"]
    if phase == "pass":
        return t._("Everyone passes one card to the left, face down")
    if phase == "face":
        return t._("{maker} is making a face", maker=_name(view, view["face"]["maker"]))
    if phase == "peek":
        return t._(
            "{player} lifts a card: only {viewer} sees it",
            player=_name(view, view["active"]),
            viewer=_name(view, view["viewer"]),
        )
    if phase == "decide":
        return t._(
            "{viewer} makes the face of the card {player} lifted",
            player=_name(view, view["active"]),
            viewer=_name(view, view["viewer"]),
        )
    return t._("The game is over")


def face_line(view, face, t: Speaker) -> str:
    maker = _name(view, face["face_maker"])
    if face["winner"] is not None:
        return t._(
            "{winner} read {maker}'s face: {emotion}. {winner} wins 1 card, {maker} wins 2.",
            winner=_name(view, face["winner"]),
            maker=maker,
            emotion=word(face["emotion"], t),
        )
    return t._(
        "Nobody read {maker}'s face: {emotion}. {maker} wins 1 card.", maker=maker, emotion=word(face["emotion"], t)
    )


def _face(view, face, t: Speaker) -> dict:
    return {"src": face_src(face["emotion"]), "line": face_line(view, face, t), "word": word(face["emotion"], t)}


def _order(view, face, t: Speaker) -> list[dict]:
    """The guessing order: who guessed what (guesses are said aloud), and whose turn it is."""
    guessed = {g["guesser"]: g["emotion"] for g in face["guesses"]}
    return [
        {
            "who": _name(view, seat),
            "guess": word(guessed[seat], t) if seat in guessed else "",
            "now": seat == face["next"] and seat not in guessed,
        }
        for seat in face["guessers"]
    ]


def turn_text(view, turn, t: Speaker) -> str:
    who = _name(view, turn["active"])
    if not turn.get("flip"):
        return t._("{player} ended their turn without flipping.", player=who)
    if turn["flip"]["match"]:
        return t._("{player} found a pair: {emotion}!", player=who, emotion=word(turn["shown"][0], t))
    return t._(
        "{player} flipped {first} and {second}: no pair. The others take a card from the pile.",
        player=who,
        first=word(turn["shown"][0], t),
        second=word(turn["shown"][1], t),
    )


def _last_flip(view) -> dict:
    """The two cards the last player flipped, while the next one has not lifted a card: everyone saw them."""
    last = view.get("last")
    if not last or not last.get("flip") or view["phase"] != "peek":
        return {}
    return dict(zip(last["flip"]["cells"], last["shown"], strict=True))


def grid(view, t: Speaker, pickable=None, shown: dict | None = None) -> list[dict]:
    """The memory grid as cards: a face down shows its back and its number, a flipped one its face;
    `pickable` (cells) may be picked, the rest are off."""
    shown = shown or {}
    cells = []
    for cell, status in enumerate(view["grid"]):
        card = {"id": f"cell{cell}", "value": cell, "label": str(cell + 1) if status == "down" else ""}
        if cell in shown and status == "down":
            card |= {"src": face_src(shown[cell]), "caption": word(shown[cell], t)}
        elif status == "down":
            card |= {"src": back_src()}
        else:
            card |= {"blank": True, "label_text": t._("no card here")}
        card["glow"] = cell == view.get("lifted")
        card["off"] = pickable is not None and cell not in pickable
        cells.append(card)
    return cells


def cell_em(cells: int, columns: int, width: float = 28, height: float = 24, gap: float = 0.5) -> float:
    """The side of a memory cell on the wall (em): the grid as large as its part of the stage allows."""
    rows = -(-cells // max(columns, 1))
    return round(min((width - gap * (columns - 1)) / columns, (height - gap * (rows - 1)) / rows), 2)


def _hand(view, t: Speaker) -> list[dict]:
    hand, arrived = view.get("hand") or [], view.get("arrived")
    counts = {e: hand.count(e) for e in EMOTIONS if e in hand}
    return [
        {
            "id": e,
            "value": e,
            "src": face_src(e),
            "label": str(EMOTIONS.index(e) + 1),
            "label_text": label(e, t),
            "caption": word(e, t) + (f" ×{c}" if c > 1 else ""),
            "glow": e == arrived,
        }
        for e, c in counts.items()
    ]


def _emotions(view, t: Speaker, tried=()) -> list[dict]:
    return [
        {
            "id": e,
            "value": e,
            "src": face_src(e),
            "label": str(EMOTIONS.index(e) + 1),
            "label_text": label(e, t),
            "caption": word(e, t),
        }
        for e in EMOTIONS
        if e not in tried
    ]


def _won(view, t: Speaker) -> list[dict]:
    return [
        {
            "name": view["names"][s],
            "score": view["scores"][s],
            "out": s in (view.get("out") or []),
            "faces": [{"src": face_src(e), "word": word(e, t)} for e in view["won"].get(str(s), [])],
        }
        for s in sorted(range(len(view["names"])), key=lambda s: (-view["scores"][s], s))
    ]


def _gained(turn) -> dict:
    return (turn or {}).get("scores") or {}


def reveal_line(view, turn, t: Speaker) -> str:
    """The face (or the Memory turn) just closed, in one line."""
    if view.get("variant") == "memory":
        return turn_text(view, turn, t)
    return face_line(view, turn, t)


def _my_reveal(view, turn, t: Speaker) -> list[dict]:
    """A seat's own side of the face (or the Memory turn) just closed, each line at its step."""
    you = view["you"]
    lines = []
    if view.get("variant") == "memory":
        if turn["active"] == you and turn.get("flip") and turn["flip"]["match"]:
            lines.append(
                {
                    "step": "result",
                    "text": "✅ " + t._("You found a pair: {emotion}!", emotion=word(turn["shown"][0], t)),
                    "good": True,
                }
            )
        else:
            lines.append({"step": "result", "text": turn_text(view, turn, t)})
    else:
        maker, winner = turn["face_maker"], turn["winner"]
        lines.append({"step": "face", "text": t._("It was: {emotion}.", emotion=word(turn["emotion"], t))})
        if winner == you:
            lines.append({"step": "result", "text": "✅ " + t._("You read it!"), "good": True})
        elif maker == you:
            text = (
                t._("{name} read your face!", name=_name(view, winner))
                if winner is not None
                else t._("Nobody read your face.")
            )
            lines.append({"step": "result", "text": text, "good": winner is not None})
        else:
            lines.append({"step": "result", "text": face_line(view, turn, t)})
    gained = int(_gained(turn).get(str(you), 0))
    places = ranking.places(view["scores"])
    place = t.place(places[you], len(places), places.count(places[you]) > 1)
    lines.append(
        {
            "step": "points",
            "text": t.n_("+{n} card · you're {place}", "+{n} cards · you're {place}", gained, place=place),
            "good": gained > 0,
        }
    )
    return lines


def wall(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    phase, memory = view["phase"], view.get("variant") == "memory"
    face = view.get("face")
    last = view.get("last")
    scene = kit.scene_of(view, extra)
    show = kit.reveal(REVEAL, extra) if scene == "reveal" else None
    context: dict = {"reveal": show}
    if scene == "reveal" and last:
        context["reveal_line"] = reveal_line(view, last, t)
        context["tally"] = kit.tally(view, _gained(last))
        if not memory:
            context["face_shown"] = _face(view, last, t)
    if memory:
        context["cells"] = grid(view, t, shown=_last_flip(view))
        context["cell_em"] = cell_em(len(view["grid"]), view["columns"])
        context["last_turn"] = turn_text(view, last, t) if last else ""
        context["earlier"] = [turn_text(view, x, t) for x in view["history"][-2::-1][:TURNS_SHOWN]]
        context["counts"] = t.n_("{n} card in the pile", "{n} cards in the pile", view["pile"])
    else:
        context["counts"] = " · ".join(
            [
                t.n_("{n} card in the pile", "{n} cards in the pile", view["pile"]),
                t.n_("{n} pass so far", "{n} passes so far", view["pass_no"]),
            ]
        )
        if face:
            context["order"] = _order(view, face, t)
            context["guessing"] = t._(
                "{guesser}, your guess: pick an emotion on your phone", guesser=_name(view, face["next"])
            )
        chosen, out = set(view.get("chosen") or []), set(view.get("out") or [])
        context["passed"] = [
            {"who": _name(view, s), "done": s in chosen} for s in range(len(view["names"])) if s not in out
        ]
        queue = view.get("queue") or []
        context["stops"] = (
            t._(
                "{stop} Stop! called by {names}: their faces come next, in this order.",
                stop="✋",
                names=", ".join(_name(view, s) for s in queue),
            )
            if queue
            else ""
        )
        # The face just revealed holds the top of the wall until the next pass is done.
        context["revealed"] = (
            _face(view, last, t) if last and last.get("pass_no") == view["pass_no"] and phase == "pass" else None
        )
        faces = view["history"][::-1]
        if context["revealed"]:
            faces = faces[1:]
        context["faces"] = [_face(view, f, t) for f in faces[:FACES_SHOWN]]
    return render(
        "trading_faces_wall.html",
        lang,
        view=view,
        memory=memory,
        scene=scene,
        phase_line=phase_line(view, t),
        winners=kit.winners_line(view, t) if phase == "end" else "",
        **context,
        **kit.wall_extra(view, extra, t),
    )


def phone(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    if view["status"] == "lobby":  # the frame's own wait (templates/phone.html)
        return render("trading_faces_phone.html", lang, view=view, **kit.phone_extra(view, extra, t))
    seat, phase, memory = view["you"], view["phase"], view.get("variant") == "memory"
    context: dict = {"memory": memory}
    on = kit.scene_of(view, extra) == "reveal" and view.get("last")
    if on:  # the face just made, this seat's side of it: nothing of the next one until the reveal ends
        context["reveal"] = kit.reveal(REVEAL, extra)
        context["reveal_line"] = reveal_line(view, view["last"], t)
        context["mine"] = _my_reveal(view, view["last"], t)
        if not memory:
            context["face_shown"] = _face(view, view["last"], t)
    elif phase == "end":
        context["won"] = _won(view, t)
    elif memory:
        down = [c for c, s in enumerate(view["grid"]) if s == "down"]
        if view.get("peek_emotion"):
            context["peek"] = {"src": face_src(view["peek_emotion"]), "label": label(view["peek_emotion"], t)}
        elif seat == view["active"] and phase == "peek":
            context["cells"] = grid(view, t, pickable=down, shown=_last_flip(view))
        elif seat == view["active"] and phase == "decide":
            context["cells"] = grid(view, t, pickable=[c for c in down if c != view["lifted"]])
        else:
            context["cells"] = grid(view, t, shown=_last_flip(view))
        context["viewer"] = _name(view, view.get("viewer"))
    else:
        face = view.get("face")
        context["left"] = _name(view, view.get("passes_to"))
        if face:
            context["maker"] = _name(view, face["maker"])
            context["guesser"] = _name(view, face["next"])
            context["order"] = _order(view, face, t)
            if face["maker"] == seat and view.get("face_emotion"):
                context["make"] = {"src": face_src(view["face_emotion"]), "label": label(view["face_emotion"], t)}
            if face["next"] == seat:
                tried = {g["emotion"] for g in face["guesses"]}
                context["tried"] = ", ".join(word(e, t) for e in EMOTIONS if e in tried)
                context["emotions"] = _emotions(view, t, tried)
        else:
            context["hand"] = _hand(view, t)
            if view.get("my_pass"):
                context["passed"] = label(view["my_pass"], t)
            if view.get("arrived"):
                context["arrived"] = label(view["arrived"], t)
            last = view.get("last")
            if last and last.get("pass_no") == view["pass_no"] and not view.get("my_pass"):
                context["revealed"] = _face(view, last, t)
    return render(
        "trading_faces_phone.html",
        lang,
        view=view,
        phase_line=phase_line(view, t),
        winners=kit.winners_line(view, t) if phase == "end" else "",
        won_game=phase == "end" and view["scores"][seat] == max(view["scores"]),
        **context,
        **kit.phone_extra(view, extra, t),
    )


def audience_line(counts: dict, t: Speaker) -> str:
    """How the audience read the face just revealed (the wall)."""
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    return " · ".join(f"{label(emotion, t)}: {count}" for emotion, count in ranked)


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


def reveal_answer(view, t: Speaker) -> str:
    """What the audience was asked, answered, for every member's phone at the reveal."""
    turn = view.get("last")
    return reveal_line(view, turn, t) if turn else ""


def pick_text(pick: dict, t: Speaker) -> str:
    """The emotion picked, in words: "You picked happy: +1 point"."""
    return word(pick.get("emotion"), t)
