"""Dixit Odyssey (base, Party, Team) on the shared screen and on a player's phone. Only renders
views; the rules are in the engine. Built on the classic Dixit renderer's helpers."""

from __future__ import annotations

import streamlit as st

from pages import ui
from pages.cards import card_grid
from pages.decks import deck_choice
from pages.i18n import N_, _, n_
from pages.screens.dixit_family import (
    CLAIM,
    CSS,
    HAND,
    HINTS,
    PACE_NAMES,  # noqa: F401  (the start page's pace line)
    RED,
    TEAMS,
    audience_line,  # noqa: F401  (the audience: pages/audience.py)
    name_of,
    phrase_label,
    positions_text,
    team_label,
    team_of,
    turn_result,
    waiting_spot,
    wall_body,
    winners_line,
    winning_teams,
)

PITCH = N_("Dixit Odyssey — 3 to 12 players, with Party and Team variants")

# A variant's name is the radio's label and its text the caption under it: two messages, so no
# translation has to keep a separator the code splits on. Marked here, translated where shown.
VARIANT_NAMES = {"base": N_("Base"), "party": N_("Party"), "team": N_("Team")}
VARIANTS = {
    "base": N_("3 to 12 players, first to 30 points. With 7 or more, you may vote for one or two cards."),
    "party": N_("6 to 12: the phrase comes first, everyone votes, score with the crowd; dodge the red card."),
    "team": N_("6, 8, 10 or 12 in pairs sitting opposite: one of you gives your team's card, the other votes."),
}
MAX_LAPS = 5


def variant_name(variant: str) -> str:
    return _(VARIANT_NAMES[variant]) if variant in VARIANT_NAMES else variant.capitalize()


def options() -> dict:
    """The host's choices on the start page (every option has a default in the engine)."""
    variant = st.radio(
        _("Variant"),
        list(VARIANTS),
        key="odyssey-variant",
        format_func=variant_name,
        captions=[_(text) for text in VARIANTS.values()],
    )
    chosen = {"variant": variant}
    if variant != "base":
        chosen["laps"] = st.slider(_("Laps: how many times each player tells"), 1, MAX_LAPS, 1, key="odyssey-laps")
    chosen["deck"] = deck_choice("odyssey")
    return chosen


# ---- small pieces --------------------------------------------------------------------------------


def _phone_phrase(view) -> None:
    """The phrase on a phone: smaller than on the wall, so twelve cards fit below it."""
    if view.get("phrase"):
        st.html(CSS + f"<div class='od-phrase'>“{ui.esc(view['phrase'])}”</div>")


def _phone_width(count: int) -> int:
    """Phone: up to six cards three a row; seven to twelve four a row, so twelve fit in three rows."""
    return 110 if count <= 6 else 78


def _phase_line(view) -> str:
    """Plain text with the name raw: the callers escape the whole line."""
    phase, variant = view["phase"], view["variant"]
    teller = name_of(view, view.get("storyteller"))
    if phase == "claim":
        return _("Turn 1: whoever has a phrase first taps “{button}”", button=_(CLAIM))
    if phase == "tell":
        if variant == "party":
            return _("{teller} is the storyteller: thinking of a phrase, before looking at the cards", teller=teller)
        return _("{teller} is the storyteller: choosing a card and a phrase", teller=teller)
    if phase == "give":
        if variant == "party":
            return _("{teller} told. Everyone, {teller} included, gives a card that fits", teller=teller)
        if variant == "team":
            return _("{teller} told. Each team gives one card that fits", teller=teller)
        return _("{teller} told. Everyone else gives a card that fits", teller=teller)
    if phase == "vote":
        if variant == "party":
            return _("Green vote: pick the card most of you will pick")
        if view.get("double_votes"):
            return _("Find the storyteller's card: one or two votes each, on your phone")
        return _("Find the storyteller's card: vote on your phone")
    if phase == "end":
        return _("The game is over")
    return _("Waiting for players")


def _goal(view) -> str:
    if view["variant"] == "base":
        return _("first to 30 points wins")
    laps = (view.get("options") or {}).get("laps", 1)
    return n_("{n} lap: everyone tells once", "{n} laps: everyone tells {n} times", laps)


def _team_strip(view, big: bool) -> None:
    """Each team's colour, members and score."""
    if view["variant"] != "team":
        return
    members = {}
    for seat, team in view["teams"].items():
        members.setdefault(team, []).append(int(seat))
    chips = []
    for team, seats in sorted(members.items()):
        colour = TEAMS[team % len(TEAMS)][2]
        who = " & ".join(ui.esc(name_of(view, s)) for s in seats)
        chips.append(
            f"<span class='od-chip' style='--team:{colour}'>{team_label(team)}: {who}"
            f"<span class='od-pts'>{view['team_scores'].get(str(team), 0)}</span></span>"
        )
    st.html(CSS + f"<div class='{'od-big' if big else ''}'><div class='od-strip'>{''.join(chips)}</div></div>")


# ---- the revealed turn ---------------------------------------------------------------------------


# ---- the shared screen ---------------------------------------------------------------------------


# Party and Team hints: marked in the stage module (no Streamlit there), translated where shown.
from pages.stage.dixit_family import PARTY_HINTS, TEAM_HINTS  # noqa: E402


def table(view) -> None:
    phase = view["phase"]
    st.html(
        f"<div class='sm-big'><div class='sm-phase'>{ui.esc(_phase_line(view))}</div>"
        f"<div class='sm-waiting'>{waiting_spot(view)}</div></div>"
    )
    # n_: other languages need their plural forms; the English stays as it was, one form for every count.
    st.caption(
        " · ".join(
            (
                "Dixit Odyssey",
                variant_name(view["variant"]),
                _goal(view),
                _("turn {turn}", turn=view["turn"]),
                n_("{n} card in the draw pile", "{n} cards in the draw pile", view["deck_left"]),
            )
        )
    )
    _team_strip(view, big=True)
    hint = {"party": PARTY_HINTS, "team": TEAM_HINTS}.get(view["variant"], {}).get(phase) or HINTS.get(phase)
    wall_body(view, hint, turn_width=170)


# ---- a player's phone ----------------------------------------------------------------------------


def player(view, act) -> None:
    """A player's phone. `act(move)` submits a move and shows a refusal as a message."""
    seat, phase = view["you"], view["phase"]
    variant, teller, turn = view["variant"], view.get("storyteller"), view["turn"]
    st.markdown(f"<div class='sm-phase'>{ui.esc(_phase_line(view))}</div>", unsafe_allow_html=True)
    if variant == "team":
        emoji, team_name, colour = team_of(view, seat)
        team_line = _(
            "You are team {team} with {teammate} · team score {score}",
            team=f"<b style='color:{colour}'>{_(team_name)}</b>",
            teammate=f"<b>{ui.esc(name_of(view, view['teammate']))}</b>",
            score=view["team_scores"].get(str(view["team"]), 0),
        )
        st.html(CSS + f"<div class='od-team'>{emoji} {team_line}</div>")
    # Whom the table waits for, once you are not one of them (as in Dixit): a phone still choosing
    # then need not redraw at every other player's move.
    if not view["waiting_on_you"]:
        st.html(f"<div class='sm-waiting'>{waiting_spot(view)}</div>")
    waiting = view["waiting_on_you"]
    hand = [{"id": c} for c in view["hand"]]
    if phase == "claim":
        st.button(
            _(CLAIM),
            type="primary",
            width="stretch",
            key="claim-phrase",  # a key: any language
            on_click=act,
            args=({"type": "claim"},),
        )
        if view.get("hand_hidden"):
            st.caption(_("Party: the phrase comes first. You see your cards once someone has told."))
        else:
            st.caption(_("The first to tap becomes the storyteller. Look at your cards:"))
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
            st.caption(_("Your hand"))
            card_grid(hand, key="hand", min_width=HAND)
    if view.get("last_turn") and phase != "vote":
        scored = view["last_turn"]["scores"].get(str(seat), 0)
        # n_: in English the number needs no noun, other languages may want "1 punto" / "3 punti".
        with st.expander(
            n_("Last turn: you scored {n}", "Last turn: you scored {n}", scored), key="last-turn"
        ):  # a key: it stays open or closed in any language, at any score
            turn_result(view, view["last_turn"], min_width=110)


def _tell(view, act, hand, turn) -> None:
    key = f"phrase-{turn}"
    if view["variant"] == "party":
        st.success(
            _(
                "You are the storyteller. Say a phrase aloud now, before you see your cards: "
                "everyone, you included, then gives a card that fits it."
            )
        )
        with st.form(f"tell-{turn}"):
            st.text_input(phrase_label(view), key=key, max_chars=140)
            st.form_submit_button(
                _("I've said my phrase"),
                type="primary",
                width="stretch",
                key="said-phrase",
                on_click=lambda: act({"type": "tell", "phrase": st.session_state.get(key) or None}),
            )
        return
    st.success(_("You are the storyteller. Pick a card, then say your phrase aloud."))
    st.text_input(phrase_label(view), key=key, max_chars=140)
    card_grid(
        hand,
        key="tell",
        pick=1,
        min_width=HAND,
        button=_("Tell with this card"),
        nonce=f"tell-{turn}",
        on_pick=lambda ids: act({"type": "tell", "card": ids[0], "phrase": st.session_state.get(key) or None}),
    )


def _give(view, act, hand, turn) -> None:
    seat, variant = view["you"], view["variant"]
    _phone_phrase(view)
    if variant == "party" and seat == view["storyteller"]:
        st.info(_("Your phrase is out. Now give a card from your new hand that fits it, like everyone else."))
    elif variant == "team" and view["teammate"] == view["storyteller"]:
        st.info(_("Your teammate told: you give a card that fits too. Nobody on your team votes this turn."))
    elif variant == "team":
        st.info(
            _(
                "One of you gives your team's card: the first to give gives; the other one votes. "
                "Your teammate is {teammate}.",
                teammate=ui.esc(name_of(view, view["teammate"])),
            )
        )
    k = view["gives_per_player"]
    card_grid(
        hand,
        key="give",
        pick=k,
        min_width=HAND,
        button=n_("Give this card", "Give these cards", k),
        nonce=f"give-{turn}",
        on_pick=lambda ids: act({"type": "give", "cards": ids}),
    )


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
    cards = [
        {
            "id": p["card"],
            "label": str(p["position"]),
            "disabled": p["position"] in own and not party,
            "badge": _("yours") if p["position"] in own else "",
        }
        for p in view["table"]
    ]
    k = 1
    if party:
        st.caption(
            _(
                "Green vote: you score as many points as players who pick the same card (max 5; "
                "alone, 0). Your own card is allowed. ⤢ enlarges a card."
            )
        )
    elif view.get("double_votes"):
        choice = st.segmented_control(
            _("How many votes?"),
            [1, 2],
            default=1,
            key=f"votes-{turn}",
            format_func=lambda n: n_("{n} vote", "{n} votes", n),
        )
        k = choice or 1
        st.caption(
            _("A single correct vote earns +1. Two votes double your chance, without that bonus. ⤢ enlarges a card.")
        )
    elif variant == "team":
        st.caption(
            _("You vote for your team. Your teammate's card is among them: you don't know which. ⤢ enlarges a card.")
        )
    else:
        st.caption(_("Tap a card to choose it, then confirm. ⤢ enlarges a card."))
    button = (
        _("Vote for these 2 cards") if k == 2 else (_("Green vote for this card") if party else _("Vote for this card"))
    )
    card_grid(
        cards,
        key=f"vote-{k}",
        pick=k,
        button=button,
        min_width=width,
        nonce=f"vote-{turn}-{k}",
        on_pick=lambda ids: act({"type": "vote", "positions": [_position_of(view, i) for i in ids]}),
    )


def _red_vote(view, act, turn, width) -> None:
    st.success(_("Green vote cast: card {card}.", card=positions_text(view["my_vote"])))
    st.error(
        f"{RED} "
        + _(
            "**Red card (secret): anyone on it scores 0**, your own green vote included. "
            "Pick the card you think fits least."
        ),
        icon="🛑",
    )
    cards = [{"id": p["card"], "label": str(p["position"])} for p in view["table"]]
    card_grid(
        cards,
        key="red",
        pick=1,
        button=_("Place the red card"),
        min_width=width,
        nonce=f"red-{turn}",
        on_pick=lambda ids: act({"type": "red_vote", "position": _position_of(view, ids[0])}),
    )


def _waiting_detail(view, seat) -> None:
    phase = view["phase"]
    if phase == "end":
        won = (
            view["team"] in winning_teams(view)
            if view["variant"] == "team"
            else view["scores"][seat] == max(view["scores"])
        )
        head = "🏆 " + _("You win!") if won else _("Game over")
        st.markdown(f"## {head}  \n" + _("You scored {score}.", score=f"**{view['scores'][seat]}**"))
        st.caption(ui.esc(winners_line(view)))
        return
    if view.get("hand_hidden"):
        st.caption(_("Your hand stays hidden until your phrase is out."))
    if view.get("my_given"):
        st.caption(_("You gave:"))
        card_grid([{"id": c} for c in view["my_given"]], key="given", min_width=HAND)
    elif (
        phase in ("give", "vote")
        and view["variant"] == "team"
        and seat != view["storyteller"]
        and view["teammate"] != view["storyteller"]
    ):
        st.info(
            _(
                "{teammate} gave your team's card: you are your team's voter.",
                teammate=ui.esc(name_of(view, view["teammate"])),
            )
        )
    if view.get("story_card") and phase in ("give", "vote"):
        st.success(_("You told. Your card for the story:"))
        card_grid([{"id": view["story_card"]}], key="story", min_width=HAND)
    if view.get("my_vote"):
        # n_: one or two cards; the English stays as it was, one form for both.
        st.success(
            n_(
                "You voted for card {cards}.",
                "You voted for cards {cards}.",
                len(view["my_vote"]),
                cards=positions_text(view["my_vote"]),
            )
        )
    if view.get("my_red_vote") is not None:
        st.error(f"{RED} " + _("Your red card: {card}.", card=view["my_red_vote"]))
    if phase == "vote" and view["table"]:
        own = set(view.get("my_positions") or [])
        cards = [
            {"id": p["card"], "label": str(p["position"]), "badge": _("yours") if p["position"] in own else ""}
            for p in view["table"]
        ]
        card_grid(cards, key="table", min_width=_phone_width(len(cards)))
