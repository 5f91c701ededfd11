"""Dixit Odyssey (base, Party, Team) on the shared screen and on a player's phone. Only renders
views; the rules are in the engine. Built on the classic Dixit renderer's helpers."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from pages import ui
from pages.cards import card_grid
from pages.decks import deck_choice
from pages.screens.dixit import HAND, _name, _phrase, _waiting_line

PITCH = "Dixit Odyssey — 3 to 12 players, with Party and Team variants"

VARIANTS = {
    "base": "Base — 3 to 12 players, first to 30 points. With 7 or more, you may vote for one or two cards.",
    "party": "Party — 6 to 12: the phrase comes first, everyone votes, score with the crowd; dodge the red card.",
    "team": "Team — 6, 8, 10 or 12 in pairs sitting opposite: one of you gives your team's card, the other votes.",
}
MAX_LAPS = 5
# Team colours: an emoji for text drawn by the card component (textContent), a colour for HTML.
TEAMS = [("🔵", "Blue", "#3B6FB6"), ("🟠", "Orange", "#D9822B"), ("🟢", "Green", "#3F9E5A"),
         ("🟣", "Purple", "#7E57C2"), ("🟡", "Yellow", "#C9A41A"), ("🟤", "Brown", "#8B5A2B")]
RED = "🟥"

CSS = """
<style>
  .od-strip { display: flex; flex-wrap: wrap; gap: .5rem .6rem; margin: .3rem 0 .7rem; }
  .od-chip { display: inline-flex; align-items: center; gap: .45rem; padding: .3rem .8rem; border-radius: 999px;
    background: #F3E9DC; color: #2A1F1A; font-size: 1.15rem; border-left: .5rem solid var(--team, #C9BBAE); }
  .od-big .od-chip { font-size: 1.45rem; }
  .od-chip b { font-weight: 800; }
  .od-chip.od-zero { opacity: .6; }
  .od-chip.od-red { background: #F6D5D0; }
  .od-pts { display: inline-block; min-width: 2.4em; text-align: center; padding: .05rem .5rem; border-radius: 999px;
    background: #C4473A; color: #fff; font-weight: 800; }
  .od-zero .od-pts { background: #9b8b80; }
  .od-pop { animation: od-pop .7s cubic-bezier(.2,1.6,.4,1) both; }
  @keyframes od-pop { from { transform: scale(.4); opacity: 0; } to { transform: scale(1); opacity: 1; } }
  .od-reveal { font-size: 1.5rem; font-weight: 700; margin: .2rem 0 .4rem; }
  .od-big .od-reveal { font-size: 1.8rem; }
  .od-story { display: inline-block; padding: .05rem .6rem; border-radius: .5rem; background: #E0A93B; color: #2A1F1A;
    animation: od-glow 1.2s ease-in-out 3; }
  @keyframes od-glow { 50% { box-shadow: 0 0 0 .5rem rgba(224,169,59,.45); } }
  .od-redline { font-size: 1.25rem; font-weight: 700; color: #A3261B; margin: .2rem 0 .5rem; }
  .od-team { font-size: 1.15rem; margin: .2rem 0 .5rem; }
  .od-phrase { font-size: 1.35rem; font-style: italic; margin: .1rem 0 .4rem; }
</style>
"""


def options() -> dict:
    """The host's choices on the start page (every option has a default in the engine)."""
    variant = st.radio("Variant", list(VARIANTS), key="odyssey-variant",
                       format_func=lambda v: v.capitalize(), captions=list(VARIANTS.values()))
    chosen = {"variant": variant}
    if variant != "base":
        chosen["laps"] = st.slider("Laps: how many times each player tells", 1, MAX_LAPS, 1, key="odyssey-laps")
    chosen["deck"] = deck_choice()
    return chosen


# ---- small pieces --------------------------------------------------------------------------------

def _team(view, seat):
    """(emoji, name, colour) of a seat's team, or None outside the Team variant."""
    teams = view.get("teams")
    if not teams or str(seat) not in teams:
        return None
    return TEAMS[teams[str(seat)] % len(TEAMS)]


def _who(view, seat) -> str:
    """A name for text drawn by the card component: with the team's emoji in the Team variant."""
    team = _team(view, seat)
    return f"{team[0]} {_name(view, seat)}" if team else _name(view, seat)


def _colour(view, seat) -> str:
    team = _team(view, seat)
    return team[2] if team else "#C9BBAE"


def _phone_phrase(view) -> None:
    """The phrase on a phone: smaller than on the wall, so twelve cards fit below it."""
    if view.get("phrase"):
        st.html(CSS + f"<div class='od-phrase'>“{ui.esc(view['phrase'])}”</div>")


def _positions(picks) -> str:
    return " & ".join(str(p) for p in picks)


def _table_width(count: int) -> int:
    """Shared screen: twelve cards in two rows of six on 1920×1080; fewer cards, larger."""
    return 260 if count <= 5 else 210


def _phone_width(count: int) -> int:
    """Phone: up to six cards three a row; seven to twelve four a row, so twelve fit in three rows."""
    return 110 if count <= 6 else 78


def _phase_line(view) -> str:
    phase, variant = view["phase"], view["variant"]
    teller = _name(view, view.get("storyteller"))
    if phase == "claim":
        return "Turn 1: whoever has a phrase first taps “I have a phrase!”"
    if phase == "tell":
        if variant == "party":
            return f"{teller} is the storyteller: thinking of a phrase, before looking at the cards"
        return f"{teller} is the storyteller: choosing a card and a phrase"
    if phase == "give":
        if variant == "party":
            return f"{teller} told. Everyone, {teller} included, gives a card that fits"
        if variant == "team":
            return f"{teller} told. Each team gives one card that fits"
        return f"{teller} told. Everyone else gives a card that fits"
    if phase == "vote":
        if variant == "party":
            return "Green vote: pick the card most of you will pick"
        if view.get("double_votes"):
            return "Find the storyteller's card: one or two votes each, on your phone"
        return "Find the storyteller's card: vote on your phone"
    if phase == "end":
        return "The game is over"
    return "Waiting for players"


def _goal(view) -> str:
    if view["variant"] == "base":
        return "first to 30 points wins"
    laps = (view.get("options") or {}).get("laps", 1)
    return f"{laps} lap{'s' if laps > 1 else ''}: everyone tells {'once' if laps == 1 else f'{laps} times'}"


def _team_strip(view, big: bool) -> None:
    """Each team's colour, members and score."""
    if view["variant"] != "team":
        return
    members = {}
    for seat, team in view["teams"].items():
        members.setdefault(team, []).append(int(seat))
    chips = []
    for team, seats in sorted(members.items()):
        emoji, name, colour = TEAMS[team % len(TEAMS)]
        who = " & ".join(ui.esc(_name(view, s)) for s in seats)
        chips.append(f"<span class='od-chip' style='--team:{colour}'>{emoji} {name}: {who}"
                     f"<span class='od-pts'>{view['team_scores'].get(str(team), 0)}</span></span>")
    st.html(CSS + f"<div class='{'od-big' if big else ''}'><div class='od-strip'>{''.join(chips)}</div></div>")


# ---- the revealed turn ---------------------------------------------------------------------------

def turn_result(view, turn, min_width=170, big=False) -> None:
    """A finished turn, fully revealed: whose card was where, who voted what (the red vote too),
    who scored what. The storyteller's card glows and the points pop in."""
    voters_of = {}
    for voter, picks in turn["votes"].items():
        for p in picks:
            voters_of.setdefault(p, []).append(_name(view, int(voter)))
    teller, red = turn["storyteller"], turn.get("red_vote")
    story = next((p["position"] for p in turn["table"] if p["owner"] == teller), None)
    party = view["variant"] == "party"
    cards = []
    for p in turn["table"]:
        who = _who(view, p["owner"])
        if p["owner"] == teller and not party:
            who = "storyteller " + who
        votes = voters_of.get(p["position"], [])
        label = str(p["position"]) + (f" {RED} red" if p["position"] == red else "")
        cards.append({"id": p["card"], "label": label, "glow": p["position"] == story and not party,
                      "badge": who + (" · ← " + ", ".join(votes) if votes else "")})
    phrase = f": “{ui.esc(turn['phrase'])}”" if turn.get("phrase") else ""
    found = ""
    if story is not None and not party:
        found = f" — the storyteller's card was <span class='od-story'>{story}</span>"
    st.html(CSS + f"<div class='{'od-big' if big else ''}'><div class='od-reveal'>Turn {turn['turn']}: "
            f"{ui.esc(_name(view, teller))} told{phrase}{found}</div></div>")
    if red is not None:
        owner = next((p["owner"] for p in turn["table"] if p["position"] == red), None)
        on_red = voters_of.get(red, [])
        st.html(CSS + f"<div class='od-redline'>{RED} Red card: {red} ({ui.esc(_name(view, owner))}'s)"
                + (f": {ui.esc(', '.join(on_red))} score 0" if on_red else ": nobody voted it") + "</div>")
    card_grid(cards, key=f"result-{turn['turn']}", min_width=min_width)
    _points_chips(view, turn, big)


def _did(view, turn, seat: str) -> str:
    picks = turn["votes"].get(seat)
    if int(seat) == turn["storyteller"] and view["variant"] != "party":
        return "told"
    return "→ " + _positions(picks) if picks else "gave"


def _points_chips(view, turn, big) -> None:
    """Who voted what and what each earned, best first (in Team: what each team earned)."""
    if view["variant"] == "team" and turn.get("team_scores"):
        _team_points_chips(view, turn, big)
        return
    red, chips = turn.get("red_vote"), []
    order = sorted(turn["scores"], key=lambda s: (-turn["scores"][s], int(s)))
    for i, seat in enumerate(order):
        s, points = int(seat), turn["scores"][seat]
        picks = turn["votes"].get(seat)
        what = _did(view, turn, seat)
        classes = "od-chip" + (" od-zero" if not points else "") + (" od-red" if picks and red in picks else "")
        chips.append(f"<span class='{classes}' style='--team:{_colour(view, s)}'><b>{ui.esc(_name(view, s))}</b> "
                     f"{what}<span class='od-pts od-pop' style='animation-delay:{0.15 + 0.06 * i:.2f}s'>"
                     f"+{points}</span></span>")
    st.html(CSS + f"<div class='{'od-big' if big else ''}'><div class='od-strip'>{''.join(chips)}</div></div>")


def _team_points_chips(view, turn, big) -> None:
    members = {}
    for seat, team in view["teams"].items():
        members.setdefault(team, []).append(seat)
    order = sorted(members, key=lambda t: (-turn["team_scores"].get(str(t), 0), t))
    chips = []
    for i, team in enumerate(order):
        emoji, name, colour = TEAMS[team % len(TEAMS)]
        points = turn["team_scores"].get(str(team), 0)
        did = " · ".join(f"<b>{ui.esc(_name(view, int(s)))}</b> {_did(view, turn, s)}"
                         for s in members[team] if s in turn["scores"])
        chips.append(f"<span class='od-chip{' od-zero' if not points else ''}' style='--team:{colour}'>{emoji} {did}"
                     f"<span class='od-pts od-pop' style='animation-delay:{0.15 + 0.08 * i:.2f}s'>+{points}</span></span>")
    st.html(CSS + f"<div class='{'od-big' if big else ''}'><div class='od-strip'>{''.join(chips)}</div></div>")


def scoreboard(view) -> None:
    history = view.get("history") or []
    if not history:
        return
    names = view["names"]
    frame = pd.DataFrame({name: [t["scores"].get(str(s), 0) for t in history] for s, name in enumerate(names)},
                         index=[f"T{t['turn']}" for t in history]).T
    frame["Total"] = view["scores"]
    if view["variant"] == "team":
        frame.insert(0, "Team", [" ".join(_team(view, s)[:2]) for s in range(len(names))])
    st.dataframe(frame.sort_values("Total", ascending=False), width="stretch")


def _winning_teams(view) -> list[int]:
    scores = {int(t): p for t, p in view["team_scores"].items()}
    best = max(scores.values(), default=0)
    return [t for t, p in scores.items() if p == best]


def _winners_line(view) -> str:
    if view["variant"] == "team":
        won = _winning_teams(view)
        best = view["team_scores"].get(str(won[0]), 0) if won else 0
        teams = " & ".join(" ".join(TEAMS[t % len(TEAMS)][:2]) for t in won)
        return f"🏆 Team {teams} win{'s' if len(won) == 1 else ''} with {best} points"
    best = max(view["scores"], default=0)
    winners = [n for n, s in zip(view["names"], view["scores"]) if s == best]
    return f"🏆 {' & '.join(winners)} win{'s' if len(winners) == 1 else ''} with {best} points"


# ---- the shared screen ---------------------------------------------------------------------------

def table(view) -> None:
    phase = view["phase"]
    st.markdown(f"<div class='sm-big'><div class='sm-phase'>{ui.esc(_phase_line(view))}</div>"
                f"<div class='sm-waiting'>{ui.esc(_waiting_line(view))}</div></div>", unsafe_allow_html=True)
    st.caption(f"Dixit Odyssey · {view['variant'].capitalize()} · {_goal(view)} · turn {view['turn']} · "
               f"{view['deck_left']} cards in the draw pile")
    _team_strip(view, big=True)
    if phase in ("give", "vote"):
        _phrase(view)
    if phase == "vote":
        cards = [{"id": p["card"], "label": str(p["position"])} for p in view["table"]]
        card_grid(cards, key="table", min_width=_table_width(len(cards)))
    elif phase == "end":
        st.markdown(f"## {ui.esc(_winners_line(view))}")
    if view.get("last_turn") and phase != "vote":
        turn_result(view, view["last_turn"], min_width=170, big=True)
    scoreboard(view)


# ---- a player's phone ----------------------------------------------------------------------------

def player(view, act) -> None:
    """A player's phone. `act(move)` submits a move and shows a refusal as a message."""
    seat, phase, names = view["you"], view["phase"], view["names"]
    if phase == "lobby":
        st.info(f"You're in as **{names[seat]}**. The host starts the game when everyone has joined "
                f"({len(names)} so far).")
        return
    variant, teller, turn = view["variant"], view.get("storyteller"), view["turn"]
    st.markdown(f"<div class='sm-phase'>{ui.esc(_phase_line(view))}</div>", unsafe_allow_html=True)
    if variant == "team":
        emoji, team_name, colour = _team(view, seat)
        st.html(CSS + f"<div class='od-team'>{emoji} You are team <b style='color:{colour}'>{team_name}</b> with "
                f"<b>{ui.esc(_name(view, view['teammate']))}</b> · team score "
                f"{view['team_scores'].get(str(view['team']), 0)}</div>")
    line = _waiting_line(view)
    if line:
        st.caption(line)
    waiting = seat in view["waiting_for"]
    hand = [{"id": c} for c in view["hand"]]
    if phase == "claim":
        st.button("I have a phrase!", type="primary", width="stretch",
                  on_click=act, args=({"type": "claim"},))
        if view.get("hand_hidden"):
            st.caption("Party: the phrase comes first. You see your cards once someone has told.")
        else:
            st.caption("The first to tap becomes the storyteller. Look at your cards:")
            card_grid(hand, key="hand", min_width=HAND)
    elif phase == "tell" and seat == teller:
        _tell(view, act, hand, turn)
    elif phase == "give" and waiting:
        _give(view, act, hand, turn)
    elif phase == "vote" and waiting:
        _vote(view, act, turn)
    else:
        _waiting_detail(view, seat)
        if phase != "end" and hand:
            st.caption("Your hand")
            card_grid(hand, key="hand", min_width=HAND)
    if view.get("last_turn") and phase != "vote":
        with st.expander(f"Last turn: you scored {view['last_turn']['scores'].get(str(seat), 0)}"):
            turn_result(view, view["last_turn"], min_width=110)


def _tell(view, act, hand, turn) -> None:
    key = f"phrase-{turn}"
    if view["variant"] == "party":
        st.success("You are the storyteller. Say a phrase aloud now, before you see your cards: "
                   "everyone, you included, then gives a card that fits it.")
        with st.form(f"tell-{turn}"):
            st.text_input("Your phrase (optional: it shows on the shared screen)", key=key, max_chars=140)
            st.form_submit_button("I've said my phrase", type="primary", width="stretch",
                                  on_click=lambda: act({"type": "tell", "phrase": st.session_state.get(key) or None}))
        return
    st.success("You are the storyteller. Pick a card, then say your phrase aloud.")
    st.text_input("Your phrase (optional: it shows on the shared screen)", key=key, max_chars=140)
    card_grid(hand, key="tell", pick=1, min_width=HAND, button="Tell with this card", nonce=f"tell-{turn}",
              on_pick=lambda ids: act({"type": "tell", "card": ids[0], "phrase": st.session_state.get(key) or None}))


def _give(view, act, hand, turn) -> None:
    seat, variant = view["you"], view["variant"]
    _phone_phrase(view)
    if variant == "party" and seat == view["storyteller"]:
        st.info("Your phrase is out. Now give a card from your new hand that fits it, like everyone else.")
    elif variant == "team" and view["teammate"] == view["storyteller"]:
        st.info("Your teammate told: you give a card that fits too. Nobody on your team votes this turn.")
    elif variant == "team":
        st.info(f"One of you gives your team's card: the first to give gives; the other one votes. "
                f"Your teammate is {_name(view, view['teammate'])}.")
    k = view["gives_per_player"]
    card_grid(hand, key="give", pick=k, min_width=HAND, button=f"Give {'these cards' if k > 1 else 'this card'}",
              nonce=f"give-{turn}", on_pick=lambda ids: act({"type": "give", "cards": ids}))


def _position_of(view, card_id):
    return next(p["position"] for p in view["table"] if p["card"] == card_id)


def _vote(view, act, turn) -> None:
    variant, seat = view["variant"], view["you"]
    _phone_phrase(view)
    party = variant == "party"
    own = set(view["my_positions"])
    width = _phone_width(len(view["table"]))
    if view.get("my_vote") and party and seat == view["storyteller"]:
        _red_vote(view, act, turn, width)
        return
    cards = [{"id": p["card"], "label": str(p["position"]), "disabled": p["position"] in own and not party,
              "badge": "yours" if p["position"] in own else ""} for p in view["table"]]
    k = 1
    if party:
        st.caption("Green vote: you score as many points as players who pick the same card (max 5; "
                   "alone, 0). Your own card is allowed. ⤢ enlarges a card.")
    elif view.get("double_votes"):
        choice = st.segmented_control("How many votes?", [1, 2], default=1, key=f"votes-{turn}",
                                      format_func=lambda n: "1 vote" if n == 1 else "2 votes")
        k = choice or 1
        st.caption("A single correct vote earns +1. Two votes double your chance, without that bonus. "
                   "⤢ enlarges a card.")
    elif variant == "team":
        st.caption("You vote for your team. Your teammate's card is among them: you don't know which. "
                   "⤢ enlarges a card.")
    else:
        st.caption("Tap a card to choose it, then confirm. ⤢ enlarges a card.")
    button = "Vote for these 2 cards" if k == 2 else ("Green vote for this card" if party else "Vote for this card")
    card_grid(cards, key=f"vote-{k}", pick=k, button=button, min_width=width, nonce=f"vote-{turn}-{k}",
              on_pick=lambda ids: act({"type": "vote", "positions": [_position_of(view, i) for i in ids]}))


def _red_vote(view, act, turn, width) -> None:
    st.success(f"Green vote cast: card {_positions(view['my_vote'])}.")
    st.error(f"{RED} **Red card (secret): anyone on it scores 0**, your own green vote included. "
             "Pick the card you think fits least.", icon="🛑")
    cards = [{"id": p["card"], "label": str(p["position"])} for p in view["table"]]
    card_grid(cards, key="red", pick=1, button="Place the red card", min_width=width, nonce=f"red-{turn}",
              on_pick=lambda ids: act({"type": "red_vote", "position": _position_of(view, ids[0])}))


def _waiting_detail(view, seat) -> None:
    phase = view["phase"]
    if phase == "end":
        won = (view["team"] in _winning_teams(view) if view["variant"] == "team"
               else view["scores"][seat] == max(view["scores"]))
        st.markdown(f"## {'🏆 You win!' if won else 'Game over'}  \nYou scored **{view['scores'][seat]}**.")
        st.caption(_winners_line(view))
        return
    if view.get("hand_hidden"):
        st.caption("Your hand stays hidden until your phrase is out.")
    if view.get("my_given"):
        st.caption("You gave:")
        card_grid([{"id": c} for c in view["my_given"]], key="given", min_width=HAND)
    elif phase in ("give", "vote") and view["variant"] == "team" and seat != view["storyteller"] \
            and view["teammate"] != view["storyteller"]:
        st.info(f"{_name(view, view['teammate'])} gave your team's card: you are your team's voter.")
    if view.get("story_card") and phase in ("give", "vote"):
        st.success("You told. Your card for the story:")
        card_grid([{"id": view["story_card"]}], key="story", min_width=HAND)
    if view.get("my_vote"):
        st.success(f"You voted for card {_positions(view['my_vote'])}.")
    if view.get("my_red_vote") is not None:
        st.error(f"{RED} Your red card: {view['my_red_vote']}.")
    if phase == "vote" and view["table"]:
        cards = [{"id": p["card"], "label": str(p["position"])} for p in view["table"]]
        card_grid(cards, key="table", min_width=_phone_width(len(cards)))
