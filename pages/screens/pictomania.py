"""Pictomania on the shared screen and on a player's phone: everyone draws at once, everyone
guesses at once. Only renders views and turns taps into moves; the rules are in the engine."""
from __future__ import annotations

import streamlit as st

from engine import tables
from pages import ui
from pages.screens import sketch
from pages.screens.pictomania_results import CSS, columns, name, round_reveal, scoreboard, winners
from pages.screens.sketch import sheets

PITCH = "Pictomania — everyone draws at once (3–6 players)"

_RULES = tables.games()["pictomania"].constants
DECKS, SCORING_TOKENS, BLACK_TOKENS = _RULES["decks"], _RULES["scoring_tokens"], _RULES["black_tokens"]
DECK_COLOURS = {"green": "#3F9E5A", "yellow": "#C99A06", "orange": "#E07B24", "red": "#C4473A"}



def options() -> dict:
    """The host's choices on the start page (the room language is chosen there already)."""
    competitive = st.toggle(
        "Competitive variant",
        help="One black token fewer than players: the round ends as soon as the last one is taken.")
    st.caption("Word deck for each round (green is the easiest, red the hardest)")
    columns = st.columns(4)
    decks = [col.selectbox(f"Round {i + 1}", DECKS, index=i, key=f"pm-deck-{i}", format_func=str.capitalize)
             for i, col in enumerate(columns)]
    return {"competitive": competitive, "decks": decks}


def rules_tables() -> str:
    """The token tables as markdown, from the engine's own data (data/rules/pictomania.md holds a copy;
    a test keeps them equal)."""
    rows = ["| Players | Scoring tokens (each drawing, handed out in this order) | Black tokens in the middle |",
            "|---|---|---|"]
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
            f"<li{' class=pm-mine' if mine == (slot, i) else ''}>{ui.esc(w)}</li>" for i, w in enumerate(words, 1))
        head = f"{slot}" + (f" · {ui.esc(theme)}" if theme else "")
        blocks.append(f"<div class='pm-card' data-slot='{slot}'><h4>{head}</h4><ol>{items}</ol></div>")
    return (f"<div class='pm-cards{' pm-stack' if stack else ''}' style='--deck:{colour}'>"
            + "".join(blocks) + "</div>")


def _blacks(view) -> str:
    supply = list(view.get("black_supply") or [])
    taken = [t for t in (view.get("finished") or {}).values() if t is not None]
    chips = [f"<span class='pm-black'>{t}</span>" for t in supply]
    chips += [f"<span class='pm-black pm-gone'>{t}</span>" for t in sorted(taken, reverse=True)]
    return "".join(chips) or "<span class='pm-note'>none left</span>"


def _status(view, seat) -> str:
    if seat in view.get("wrong_word", []):
        return "⚠️ drew the wrong word"
    done = view.get("finished", {})
    if str(seat) in done:
        token = done[str(seat)]
        return "✅ done" + (f" · took black {token}" if token is not None else " · no token")
    if seat in view.get("frozen", []):
        return "🔒 guessing"
    return "✏️ drawing"


def _guessers(view, drawer) -> str:
    """Guess cards lie face down: who, in which order; never the number."""
    on = sorted((g for g in view.get("guesses", []) if g["drawer"] == drawer), key=lambda g: g["order"])
    return ", ".join(name(view, g["guesser"]) for g in on)


def _tile(view, seat, *, big: bool = False) -> dict:
    guessers = _guessers(view, seat)
    caption = [[name(view, seat), "title"], [_status(view, seat), "note"]]
    if guessers:
        caption.append(["🃏 " + guessers, "note"])
    return {"id": seat, "seat": seat, "strokes": view["drawings"].get(str(seat), []),
            "frozen": seat in view.get("frozen", []), "caption": caption}




# ---- the shared screen -------------------------------------------------------------------------

def _phase_line(view) -> str:
    phase, rnd = view["phase"], view["round"]
    if phase == "words":
        return f"Round {rnd} of {view['rounds']} · read the 21 words, then tap Ready"
    if phase == "draw":
        return f"Round {rnd} of {view['rounds']} · everyone draws, everyone guesses"
    if phase == "end":
        return "The game is over"
    return "Waiting for players"


def table(view) -> None:
    st.html(CSS)
    phase = view["phase"]
    waiting = view.get("waiting_for") or []
    line = ("Waiting for: " + ui.names_of(view, waiting)) if waiting and phase in ("words", "draw") else ""
    st.html(f"<div class='sm-big'><div class='sm-phase'>{ui.esc(_phase_line(view))}</div>"
            f"<div class='sm-waiting'>{ui.esc(line)}</div></div>")
    if phase == "end":
        champions, best = winners(view)
        title = "The game was ended by the host. " if view.get("ended_by_host") else ""
        st.markdown(f"## 🏆 {title}{ui.esc(' & '.join(champions))} win{'s' if len(champions) == 1 else ''} "
                    f"with {ui.points(best)}")
        scoreboard(view, big=True)
        if view.get("last_round"):
            round_reveal(view, view["last_round"], big=True, tile=300, cols=len(view["last_round"]["assignments"]))
        return
    if phase == "words":
        if view.get("last_round"):
            words, results = st.columns([1, 1.9], gap="large")
            with words:
                st.html(f"<div class='sm-big'><div class='sm-phase'>Round {view['round']}: new words</div></div>")
                st.html("<div class='pm-big'>" + _cards_html(view["cards"], view["deck"], stack=True) + "</div>")
            with results:
                round_reveal(view, view["last_round"], big=True, tile=260)
        else:
            st.html("<div class='pm-big'>" + _cards_html(view["cards"], view["deck"]) + "</div>")
            st.html("<div class='pm-big'><div class='pm-note'>Don't know a word? Anyone can replace a card "
                    "from their phone before everyone is ready.</div></div>")
        return
    # draw
    words, drawings = st.columns([1, 3.3], gap="large")
    with words:
        st.html("<div class='pm-big'>" + _cards_html(view["cards"], view["deck"], stack=True) + "</div>")
    with drawings:
        seats = view["participants"]
        sheets([_tile(view, s) for s in seats], key="pm-table", cols=columns(len(seats)),
               tile_px=480 if len(seats) == 4 else 400, font="1rem")
        tokens = ", ".join(map(str, view.get("scoring_tokens") or []))
        rule = ("Competitive: the round ends when the last black token is taken."
                if view["options"].get("competitive") else "The round ends when everyone is done.")
        st.html(f"<div class='pm-big'><div class='pm-note'>Black tokens: {_blacks(view)} &nbsp;·&nbsp; "
                f"each drawing pays its right guessers {tokens}, in order &nbsp;·&nbsp; {rule}</div></div>")


# ---- a player's phone --------------------------------------------------------------------------

def player(view, act) -> None:
    """A player's phone. `act(move)` submits a move and shows a refusal as a message."""
    st.html(CSS)
    seat, phase = view["you"], view["phase"]
    if phase == "end":
        champions, best = winners(view)
        won = view["scores"][seat] == best
        st.markdown(f"## {'🏆 You win!' if won else 'Game over'}  \nYou scored **{view['scores'][seat]}**. "
                    f"Winner{'s' if len(champions) > 1 else ''}: {ui.esc(' & '.join(champions))}.")
        scoreboard(view, big=False)
        if view.get("last_round"):
            with st.expander("The last round's answers"):
                round_reveal(view, view["last_round"], big=False, tile=340)
        return
    if phase == "words":
        _words_phase(view, act)
    elif seat in view["participants"]:
        _draw_phase(view, act)
    else:
        st.info("You are not playing this round. Watch the shared screen.")
    last = view.get("last_round")
    if last and phase == "words":
        with st.expander(f"Round {last['round']}: you scored {last['scores'].get(str(seat), 0):+d}"):
            round_reveal(view, last, big=False, tile=340)
            scoreboard(view, big=False)


def _round_key(view) -> str:
    return sketch.fingerprint(view.get("code"), view["round"], *(c["id"] for c in view["cards"].values()))


def _words_phase(view, act) -> None:
    seat = view["you"]
    st.markdown(f"<div class='sm-phase'>Round {view['round']} of {view['rounds']}: read the 21 words</div>",
                unsafe_allow_html=True)
    st.html(_cards_html(view["cards"], view["deck"]))
    replaced = view.get("replaced")
    if replaced and seat in view.get("waiting_for", []):
        who = "You" if replaced["seat"] == seat else ui.esc(ui.names_of(view, [replaced["seat"]]))
        st.info(f"{who} replaced card {replaced['slot']}, so everyone reads it and taps Ready again.", icon="🔄")
    if seat in view.get("waiting_for", []):
        st.button("I've read them: Ready", type="primary", use_container_width=True, key="pm-ready",
                  on_click=act, args=({"type": "ready"},))
        others = [s for s in view.get("waiting_for", []) if s != seat]
        if others:
            st.caption("Also waiting for: " + ui.esc(ui.names_of(view, others)))
    else:
        waiting = view.get("waiting_for") or []
        st.success("You're ready." + (f" Waiting for: {ui.esc(ui.names_of(view, waiting))}" if waiting else ""))
    if view.get("can_replace"):
        with st.expander("A word nobody knows? Replace a card"):
            ready = len(view.get("ready") or [])
            st.caption("The card goes away for the rest of the game and a new one from the same deck takes its "
                       "place. Everyone then reads it and taps Ready again"
                       + (f" ({ready} already tapped Ready)." if ready else "."))
            for slot, card in view["cards"].items():
                st.button(f"Replace card {slot} ({card['theme']})", key=f"pm-replace-{slot}",
                          use_container_width=True, on_click=act, args=({"type": "replace", "slot": slot},))


def _draw_phase(view, act) -> None:
    seat = view["you"]
    rkey = _round_key(view)
    done = str(seat) in view["finished"]
    frozen = seat in view["frozen"]
    left, right = st.columns([1.25, 1], gap="medium")
    with left:
        st.html(f"<div class='pm-secret' data-testid='pm-secret'>Draw {view['letter']}{view['number']}: "
                f"{ui.esc(view['word'])}<small>Only you see this. No letters, digits or arrows to a "
                f"position: just a picture.</small></div>")
        if frozen:
            why = ("you are done" if done else "you admitted the wrong word" if seat in view["wrong_word"]
                   else "you have started guessing")
            sheets([{"id": seat, "seat": seat, "strokes": view["drawings"].get(str(seat), []), "frozen": True}],
                   key="pm-mine")
            st.caption(f"🔒 Your drawing is frozen: {why}.")
        else:
            sketch.pad(view, act, key=f"pm-pad-{rkey}")
            st.caption("Your first guess freezes your drawing.")
    with right:
        mine = (view["letter"], view["number"])
        st.html(_cards_html(view["cards"], view["deck"], mine=mine))
        _others(view, act, rkey)
        _finish(view, act, done)


def _others(view, act, rkey) -> None:
    """Everyone else's drawing, live, each with its guess control (one component for them all)."""
    seat = view["you"]
    mine = {g["drawer"]: g for g in view.get("my_guesses", [])}
    left = view.get("numbers_left") or []
    freeze = "" if seat in view["frozen"] else " Your own drawing freezes now."
    tiles = []
    for drawer in (s for s in view["participants"] if s != seat):
        tile = _tile(view, drawer)
        who = name(view, drawer)
        if drawer in mine:
            tile["caption"].append([f"your guess: {mine[drawer]['number']} (final)", "strong"])
        elif drawer in view.get("can_guess_on", []) and left:
            tile["guess"] = {"numbers": left, "label": "Guess:", "nonce": rkey,
                             "confirm": f"Place {{n}} on {who}'s drawing — final",
                             "hint": "A guess can't be taken back." + freeze}
        tiles.append(tile)
    if tiles:
        sheets(tiles, key=f"pm-others-{rkey}", cols=2, stack=True, font=".95rem",
               on_guess=lambda drawer, number: act({"type": "guess", "drawer": drawer, "number": number}))


def _finish(view, act, done: bool) -> None:
    seat = view["you"]
    if done:
        token = view["finished"][str(seat)]
        st.success(f"You're done{f' with black token {token}' if token is not None else ' (no black token)'}. "
                   f"Waiting for: {ui.esc(ui.names_of(view, view.get('waiting_for') or []) or 'nobody')}")
    else:
        supply = sorted(set(view.get("black_supply") or []), reverse=True)
        with st.popover("✋ I'm done", type="primary", use_container_width=True):
            choice = st.selectbox("Black token", [*supply, None], key="pm-token",
                                  format_func=lambda t: f"Black token {t}" if t is not None else "No black token")
            st.caption("After this you can no longer draw or guess this round. Black tokens left: "
                       + (", ".join(map(str, view.get("black_supply") or [])) or "none"))
            label = f"Finish and take black token {choice}" if choice is not None else "Finish without a token"
            st.button(label, type="primary", key="pm-finish", use_container_width=True,
                      on_click=act, args=({"type": "finish", "token": choice},))
    if seat not in view.get("wrong_word", []):
        with st.popover("I drew the wrong word", use_container_width=True):
            st.caption("Your drawing takes no more guesses and the guesses on it are returned. Your own scoring "
                       "tokens all count against you and your black token scores 0. Your own guesses still count.")
            st.button("Yes, I drew the wrong word", key="pm-wrong", on_click=act, args=({"type": "wrong_word"},))
