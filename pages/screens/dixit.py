"""Dixit on the shared screen and on a player's phone. Only renders views; the rules are elsewhere."""

from __future__ import annotations

import streamlit as st

from pages import ui
from pages.cards import card_grid
from pages.decks import deck_choice
from pages.i18n import N_, _, n_
from pages.screens.dixit_family import (
    CLAIM,
    HAND,
    HINTS,
    PACE_NAMES,  # noqa: F401  (the start page's pace line)
    audience_line,  # noqa: F401  (the audience: pages/audience.py)
    name_of,
    phrase_label,
    show_phrase,
    turn_result,
    waiting_note,
    waiting_spot,
    wall_body,
    winners_line,
)

PITCH = N_("Dixit — tell a story with a picture (3–6 players)")


# Marked here, translated where shown: _(PHASE_TITLES[phase]).
PHASE_TITLES = {
    "claim": N_("Turn 1: who has a phrase?"),
    "tell": N_("The storyteller is choosing"),
    "give": N_("Everyone gives a card"),
    "vote": N_("Vote for the storyteller's card"),
    "end": N_("The game is over"),
    "lobby": N_("Waiting for players"),
}


def options() -> dict:
    """The host's choices on the start page (every option has a default in the engine)."""
    contando = st.toggle(
        _("Contando variant"),
        key="dixit-contando",  # a key: the same toggle in any language
        help=_("When exactly one player finds the storyteller's card, both score 4 instead of 3."),
    )
    return {"contando": contando, "deck": deck_choice("dixit")}


def _phase_line(view) -> str:
    """Plain text with the name raw: the callers escape the whole line."""
    phase = view["phase"]
    if phase == "tell":
        return _("{teller} is the storyteller: choosing a card and a phrase", teller=name_of(view, view["storyteller"]))
    if phase == "give":
        return _("{teller} told. Everyone else gives a card that fits", teller=name_of(view, view["storyteller"]))
    if phase == "vote":
        return _("Find the storyteller's card: vote on your phone")
    return _(PHASE_TITLES[phase]) if phase in PHASE_TITLES else phase


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
                _("Turn {turn}", turn=view["turn"]),
                n_("{n} card left in the draw pile", "{n} cards left in the draw pile", view["deck_left"]),
            )
        )
    )
    wall_body(view, HINTS.get(phase), turn_width=200)


def player(view, act) -> None:
    """A player's phone. `act(move)` submits a move and shows a refusal as a message."""
    seat, phase = view["you"], view["phase"]
    teller = view.get("storyteller")
    waiting = view["waiting_on_you"]
    if seat != teller or phase not in ("tell", "give", "vote"):
        st.markdown(f"<div class='sm-phase'>{ui.esc(_phase_line(view))}</div>", unsafe_allow_html=True)
    hand = [{"id": c} for c in view["hand"]]
    if phase == "claim":
        st.button(
            _(CLAIM),
            type="primary",
            use_container_width=True,
            key="claim-phrase",  # a key: any language
            on_click=act,
            args=({"type": "claim"},),
        )
        st.caption(_("The first to tap becomes the storyteller. Look at your cards:"))
        card_grid(hand, key="hand", min_width=HAND)
    elif phase == "tell" and seat == teller:
        st.success(_("You are the storyteller. Pick a card, then say your phrase aloud."))
        st.text_input(phrase_label(view), key="phrase", max_chars=140)
        card_grid(
            hand,
            key="tell",
            pick=1,
            min_width=HAND,
            button=_("Tell with this card"),
            nonce=f"tell-{view['turn']}",
            on_pick=lambda ids: act({"type": "tell", "card": ids[0], "phrase": st.session_state.get("phrase") or None}),
        )
    elif phase == "give" and waiting:
        show_phrase(view)
        k = view["gives_per_player"]
        card_grid(
            hand,
            key="give",
            pick=k,
            min_width=HAND,
            button=n_("Give this card", "Give these cards", k),
            nonce=f"give-{view['turn']}",
            on_pick=lambda ids: act({"type": "give", "cards": ids}),
        )
    elif phase == "vote" and waiting:
        show_phrase(view)
        own = set(view["my_positions"])
        cards = [
            {
                "id": p["card"],
                "label": str(p["position"]),
                "disabled": p["position"] in own,
                "badge": _("yours") if p["position"] in own else "",
            }
            for p in view["table"]
        ]
        card_grid(
            cards,
            key="vote",
            pick=1,
            button=_("Vote for this card"),
            min_width=110,
            nonce=f"vote-{view['turn']}",
            on_pick=lambda ids: act(
                {"type": "vote", "position": next(p["position"] for p in view["table"] if p["card"] == ids[0])}
            ),
        )
    else:
        _waiting_detail(view, seat, teller)
        if phase != "end":
            st.caption(_("Your hand"))
            card_grid(hand, key="hand", min_width=HAND)
    if view.get("last_turn") and phase != "vote":
        scored = view["last_turn"]["scores"].get(str(seat), 0)
        # n_: in English the number needs no noun, other languages may want "1 punto" / "3 punti".
        with st.expander(
            n_("Last turn: you scored {n}", "Last turn: you scored {n}", scored), key="last-turn"
        ):  # a key: it stays open or closed in any language, at any score
            turn_result(view, view["last_turn"], min_width=110)


def _waiting_detail(view, seat, teller) -> None:
    phase = view["phase"]
    if phase == "end":
        scores = view["scores"]
        place = 1 + sum(1 for s in scores if s > scores[seat])
        st.markdown("## " + ("🏆 " + _("You win!") if place == 1 else ui.esc(winners_line(view))))
        st.markdown(
            _(
                "You scored {points}: place {place} of {players}.",
                points=f"**{ui.points(scores[seat])}**",
                place=place,
                players=len(scores),
            )
        )
        return
    if view.get("my_given"):
        st.caption(_("You gave:"))
        card_grid([{"id": c} for c in view["my_given"]], key="given", min_width=110)
    if view.get("story_card") and phase in ("give", "vote"):
        st.success(_("You told. Your card for the story:"))
        card_grid([{"id": view["story_card"]}], key="story", min_width=110)
    if view.get("my_vote"):
        st.success(_("You voted for card {card}.", card=view["my_vote"][0]))
    if phase == "vote" and view["table"]:
        own = set(view.get("my_positions") or [])
        card_grid(
            [
                {"id": p["card"], "label": str(p["position"]), "badge": _("yours") if p["position"] in own else ""}
                for p in view["table"]
            ],
            key="table",
            min_width=110,
        )
    waiting_note(view)
