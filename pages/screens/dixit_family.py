"""What the Dixit family's screens (Dixit and Dixit Odyssey) share beyond the kit: the phrase, the
revealed turn (whose card was where, who voted what, the red vote and team colours, the points
popping in), and the kit's scoreboard and winners with Odyssey's teams."""

from __future__ import annotations

import streamlit as st

from pages import push, ui
from pages.cards import card_grid
from pages.i18n import N_, _, n_
from pages.screens import kit
from pages.screens.kit import name_of, waiting_note, waiting_spot  # noqa: F401  (the family's screens take them from here)

HAND = 105  # three cards a row on a 390 px phone: the whole hand fits on one screen


def wall_card_width(count: int) -> int:
    """Shared screen (its main column is about 1,300 px at 1920×1080): up to eight cards in one row,
    nine to twelve in two rows of six; fewer cards, larger."""
    if count <= 5:
        return 250
    if count <= 8:
        return max(140, 1300 // count - 12)
    return 200


def phrase_label(view) -> str:
    """The storyteller's phrase box: optional, unless a computer player is at the table (it reads
    the phrase, since it cannot hear it; the table service refuses a tell without one)."""
    if view.get("bots"):
        return _("Your phrase (required: the computer players read it, since they cannot hear you)")
    return _("Your phrase (optional: it shows on the shared screen)")


def show_phrase(view) -> None:
    if view.get("phrase"):
        st.markdown(f"<div class='sm-phrase'>“{ui.esc(view['phrase'])}”</div>", unsafe_allow_html=True)


# Team colours: an emoji for text drawn by the card component (textContent), a colour for HTML.
# The names are marked here and translated where shown: _(name).

TEAMS = [
    ("🔵", N_("Blue"), "#3B6FB6"),
    ("🟠", N_("Orange"), "#D9822B"),
    ("🟢", N_("Green"), "#3F9E5A"),
    ("🟣", N_("Purple"), "#7E57C2"),
    ("🟡", N_("Yellow"), "#C9A41A"),
    ("🟤", N_("Brown"), "#8B5A2B"),
]

RED = "🟥"

# The start page's pace line (pages/clock.py): each timed phase in play order, in the game's words.
PACE_NAMES = {"tell": N_("Tell"), "give": N_("Give a card"), "vote": N_("Vote")}

CLAIM = N_("I have a phrase!")  # the claim button's label, which the wall's hint quotes

# What the room does now, on the wall while it has no cards to show (shown through `hint_html`).
from pages.stage.dixit_family import HINTS  # noqa: E402, F401  (marked there, with no Streamlit; dixit.py and odyssey.py read it here)


def hint_html(hint: str, view) -> str:
    """A hint in the reader's language, with the storyteller's name (escaped: it goes into HTML)
    and the claim button's own label filled in."""
    return _(hint, teller=ui.esc(name_of(view, view.get("storyteller"))), button=f"<b>{_(CLAIM)}</b>")


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
    background: #B03A2E; color: #fff; font-weight: 800; }
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


def team_of(view, seat):
    """(emoji, name, colour) of a seat's team, or None outside the Team variant."""
    teams = view.get("teams")
    if not teams or str(seat) not in teams:
        return None
    return TEAMS[teams[str(seat)] % len(TEAMS)]


def who_of(view, seat) -> str:
    """A name for text drawn by the card component: with the team's emoji in the Team variant."""
    team = team_of(view, seat)
    return f"{team[0]} {name_of(view, seat)}" if team else name_of(view, seat)


def colour_of(view, seat) -> str:
    team = team_of(view, seat)
    return team[2] if team else "#C9BBAE"


def positions_text(picks) -> str:
    return " & ".join(str(p) for p in picks)


def turn_result(view, turn, min_width=170, big=False) -> None:
    """A finished turn, fully revealed: whose card was where, who voted what (the red vote too),
    who scored what. The storyteller's card glows and the points pop in."""
    voters_of = {}
    for voter, picks in turn["votes"].items():
        for p in picks:
            voters_of.setdefault(p, []).append(name_of(view, int(voter)))
    teller, red = turn["storyteller"], turn.get("red_vote")
    story = next((p["position"] for p in turn["table"] if p["owner"] == teller), None)
    party = view.get("variant", "base") == "party"
    cards = []
    for p in turn["table"]:
        who = who_of(view, p["owner"])
        if p["owner"] == teller and not party:
            # TRANSLATORS: a card's badge on the revealed table: whose card it is
            who = _("storyteller {name}", name=who)  # the card component sets it as text: no escaping
        votes = voters_of.get(p["position"], [])
        label = str(p["position"])
        if p["position"] == red:
            # TRANSLATORS: a card's label: its number on the table, then the red card's emoji
            label = _("{position} {red} red", position=p["position"], red=RED)
        cards.append(
            {
                "id": p["card"],
                "label": label,
                "glow": p["position"] == story and not party,
                "badge": who + (" · ← " + ", ".join(votes) if votes else ""),
            }
        )
    found = story if story is not None and not party else None
    st.html(
        CSS + f"<div class='{'od-big' if big else ''}'><div class='od-reveal'>"
        f"{_told_line(turn, ui.esc(name_of(view, teller)), found)}</div></div>"
    )
    if red is not None:
        owner = next((p["owner"] for p in turn["table"] if p["position"] == red), None)
        st.html(
            CSS + f"<div class='od-redline'>{RED} "
            f"{_red_line(red, ui.esc(name_of(view, owner)), voters_of.get(red, []))}</div>"
        )
    card_grid(cards, key=f"result-{turn['turn']}", min_width=min_width)
    _points_chips(view, turn, big)


def _told_line(turn, teller: str, story) -> str:
    """ "Turn 3: Ana told: “phrase” — the storyteller's card was 5", one whole sentence per case
    (a phrase or not, the card shown or not). `teller` comes escaped; the phrase is escaped here."""
    params = {
        "turn": turn["turn"],
        "teller": teller,
        "phrase": ui.esc(turn.get("phrase") or ""),
        "card": f"<span class='od-story'>{story}</span>",
    }
    if turn.get("phrase") and story is not None:
        return _("Turn {turn}: {teller} told: “{phrase}” — the storyteller's card was {card}", **params)
    if turn.get("phrase"):
        return _("Turn {turn}: {teller} told: “{phrase}”", **params)
    if story is not None:
        return _("Turn {turn}: {teller} told — the storyteller's card was {card}", **params)
    return _("Turn {turn}: {teller} told", **params)


def _red_line(red, owner: str, on_red: list) -> str:
    """Whose the red card was and who it caught (`owner` comes escaped; the voters are escaped here)."""
    if not on_red:
        return _("Red card: {position} ({owner}'s): nobody voted it", position=red, owner=owner)
    # The number of players caught decides the verb's form in other languages (English: "score" in both).
    return n_(
        "Red card: {position} ({owner}'s): {voters} scores 0",
        "Red card: {position} ({owner}'s): {voters} score 0",
        len(on_red),
        position=red,
        owner=owner,
        voters=ui.esc(", ".join(on_red)),
    )


def _did(view, turn, seat: str, name: str) -> str:
    """What a seat did this turn, as a chip's text: `name` comes escaped and in bold."""
    picks = turn["votes"].get(seat)
    if int(seat) == turn["storyteller"] and view.get("variant", "base") != "party":
        return _("{name} told", name=name)
    if picks:
        return f"{name} → {positions_text(picks)}"  # no words to translate
    owners = {str(p.get("owner")) for p in turn.get("table", [])}
    return _("{name} gave", name=name) if str(seat) in owners else _("{name} sat out", name=name)


def _points_chips(view, turn, big) -> None:
    """Who voted what and what each earned, best first (in Team: what each team earned)."""
    if view.get("variant", "base") == "team" and turn.get("team_scores"):
        _team_points_chips(view, turn, big)
        return
    red, chips = turn.get("red_vote"), []
    order = sorted(turn["scores"], key=lambda s: (-turn["scores"][s], int(s)))
    for i, seat in enumerate(order):
        s, points = int(seat), turn["scores"][seat]
        picks = turn["votes"].get(seat)
        what = _did(view, turn, seat, f"<b>{ui.esc(name_of(view, s))}</b>")
        classes = "od-chip" + (" od-zero" if not points else "") + (" od-red" if picks and red in picks else "")
        chips.append(
            f"<span class='{classes}' style='--team:{colour_of(view, s)}'>"
            f"{what}<span class='od-pts od-pop' style='animation-delay:{0.15 + 0.06 * i:.2f}s'>"
            f"+{points}</span></span>"
        )
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
        did = " · ".join(
            _did(view, turn, s, f"<b>{ui.esc(name_of(view, int(s)))}</b>") for s in members[team] if s in turn["scores"]
        )
        chips.append(
            f"<span class='od-chip{' od-zero' if not points else ''}' style='--team:{colour}'>{emoji} {did}"
            f"<span class='od-pts od-pop' style='animation-delay:{0.15 + 0.08 * i:.2f}s'>+{points}</span></span>"
        )
    st.html(CSS + f"<div class='{'od-big' if big else ''}'><div class='od-strip'>{''.join(chips)}</div></div>")


def winning_teams(view) -> list[int]:
    scores = {int(t): p for t, p in view["team_scores"].items()}
    best = max(scores.values(), default=0)
    return [t for t, p in scores.items() if p == best]


def team_label(team: int) -> str:
    """A team's emoji and name, in the reader's language: "🔵 Blue"."""
    emoji, name, _colour = TEAMS[team % len(TEAMS)]
    return f"{emoji} {_(name)}"


def scoreboard(view) -> None:
    """The kit's score table, each name marked with its team's colour in the Team variant."""
    team = view.get("variant", "base") == "team"
    kit.scoreboard(view, (lambda s: f"{team_of(view, s)[0]} ") if team else None)


def winners_line(view) -> str:
    """Plain text with the names raw: every caller escapes the whole line."""
    if view.get("variant", "base") == "team":
        won = winning_teams(view)
        best = view["team_scores"].get(str(won[0]), 0) if won else 0
        teams = " & ".join(team_label(t) for t in won)
        return "🏆 " + n_(
            "Team {teams} wins with {points}",
            "Team {teams} win with {points}",
            len(won),
            teams=teams,
            points=ui.points(best),
        )
    return kit.winners_line(view)


# How far the room is with what it does now, on the wall: a live spot (Live.fields names them).
COUNTS = {"give": N_("Cards given: {n} of {total}"), "vote": N_("Votes cast: {n} of {total}")}


def _count(view) -> str:
    phase = view["phase"]
    if phase not in COUNTS:
        return ""
    done = view["given"] if phase == "give" else view["voted"]
    return ui.esc(_(COUNTS[phase], n=len(done), total=len(done) + len(view["waiting_for"])))


def wall_body(view, hint: str | None, turn_width: int) -> None:
    """The family's wall under its top: the phrase, what the room does now (`hint`), the cards to
    vote on or who won, the last turn revealed, and the scoreboard."""
    phase = view["phase"]
    if phase in ("give", "vote"):
        show_phrase(view)
    if hint:
        st.html(f"<div class='sm-hint'>{hint_html(hint, view)}</div>")
    if phase in COUNTS:
        st.html(f"<div class='sm-big'><div class='sm-waiting'>{push.spot(view, 'count', _count)}</div></div>")
    if phase == "vote":
        cards = [{"id": p["card"], "label": str(p["position"])} for p in view["table"]]
        card_grid(cards, key="table", min_width=wall_card_width(len(cards)))
    elif phase == "end":
        ended = _("The host ended the game.") + " " if view.get("ended_by_host") else ""
        st.markdown(f"## {ended}{ui.esc(winners_line(view))}")
    if view.get("last_turn") and phase != "vote":
        turn_result(view, view["last_turn"], min_width=turn_width, big=True)
    scoreboard(view)


# ---- the audience (pages/audience.py) -----------------------------------------------------------


def audience_line(counts: dict, view) -> str:
    """ "card 2: 5 · card 4: 3": how many members picked each card (plain text)."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], int(kv[0])))
    return " · ".join(_("card {card}: {count}", card=card, count=count) for card, count in ranked)
