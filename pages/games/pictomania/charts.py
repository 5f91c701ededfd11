"""Pictomania: guess accuracy, how early players guess, black sheep, words guessed and not."""

from __future__ import annotations

import html

import altair as alt

from pages.i18n import N_, _, n_
from pages.stats_charts.common import ACCENT, MAX_ROWS, Figure, bar_figure, hbar, share_bars

FAMILY = "pictomania"
TAB = "✏️ Pictomania"
VARIANTS = {"Standard": N_("Standard"), "Competitive": N_("Competitive")}  # as engine/stats names them
TOP_WORDS = 15
# The decks as stored (their colours, easiest first) and as read; an unknown deck shows as stored.
DECKS = {"green": N_("green"), "yellow": N_("yellow"), "orange": N_("orange"), "red": N_("red")}
# The download buttons under the tab, one per table of the family's summary (its key in engine.stats).
CSV_LABELS = {
    "accuracy": N_("Accuracy"),
    "orders": N_("Orders"),
    "black_sheep": N_("Black sheep"),
    "words": N_("Words"),
    "guessed_words": N_("Guessed words"),
    "never_guessed": N_("Never guessed"),
}


def deck_name(deck: str) -> str:
    """A deck's colour in the reader's language."""
    return _(DECKS[deck]) if deck in DECKS else deck


def _named_decks(frame):
    """A copy with the decks in the reader's language (the summary's own frames are shared)."""
    return frame.assign(deck=frame["deck"].astype(str).map(deck_name))


def charts(summary: dict) -> list[Figure]:
    out = []
    acc = summary["accuracy"]
    if not acc.empty:
        tip = [
            alt.Tooltip("player:N", title=_("Player")),
            alt.Tooltip("accuracy:Q", title=_("Accuracy"), format=".0%"),
            alt.Tooltip("guesses:Q", title=_("Guesses")),
            alt.Tooltip("correct:Q", title=_("Right")),
            alt.Tooltip("mean_order:Q", title=_("Average order")),
            alt.Tooltip("firsts:Q", title=_("First guesses")),
        ]
        out.append(
            bar_figure(
                "accuracy",
                _("Guess accuracy"),
                _("Right guesses over guesses (guesses on a drawing of the wrong word do not count)."),
                share_bars(acc.head(MAX_ROWS), "accuracy", _("Accuracy"), tip),
            )
        )
        early = acc.sort_values("mean_share").head(MAX_ROWS)
        out.append(
            bar_figure(
                "earliness",
                _("How early they guess"),
                _(
                    "Where a player's guesses fall among all the guesses of a round, on average: "
                    "0% = always the first, 100% = always the last."
                ),
                share_bars(early, "mean_share", _("Average position in the round"), tip, "#1e88e5", order="x"),
            )
        )
    sheep = summary["black_sheep"]
    if not sheep.empty:
        tip = [
            alt.Tooltip("player:N", title=_("Player")),
            alt.Tooltip("black_sheep:Q", title=_("Black sheep")),
            alt.Tooltip("rounds:Q", title=_("Rounds played")),
            alt.Tooltip("rate:Q", title=_("Rate"), format=".0%"),
        ]
        out.append(
            bar_figure(
                "black_sheep",
                _("Black sheep"),
                _("Rounds in which a player alone made the most wrong guesses."),
                hbar(sheep.head(MAX_ROWS), "black_sheep", _("Times the black sheep"), tip, colour="#2A1F1A"),
            )
        )
    words = summary["words"]
    if not words.empty:
        by_deck = words.groupby("deck", observed=True)[["drawn", "guessed"]].sum().reset_index()
        by_deck["rate"] = by_deck["guessed"] / by_deck["drawn"]
        by_deck = _named_decks(by_deck)
        decks = [deck_name(d) for d in DECKS]  # the axis's order and the colours' domain, as labelled
        deck_colours = alt.Scale(domain=decks, range=["#43a047", "#fdd835", "#fb8c00", "#e53935"])
        chart = (
            alt.Chart(by_deck)
            .mark_bar(cornerRadiusEnd=4)
            .encode(
                x=alt.X(
                    "rate:Q",
                    title=_("Words guessed by someone"),
                    axis=alt.Axis(format=".0%"),
                    scale=alt.Scale(domain=[0, 1]),
                ),
                y=alt.Y("deck:N", sort=decks, title=None),
                color=alt.Color("deck:N", scale=deck_colours, legend=None),
                tooltip=[
                    alt.Tooltip("deck:N", title=_("Deck")),
                    alt.Tooltip("drawn:Q", title=_("Words drawn")),
                    alt.Tooltip("guessed:Q", title=_("Guessed")),
                    alt.Tooltip("rate:Q", title=_("Rate"), format=".0%"),
                ],
            )
        )
        out.append(
            bar_figure(
                "decks",
                _("Words guessed, by deck"),
                _("A drawn word counts as guessed when at least one player guessed it right."),
                chart,
            )
        )
        top = summary["guessed_words"].head(TOP_WORDS)
        if not top.empty:
            chart = (
                alt.Chart(_named_decks(top))
                .mark_bar(color=ACCENT, cornerRadiusEnd=4)
                .encode(
                    x=alt.X("right_guesses:Q", title=_("Right guesses"), axis=alt.Axis(format="d", tickMinStep=1)),
                    y=alt.Y("word:N", sort="-x", title=None),
                    tooltip=[
                        alt.Tooltip("word:N", title=_("Word")),
                        alt.Tooltip("deck:N", title=_("Deck")),
                        alt.Tooltip("drawn:Q", title=_("Times drawn")),
                        alt.Tooltip("guessed:Q", title=_("Times guessed")),
                        alt.Tooltip("right_guesses:Q", title=_("Right guesses")),
                    ],
                )
            )
            out.append(
                bar_figure(
                    "guessed_words",
                    _("The words guessed most"),
                    _("Right guesses on each word, all rounds."),
                    chart,
                )
            )
    return out


def show(summary: dict) -> None:
    import streamlit as st

    from pages.stats_charts.render import counted, show_family

    rounds = n_("{n} round", "{n} rounds", summary["rounds_count"])
    show_family(counted(rounds, n_("{n} guess", "{n} guesses", summary["guesses_count"])), charts(summary))
    never = summary["never_guessed"]
    st.markdown("#### " + _("Words nobody guessed"))
    if never.empty:
        st.caption(_("Every word drawn in these games was guessed at least once."))
    else:
        st.caption(
            n_("{n} word drawn and never guessed right.", "{n} words drawn and never guessed right.", len(never))
        )
        shown = _named_decks(never[["word", "deck", "drawn"]])
        st.dataframe(
            shown.rename(columns={"word": _("Word"), "deck": _("Deck"), "drawn": _("Times drawn")}),
            hide_index=True,
            width="stretch",
            height=min(36 * len(never) + 40, 360),
        )


def show_turn(record: dict, index: int, names: list[str]) -> None:
    """One round of a replay: the word cards, every drawing with its word and the guesses on it."""
    import streamlit as st

    from engine.stats.pictomania import drawn_word
    from pages.games.pictomania.sketch import replay_options, sheets

    rnd = record["turns"][index]
    name = lambda s: names[s] if 0 <= s < len(names) else "?"
    esc = html.escape
    st.markdown(_("**Round {round}**, {deck} deck", round=rnd["round"], deck=esc(deck_name(rnd.get("deck", "")))))
    cards = "".join(
        f"<div style='flex:1 1 180px;background:#F1E4D3;border-radius:10px;padding:.5rem .8rem'>"
        f"<b>{slot}</b> · {esc(rnd.get('themes', {}).get(slot, ''))}<br>"
        + "<br>".join(f"{i}. {esc(w)}" for i, w in enumerate(words, start=1))
        + "</div>"
        for slot, words in rnd["cards"].items()
    )
    st.html(f"<div style='display:flex;flex-wrap:wrap;gap:.6rem'>{cards}</div>")
    number = {int(s): a["number"] for s, a in rnd["assignments"].items()}
    void = set(rnd.get("wrong_word", ()))
    tiles = []
    for seat in sorted(number):
        a = rnd["assignments"][str(seat)]
        on_it = sorted((g for g in rnd["guesses"] if g["drawer"] == seat), key=lambda g: g["order"])
        mark = lambda g, seat=seat: "" if seat in void else (" ✔" if g["number"] == number[seat] else " ✖")
        guesses = ", ".join(f"{name(g['guesser'])} {g['number']}{mark(g)} (#{g['order']})" for g in on_it) or _(
            "no guesses"
        )
        notes = []
        if seat in void:
            notes.append(_("drew the wrong word"))
        token = rnd.get("black_tokens", {}).get(str(seat))
        if token is not None:
            notes.append(_("black token {token}", token=token))
        if rnd.get("black_sheep") == seat:
            notes.append(_("black sheep") + " 🐑")
        notes.append(n_("{n:+d} point", "{n:+d} points", rnd["scores"].get(str(seat), 0)))
        word = _("“{text}”", text=drawn_word(rnd, seat) or "?")
        seen = _("Guesses: {guesses}", guesses=guesses)
        tiles.append(
            {
                "id": seat,
                "seat": seat,
                "strokes": rnd.get("drawings", {}).get(str(seat), []),
                "caption": [
                    [name(seat), "title"],
                    [f"{a['letter']}{a['number']} {word}", "strong"],
                    [seen, "note"],
                    [" · ".join(notes), "note"],
                ],
            }
        )
    # The drawings come back stroke by stroke on demand (play, pause, speed), in the browser.
    sheets(
        tiles,
        key=f"stats-pm-{record.get('room')}-{record.get('game_no')}-{index}",
        cols=min(3, len(tiles)),
        font=".95rem",
        replay=replay_options("player"),
    )
