"""Maudit Mot Dit on the shared screen and on a player's phone. Only renders views; the rules are
in engine/games/maudit_mot_dit.py."""

from __future__ import annotations

import time

import streamlit as st

from engine import tables, words
from pages import ui
from pages.i18n import N_, _, n_
from pages.screens.kit import name_of, waiting_line, waiting_spot, wall_status, winners_line

PITCH = N_("Maudit Mot Dit — one-word clues, against the count (3–6 players)")
_RULES = tables.games()["maudit_mot_dit"].content.constants
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
# The start page's pace line (pages/clock.py): each clue gets its own deadline.
PACE_NAMES = {
    "choose": N_("Choose the word"),
    "clues": N_("Each clue"),
    "spell": N_("Give a spell"),
    "verdict": N_("Judge the clues"),
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

CSS = """
<style>
  .mm-clues { display: flex; flex-direction: column; gap: .6rem; margin: .6rem 0; }
  .mm-clue { display: flex; flex-wrap: wrap; align-items: baseline; gap: .3rem .8rem; }
  .mm-clue .mm-n { color: #8a7a6a; font-weight: 700; min-width: 2.2em; }
  .mm-clue .mm-word { font-size: 2.1em; font-weight: 800; color: #2a2130; }
  .mm-answer { padding: .1rem .7rem; border-radius: 999px; background: #eee7da; font-weight: 600; }
  .mm-answer.mm-right { background: #3F9E5A; color: #fff; }
  .mm-answer.mm-near { outline: 3px dashed #e0a100; }
  .mm-card { display: grid; grid-template-columns: auto 1fr; gap: .15rem .7rem; font-size: 1.15em; }
  .mm-card .mm-pick { font-weight: 800; background: #fff3c4; border-radius: .3rem; padding: 0 .3rem; }
  .mm-secret { font-size: 2.2em; font-weight: 900; letter-spacing: .03em; color: #2a2130; }
  .mm-score td, .mm-score th { padding: .2rem .45rem; text-align: right; }  /* fits its column at 1280 px */
  .mm-score th.mm-who { text-align: left; }
  .mm-wall-notes { display: flex; flex-direction: column; gap: .35rem; margin: .4rem 0 .8rem; font-size: 1rem; }
  .mm-wall-notes .mm-now { font-weight: 700; }
  .mm-box { display: flex; flex-wrap: wrap; gap: .4rem; margin: .2rem 0 .6rem; }
  .mm-box span { padding: .1rem .7rem; border-radius: 999px; background: #eee7da; font-weight: 600; }
  .mm-box span.mm-holder { background: #2a2130; color: #fff; }
  .mm-box span.mm-next { outline: 3px solid #e0a100; }
  .mm-rounds { display: flex; flex-direction: column; gap: .45rem; margin: .3rem 0; font-size: 1.15rem; }
  .mm-rounds b { font-weight: 800; }
  .mm-rounds .mm-said { color: #6b5a4e; }
  .mm-wall-head { font-size: 1rem; font-weight: 800; color: #6b5a4e; margin: .8rem 0 .1rem; }
</style>
"""


def options() -> dict:
    """Our word cards (in the room's language), or a list of the host's own."""
    lists = words.word_lists()
    if st.session_state.get("mm-list-added") in lists:
        st.session_state["mm-words"] = st.session_state.pop("mm-list-added")
    if "mm-flash" in st.session_state:
        st.success(ui.esc(st.session_state.pop("mm-flash")))
    if st.session_state.get("mm-words") not in ("", *lists):
        st.session_state["mm-words"] = ""
    chosen = st.selectbox(
        _("Word cards"),
        ["", *lists],
        key="mm-words",
        format_func=lambda k: lists.get(k) or _("Ours, in the room's language"),
    )
    if ui.is_local_request():  # only the host, at the laptop that runs the server, adds lists
        _upload_list()
    return {"words": chosen or None}


def _upload_list() -> None:
    with st.expander(_("Upload your own word list (a text file)")):
        st.caption(
            _(
                "One card per line: 8 words separated by commas. Or one word per line, taken 8 at a "
                "time. At least {fewest} cards.",
                fewest=words.LIST_FEWEST,
            )
        )
        with st.form("mm-upload", clear_on_submit=True):
            name = st.text_input(_("List name"), max_chars=40, key="mm-list-name")
            file = ui.uploader(_("Word list"), type=["txt", "csv"], key="mm-list-file")
            if st.form_submit_button(_("Add this list")):
                try:
                    list_id, count = words.import_word_list(name, file.getvalue() if file else b"")
                except words.WordListRejected as exc:
                    st.error(_("The list was not added: {reason}", reason=ui.esc(ui.refusal(exc))))
                else:
                    st.session_state["mm-list-added"] = list_id
                    st.session_state["mm-flash"] = n_(
                        "List '{name}' added with {n} card.", "List '{name}' added with {n} cards.", count, name=name
                    )
                    st.rerun()


def _icon(symbol: str) -> str:
    return SYMBOL_ICONS.get(symbol, "•")


def _clues_html(view, *, near: list[int] | None = None, big: bool = False) -> str:
    rows = []
    for i, clue in enumerate(view["clues"]):
        latest = i == len(view["clues"]) - 1
        chips = []
        for j, a in enumerate(clue["answers"]):
            cls = (
                "mm-answer"
                + (" mm-right" if a["correct"] else "")
                + (" mm-near" if latest and near and j in near else "")
            )
            mark = "✔️ " if a["correct"] else ""
            chips.append(f"<span class='{cls}'>{mark}{ui.esc(name_of(view, a['seat']))}: {ui.esc(a['answer'])}</span>")
        rows.append(
            f"<div class='mm-clue'><span class='mm-n'>{i + 1}.</span>"
            f"<span class='mm-word'>{ui.esc(clue['clue'])}</span>{''.join(chips)}</div>"
        )
    style = " style='font-size:1.3em'" if big else ""
    return f"<div class='mm-clues'{style}>{''.join(rows)}</div>"


def _status_line(view) -> str:
    phase = view["phase"]
    holder = name_of(view, view["holder"])
    if phase == "choose":
        return _("{holder} holds the box and is choosing a word", holder=holder)
    if phase == "clues":
        if not view["clues"]:
            return _("{holder} holds the box: the first clue is coming", holder=holder)
        if view["found"]:
            return _("Found!")
        return _("{holder}'s clue {n}: answer on your phones", holder=holder, n=len(view["clues"]))
    if phase == "spell":
        return _("{holder} gives a spell", holder=holder)
    if phase == "verdict":
        return _("Was every clue related to the word? Judge on your phones")
    return _("The game is over")


def _result_html(view, result) -> str:
    word = ui.esc(result["chosen"]["word"])
    count = result["chosen"]["count"]
    holder = ui.esc(name_of(view, result["box_holder"]))
    if result["guessed_on"] is None:
        line = n_(
            "{holder}'s word was {word}, in {n} clue: not found.",
            "{holder}'s word was {word}, in {n} clues: not found.",
            count,
            holder=holder,
            word=f"<b>{word}</b>",
        )
    else:
        who = ui.esc(ui.names_of(view, result["guessers"]))
        line = n_(
            "{holder}'s word was {word}, in {n} clue. {names} found it on clue {found}.",
            "{holder}'s word was {word}, in {n} clues. {names} found it on clue {found}.",
            count,
            holder=holder,
            word=f"<b>{word}</b>",
            names=who,
            found=result["guessed_on"],
        )
    extra = []
    if result.get("spell_to") is not None:
        extra.append(_("{spell} {name} takes a spell.", spell=SPELL, name=ui.esc(name_of(view, result["spell_to"]))))
    if result.get("curse_to") is not None:
        extra.append(
            _("{curse} The curse goes to {name}.", curse=CURSE, name=ui.esc(name_of(view, result["curse_to"])))
        )
    if result.get("curse_wipe"):
        extra.append(_("They had it already: their points are wiped out."))
    return f"<div class='sm-hint'>{line} {' '.join(extra)}</div>"


def scoreboard(view) -> None:
    rows = []
    for s in sorted(range(len(view["names"])), key=lambda s: (-view["scores"][s], s)):
        curse = CURSE if view["curse"] == s else ""
        spells = f"{SPELL}×{view['spells'][s]}" if view["spells"][s] else ""
        struck = " style='text-decoration:line-through'" if s in view.get("out", []) else ""
        rows.append(
            f"<tr><th class='sm-who mm-who'{struck}>{ui.esc(view['names'][s])}</th><td>{view['points'][s]}</td>"
            f"<td>{spells}</td><td>{curse}</td><td class='sm-total'>{view['scores'][s]}</td></tr>"
        )
    points, total = _("Points"), _("Total")
    head = f"<tr><th></th><th>{points}</th><th>{SPELL}</th><th>{CURSE}</th><th>{total}</th></tr>"
    st.html(CSS + f"<table class='sm-scores mm-score'><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>")


# ---- the shared screen -------------------------------------------------------------------------


def table(view) -> None:
    st.html(CSS)
    phase = view["phase"]
    wall_status(view, _status_line(view), _wall_waiting)
    if phase != "end":
        bits = [
            _("Turn {turn} of {turns}", turn=view["turn"], turns=view["turns"]),
            n_("{n} spell left", "{n} spells left", view["spells_left"]),
        ]
        if view.get("limit"):
            bits.append(_("At most {n} answers per clue", n=view["limit"]))
        st.caption(ui.esc(" · ".join(bits)))
    play, scores = st.columns([1.3, 1], gap="medium")  # the scores beside the clues: below, they fall off 1080 px
    with play:
        if view["clues"]:
            st.html(CSS + _clues_html(view, big=True))
        if view.get("result"):
            st.html(_result_html(view, view["result"]))
        elif view.get("last") and phase == "choose":
            st.html(_result_html(view, view["last"]))
        if phase in ("choose", "clues") and not view["clues"]:
            st.html(
                "<div class='sm-hint'>"
                + _(
                    "One word per clue. Not the same root as the word or an earlier clue, no translations. Too slow? Say so on your phone."
                )
                + "</div>"
            )
        earlier = _rounds_html(view) if phase != "end" else ""
        if earlier:
            st.html(earlier)
    with scores:
        scoreboard(view)
        if phase != "end":
            st.html(_box_html(view) + _curse_and_spells_html(view))


# What the room follows while clues are written, below the clues and the scores: whose box is next,
# the curse and the spells in play, and the words and clues of the rounds before (public once closed).

EARLIER_ROUNDS = 3  # the latest rounds fit under the clues; the scores count them all


def _box_order(view) -> list[int]:
    """The seats still playing, from the box holder round the table: the order the box goes in."""
    names, out, holder = view["names"], set(view.get("out", [])), view["holder"]
    seats = [s for s in range(len(names)) if s not in out]
    if holder not in seats:
        return seats
    at = seats.index(holder)
    return seats[at:] + seats[:at]


def _box_html(view) -> str:
    order = _box_order(view)
    last = view["turn"] >= view["turns"]
    chips = []
    for i, seat in enumerate(order):
        cls = "mm-holder" if seat == view["holder"] else "mm-next" if i == 1 and not last else ""
        mark = f"{BOX} " if seat == view["holder"] else ""
        chips.append(f"<span class='{cls}'>{mark}{ui.esc(name_of(view, seat))}</span>")
    if last:
        line = _("This is the last turn.")
    elif len(order) > 1:
        line = _("Next to hold the box: {name}", name=ui.esc(name_of(view, order[1])))
    else:
        line = ""
    return (
        f"<div class='mm-wall-head'>{ui.esc(line)}</div>" if line else ""
    ) + f"<div class='mm-box'>{''.join(chips)}</div>"


def _curse_and_spells_html(view) -> str:
    if view["curse"] is None:
        curse = _(
            "{curse} Nobody has the curse yet. It goes to a box holder whose clues the others "
            "judge unrelated to the word: 4 points off at the end.",
            curse=CURSE,
        )
    else:
        curse = _(
            "{curse} {name} has the curse: 4 points off at the end. If it comes back to them, "
            "they lose every point they have.",
            curse=CURSE,
            name=ui.esc(name_of(view, view["curse"])),
        )
    spells = n_(
        "{spell} Each spell a player holds is 1 point off. {n} spell left to give.",
        "{spell} Each spell a player holds is 1 point off. {n} spells left to give.",
        view["spells_left"],
        spell=SPELL,
    )
    return f"<div class='mm-wall-notes'><div>{curse}</div><div>{spells}</div></div>"


def _round_line(view, entry) -> str:
    """One closed round, as a sentence: whose word, in how many clues, the clues, and who found it."""
    holder = ui.esc(name_of(view, entry["box_holder"]))
    chosen = entry.get("chosen")
    if entry.get("abandoned") or not chosen:
        return _("{holder}'s turn passed without a round.", holder=holder)
    word, count = f"<b>{ui.esc(chosen['word'])}</b>", chosen["count"]
    clues = "<span class='mm-said'>" + " · ".join(ui.esc(c["clue"]) for c in entry["clues"]) + "</span>"
    if entry.get("guessed_on") is None:
        return n_(
            "{holder}'s word {word}, in {n} clue: {clues}. Not found.",
            "{holder}'s word {word}, in {n} clues: {clues}. Not found.",
            count,
            holder=holder,
            word=word,
            clues=clues,
        )
    return n_(
        "{holder}'s word {word}, in {n} clue: {clues}. {names} found it on clue {found}.",
        "{holder}'s word {word}, in {n} clues: {clues}. {names} found it on clue {found}.",
        count,
        holder=holder,
        word=word,
        clues=clues,
        names=ui.esc(ui.names_of(view, entry["guessers"])),
        found=entry["guessed_on"],
    )


def _rounds_html(view) -> str:
    history = view.get("history") or []
    skip = 1 if view["phase"] == "choose" else 0  # the latest round is shown above it then, in full
    shown = history[::-1][skip : skip + EARLIER_ROUNDS]
    if not shown:
        return ""
    head = _("Earlier rounds")
    rows = "".join(f"<div>{_round_line(view, e)}</div>" for e in shown)
    return f"<div class='mm-wall-head'>{head}</div><div class='mm-rounds'>{rows}</div>"


def _wall_waiting(view) -> str:
    if view["phase"] == "verdict":
        return waiting_line(view)
    if view["phase"] == "clues" and view["clues"] and view.get("may_answer"):
        return _("Still to answer: {names}", names=ui.names_of(view, view["may_answer"]))
    return ""


# ---- a player's phone --------------------------------------------------------------------------


def player(view, act) -> None:
    st.html(CSS)
    seat, phase = view["you"], view["phase"]
    if phase == "end":
        best = max(view["scores"])
        st.markdown("## " + ("🏆 " + _("You win!") if view["scores"][seat] == best else ui.esc(winners_line(view))))
        scoreboard(view)
        return
    if seat == view["holder"]:
        _holder(view, act)
    else:
        _opponent(view, act, seat)


def _holder(view, act) -> None:
    phase = view["phase"]
    rnd = f"{view['round']}"
    if phase == "choose":
        st.markdown("### " + _("You hold the box. Choose your secret word:"))
        picks = {b["symbol"]: b["count"] for b in view["back"]}
        rows = "".join(
            f"<span>{_icon(c['symbol'])}</span><span class='{'mm-pick' if c['symbol'] in picks else ''}'>"
            f"{ui.esc(c['word'])}</span>"
            for c in view["card"]
        )
        st.html(CSS + f"<div class='mm-card'>{rows}</div>")
        for b in view["back"]:
            word = next(c["word"] for c in view["card"] if c["symbol"] == b["symbol"])
            st.button(
                n_(
                    "{icon} {word}, in {n} clue",
                    "{icon} {word}, in {n} clues",
                    b["count"],
                    icon=_icon(b["symbol"]),
                    word=ui.esc(word),
                ),
                type="primary",
                use_container_width=True,
                key=f"mm-choose-{rnd}-{b['symbol']}",
                on_click=act,
                args=({"type": "choose", "symbol": b["symbol"]},),
            )
        if view.get("effect") in EFFECTS:
            effect = EFFECTS[view["effect"]]
            st.caption(_(effect))
        return
    if phase == "clues":
        chosen = view["chosen"]
        st.html(CSS + f"<div class='mm-secret'>{ui.esc(chosen['word'])}</div>")
        st.caption(
            n_(
                "Clue {given} of {n}. Nobody else sees this.",
                "Clue {given} of {n}. Nobody else sees this.",
                chosen["count"],
                given=len(view["clues"]) + (1 if view.get("can_clue") else 0),
            )
        )
        if view["clues"]:
            st.html(CSS + _clues_html(view, near=view.get("near")))
        for i in view.get("near", []):
            answer = view["clues"][-1]["answers"][i]
            st.button(
                _(
                    "Accept “{answer}” from {name}: close enough",
                    answer=ui.esc(answer["answer"]),
                    name=ui.esc(name_of(view, answer["seat"])),
                ),
                key=f"mm-accept-{rnd}-{len(view['clues'])}-{i}",
                use_container_width=True,
                on_click=act,
                args=({"type": "accept", "index": i},),
            )
        if view.get("can_clue"):
            _clue_form(view, act)
        if view.get("can_close") and view["found"] and _close_when_due(view, act):
            return
        if view.get("can_close"):
            line = (
                _("Found! The round closes when everyone has answered this clue.")
                if view["found"]
                else _("Every clue is given. The round closes when everyone has answered.")
            )
            st.info(line)
            st.button(
                _("Close the round now"),
                key=f"mm-close-{rnd}",
                use_container_width=True,
                on_click=act,
                args=({"type": "close"},),
            )
        return
    if phase == "spell":
        st.markdown("### " + _("Found! Give a spell to an opponent:"))
        for target in [s for s in range(len(view["names"])) if s != view["holder"] and s not in view.get("out", [])]:
            st.button(
                f"{SPELL} {ui.esc(name_of(view, target))}",
                key=f"mm-spell-{rnd}-{target}",
                use_container_width=True,
                on_click=act,
                args=({"type": "give_spell", "target": target},),
            )
        return
    st.html(_result_html(view, view["result"]))
    st.html(f"<div class='sm-waiting'>{waiting_spot(view)}</div>")


CLOSE_AFTER = 3.0  # seconds after the first right answer (RULES.md §5): later answers to that clue still count


def _close_when_due(view, act) -> bool:
    """The holder's phone closes the round CLOSE_AFTER seconds after it first showed the word found
    (unless every answer is in before); it asks for a rerun at that moment. True once closed."""
    moment = f"mm-found-{view['code']}-{view.get('game_no')}-{view['round']}-{len(view['clues'])}"  # not reused by "play again"
    first = st.session_state.setdefault(moment, time.time())
    left = CLOSE_AFTER - (time.time() - first)
    if left > 0:
        ui.rerun_in(left)
        return False
    if not act({"type": "close"}):
        st.session_state.pop("flash", None)  # closed meanwhile (the last answer came in): nothing to say
    st.rerun(scope="fragment")
    return True


def _clue_form(view, act) -> None:
    n = len(view["clues"]) + 1
    key = f"mm-clue-{view['round']}-{n}"
    warned = st.session_state.get("mm-warned")

    def give():
        text = (st.session_state.get(key) or "").strip()
        warnings = _RULES["clue_warnings"](text, view, view.get("language") or "en") if text else []
        if warnings and warned != (key, text):
            st.session_state["mm-warned"] = (key, text)
            st.session_state["mm-warnings"] = warnings
            return
        st.session_state.pop("mm-warned", None)
        act({"type": "clue", "text": text})

    st.text_input(_("Clue {n} (one word)", n=n), key=key, max_chars=_RULES["clue_most"])
    if warned and warned[0] == key:
        for w in st.session_state.get("mm-warnings", []):
            st.warning(_(WARNINGS[w]), icon="⚠️")
        label = _("Give it anyway")
    else:
        label = _("Give this clue")
    st.button(label, type="primary", use_container_width=True, key=f"{key}-go", on_click=give)


def _opponent(view, act, seat) -> None:
    phase = view["phase"]
    holder = name_of(view, view["holder"])
    rnd = view["round"]
    st.markdown(f"### {ui.esc(_status_line(view))}")
    if phase == "clues" and view["clues"]:
        st.html(CSS + _clues_html(view))
        if seat in view.get("may_answer", []):
            key = f"mm-answer-{rnd}-{len(view['clues'])}"
            st.text_input(_("Your answer"), key=key, max_chars=_RULES["answer_most"])
            st.button(
                _("Answer"),
                type="primary",
                use_container_width=True,
                key=f"{key}-go",
                on_click=lambda: act({"type": "answer", "text": st.session_state.get(key) or ""}),
            )
            if view.get("answers_left") is not None:
                st.caption(n_("{n} answer left for this clue", "{n} answers left for this clue", view["answers_left"]))
        elif view.get("answered"):
            st.caption(_("You answered. Wait for the next clue."))
        elif not view["found"]:
            st.caption(_("Three answers are in for this clue. Wait for the next one."))
    if phase == "verdict":
        st.html(_result_html(view, view["result"]))
        if view.get("my_verdict") is None:
            st.button(
                _("The clues were fine"),
                use_container_width=True,
                key=f"mm-fine-{rnd}",
                on_click=act,
                args=({"type": "verdict", "unrelated": False},),
            )
            st.button(
                _("{curse} A clue was unrelated to the word", curse=CURSE),
                use_container_width=True,
                key=f"mm-unrelated-{rnd}",
                on_click=act,
                args=({"type": "verdict", "unrelated": True},),
            )
        else:
            st.html(f"<div class='sm-waiting'>{waiting_spot(view)}</div>")
    if phase in ("choose", "clues") and not view.get("slow_voted"):
        st.button(
            _("{slow} {holder} is too slow", slow=SLOW, holder=ui.esc(holder)),
            use_container_width=True,
            key=f"mm-slow-{rnd}",
            on_click=act,
            args=({"type": "slow"},),
        )
    elif view.get("slow_voted") and phase in ("choose", "clues"):
        st.caption(_("You said {holder} is too slow. A majority gives them a spell.", holder=ui.esc(holder)))
    if view.get("last") and phase == "choose":
        st.html(_result_html(view, view["last"]))


from pages.screens.maudit_audience import audience_line  # noqa: E402, F401  (the wall's audience line)
