"""Pictomania: guess accuracy, how early players guess, black sheep, words guessed and not."""
from __future__ import annotations

import base64
import html

import altair as alt

from pages.stats_charts.common import ACCENT, MAX_ROWS, Figure, bar_height, hbar, style

FAMILY = "pictomania"
TAB = "✏️ Pictomania"
BACKGROUND = "#ffffff"  # the drawing canvas; an eraser stroke paints this colour
TOP_WORDS = 15


def charts(summary: dict) -> list[Figure]:
    out = []
    acc = summary["accuracy"]
    if not acc.empty:
        tip = [alt.Tooltip("player:N", title="Player"), alt.Tooltip("accuracy:Q", title="Accuracy", format=".0%"),
               alt.Tooltip("guesses:Q", title="Guesses"), alt.Tooltip("correct:Q", title="Right"),
               alt.Tooltip("mean_order:Q", title="Average order"), alt.Tooltip("firsts:Q", title="First guesses")]
        out.append(Figure("accuracy", "Guess accuracy", "Right guesses over guesses (guesses on a drawing of "
                          "the wrong word do not count).",
                          style(hbar(acc.head(MAX_ROWS), "accuracy", "Accuracy", tip, ".0%", alt.Scale(domain=[0, 1])),
                                bar_height(len(acc)))))
        early = acc.sort_values("mean_share").head(MAX_ROWS)
        out.append(Figure("earliness", "How early they guess",
                          "Where a player's guesses fall among all the guesses of a round, on average: "
                          "0% = always the first, 100% = always the last.",
                          style(hbar(early, "mean_share", "Average position in the round", tip, ".0%",
                                     alt.Scale(domain=[0, 1]), "#1e88e5", order="x"), bar_height(len(early)))))
    sheep = summary["black_sheep"]
    if not sheep.empty:
        tip = [alt.Tooltip("player:N", title="Player"), alt.Tooltip("black_sheep:Q", title="Black sheep"),
               alt.Tooltip("rounds:Q", title="Rounds played"), alt.Tooltip("rate:Q", title="Rate", format=".0%")]
        out.append(Figure("black_sheep", "Black sheep", "Rounds in which a player alone made the most wrong guesses.",
                          style(hbar(sheep.head(MAX_ROWS), "black_sheep", "Times the black sheep", tip,
                                     colour="#2A1F1A"), bar_height(len(sheep)))))
    words = summary["words"]
    if not words.empty:
        by_deck = (words.groupby("deck", observed=True)[["drawn", "guessed"]].sum().reset_index())
        by_deck["rate"] = by_deck["guessed"] / by_deck["drawn"]
        deck_colours = alt.Scale(domain=["green", "yellow", "orange", "red"],
                                 range=["#43a047", "#fdd835", "#fb8c00", "#e53935"])
        chart = alt.Chart(by_deck).mark_bar(cornerRadiusEnd=4).encode(
            x=alt.X("rate:Q", title="Words guessed by someone", axis=alt.Axis(format=".0%"),
                    scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("deck:N", sort=["green", "yellow", "orange", "red"], title=None),
            color=alt.Color("deck:N", scale=deck_colours, legend=None),
            tooltip=[alt.Tooltip("deck:N", title="Deck"), alt.Tooltip("drawn:Q", title="Words drawn"),
                     alt.Tooltip("guessed:Q", title="Guessed"), alt.Tooltip("rate:Q", title="Rate", format=".0%")])
        out.append(Figure("decks", "Words guessed, by deck", "A drawn word counts as guessed when at least one "
                          "player guessed it right.", style(chart, bar_height(len(by_deck)))))
        top = summary["guessed_words"].head(TOP_WORDS)
        if not top.empty:
            chart = alt.Chart(top).mark_bar(color=ACCENT, cornerRadiusEnd=4).encode(
                x=alt.X("right_guesses:Q", title="Right guesses", axis=alt.Axis(format="d", tickMinStep=1)),
                y=alt.Y("word:N", sort="-x", title=None),
                tooltip=[alt.Tooltip("word:N", title="Word"), alt.Tooltip("deck:N", title="Deck"),
                         alt.Tooltip("drawn:Q", title="Times drawn"), alt.Tooltip("guessed:Q", title="Times guessed"),
                         alt.Tooltip("right_guesses:Q", title="Right guesses")])
            out.append(Figure("guessed_words", "The words guessed most", "Right guesses on each word, all rounds.",
                              style(chart, bar_height(len(top)))))
    return out


def show(summary: dict) -> None:
    import streamlit as st

    from pages.stats_charts.render import figure

    st.caption(f"{summary['rounds_count']} rounds, {summary['guesses_count']} guesses in the selected games.")
    figures = charts(summary)
    for pair in (figures[i:i + 2] for i in range(0, len(figures), 2)):
        for column, fig in zip(st.columns(2, gap="large"), pair):
            with column:
                figure(fig)
    never = summary["never_guessed"]
    st.markdown("#### Words nobody guessed")
    if never.empty:
        st.caption("Every word drawn in these games was guessed at least once.")
    else:
        st.caption(f"{len(never)} words drawn and never guessed right.")
        st.dataframe(never[["word", "deck", "drawn"]].rename(columns={"word": "Word", "deck": "Deck",
                                                                       "drawn": "Times drawn"}),
                     hide_index=True, width="stretch", height=min(36 * len(never) + 40, 360))


def drawing_svg(strokes: list) -> str:
    """A drawing as inline SVG, in the canvas's own space (1000 × 750)."""
    lines = []
    for s in strokes:
        colour = BACKGROUND if s.get("color") == "eraser" else s.get("color", "#000000")
        points = " ".join(f"{int(x)},{int(y)}" for x, y in s.get("points", []))
        if len(s.get("points", [])) == 1:  # a dot
            x, y = s["points"][0]
            lines.append(f'<circle cx="{int(x)}" cy="{int(y)}" r="{max(1, int(s.get("width", 6)) // 2)}" '
                         f'fill="{html.escape(colour)}"/>')
            continue
        lines.append(f'<polyline points="{points}" fill="none" stroke="{html.escape(colour)}" '
                     f'stroke-width="{int(s.get("width", 6))}" stroke-linecap="round" stroke-linejoin="round"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 750" width="1000" height="750">'
            f'<rect width="1000" height="750" fill="{BACKGROUND}"/>{"".join(lines)}</svg>')


def drawing_img(strokes: list, alt: str) -> str:
    """The drawing as an <img> with an SVG data URI: st.html keeps images but strips inline <svg>."""
    data = base64.b64encode(drawing_svg(strokes).encode("utf-8")).decode("ascii")
    return (f'<img src="data:image/svg+xml;base64,{data}" alt="{html.escape(alt)}" style="width:100%;'
            f'aspect-ratio:4/3;border-radius:10px;box-shadow:0 1px 4px rgba(0,0,0,.25);background:{BACKGROUND}">')


def show_turn(record: dict, index: int, names: list[str]) -> None:
    """One round of a replay: the word cards, every drawing with its word and the guesses on it."""
    import streamlit as st

    from engine.stats.pictomania import drawn_word

    rnd = record["turns"][index]
    name = (lambda s: names[s] if 0 <= s < len(names) else "?")
    esc = html.escape
    st.markdown(f"**Round {rnd['round']}**, {esc(rnd.get('deck', ''))} deck")
    cards = "".join(
        f"<div style='flex:1 1 180px;background:#F1E4D3;border-radius:10px;padding:.5rem .8rem'>"
        f"<b>{slot}</b> · {esc(rnd.get('themes', {}).get(slot, ''))}<br>"
        + "<br>".join(f"{i}. {esc(w)}" for i, w in enumerate(words, start=1)) + "</div>"
        for slot, words in rnd["cards"].items())
    st.html(f"<div style='display:flex;flex-wrap:wrap;gap:.6rem'>{cards}</div>")
    number = {int(s): a["number"] for s, a in rnd["assignments"].items()}
    void = set(rnd.get("wrong_word", ()))
    figures = []
    for seat in sorted(number):
        a = rnd["assignments"][str(seat)]
        on_it = sorted((g for g in rnd["guesses"] if g["drawer"] == seat), key=lambda g: g["order"])
        mark = (lambda g: "" if seat in void else (" ✔" if g["number"] == number[seat] else " ✖"))
        guesses = ", ".join(f"{esc(name(g['guesser']))} {g['number']}{mark(g)} <small>(#{g['order']})</small>"
                            for g in on_it) or "no guesses"
        notes = []
        if seat in void:
            notes.append("drew the wrong word")
        token = rnd.get("black_tokens", {}).get(str(seat))
        if token is not None:
            notes.append(f"black token {token}")
        if rnd.get("black_sheep") == seat:
            notes.append("black sheep 🐑")
        notes.append(f"{rnd['scores'].get(str(seat), 0):+d} points")
        figures.append(
            f"<figure style='margin:0;flex:1 1 240px;max-width:420px'>"
            f"{drawing_img(rnd.get('drawings', {}).get(str(seat), []), f'Drawing by {name(seat)}')}"
            f"<figcaption style='font-size:1rem;line-height:1.35;margin-top:.3rem'><b>{esc(name(seat))}</b>: "
            f"{a['letter']}{a['number']} “{esc(drawn_word(rnd, seat) or '?')}”<br>Guesses: {guesses}<br>"
            f"<span style='color:#6b5a4e'>{' · '.join(notes)}</span></figcaption></figure>")
    st.html(f"<div style='display:flex;flex-wrap:wrap;gap:1rem;margin-top:.8rem'>{''.join(figures)}</div>")
