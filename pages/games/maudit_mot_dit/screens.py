"""Maudit Mot Dit on the stage: the wall, a seat's phone and an audience member's, as functions of a
view. The clues land on the wall one by one with the answers under them; the word shows only with
the round's result (found, or not, and the curse). The words are those of the Streamlit screen it
replaces (pages/games/maudit_mot_dit/maudit_mot_dit.py), so their translations carry over. No Streamlit here."""

from __future__ import annotations

from markupsafe import Markup

from engine import tables
from engine.core import ranking
from engine.games.maudit_audience import ANSWER_MAX
from pages.stage import kit
from pages.stage.render import N_, Speaker, render

SYMBOL_ICONS = {
    "sun": "☀️",
    "feather": "🪶",
    "moon": "🌙",
    "star": "⭐",
    "key": "🔑",
    "leaf": "🍃",
    "drop": "💧",
    "flame": "🔥",
}
SPELL, CURSE, BOX, SLOW = "🪄", "💀", "📦", "🐢"
EFFECTS = {
    "keep_box": N_("📦 Found on its one clue: you keep the box for another round."),
    "spell": N_("🪄 Found within the count: you give a spell to an opponent."),
}
WARNINGS = {
    "root": N_("This clue shares a root with your word."),
    "repeat": N_("This clue repeats an earlier clue, or its root."),
}
# The holder's phone closes a found round this long after it first shows it (RULES.md §5): later
# answers to that clue still count.
CLOSE_AFTER_MS = 3000
EARLIER_ROUNDS = 3  # the latest closed rounds, under the clues on the wall
# The reveal's steps once a round is settled (seconds each; within the game's Clock.reveal): the
# word, the clues that found it, the spell and the curse, the points.
REVEAL = (("word", 1.5), ("clues", 2.5), ("spells", 1.5), ("points", 1.5))
# A member whose answer found the word answers no more this round (pages/stage/member.py shows it).
MEMBER_DONE = N_("You found the word! 1 point, counted when the round ends. No more answers this round.")


def _rules() -> dict:
    return tables.games()["maudit_mot_dit"].content.constants


def _name(view, seat) -> str:
    return kit.name_of(view, seat)


def _names(view, seats) -> str:
    return ", ".join(_name(view, s) for s in seats)


def status_line(view, t: Speaker) -> str:
    phase = view["phase"]
    holder = _name(view, view["holder"])
    if phase == "choose":
        return t._("{holder} holds the box and is choosing a word", holder=holder)
    if phase == "clues":
        if not view["clues"]:
            return t._("{holder} holds the box: the first clue is coming", holder=holder)
        if view["found"]:
            return t._("Found!")
        return t._("{holder}'s clue {n}: answer on your phones", holder=holder, n=len(view["clues"]))
    if phase == "spell":
        return t._("{holder} gives a spell", holder=holder)
    if phase == "verdict":
        return t._("Was every clue related to the word? Judge on your phones")
    return t._("The game is over")


def _clues(view, near=()) -> list[dict]:
    """The clues with their answers: `near` marks answers to the latest clue the holder may accept."""
    shown = []
    for i, clue in enumerate(view["clues"]):
        latest = i == len(view["clues"]) - 1
        shown.append(
            {
                "n": i + 1,
                "clue": clue["clue"],
                "answers": [
                    {
                        "who": _name(view, a["seat"]),
                        "answer": a["answer"],
                        "right": a["correct"],
                        "near": latest and j in near,
                    }
                    for j, a in enumerate(clue["answers"])
                ],
            }
        )
    return shown


def _bold(text: str) -> Markup:
    return Markup("<b>{}</b>").format(text)


def result(view, found: dict | None, t: Speaker) -> dict | None:
    """A closed round: the word (now public), whether it was found, and the spell and the curse."""
    if not found:
        return None
    word, count = found["chosen"]["word"], found["chosen"]["count"]
    holder = _name(view, found["box_holder"])
    if found["guessed_on"] is None:
        line = t.fill(
            t.n_(
                "{holder}'s word was {word}, in {n} clue: not found.",
                "{holder}'s word was {word}, in {n} clues: not found.",
                count,
                holder="{holder}",
                word="{word}",
            ),
            holder=holder,
            word=_bold(word),
        )
    else:
        line = t.fill(
            t.n_(
                "{holder}'s word was {word}, in {n} clue. {names} found it on clue {found}.",
                "{holder}'s word was {word}, in {n} clues. {names} found it on clue {found}.",
                count,
                holder="{holder}",
                word="{word}",
                names="{names}",
                found=found["guessed_on"],
            ),
            holder=holder,
            word=_bold(word),
            names=_names(view, found["guessers"]),
        )
    extra = []
    if found.get("spell_to") is not None:
        extra.append(t._("{spell} {name} takes a spell.", spell=SPELL, name=_name(view, found["spell_to"])))
    if found.get("curse_to") is not None:
        extra.append(t._("{curse} The curse goes to {name}.", curse=CURSE, name=_name(view, found["curse_to"])))
    if found.get("curse_wipe"):
        extra.append(t._("They had it already: their points are wiped out."))
    return {
        "word": word,
        "found": found["guessed_on"] is not None,
        "line": line,
        "extra": " ".join(extra),
        "cursed": found.get("curse_to") is not None,
    }


def _box_order(view) -> list[int]:
    """The seats still playing, from the box holder round the table: the order the box goes in."""
    names, out, holder = view["names"], set(view.get("out", [])), view["holder"]
    seats = [s for s in range(len(names)) if s not in out]
    if holder not in seats:
        return seats
    at = seats.index(holder)
    return seats[at:] + seats[:at]


def _next_line(view, t: Speaker) -> str:
    order = _box_order(view)
    if view["turn"] >= view["turns"]:
        return t._("This is the last turn.")
    if len(order) > 1:
        return t._("Next to hold the box: {name}", name=_name(view, order[1]))
    return ""


def _round_line(view, entry, t: Speaker) -> Markup:
    """One closed round, as a sentence: whose word, in how many clues, the clues, and who found it."""
    holder = _name(view, entry["box_holder"])
    chosen = entry.get("chosen")
    if entry.get("abandoned") or not chosen:
        return Markup("{}").format(t._("{holder}'s turn passed without a round.", holder=holder))
    count = chosen["count"]
    clues = Markup('<span class="mm-said">{}</span>').format(" · ".join(c["clue"] for c in entry["clues"]))
    params = {"holder": "{holder}", "word": "{word}", "clues": "{clues}"}
    if entry.get("guessed_on") is None:
        message = t.n_(
            "{holder}'s word {word}, in {n} clue: {clues}. Not found.",
            "{holder}'s word {word}, in {n} clues: {clues}. Not found.",
            count,
            **params,
        )
        return t.fill(message, holder=holder, word=_bold(chosen["word"]), clues=clues)
    message = t.n_(
        "{holder}'s word {word}, in {n} clue: {clues}. {names} found it on clue {found}.",
        "{holder}'s word {word}, in {n} clues: {clues}. {names} found it on clue {found}.",
        count,
        names="{names}",
        found=entry["guessed_on"],
        **params,
    )
    return t.fill(
        message, holder=holder, word=_bold(chosen["word"]), clues=clues, names=_names(view, entry["guessers"])
    )


def _earlier(view, t: Speaker) -> list[Markup]:
    history = view.get("history") or []
    skip = 1 if view["phase"] == "choose" else 0  # the latest round is shown in full above them then
    return [_round_line(view, e, t) for e in history[::-1][skip : skip + EARLIER_ROUNDS]]


def _marks(view) -> dict[int, str]:
    """A seat's spells and the curse, beside its name."""
    marks = {}
    for s in range(len(view["names"])):
        mark = (f"{SPELL}×{view['spells'][s]} " if view["spells"][s] else "") + (CURSE if view["curse"] == s else "")
        if mark:
            marks[s] = mark.strip()
    return marks


def _wall_waiting(view, t: Speaker) -> str:
    if view["phase"] == "verdict" and view.get("waiting_for"):
        return t._("Waiting for: {names}", names=_names(view, view["waiting_for"]))
    if view["phase"] == "clues" and view["clues"] and view.get("may_answer"):
        return t._("Still to answer: {names}", names=_names(view, view["may_answer"]))
    return ""


def _record_clues(view, record: dict) -> list[dict]:
    """A settled round's clues as its record keeps them, each with its answers."""
    return [
        {
            "n": i + 1,
            "clue": c["clue"],
            "answers": [
                {"who": _name(view, a["seat"]), "answer": a["answer"], "right": a["correct"]} for a in c["answers"]
            ],
        }
        for i, c in enumerate(record.get("clues") or [])
    ]


def _my_reveal(view, record: dict, t: Speaker) -> list[dict]:
    """A seat's own side of the round just settled, each line at its step."""
    you, holder = view["you"], record["box_holder"]
    word = record["chosen"]["word"]
    lines = []
    if you == holder:
        if record["guessed_on"] is None:
            lines.append({"step": "word", "text": t._("Nobody found your word, {word}.", word=word)})
        else:
            lines.append(
                {
                    "step": "clues",
                    "text": t._("Your word {word} was found on clue {n}.", word=word, n=record["guessed_on"]),
                    "good": True,
                }
            )
    else:
        lines.append({"step": "word", "text": t._("The word was {word}.", word=word)})
        if you in record["guessers"]:
            lines.append(
                {
                    "step": "clues",
                    "text": "✅ " + t._("You found it on clue {n}!", n=record["guessed_on"]),
                    "good": True,
                }
            )
    if record.get("spell_to") == you or you in (record.get("slow_spells") or []):
        lines.append({"step": "spells", "text": SPELL + " " + t._("You take a spell.")})
    if record.get("curse_to") == you:
        lines.append({"step": "spells", "text": CURSE + " " + t._("The curse goes to you.")})
    gained = int((record.get("scores") or {}).get(str(you), 0))
    places = ranking.places(view["scores"])
    place = t.place(places[you], len(places), places.count(places[you]) > 1)
    lines.append(
        {"step": "points", "text": t._("+{n} this round · you're {place}", n=gained, place=place), "good": gained > 0}
    )
    return lines


def wall(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    phase = view["phase"]
    scene = kit.scene_of(view, extra)
    show = kit.reveal(REVEAL, extra) if scene == "reveal" else None
    record = view.get("last") if scene == "reveal" else None
    shown = record or view.get("result") or (view.get("last") if phase == "choose" else None)
    settling = phase in ("spell", "verdict") and view.get("result")  # its points wait for the reveal
    bits = []
    if phase != "end" and scene != "reveal":  # nothing of the next turn while the room watches
        bits = [
            t._("Turn {turn} of {turns}", turn=view["turn"], turns=view["turns"]),
            t.n_("{n} spell left", "{n} spells left", view["spells_left"]),
        ]
        if view.get("limit"):
            bits.append(t._("At most {n} answers per clue", n=view["limit"]))
    return render(
        "maudit_mot_dit_wall.html",
        lang,
        view=view,
        scene=scene,
        reveal=show,
        tally=kit.tally(view, record.get("scores") or {}) if record else None,
        held_tally=kit.tally(view, view["result"].get("scores") or {}) if settling else None,
        phase_line=status_line(view, t),
        clues=_record_clues(view, record) if record else _clues(view),
        result=result(view, shown, t),
        turn_line=" · ".join(bits),
        next_line=_next_line(view, t) if phase != "end" and scene != "reveal" else "",
        earlier=_earlier(view, t) if phase != "end" else [],
        seat_marks=_marks(view),
        waiting_line=_wall_waiting(view, t),
        hint=t._(
            "One word per clue. Not the same root as the word or an earlier clue, no translations. "
            "Too slow? Say so on your phone."
        ),
        winners=kit.winners_line(view, t) if phase == "end" else "",
        **kit.wall_extra(view, extra, t),
    )


def phone(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    if view["status"] == "lobby":  # the frame's own wait (templates/phone.html)
        return render("maudit_mot_dit_phone.html", lang, view=view, **kit.phone_extra(view, extra, t))
    seat, phase = view["you"], view["phase"]
    holder = seat == view["holder"]
    context: dict = {}
    if holder and phase == "choose":
        picks = {b["symbol"] for b in view.get("back") or []}
        words = {c["symbol"]: c["word"] for c in view.get("card") or []}
        context["card"] = [
            {"icon": SYMBOL_ICONS.get(c["symbol"], "•"), "word": c["word"], "pick": c["symbol"] in picks}
            for c in view.get("card") or []
        ]
        context["choices"] = [
            {
                "label": t.n_(
                    "{icon} {word}, in {n} clue",
                    "{icon} {word}, in {n} clues",
                    b["count"],
                    icon=SYMBOL_ICONS.get(b["symbol"], "•"),
                    word=words.get(b["symbol"], "?"),
                ),
                "move": {"type": "choose", "symbol": b["symbol"]},
            }
            for b in view.get("back") or []
        ]
        effect = EFFECTS.get(view.get("effect") or "")
        context["effect"] = t._(effect) if effect else ""
    if holder and phase == "clues":
        chosen = view["chosen"]
        context["given"] = len(view["clues"]) + (1 if view.get("can_clue") else 0)
        context["count"] = chosen["count"]
        context["accept"] = [
            {
                "label": t._(
                    "Accept “{answer}” from {name}: close enough",
                    answer=view["clues"][-1]["answers"][i]["answer"],
                    name=_name(view, view["clues"][-1]["answers"][i]["seat"]),
                ),
                "move": {"type": "accept", "index": i},
            }
            for i in view.get("near") or []
        ]
    if holder and phase == "spell":
        context["targets"] = [
            {"label": f"{SPELL} {_name(view, s)}", "move": {"type": "give_spell", "target": s}}
            for s in range(len(view["names"]))
            if s != view["holder"] and s not in view.get("out", [])
        ]
    shown = view.get("result") if phase in ("verdict", "spell") else view.get("last") if phase == "choose" else None
    if kit.scene_of(view, extra) == "reveal" and view.get("last"):  # the round just settled, this seat's side of it
        context["reveal"] = kit.reveal(REVEAL, extra)
        context["mine"] = _my_reveal(view, view["last"], t)
        shown = view["last"]
    return render(
        "maudit_mot_dit_phone.html",
        lang,
        view=view,
        holder=holder,
        holder_name=_name(view, view["holder"]),
        phase_line=status_line(view, t),
        clues=_clues(view, view.get("near") or () if holder else ()),
        result=result(view, shown, t),
        marks=_marks(view),
        won=phase == "end" and view["scores"][seat] == max(view["scores"]),
        winners=kit.winners_line(view, t) if phase == "end" else "",
        close_after=CLOSE_AFTER_MS,
        clue_most=_rules()["clue_most"],
        answer_most=_rules()["answer_most"],
        **context,
        **kit.phone_extra(view, extra, t),
    )


def advise(view, move: dict, lang: str) -> str:
    """A clue that shares a root with the word or repeats an earlier clue: the phone says so, and
    the holder gives it anyway or changes it (the rules leave it to the table)."""
    if move.get("type") != "clue" or not isinstance(move.get("text"), str) or not move["text"].strip():
        return ""
    t = Speaker(lang)
    found = _rules()["clue_warnings"](move["text"].strip(), view, view.get("language") or "en")
    return " ".join(t._(WARNINGS[w]) for w in found if w in WARNINGS)


ANYWAY = N_("Give it anyway")


def member(view, me: dict, lang: str, extra: dict | None = None) -> str:
    """The clues so far and a box for one answer after the latest one, or, once it is sent, the
    member's answers so far (theirs alone: nobody else sees them before the round ends)."""
    t = Speaker(lang)
    offered = me["may_pick"]
    return render(
        "maudit_mot_dit_member.html",
        lang,
        view=view,
        me=me,
        clue=offered[0]["clue"] if offered else None,
        said=", ".join(p["answer"] for p in me["picks"] if p.get("answer")),
        most=ANSWER_MAX,
        **kit.member_extra(view, me, extra, t),
    )


def reveal_answer(view, t: Speaker) -> str:
    """The word of the round just settled, for every member's phone at the reveal."""
    record = view.get("last")
    return t._("The word was {word}.", word=record["chosen"]["word"]) if record else ""


def pick_text(pick: dict, t: Speaker) -> str:
    """An answer as the member typed it, quoted: "You picked “sea”: +1 point"."""
    return f"“{pick.get('answer') or ''}”"


def audience_line(counts: dict, t: Speaker) -> str:
    """How many in the audience found the word after each clue (the wall, after the round)."""
    return " · ".join(
        t.n_("{n} found it after clue {clue}", "{n} found it after clue {clue}", c, clue=int(k) + 1)
        for k, c in sorted(counts.items(), key=lambda kv: int(kv[0]))
    )
