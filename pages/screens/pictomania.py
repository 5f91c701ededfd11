"""Pictomania on a player's phone (the pad, the guesses, I'm done) and the start page's part: everyone
draws at once, everyone guesses at once. The wall is the stage's (pages/stage/pictomania.py). Only
renders views and turns taps into moves; the rules are in the engine."""

from __future__ import annotations

import streamlit as st

from engine import tables
from pages import ui
from pages.i18n import N_, _, n_
from pages.screens import pictomania_sketch as sketch
from pages.screens.kit import waiting_note, waiting_spot
from pages.screens.pictomania_results import CSS, name, round_reveal, save_drawings, scoreboard, winners
from pages.screens.pictomania_sketch import sheets

PITCH = N_("Pictomania — everyone draws at once (3–6 players)")

_RULES = tables.games()["pictomania"].content.constants
DECKS, SCORING_TOKENS, BLACK_TOKENS = _RULES["decks"], _RULES["scoring_tokens"], _RULES["black_tokens"]
DECK_COLOURS = {"green": "#3F9E5A", "yellow": "#C99A06", "orange": "#E07B24", "red": "#C4473A"}
# The deck ids stay ids (the options, the word files); people read these names.
# The start page's pace line (pages/clock.py): one deadline for drawing and guessing together.
PACE_NAMES = {"words": N_("Read the words"), "draw": N_("Draw and guess")}
DECK_NAMES = {"green": N_("Green"), "yellow": N_("Yellow"), "orange": N_("Orange"), "red": N_("Red")}


def deck_name(deck: str) -> str:
    return _(DECK_NAMES[deck]) if deck in DECK_NAMES else deck.capitalize()


def options() -> dict:
    """The host's choices on the start page (the room language is chosen there already)."""
    # A key, so that switching the language (a new label) keeps the host's choice.
    competitive = st.toggle(
        _("Competitive variant"),
        key="pm-competitive",
        help=_("One black token fewer than players: the round ends as soon as the last one is taken."),
    )
    st.caption(_("Word deck for each round (green is the easiest, red the hardest)"))
    columns = st.columns(4)
    decks = [
        col.selectbox(_("Round {round}", round=i + 1), DECKS, index=i, key=f"pm-deck-{i}", format_func=deck_name)
        for i, col in enumerate(columns)
    ]
    return {"competitive": competitive, "decks": decks}


def rules_tables() -> str:
    """The token tables as markdown, from the engine's own data (data/rules/pictomania.md holds a copy;
    a test keeps them equal). Not translated: it is the English rules document's text, and each
    language's rules document carries its own copy."""
    rows = [
        "| Players | Scoring tokens (each drawing, handed out in this order) | Black tokens in the middle |",
        "|---|---|---|",
    ]
    for n in sorted(SCORING_TOKENS):
        rows.append(f"| {n} | {', '.join(map(str, SCORING_TOKENS[n]))} | {', '.join(map(str, BLACK_TOKENS[n]))} |")
    return "\n".join(rows)


# ---- small pieces ------------------------------------------------------------------------------


def _cards_html(cards: dict, deck: str, *, stack: bool = False, mine: tuple | None = None) -> str:
    colour = DECK_COLOURS.get(deck, "#6B5A4E")
    blocks = []
    for slot, card in cards.items():
        words = card["words"] if isinstance(card, dict) else card
        theme = card.get("theme", "") if isinstance(card, dict) else ""
        items = "".join(
            f"<li{' class=pm-mine' if mine == (slot, i) else ''}>{ui.esc(w)}</li>" for i, w in enumerate(words, 1)
        )
        head = f"{slot}" + (f" · {ui.esc(theme)}" if theme else "")
        blocks.append(f"<div class='pm-card' data-slot='{slot}'><h4>{head}</h4><ol>{items}</ol></div>")
    return f"<div class='pm-cards{' pm-stack' if stack else ''}' style='--deck:{colour}'>" + "".join(blocks) + "</div>"


def _status(view, seat) -> str:
    if seat in view.get("wrong_word", []):
        return "⚠️ " + _("drew the wrong word")
    done = view.get("finished", {})
    if str(seat) in done:
        token = done[str(seat)]
        return "✅ " + (_("done · took black {token}", token=token) if token is not None else _("done · no token"))
    if seat in view.get("frozen", []):
        return "🔒 " + _("guessing")
    return "✏️ " + _("drawing")


def _guessers(view, drawer) -> str:
    """Guess cards lie face down: who, in which order; never the number."""
    on = sorted((g for g in view.get("guesses", []) if g["drawer"] == drawer), key=lambda g: g["order"])
    return ", ".join(name(view, g["guesser"]) for g in on)


def _tile(view, seat, *, big: bool = False) -> dict:
    guessers = _guessers(view, seat)
    caption = [[name(view, seat), "title"], [_status(view, seat), "note"]]
    if guessers:
        caption.append(["🃏 " + guessers, "note"])
    return {
        "id": seat,
        "seat": seat,
        "strokes": view["drawings"].get(str(seat), []),
        "frozen": seat in view.get("frozen", []),
        "caption": caption,
    }


def _also_waiting(view) -> str:
    others = [s for s in view["waiting_for"] if s != view["you"]]
    return _("Also waiting for: {names}", names=ui.names_of(view, others)) if others else ""


def player(view, act) -> None:
    """A player's phone. `act(move)` submits a move and shows a refusal as a message."""
    st.html(CSS)
    seat, phase = view["you"], view["phase"]
    if phase == "end":
        champions, best = winners(view)
        won = view["scores"][seat] == best
        head = "🏆 " + _("You win!") if won else _("Game over")
        scored = _("You scored {score}.", score=f"**{view['scores'][seat]}**")
        who = n_("Winner: {names}.", "Winners: {names}.", len(champions), names=ui.esc(" & ".join(champions)))
        st.markdown(f"## {head}  \n{scored} {who}")
        scoreboard(view, big=False)
        if view.get("last_round"):
            with st.expander(_("The last round's answers"), key="pm-last-answers"):
                round_reveal(view, view["last_round"], big=False, tile=340)
        return
    if phase == "words":
        _words_phase(view, act)
    elif seat in view["participants"]:
        _draw_phase(view, act)
    else:
        st.info(_("You are not playing this round. Watch the shared screen."))
    last = view.get("last_round")
    if last and phase == "words":
        scored = f"{last['scores'].get(str(seat), 0):+d}"
        with st.expander(
            _("Round {round}: you scored {score}", round=last["round"], score=scored), key=f"pm-round-{last['round']}"
        ):
            round_reveal(view, last, big=False, tile=340)
            scoreboard(view, big=False)


def _round_key(view) -> str:
    return sketch.fingerprint(view.get("code"), view["round"], *(c["id"] for c in view["cards"].values()))


def _words_phase(view, act) -> None:
    seat = view["you"]
    line = _("Round {round} of {rounds}: read the 21 words", round=view["round"], rounds=view["rounds"])
    st.markdown(f"<div class='sm-phase'>{line}</div>", unsafe_allow_html=True)
    st.html(_cards_html(view["cards"], view["deck"]))
    replaced = view.get("replaced")
    if replaced and view["waiting_on_you"]:
        if replaced["seat"] == seat:
            text = _("You replaced card {slot}, so everyone reads it and taps Ready again.", slot=replaced["slot"])
        else:
            text = _(
                "{name} replaced card {slot}, so everyone reads it and taps Ready again.",
                name=ui.esc(ui.names_of(view, [replaced["seat"]])),
                slot=replaced["slot"],
            )
        st.info(text, icon="🔄")
    if view["waiting_on_you"]:
        st.button(
            _("I've read them: Ready"),
            type="primary",
            use_container_width=True,
            key="pm-ready",
            on_click=act,
            args=({"type": "ready"},),
        )
        st.html(f"<div class='sm-waiting'>{waiting_spot(view, _also_waiting)}</div>")
    else:
        st.success(_("You're ready."))
        waiting_note(view)
    if view.get("can_replace"):
        with st.expander(_("A word nobody knows? Replace a card"), key="pm-replace"):
            ready = len(view.get("ready") or [])
            again = (
                n_(
                    "Everyone then reads it and taps Ready again ({n} already tapped Ready).",
                    "Everyone then reads it and taps Ready again ({n} already tapped Ready).",
                    ready,
                )
                if ready
                else _("Everyone then reads it and taps Ready again.")
            )
            st.caption(
                _("The card goes away for the rest of the game and a new one from the same deck takes its place.")
                + " "
                + again
            )
            for slot, card in view["cards"].items():
                st.button(
                    _("Replace card {slot} ({theme})", slot=slot, theme=card["theme"]),
                    key=f"pm-replace-{slot}",
                    use_container_width=True,
                    on_click=act,
                    args=({"type": "replace", "slot": slot},),
                )


def _draw_phase(view, act) -> None:
    seat = view["you"]
    rkey = _round_key(view)
    done = str(seat) in view["finished"]
    frozen = seat in view["frozen"]
    left, right = st.columns([1.25, 1], gap="medium")
    with left:
        draw = _("Draw {code}: {word}", code=f"{view['letter']}{view['number']}", word=ui.esc(view["word"]))
        only = _("Only you see this. No letters, digits or arrows to a position: just a picture.")
        st.html(f"<div class='pm-secret' data-testid='pm-secret'>{draw}<small>{only}</small></div>")
        if frozen:
            sheets(
                [{"id": seat, "seat": seat, "strokes": view["drawings"].get(str(seat), []), "frozen": True}],
                key="pm-mine",
            )
            st.caption("🔒 " + _frozen_why(view, done))
        else:
            sketch.pad(view, act, key=f"pm-pad-{rkey}")
            st.caption(_("Your first guess freezes your drawing."))
    with right:
        mine = (view["letter"], view["number"])
        st.html(_cards_html(view["cards"], view["deck"], mine=mine))
        _others(view, act, rkey)
        _finish(view, act, done)


def _frozen_why(view, done: bool) -> str:
    """Whole sentences, one per reason: a reason alone would not fit every language's sentence."""
    if done:
        return _("Your drawing is frozen: you are done.")
    if view["you"] in view["wrong_word"]:
        return _("Your drawing is frozen: you admitted the wrong word.")
    return _("Your drawing is frozen: you have started guessing.")


def _others(view, act, rkey) -> None:
    """Everyone else's drawing, live, each with its guess control (one component for them all)."""
    seat = view["you"]
    mine = {g["drawer"]: g for g in view.get("my_guesses", [])}
    left = view.get("numbers_left") or []
    freeze = "" if seat in view["frozen"] else " " + _("Your own drawing freezes now.")
    tiles = []
    for drawer in (s for s in view["participants"] if s != seat):
        tile = _tile(view, drawer)
        who = name(view, drawer)
        if drawer in mine:
            tile["caption"].append([_("your guess: {number} (final)", number=mine[drawer]["number"]), "strong"])
        elif drawer in view.get("can_guess_on", []) and left:
            # The component puts the tapped number where "{n}" stands: n="{n}" hands it back verbatim.
            # TRANSLATORS: {n} is the number the player tapped, {name} the player who drew.
            confirm = _("Place {n} on {name}'s drawing — final", n="{n}", name=who)
            tile["guess"] = {
                "numbers": left,
                "label": _("Guess:"),
                "nonce": rkey,
                "confirm": confirm,
                "hint": _("A guess can't be taken back.") + freeze,
            }
        tiles.append(tile)
    if tiles:
        sheets(
            tiles,
            key=f"pm-others-{rkey}",
            cols=2,
            stack=True,
            font=".95rem",
            on_guess=lambda drawer, number: act({"type": "guess", "drawer": drawer, "number": number}),
        )


def _finish(view, act, done: bool) -> None:
    seat = view["you"]
    if done:
        token = view["finished"][str(seat)]
        you = (
            _("You're done with black token {token}.", token=token)
            if token is not None
            else _("You're done (no black token).")
        )
        st.success(you)
        waiting_note(view)
    else:
        supply = sorted(set(view.get("black_supply") or []), reverse=True)
        with st.popover("✋ " + _("I'm done"), type="primary", use_container_width=True, key="pm-done"):
            choice = st.selectbox(_("Black token"), [*supply, None], key="pm-token", format_func=_token_name)
            left = ", ".join(map(str, view.get("black_supply") or [])) or _("none")
            st.caption(
                _("After this you can no longer draw or guess this round.")
                + " "
                + _("Black tokens left: {tokens}", tokens=left)
            )
            label = (
                _("Finish and take black token {token}", token=choice)
                if choice is not None
                else _("Finish without a token")
            )
            st.button(
                label,
                type="primary",
                key="pm-finish",
                use_container_width=True,
                on_click=act,
                args=({"type": "finish", "token": choice},),
            )
    if seat not in view.get("wrong_word", []):
        with st.popover(_("I drew the wrong word"), use_container_width=True, key="pm-wrong-menu"):
            st.caption(
                _(
                    "Your drawing takes no more guesses and the guesses on it are returned. Your own scoring "
                    "tokens all count against you and your black token scores 0. Your own guesses still count."
                )
            )
            st.button(_("Yes, I drew the wrong word"), key="pm-wrong", on_click=act, args=({"type": "wrong_word"},))


def host_extra(view) -> None:
    """The host's own tools beside the controls over the stage: the last scored round's drawings to
    save (animated, and the contact sheet; the whole game's on the laptop)."""
    record = view.get("last_round")
    if record:
        save_drawings(view, record)


def _token_name(token) -> str:
    return _("Black token {token}", token=token) if token is not None else _("No black token")
