"""Maudit Mot Dit: who finds the word, which box holders keep their promise, how bold a promise can be."""

from __future__ import annotations

import altair as alt

from pages import ui
from pages.i18n import N_, _, n_
from pages.stats_charts.common import Figure, bar_figure, hbar, player_shares, share_bars

FAMILY = "maudit_mot_dit"
TAB = "📦 Maudit Mot Dit"
# The download buttons under the tab, one per table of the family's summary (its key in engine.stats).
CSV_LABELS = {"finders": N_("Word finders"), "holders": N_("Box holders"), "promises": N_("Promises")}


def charts(summary: dict) -> list[Figure]:
    out = []
    finders = summary["finders"]
    if not finders.empty:
        tip = [
            alt.Tooltip("player:N", title=_("Player")),
            alt.Tooltip("found:Q", title=_("Words found")),
            alt.Tooltip("answers:Q", title=_("Answers")),
            alt.Tooltip("rate:Q", title=_("Right answers"), format=".0%"),
        ]
        out.append(
            bar_figure(
                "finders",
                _("Who finds the word"),
                _("Right answers, every round they answered in."),
                hbar(finders, "found", _("Words found"), tip),
            )
        )
    holders = summary["holders"]
    if not holders.empty:
        extra = [
            alt.Tooltip("kept:Q", title=_("Kept")),
            alt.Tooltip("found:Q", title=_("Words found")),
            alt.Tooltip("rounds:Q", title=_("Rounds with the box")),
            alt.Tooltip("mean_count:Q", title=_("Clues promised, on average")),
        ]
        out.append(
            bar_figure(
                "holders",
                _("Box holders who keep their promise"),
                _(
                    "Rounds in which the word was found on exactly the number of clues promised: the only "
                    "way the box holder scores."
                ),
                player_shares(holders, "rate", _("Promises kept"), extra, "#1e88e5"),
            )
        )
    promises = summary["promises"]
    if not promises.empty:
        shown = promises.assign(promise=promises["count"].map(lambda n: n_("{n} clue", "{n} clues", int(n))))
        tip = [
            alt.Tooltip("promise:N", title=_("Promise")),
            alt.Tooltip("rounds:Q", title=_("Rounds")),
            alt.Tooltip("found:Q", title=_("Words found")),
            alt.Tooltip("kept:Q", title=_("Kept")),
        ]
        chart = share_bars(
            shown, "rate", _("Promises kept"), tip, "#8E2C2C", order=list(shown["promise"]), category="promise"
        )
        out.append(
            bar_figure(
                "promises",
                _("How bold a promise can be"),
                _("Promises kept, by the number of clues the box holder chose."),
                chart,
            )
        )
    return out


def show(summary: dict) -> None:
    from pages.stats_charts.render import counted, show_family

    rounds = n_("{n} round", "{n} rounds", summary["rounds_count"])
    show_family(counted(rounds, n_("{n} answer", "{n} answers", summary["answers_count"])), charts(summary))


def show_turn(record: dict, index: int, names: list[str]) -> None:
    """One round of a replay: the word, every clue with its answers, and how it ended."""
    import streamlit as st

    r = record["turns"][index]
    name = lambda s: ui.esc(names[s]) if s is not None and 0 <= s < len(names) else "?"
    holder, chosen = name(r["box_holder"]), r.get("chosen")
    if r.get("abandoned") or not chosen:
        st.markdown(_("**{name}**'s turn with the box passed without a round.", name=holder))
    else:
        st.markdown(
            _(
                "**{name}** promised “{word}” in {clues}.",
                name=holder,
                word=ui.esc(chosen["word"]),
                clues=n_("{n} clue", "{n} clues", chosen["count"]),
            )
        )
        rows = []
        for clue in r.get("clues", ()):
            said = " · ".join(
                f"{name(a['seat'])}: {ui.esc(a['answer'])} " + ("✔" if a.get("correct") else "✖")
                for a in clue.get("answers", ())
            ) or _("no answers")
            rows.append(f"<li><b>{ui.esc(clue['clue'])}</b> — {said}</li>")
        if rows:
            st.html(f"<ol style='font-size:1.05rem;line-height:1.6;margin:.2rem 0 .6rem'>{''.join(rows)}</ol>")
        if r.get("guessed_on"):
            st.markdown(_("Found on clue {n}.", n=r["guessed_on"]))
        else:
            st.markdown(_("Nobody found it."))
    spells = [name(s) for s in r.get("slow_spells", ())] + (
        [name(r["spell_to"])] if r.get("spell_to") is not None else []
    )
    notes = []
    if spells:
        notes.append(_("Spells: {names}", names=", ".join(spells)))
    if r.get("curse_to") is not None:
        notes.append(_("The curse went to {name}.", name=name(r["curse_to"])))
    points = ", ".join(f"{name(int(s))} {p:+d}" for s, p in r.get("scores", {}).items() if p)
    if points:
        notes.append(_("Points: {points}", points=points))
    if notes:
        st.caption(" · ".join(notes))
