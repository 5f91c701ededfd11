"""The Dixit family's stage (Dixit, and Dixit Odyssey with Party and Team): the wall, a seat's phone
and an audience member's, as functions of a view. The words are the Streamlit screens' own
messages (pages/games/dixit_family/dixit.py, odyssey.py), so their translations carry over."""

from __future__ import annotations

from pages.stage import kit
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


def revealed(view, turn, t: Speaker) -> dict:
    """A finished turn, fully revealed: whose card was where, who voted what, who scored what."""
    voters_of: dict[int, list[str]] = {}
    for voter, picks in turn["votes"].items():
        for p in picks:
            voters_of.setdefault(p, []).append(_name(view, int(voter)))
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
    return {
        "told": told,
        "headline": headline,
        "phrase": turn.get("phrase") or "",
        "red": red_line,
        "cards": cards,
        "chips": chips,
        "story": story,
    }


def _team_line(view, t: Speaker) -> list[dict]:
    if _variant(view) != "team":
        return []
    members: dict[int, list[int]] = {}
    for seat, team in view["teams"].items():
        members.setdefault(team, []).append(int(seat))
    return [
        {
            "label": f"{TEAMS[team % len(TEAMS)][0]} {t._(TEAMS[team % len(TEAMS)][1])}",
            "who": " & ".join(_name(view, s) for s in seats),
            "colour": TEAMS[team % len(TEAMS)][2],
            "score": view["team_scores"].get(str(team), 0),
        }
        for team, seats in sorted(members.items())
    ]


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
    return render(
        "dixit_family_wall.html",
        lang,
        view=view,
        scene=scene,
        phase_line=phase_line(view, t),
        counts=counts,
        hint=_hint(view, t),
        table=_table_cards(view, t) if phase == "vote" else [],
        last=revealed(view, last, t) if last else None,
        teams=_team_line(view, t),
        winners=winners_line(view, t) if phase == "end" else "",
        marks={int(s): _team(view, int(s))[0] + " " for s in (view.get("teams") or {})},
        **kit.wall_extra(view, extra, t),
    )


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
    return render(
        "dixit_family_phone.html",
        lang,
        view=view,
        phase_line=phase_line(view, t),
        controls=controls,
        hand=_hand(view),
        table=_table_cards(view, t, set(view.get("my_positions") or []), disable_own=False) if phase == "vote" else [],
        team=team,
        last=revealed(view, last, t) if last and phase != "vote" else None,
        scored=(last or {}).get("scores", {}).get(str(seat), 0) if last else 0,
        won=_won(view),
        winners=winners_line(view, t) if phase == "end" else "",
        **kit.phone_extra(view, extra, t),
    )


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


def pick_text(pick: dict, t: Speaker) -> str:
    """A member's pick in words, for how it went at the reveal."""
    return t._("card {card}", card=pick.get("position"))


def audience_line(counts: dict, t: Speaker) -> str:
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], int(kv[0])))
    return " · ".join(t._("card {card}: {count}", card=card, count=count) for card, count in ranked)


__all__ = ["audience_line", "member", "phone", "pick_text", "wall"]
