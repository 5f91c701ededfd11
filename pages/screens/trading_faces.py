"""Trading Faces on the shared screen and on a player's phone, both variants. Only renders views;
the rules are in engine/games/trading_faces.py."""

from __future__ import annotations

import functools
import hashlib

import streamlit as st

from engine import tables
from engine.pictures.trading_faces import card_back_svg, face_svg
from pages import ui
from pages.i18n import N_, _, n_
from pages.screens import trading_faces_audience
from pages.screens.kit import name_of, waiting_line, waiting_spot, wall_status, winners_line

PITCH = N_("Trading Faces — pass cards, collect three, make the face (2–5 players)")
EMOTIONS = tables.games()["trading_faces"].content.constants["emotions"]
# The start page's pace line (pages/clock.py), for the variant chosen: each guesser of a face
# has their own deadline.
VARIANT_PACE_NAMES = {
    "classic": {"pass": N_("Pass a card"), "face": N_("Guess the face (each)")},
    "memory": {"peek": N_("Lift a card"), "decide": N_("Flip or end the turn")},
}


def pace_names(options: dict) -> dict:
    return VARIANT_PACE_NAMES["memory" if options.get("variant") == "memory" else "classic"]


# The card words, marked where the stage defines them (no Streamlit there), translated where shown.
from pages.stage.trading_faces import WORDS  # noqa: E402

CSS = """
<style>
  .tf-row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-start; }
  .tf-card { width: var(--w, 6.5rem); border-radius: .8rem; background: #fffdf7; border: 3px solid #d8cbb0;
             box-shadow: 0 2px 6px rgba(0,0,0,.12); text-align: center; padding: .3rem .3rem .35rem;
             position: relative; }
  .tf-card img { width: 100%; height: auto; display: block; }
  .tf-card .tf-num { position: absolute; top: .15rem; left: .25rem; font-weight: 800; font-size: .9em; color: #5a4a3a;
                     background: #fffdf7; border-radius: 999px; padding: 0 .3rem; z-index: 1; }
  .tf-card .tf-word { font-weight: 700; line-height: 1.1; font-size: .95em; color: #2a2130; }
  .tf-card .tf-count { position: absolute; top: .1rem; right: .35rem; background: #2a2130; color: #fff;
                       border-radius: 999px; padding: 0 .45rem; font-weight: 800; font-size: .85em; z-index: 1; }
  .tf-card.tf-new { border-color: #e0a100; box-shadow: 0 0 0 4px #ffd54f; animation: tf-pop .9s ease-out 1; }
  @keyframes tf-pop { 0% { transform: scale(.7); } 60% { transform: scale(1.08); } 100% { transform: scale(1); } }
  .tf-big { --w: 13rem; }
  .tf-won { display: flex; align-items: center; gap: .6rem; margin: .25rem 0; flex-wrap: wrap; font-size: 1rem; }
  .tf-won .tf-who { font-weight: 700; min-width: 7rem; }
  .tf-mini { width: 2.6rem; display: inline-block; }
  .tf-mini img { width: 100%; height: auto; display: block; }
  .tf-order { display: flex; gap: .5rem; flex-wrap: wrap; margin: .4rem 0; }
  .tf-order span { padding: .2rem .8rem; border-radius: 999px; background: #eee7da; font-weight: 600; }
  .tf-order span.tf-now { background: #2a2130; color: #fff; }
  .tf-order span.tf-wrong { text-decoration: line-through; opacity: .6; }
  .tf-order span.tf-done { background: #d9ecd9; }
  .tf-head { font-size: 1rem; font-weight: 800; color: #6b5a4e; margin: .9rem 0 .2rem; }
  .tf-line { font-size: 1.15rem; font-weight: 700; margin: .5rem 0; }
  .tf-faces { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .2rem 1.4rem; }
  .tf-faces .tf-won { font-size: 1rem; flex-wrap: nowrap; }
  .tf-faces .tf-won > span:last-child { flex: 1; }
  .tf-turns { display: flex; flex-direction: column; gap: .4rem; font-size: 1rem; }
  .tf-grid { display: grid; grid-template-columns: repeat(var(--cols, 6), 1fr); gap: .4rem; max-width: var(--gw, 100%); }
  .tf-cell { aspect-ratio: 1; border-radius: .6rem; position: relative; display: flex; align-items: center;
             justify-content: center; overflow: hidden; }
  .tf-cell img { width: 100%; height: 100%; display: block; }
  .tf-cell.tf-down { background: #3b5b92; }
  .tf-cell.tf-taken, .tf-cell.tf-empty { background: transparent; border: 2px dashed #cfc4b0; }
  .tf-cell.tf-lifted { outline: 5px solid #ffb300; transform: translateY(-6px) rotate(-3deg); }
  .tf-cell.tf-shown { background: #fffdf7; border: 3px solid #e0a100; }
  .tf-cell .tf-label { position: absolute; bottom: .1rem; right: .3rem; color: #fff; font-weight: 800;
                       font-size: .8em; text-shadow: 0 1px 2px #000; }
  .tf-cell.tf-shown .tf-label { color: #2a2130; text-shadow: none; }
</style>
"""


@functools.cache
def face_img(emotion: str) -> str:
    """An <img> of the emotion's picture, served by pages/routes.py under a versioned address the
    browser keeps."""
    version = hashlib.sha1(face_svg(emotion).encode()).hexdigest()[:10]
    return f"<img src='/pictures/trading_faces/{emotion}.svg?v={version}' alt=''>"


def back_img() -> str:
    version = hashlib.sha1(card_back_svg().encode()).hexdigest()[:10]
    return f"<img src='/pictures/trading_faces/back.svg?v={version}' alt=''>"


def word(emotion: str) -> str:
    return _(WORDS[emotion])


def number(emotion: str) -> int:
    return EMOTIONS.index(emotion) + 1


def label(emotion: str) -> str:
    """ "6 · happy": the number and the word, as on the card."""
    return f"{number(emotion)} · {word(emotion)}"


def card_html(emotion: str, *, count: int = 1, new: bool = False, big: bool = False) -> str:
    classes = "tf-card" + (" tf-new" if new else "") + (" tf-big" if big else "")
    badge = f"<span class='tf-count'>×{count}</span>" if count > 1 else ""
    return (
        f"<div class='{classes}'><span class='tf-num'>{number(emotion)}</span>{badge}{face_img(emotion)}"
        f"<div class='tf-word'>{ui.esc(word(emotion))}</div></div>"
    )


def options() -> dict:
    variant = st.radio(
        _("Variant"),
        ("classic", "memory"),
        key="tf-variant",
        horizontal=True,
        format_func=lambda v: _("Passing cards (3–5 players)") if v == "classic" else _("Memory (2–4 players)"),
    )
    return {"variant": variant}


# ---- the shared screen -------------------------------------------------------------------------


def _phase_line(view) -> str:
    phase = view["phase"]
    if phase == "pass":
        return _("Everyone passes one card to the left, face down")
    if phase == "face":
        return _("{maker} is making a face", maker=name_of(view, view["face"]["maker"]))
    if phase == "peek":
        return _(
            "{player} lifts a card: only {viewer} sees it",
            player=name_of(view, view["active"]),
            viewer=name_of(view, view["viewer"]),
        )
    if phase == "decide":
        return _(
            "{viewer} makes the face of the card {player} lifted",
            player=name_of(view, view["active"]),
            viewer=name_of(view, view["viewer"]),
        )
    return _("The game is over")


def table(view) -> None:
    """The scores are the side panel's (pages/table.py), once: the game's own area shows what the
    room follows, who has passed and who called Stop, and the faces made so far."""
    st.html(CSS)
    wall_status(view, _phase_line(view), _wall_waiting)
    if view["variant"] == "memory":
        _memory_wall(view)
    else:
        _classic_wall(view)


def _wall_waiting(view) -> str:
    phase = view["phase"]
    if phase == "face":
        face = view["face"]
        return _("{guesser}, your guess: pick an emotion on your phone", guesser=name_of(view, face["next"]))
    if phase == "pass":
        return waiting_line(view)
    return ""


def _classic_wall(view) -> None:
    phase = view["phase"]
    bits = [
        n_("{n} card in the pile", "{n} cards in the pile", view["pile"]),
        n_("{n} pass so far", "{n} passes so far", view["pass_no"]),
    ]
    st.caption(ui.esc(" · ".join(bits)))
    if phase == "face":
        st.html(_order_html(view, view["face"]))
        st.html(
            "<div class='sm-hint'>"
            + _("Watch the face. No words, no hands! Guess in turn on your phones: each player has one guess.")
            + "</div>"
        )
    elif phase == "pass":
        st.html(_passed_html(view))
        st.html("<div class='sm-hint'>" + _("Three of a kind? Tap Stop! on your phone and make that face.") + "</div>")
    stops = _stops_html(view) if phase != "end" else ""
    if stops:
        st.html(stops)
    faces = _faces_html(view, view["history"][::-1][:FACES_SHOWN])
    if faces:
        st.html(CSS + faces)


FACES_SHOWN = 6  # the latest faces fit under the rest on a 1080 px screen; the side panel counts them all


def _passed_html(view) -> str:
    """Who has passed a card this round (the card stays secret) and who is still choosing."""
    chosen, out = set(view.get("chosen", [])), set(view.get("out", []))
    chips = []
    for seat in range(len(view["names"])):
        if seat in out:
            continue
        name = ui.esc(name_of(view, seat))
        chips.append(f"<span class='tf-done'>✔️ {name}</span>" if seat in chosen else f"<span>⏳ {name}</span>")
    head = _("Cards passed this round")
    return f"<div class='tf-head'>{head}</div><div class='tf-order'>{''.join(chips)}</div>"


def _stops_html(view) -> str:
    """Who called Stop and waits to make a face, in the order they make them."""
    queue = view.get("queue") or []
    if not queue:
        return ""
    line = _(
        "{stop} Stop! called by {names}: their faces come next, in this order.",
        stop="✋",
        names=ui.esc(ui.names_of(view, queue)),
    )
    return f"<div class='tf-line'>{line}</div>"


def _faces_html(view, faces: list) -> str:
    if not faces:
        return ""
    head = _("Faces made so far")
    rows = "".join(_face_result(view, face, big=True) for face in faces)
    return f"<div class='tf-head'>{head}</div><div class='tf-faces'>{rows}</div>"


def _order_html(view, face) -> str:
    """The guessing order: who guessed what (guesses are said aloud), and whose turn it is."""
    guessed = {g["guesser"]: g["emotion"] for g in face["guesses"]}
    chips = []
    for seat in face["guessers"]:
        name = ui.esc(name_of(view, seat))
        if seat in guessed:
            chips.append(f"<span class='tf-wrong'>{name}: {ui.esc(word(guessed[seat]))}</span>")
        elif seat == face["next"]:
            chips.append(f"<span class='tf-now'>{name}</span>")
        else:
            chips.append(f"<span>{name}</span>")
    return f"<div class='tf-order'>{''.join(chips)}</div>"


def _face_result(view, face, *, big: bool) -> str:
    maker = ui.esc(name_of(view, face["face_maker"]))
    if face["winner"] is not None:
        line = _(
            "{winner} read {maker}'s face: {emotion}. {winner} wins 1 card, {maker} wins 2.",
            winner=ui.esc(name_of(view, face["winner"])),
            maker=maker,
            emotion=ui.esc(word(face["emotion"])),
        )
    else:
        line = _(
            "Nobody read {maker}'s face: {emotion}. {maker} wins 1 card.",
            maker=maker,
            emotion=ui.esc(word(face["emotion"])),
        )
    return (
        f"<div class='tf-won'><span class='tf-mini' style='width:{4 if big else 3}rem'>{face_img(face['emotion'])}"
        f"</span><span>{line}</span></div>"
    )


def _won_table(view) -> None:
    """Each player's won cards, small, with the count: the scores."""
    rows = []
    for seat in sorted(range(len(view["names"])), key=lambda s: (-view["scores"][s], s)):
        cards = "".join(f"<span class='tf-mini'>{face_img(e)}</span>" for e in view["won"].get(str(seat), []))
        struck = " style='text-decoration:line-through'" if seat in view.get("out", []) else ""
        rows.append(
            f"<div class='tf-won'><span class='tf-who'{struck}>{ui.esc(view['names'][seat])}</span>"
            f"<b>{view['scores'][seat]}</b>{cards}</div>"
        )
    st.html(CSS + f"<div>{''.join(rows)}</div>")


def _memory_grid(view, *, shown: dict | None = None, numbers: bool = False, width: str = "100%") -> str:
    cells = []
    for cell, status in enumerate(view["grid"]):
        classes = f"tf-cell tf-{status}"
        inner = back_img() if status == "down" else ""
        if shown and cell in shown and status == "down":
            classes, inner = "tf-cell tf-shown", face_img(shown[cell])
        if cell == view.get("lifted"):
            classes += " tf-lifted"
        tag = f"<span class='tf-label'>{cell + 1}</span>" if numbers and status == "down" else ""
        cells.append(f"<div class='{classes}'>{inner}{tag}</div>")
    return f"<div class='tf-grid' style='--cols:{view['columns']};--gw:{width}'>{''.join(cells)}</div>"


def _last_flip(view) -> dict | None:
    """The two cards the last player flipped, while the next one has not lifted a card: everyone saw them."""
    last = view.get("last")
    if not last or not last.get("flip") or view["phase"] != "peek":
        return None
    return dict(zip(last["flip"]["cells"], last["shown"], strict=True))


def _memory_wall(view) -> None:
    st.caption(ui.esc(n_("{n} card in the pile", "{n} cards in the pile", view["pile"])))
    shown = _last_flip(view)
    left, right = st.columns([2.2, 1], gap="large")  # the turns beside the grid: below, they fall off 1080 px
    with left:
        st.html(CSS + _memory_grid(view, shown=shown, numbers=True, width="52rem"))
    with right:
        last = view.get("last")
        if last:
            st.html(f"<div class='tf-line'>{_turn_text(view, last)}</div>")
        earlier = view["history"][-2::-1][:TURNS_SHOWN]  # the turns before the last
        if earlier:
            head = _("Turns before")
            lines = "".join(f"<div>{_turn_text(view, t)}</div>" for t in earlier)
            st.html(f"<div class='tf-head'>{head}</div><div class='tf-turns'>{lines}</div>")


TURNS_SHOWN = 4  # the turns before the last that fit beside the grid


def _turn_text(view, turn) -> str:
    who = ui.esc(name_of(view, turn["active"]))
    if not turn.get("flip"):
        return _("{player} ended their turn without flipping.", player=who)
    if turn["flip"]["match"]:
        return _("{player} found a pair: {emotion}!", player=who, emotion=ui.esc(word(turn["shown"][0])))
    return _(
        "{player} flipped {first} and {second}: no pair. The others take a card from the pile.",
        player=who,
        first=ui.esc(word(turn["shown"][0])),
        second=ui.esc(word(turn["shown"][1])),
    )


# ---- a player's phone --------------------------------------------------------------------------


def player(view, act) -> None:
    st.html(CSS)
    seat, phase = view["you"], view["phase"]
    if phase == "end":
        best = max(view["scores"])
        head = "🏆 " + _("You win!") if view["scores"][seat] == best else ui.esc(winners_line(view))
        st.markdown(f"## {head}")
        st.markdown(n_("You won {n} card.", "You won {n} cards.", view["scores"][seat]))
        _won_table(view)
        return
    if view["variant"] == "memory":
        _memory_phone(view, act, seat)
    else:
        _classic_phone(view, act, seat)


def _stop_button(view, act) -> None:
    if view.get("sets"):
        st.button(
            _("Stop! I have three of a kind"),
            type="primary",
            use_container_width=True,
            key="tf-stop",
            on_click=act,
            args=({"type": "stop"},),
        )


def _classic_phone(view, act, seat) -> None:
    phase = view["phase"]
    if view.get("my_queue"):
        st.success(_("Your set is next in line. Get ready to make the face!"))
    if phase == "face":
        _face_phone(view, act, seat)
        return
    _stop_button(view, act)
    last = view.get("last")
    if last and last["pass_no"] == view["pass_no"] and not view.get("my_pass"):
        st.html(_face_result(view, last, big=False))
    left = name_of(view, view["passes_to"])
    if view.get("my_pass"):
        st.info(
            _(
                "You passed {emotion} to {name}. It arrives when everyone has chosen.",
                emotion=label(view["my_pass"]),
                name=ui.esc(left),
            )
        )
        st.html(f"<div class='sm-waiting'>{waiting_spot(view)}</div>")
    hand = view["hand"]
    arrived = view.get("arrived")
    if arrived:
        st.caption(_("New from the right: {emotion}", emotion=ui.esc(label(arrived))))
    counts = {e: hand.count(e) for e in EMOTIONS if e in hand}
    st.html(
        "<div class='tf-row'>" + "".join(card_html(e, count=c, new=e == arrived) for e, c in counts.items()) + "</div>"
    )
    if not view.get("my_pass") and counts:
        key = f"tf-pick-{view['pass_no']}"
        pick = st.pills(
            _("Choose a card to pass to {name}", name=ui.esc(left)), list(counts), format_func=label, key=key
        )  # labels render markdown: the name goes in escaped
        st.button(
            _("Pass {emotion} to {name}", emotion=label(pick), name=ui.esc(left)) if pick else _("Choose a card first"),
            type="primary",
            use_container_width=True,
            disabled=not pick,
            key=f"tf-pass-{view['pass_no']}",
            on_click=act,
            args=({"type": "pass", "card": pick},),
        )


def _face_phone(view, act, seat) -> None:
    face = view["face"]
    if face["maker"] == seat:
        st.markdown("### " + _("Make this face! No words, no hands."))
        st.html(
            "<div class='tf-row' style='justify-content:center'>" + card_html(view["face_emotion"], big=True) + "</div>"
        )
        st.caption(ui.esc(_("{guesser} guesses now.", guesser=name_of(view, face["next"]))))
    elif face["next"] == seat:
        st.markdown("### " + _("Your guess: what is {maker} feeling?", maker=ui.esc(name_of(view, face["maker"]))))
        tried = {g["emotion"] for g in face["guesses"]}
        if tried:
            st.caption(
                ui.esc(_("Already wrong: {emotions}", emotions=", ".join(word(e) for e in EMOTIONS if e in tried)))
            )
        key = f"tf-guess-{len(view['history'])}"
        pick = st.pills(
            _("One guess, and it is final"), [e for e in EMOTIONS if e not in tried], format_func=label, key=key
        )
        st.button(
            _("Guess: {emotion}", emotion=label(pick)) if pick else _("Choose an emotion first"),
            type="primary",
            use_container_width=True,
            disabled=not pick,
            key=f"tf-guess-go-{len(view['history'])}",
            on_click=act,
            args=({"type": "guess", "emotion": pick},),
        )
    else:
        making = _("{maker} is making a face", maker=name_of(view, face["maker"]))  # outside an f-string: extracted
        st.markdown("### " + ui.esc(making))
        st.html(_order_html(view, face))
        st.caption(_("Your cards stay hidden while everyone guesses."))
    if view.get("sets"):
        st.button(
            _("Stop! I have three of a kind"),
            use_container_width=True,
            key="tf-stop",
            on_click=act,
            args=({"type": "stop"},),
        )


def _memory_phone(view, act, seat) -> None:
    phase, active = view["phase"], view["active"]
    if view.get("peek_emotion"):
        making = _("Make this face for {player}! No words, no hands.", player=name_of(view, active))
        st.markdown("### " + ui.esc(making))
        st.html(
            "<div class='tf-row' style='justify-content:center'>" + card_html(view["peek_emotion"], big=True) + "</div>"
        )
        return
    if seat != active:
        st.markdown(f"### {ui.esc(_phase_line(view))}")
        st.html(_memory_grid(view, shown=_last_flip(view), numbers=True))
        return
    down = [c for c, s in enumerate(view["grid"]) if s == "down"]
    turn = len(view["history"])
    if phase == "peek":
        st.markdown(
            "### "
            + _("Your turn: lift a card. Only {viewer} will see it.", viewer=ui.esc(name_of(view, view["viewer"])))
        )
        st.html(_memory_grid(view, shown=_last_flip(view), numbers=True))
        pick = st.pills(_("Card to lift"), [c for c in down], format_func=lambda c: str(c + 1), key=f"tf-peek-{turn}")
        st.button(
            _("Lift card {cell}", cell=pick + 1) if pick is not None else _("Choose a card first"),
            type="primary",
            use_container_width=True,
            disabled=pick is None,
            key=f"tf-peek-go-{turn}",
            on_click=act,
            args=({"type": "peek", "cell": pick},),
        )
        return
    lifted = view["lifted"]
    st.markdown(
        "### "
        + _("Watch {viewer}: what is on card {cell}?", viewer=ui.esc(name_of(view, view["viewer"])), cell=lifted + 1)
    )
    st.html(_memory_grid(view, numbers=True))
    st.caption(
        _(
            "Flip card {cell} and one more: a pair is yours. No pair, and everyone else takes a card from the pile.",
            cell=lifted + 1,
        )
    )
    pick = st.pills(
        _("Second card"), [c for c in down if c != lifted], format_func=lambda c: str(c + 1), key=f"tf-flip-{turn}"
    )
    st.button(
        _("Flip cards {first} and {second}", first=lifted + 1, second=pick + 1)
        if pick is not None
        else _("Choose a second card first"),
        type="primary",
        use_container_width=True,
        disabled=pick is None,
        key=f"tf-flip-go-{turn}",
        on_click=act,
        args=({"type": "flip", "cell": pick},),
    )
    st.button(
        _("End my turn without flipping"),
        use_container_width=True,
        key=f"tf-end-{turn}",
        on_click=act,
        args=({"type": "end_turn"},),
    )


# ---- the audience (pages/audience.py, pages/screens/trading_faces_audience.py) -------------------


def audience_line(counts: dict, view) -> str:
    return trading_faces_audience.audience_line(counts, view, label)
