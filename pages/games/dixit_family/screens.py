"""The Dixit family's stage (Dixit, and Dixit Odyssey with Party and Team): the wall, a seat's phone
and an audience member's, as functions of a view. The words are the Streamlit screens' own
messages (pages/games/dixit_family/dixit.py, odyssey.py), so their translations carry over."""

from __future__ import annotations

from engine.core import ranking
from pages.stage import kit, reading
from pages.stage.render import N_, Speaker, render

RED = "🟥"
TEAMS = [  # emoji, name (translated where shown), colour
    ("🔵", N_("Blue"), "#3B6FB6"),
    ("🟠", N_("Orange"), "#D9822B"),
    ("🟢", N_("Green"), "#3F9E5A"),
    ("🟣", N_("Purple"), "#7E57C2"),
    ("🟡", N_("Yellow"), "#C9A41A"),
    ("🟤", N_("Brown"), "#8B5A2B"),
]
CLAIM = N_("I have a phrase!")
# The reveal's steps on the wall (seconds each; within the game's Clock.reveal): the cards show whose
# each is and the storyteller's is marked, the votes land voter by voter, the points count up beside
# each name, the scores re-sort.
REVEAL = (("cards", 1.5), ("votes", 2.0), ("points", 1.5), ("sort", 1.0))
# The start page's pace line (pages/clock.py): each timed phase's name.
PACE_NAMES = {"tell": N_("Tell"), "give": N_("Give a card"), "vote": N_("Vote")}


def _variant(view) -> str:
    return view.get("variant", "base")


def _name(view, seat) -> str:
    return kit.name_of(view, seat)


def _team(view, seat):
    teams = view.get("teams")
    if not teams or str(seat) not in teams:
        return None
    return TEAMS[teams[str(seat)] % len(TEAMS)]


def phase_line(view, t: Speaker) -> str:
    """What the room does now, as the screens said it (Dixit's words, or Odyssey's by variant)."""
    phase, variant, odyssey = view["phase"], _variant(view), view["game"] != "dixit"
    teller = _name(view, view.get("storyteller"))
    if phase == "claim":
        if odyssey:
            return t._("Turn 1: whoever has a phrase first taps “{button}”", button=t._(CLAIM))
        return t._("Turn 1: who has a phrase?")
    if phase == "tell":
        if variant == "party":
            return t._("{teller} is the storyteller: thinking of a phrase, before looking at the cards", teller=teller)
        return t._("{teller} is the storyteller: choosing a card and a phrase", teller=teller)
    if phase == "give":
        if variant == "party":
            return t._("{teller} told. Everyone, {teller} included, gives a card that fits", teller=teller)
        if variant == "team":
            return t._("{teller} told. Each team gives one card that fits", teller=teller)
        return t._("{teller} told. Everyone else gives a card that fits", teller=teller)
    if phase == "vote":
        if variant == "party":
            return t._("Green vote: pick the card most of you will pick")
        if view.get("double_votes"):
            return t._("Find the storyteller's card: one or two votes each, on your phone")
        return t._("Find the storyteller's card: vote on your phone")
    return t._("The game is over")


def _table_cards(view, t: Speaker, own=(), disable_own=True) -> list[dict]:
    return [
        {
            "id": p["card"],
            "value": p["position"],
            "label": str(p["position"]),
            "off": p["position"] in own and disable_own,
            "badge": t._("yours") if p["position"] in own else "",
        }
        for p in view["table"]
    ]


def _hand(view) -> list[dict]:
    return [{"id": c, "value": c} for c in view.get("hand") or []]


def revealed(view, turn, t: Speaker, show: dict | None = None) -> dict:
    """A finished turn, fully revealed: whose card was where, who voted what, who scored what.
    `show`: the reveal's steps (kit.steps), each vote's moment in it."""
    voters_of: dict[int, list[str]] = {}
    for voter, picks in sorted(turn["votes"].items(), key=lambda kv: int(kv[0])):
        for p in picks:
            voters_of.setdefault(p, []).append(_name(view, int(voter)))
    at = (show or {}).get("at") or {"votes": 0}
    n_votes = sum(len(v) for v in voters_of.values())
    landing, i = {}, 0
    for p in turn["table"]:
        for name in voters_of.get(p["position"], []):
            landing.setdefault(p["position"], []).append({"name": name, "at": kit.staggered(at["votes"], n_votes, i)})
            i += 1
    teller, red = turn["storyteller"], turn.get("red_vote")
    party = _variant(view) == "party"
    story = None if party else next((p["position"] for p in turn["table"] if p["owner"] == teller), None)
    cards = []
    for p in turn["table"]:
        team = _team(view, p["owner"])
        who = (team[0] + " " if team else "") + _name(view, p["owner"])
        if p["owner"] == teller and not party:
            who = t._("storyteller {name}", name=who)
        extra = {}
        if p["position"] == red:  # the red square on the card; its word only where it is read out
            name = t._("{position} {red} red", position=p["position"], red=RED)
            extra = {"label": f"{p['position']} {RED}", "label_text": t._("Card {number}", number=name)}
        cards.append(
            {
                "id": p["card"],
                "value": p["position"],
                "label": str(p["position"]),
                **extra,
                "glow": p["position"] == story,
                "votes": voters_of.get(p["position"], []),
                "voters": landing.get(p["position"], []),
                "owner": who,
            }
        )
    params = {"turn": turn["turn"], "teller": _name(view, teller), "phrase": turn.get("phrase") or ""}
    if turn.get("phrase") and story is not None:
        told = t._("Turn {turn}: {teller} told: “{phrase}” — the storyteller's card was {card}", card=story, **params)
    elif turn.get("phrase"):
        told = t._("Turn {turn}: {teller} told: “{phrase}”", **params)
    elif story is not None:
        told = t._("Turn {turn}: {teller} told — the storyteller's card was {card}", card=story, **params)
    else:
        told = t._("Turn {turn}: {teller} told", **params)
    red_line = ""
    if red is not None:
        owner = _name(view, next((p["owner"] for p in turn["table"] if p["position"] == red), None))
        on_red = voters_of.get(red, [])
        red_line = (
            t.n_(
                "Red card: {position} ({owner}'s): {voters} scores 0",
                "Red card: {position} ({owner}'s): {voters} score 0",
                len(on_red),
                position=red,
                owner=owner,
                voters=", ".join(on_red),
            )
            if on_red
            else t._("Red card: {position} ({owner}'s): nobody voted it", position=red, owner=owner)
        )
    chips = []
    for seat in sorted(turn["scores"], key=lambda s: (-turn["scores"][s], int(s))):
        picks = turn["votes"].get(seat)
        name = _name(view, int(seat))
        if int(seat) == teller and not party:
            did = t._("{name} told", name=name)
        elif picks:
            did = f"{name} → {' & '.join(str(p) for p in picks)}"
        elif str(seat) in {str(p.get("owner")) for p in turn["table"]}:
            did = t._("{name} gave", name=name)
        else:
            did = t._("{name} sat out", name=name)
        team = _team(view, int(seat))
        chips.append({"did": did, "points": turn["scores"][seat], "colour": team[2] if team else "#C9BBAE"})
    # On the wall the phrase has a line of its own, large, and the top says who told and where the
    # storyteller's card was: a long phrase in the top pushed the stage's parts off a small projector.
    if story is not None:
        headline = t._("Turn {turn}: {teller} told — the storyteller's card was {card}", card=story, **params)
    else:
        headline = t._("Turn {turn}: {teller} told", **params)
    tally = kit.tally(view, turn["scores"])
    for row in tally:
        team = _team(view, row["seat"])
        row["colour"] = team[2] if team else "#C9BBAE"
        row["mark"] = team[0] + " " if team else ""
    return {
        "tally": tally,
        "told": told,
        "headline": headline,
        "phrase": turn.get("phrase") or "",
        "red": red_line,
        "cards": cards,
        "chips": chips,
        "story": story,
    }


def _revealed(view, turn, t: Speaker, show: dict | None = None) -> dict:
    """`revealed`, worked out once for every screen of the room that shows the same turn: each
    phone drew the whole last turn at each of its draws."""
    return reading.kept("dixit_family.revealed", view, (t.lang, turn, show), lambda v: revealed(v, turn, t, show))


def _team_line(view, t: Speaker, shown: dict | None = None) -> list[dict]:
    """The teams' strip: each team's players and score (during a reveal, `shown`: the score before
    the turn too, until the points step)."""
    if _variant(view) != "team":
        return []
    members: dict[int, list[int]] = {}
    for seat, team in view["teams"].items():
        members.setdefault(team, []).append(int(seat))
    gained = (view.get("last_turn") or {}).get("team_scores") or {} if shown else {}
    lines = []
    for team, seats in sorted(members.items()):
        score = view["team_scores"].get(str(team), 0)
        lines.append(
            {
                "label": f"{TEAMS[team % len(TEAMS)][0]} {t._(TEAMS[team % len(TEAMS)][1])}",
                "who": " & ".join(_name(view, s) for s in seats),
                "colour": TEAMS[team % len(TEAMS)][2],
                "score": score,
                "row": {"before": score - int(gained.get(str(team), 0)), "after": score} if shown else None,
            }
        )
    return lines


def winners_line(view, t: Speaker) -> str:
    if _variant(view) == "team" and view.get("team_scores"):
        scores = {int(k): v for k, v in view["team_scores"].items()}
        best = max(scores.values(), default=0)
        won = [k for k, v in scores.items() if v == best]
        teams = " & ".join(f"{TEAMS[k % len(TEAMS)][0]} {t._(TEAMS[k % len(TEAMS)][1])}" for k in won)
        return "🏆 " + t.n_(
            "Team {teams} wins with {points}",
            "Team {teams} win with {points}",
            len(won),
            teams=teams,
            points=t.points(best),
        )
    return kit.winners_line(view, t)


def wall(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    phase = view["phase"]
    last = view.get("last_turn")
    counts = None
    if phase in ("give", "vote"):
        done = view["given"] if phase == "give" else view["voted"]
        total = len(done) + len(view["waiting_for"])
        counts = (
            t._("Cards given: {n} of {total}", n=len(done), total=total)
            if phase == "give"
            else t._("Votes cast: {n} of {total}", n=len(done), total=total)
        )
    scene = kit.scene_of(view, extra)
    show = kit.reveal(REVEAL, extra)
    shown = _revealed(view, last, t, show) if last else None
    parts = kit.wall_extra(view, extra, t)
    if phase == "end" and _variant(view) == "team" and view.get("team_scores"):
        parts["podium"] = _team_standings(view, t)  # the teams on the podium, with their players' names
    return render(
        "dixit_family_wall.html",
        lang,
        view=view,
        scene=scene,
        phase_line=phase_line(view, t),
        counts=counts,
        hint=_hint(view, t),
        table=_table_cards(view, t) if phase == "vote" else [],
        last=shown,
        reveal=show,
        tally=shown["tally"] if shown else None,
        teams=_team_line(view, t, shown if show else None),
        winners=winners_line(view, t) if phase == "end" else "",
        marks={int(s): _team(view, int(s))[0] + " " for s in (view.get("teams") or {})},
        **parts,
    )


def _team_standings(view, t: Speaker) -> list[dict]:
    members: dict[int, list[int]] = {}
    for seat, team in view["teams"].items():
        members.setdefault(team, []).append(int(seat))
    teams = sorted(members)
    names = [
        f"{TEAMS[k % len(TEAMS)][0]} {t._(TEAMS[k % len(TEAMS)][1])}: " + " & ".join(_name(view, s) for s in members[k])
        for k in teams
    ]
    return kit.standings(names, [view["team_scores"].get(str(k), 0) for k in teams])


HINTS = {
    "claim": N_(
        "📱 Look at the cards on your phone. Got an idea for one of them? "
        "Tap {button} first, and you are the storyteller."
    ),
    "tell": N_(
        "{teller} picks a card and says a phrase about it aloud. Everyone else: listen, "
        "then give a card from your hand that fits the phrase."
    ),
    "give": N_(
        "Everyone but the storyteller gives a card that fits the phrase. The cards are shuffled, "
        "then everyone votes for the one they think is the storyteller's."
    ),
}
PARTY_HINTS = {
    "tell": N_("{teller} thinks of a phrase before looking at any card, and says it aloud."),
    "give": N_(
        "Everyone, {teller} included, gives a card that fits the phrase. Then everyone votes with "
        "the crowd, and {teller} hides a red card where nobody should go."
    ),
}
TEAM_HINTS = {
    "give": N_(
        "Each team gives one card that fits the phrase, {teller}'s teammate too. In the other "
        "teams the first of the two to give gives, and the other one votes for the team."
    ),
}


def _hint(view, t: Speaker):
    from markupsafe import Markup

    phase = view["phase"]
    hint = {"party": PARTY_HINTS, "team": TEAM_HINTS}.get(_variant(view), {}).get(phase) or HINTS.get(phase)
    if not hint:
        return ""
    return t._h(hint, teller=_name(view, view.get("storyteller")), button=Markup("<b>{}</b>").format(t._(CLAIM)))


def phone(view, lang: str, extra: dict | None = None) -> str:
    t = Speaker(lang)
    seat, phase, variant = view["you"], view["phase"], _variant(view)
    teller, waiting = view.get("storyteller"), view["waiting_on_you"]
    controls: dict = {"kind": "wait"}
    phrase_label = (
        t._("Your phrase (required: the computer players read it, since they cannot hear you)")
        if view.get("bots")
        else t._("Your phrase (optional: it shows on the shared screen)")
    )
    if phase == "claim":
        controls = {"kind": "claim", "button": t._(CLAIM), "hidden": bool(view.get("hand_hidden"))}
    elif phase == "tell" and seat == teller:
        controls = {"kind": "said" if variant == "party" else "tell", "label": phrase_label}
    elif phase == "give" and waiting:
        controls = {"kind": "give", "k": view["gives_per_player"]}
        if variant == "party" and seat == teller:
            controls["note"] = t._(
                "Your phrase is out. Now give a card from your new hand that fits it, like everyone else."
            )
        elif variant == "team" and view.get("teammate") == teller:
            controls["note"] = t._(
                "Your teammate told: you give a card that fits too. Nobody on your team votes this turn."
            )
        elif variant == "team":
            controls["note"] = t._(
                "One of you gives your team's card: the first to give gives; the other one votes. "
                "Your teammate is {teammate}.",
                teammate=_name(view, view["teammate"]),
            )
    elif phase == "vote" and waiting:
        own = set(view["my_positions"])
        if view.get("my_vote") and variant == "party" and seat == teller:
            controls = {"kind": "red", "cards": _table_cards(view, t)}
        else:
            controls = {"kind": "vote", "cards": _table_cards(view, t, own, disable_own=variant != "party")}
            if variant == "party":
                controls["note"] = t._(
                    "Green vote: you score as many points as players who pick the same card (max 5; "
                    "alone, 0). Your own card is allowed. ⤢ enlarges a card."
                )
            elif view.get("double_votes"):
                controls["note"] = t._(
                    "A single correct vote earns +1. Two votes double your chance, without that bonus. ⤢ enlarges a card."
                )
                controls["double"] = True
            elif variant == "team":
                controls["note"] = t._(
                    "You vote for your team. Your teammate's card is among them: you don't know which. ⤢ enlarges a card."
                )
    team = None
    if variant == "team" and view.get("team") is not None:
        emoji, name, _colour = _team(view, seat)  # the emoji carries the colour: a coloured word is unreadable
        team = {
            "emoji": emoji,
            "line": t._h(
                "You are team {team} with {teammate} · team score {score}",
                team=_bold(t._(name)),
                teammate=_bold(_name(view, view["teammate"])),
                score=view["team_scores"].get(str(view["team"]), 0),
            ),
        }
    last = view.get("last_turn")
    scene = kit.scene_of(view, extra)
    show = kit.reveal(REVEAL, extra) if scene == "reveal" else None
    return render(
        "dixit_family_phone.html",
        lang,
        view=view,
        reveal=show,
        mine=_my_reveal(view, last, t) if scene == "reveal" and last else [],
        phase_line=phase_line(view, t),
        controls=controls,
        hand=_hand(view),
        table=_table_cards(view, t, set(view.get("my_positions") or []), disable_own=False) if phase == "vote" else [],
        team=team,
        last=_revealed(view, last, t) if last and phase != "vote" else None,
        scored=(last or {}).get("scores", {}).get(str(seat), 0) if last else 0,
        won=_won(view),
        winners=winners_line(view, t) if phase == "end" else "",
        **kit.phone_extra(view, extra, t),
    )


def _names(view, seats) -> str:
    return ", ".join(_name(view, s) for s in seats)


def _my_reveal(view, turn, t: Speaker) -> list[dict]:
    """A seat's own side of the reveal, each line with the step it comes at: whose the
    storyteller's card was (or, for the storyteller, who found it), what this seat's vote and
    card did, and its points and place."""
    you, teller, party = view["you"], turn["storyteller"], _variant(view) == "party"
    owner = {p["position"]: p["owner"] for p in turn["table"]}
    story = None if party else next((pos for pos, o in owner.items() if o == teller), None)
    voted = {int(v): picks for v, picks in turn["votes"].items()}
    mine = [pos for pos, o in owner.items() if o == you]
    lines = []
    if story is not None and you == teller:
        found = [v for v, picks in voted.items() if story in picks]
        lines.append({"step": "cards", "text": t._("Your card was card {card}.", card=story)})
        if not found:
            text = t._("Nobody found it.")
        elif len(found) == len([v for v in voted if v != teller]):
            text = t._("Everyone found it.")
        else:
            text = t._("{names} found it.", names=_names(view, found))
        lines.append({"step": "votes", "text": text})
    elif you != teller:
        if story is not None:
            lines.append(
                {"step": "cards", "text": t._("Card {card} was {teller}'s.", card=story, teller=_name(view, teller))}
            )
        picks = voted.get(you, [])
        if story in picks:
            lines.append({"step": "votes", "text": "✅ " + t._("You found it!"), "good": True})
        for pick in picks:
            if pick != story:
                lines.append(
                    {
                        "step": "votes",
                        "text": t._(
                            "You picked card {card}: {owner}'s.", card=pick, owner=_name(view, owner.get(pick))
                        ),
                    }
                )
    fooled = [v for v, picks in voted.items() if v != you and any(p in mine for p in picks)]
    if fooled and you != teller:
        lines.append({"step": "votes", "text": t._("Your card fooled {names}.", names=_names(view, fooled))})
    if turn.get("red_vote") is not None and you == teller:
        lines.append({"step": "votes", "text": "🟥 " + t._("Your red card: card {card}.", card=turn["red_vote"])})
    elif turn.get("red_vote") is not None and turn["red_vote"] in voted.get(you, []):
        lines.append({"step": "votes", "text": "🟥 " + t._("Your vote was on the red card.")})
    if _variant(view) == "team" and view.get("team") is not None and turn.get("team_scores"):
        team = str(view["team"])
        scores = view["team_scores"]
        gained = int(turn["team_scores"].get(team, 0))
        places = ranking.places([scores[k] for k in sorted(scores, key=int)])
        at = places[sorted(scores, key=int).index(team)]
        place = t.place(at, len(scores), places.count(at) > 1)
        text = t._("Your team: +{n} · {place}", n=gained, place=place)
    else:
        gained = int(turn["scores"].get(str(you), 0))
        places = ranking.places(view["scores"])
        place = t.place(places[you], len(places), places.count(places[you]) > 1)
        text = t._("+{n} this turn · you're {place}", n=gained, place=place)
    lines.append({"step": "points", "text": text, "good": gained > 0})
    return lines


def _bold(text: str):
    from markupsafe import Markup

    return Markup("<b>{}</b>").format(text)


def _won(view) -> bool:
    if view["phase"] != "end":
        return False
    if _variant(view) == "team" and view.get("team_scores"):
        scores = view["team_scores"]
        return scores.get(str(view["team"]), 0) == max(scores.values(), default=0)
    return view["scores"][view["you"]] == max(view["scores"], default=0)


def member(view, me: dict, lang: str, extra: dict | None = None) -> str:
    """An audience member's phone: the table's cards to pick from (the storyteller's, or in Party
    the one the storyteller will vote red), what they picked, and after the reveal whether it was right."""
    t = Speaker(lang)
    party = _variant(view) == "party"
    picked = me["picks"][-1]["position"] if me["picks"] else None
    offered = {p.get("position") for p in me["may_pick"]}
    cards = [
        {"id": p["card"], "value": p["position"], "label": str(p["position"]), "glow": p["position"] == picked}
        for p in view.get("table") or []
        if p["position"] in offered
    ]
    return render(
        "dixit_family_member.html",
        lang,
        view=view,
        me=me,
        ask=t._("Which card will the storyteller vote red?") if party else t._("Which card is the storyteller's?"),
        button=t._("The storyteller will vote this one red") if party else t._("This one is the storyteller's"),
        picked=picked,
        cards=cards,
        **kit.member_extra(view, me, extra, t),
    )


def reveal_answer(view, t: Speaker) -> str:
    """What the audience was asked, answered, for every member's phone at the reveal."""
    turn = view.get("last_turn")
    if not turn:
        return ""
    if _variant(view) == "party":
        red = turn.get("red_vote")
        return t._("The storyteller put the red card on card {card}.", card=red) if red is not None else ""
    story = next((p["position"] for p in turn["table"] if p["owner"] == turn["storyteller"]), None)
    return t._("Card {card} was the storyteller's.", card=story) if story is not None else ""


def pick_text(pick: dict, t: Speaker) -> str:
    """A member's pick in words, for how it went at the reveal."""
    return t._("card {card}", card=pick.get("position"))


def audience_line(counts: dict, t: Speaker) -> str:
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], int(kv[0])))
    return " · ".join(t._("card {card}: {count}", card=card, count=count) for card, count in ranked)


__all__ = ["audience_line", "member", "phone", "pick_text", "reveal_answer", "wall"]
