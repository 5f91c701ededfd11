"""Dixit and Dixit Odyssey: who fools whom, storytellers, finders, the cards that draw votes."""

from __future__ import annotations

import altair as alt
import pandas as pd

from pages.i18n import N_, _, n_
from pages.stats_charts.common import ACCENT, INK, MAX_ROWS, Figure, bar_figure, bars, player_shares, style

FAMILY = "dixit_family"
TAB = "🃏 Dixit & Odyssey"
# The variants as engine/stats/dixit_family.py names them ("Party, 2 laps" is read as Party).
VARIANTS = {"Classic": N_("Classic"), "Base": N_("Base"), "Party": N_("Party"), "Team": N_("Team")}
TOP_CARDS = 12
# The download buttons under the tab, one per table of the family's summary (its key in engine.stats).
CSV_LABELS = {
    # TRANSLATORS: a download button: the table of who voted for whose decoy card.
    "fooled": N_("Fooled"),
    "storytellers": N_("Storytellers"),
    "finders": N_("Finders"),
    "cards": N_("Cards"),
}


def _heatmap(fooled: pd.DataFrame) -> alt.Chart:
    busiest = (
        fooled.groupby("voter")["votes"]
        .sum()
        .add(fooled.groupby("owner")["votes"].sum(), fill_value=0)
        .sort_values(ascending=False)
        .head(16)
        .index
    )
    data = fooled[fooled["voter"].isin(busiest) & fooled["owner"].isin(busiest)]
    order = sorted(busiest)
    base = alt.Chart().encode(  # the data on the layer (common.hbar says why)
        x=alt.X(
            "owner:N",
            title=_("Whose card they voted for"),
            sort=order,
            # Upright names, every one shown: sixteen columns still fit a phone.
            axis=alt.Axis(labelAngle=-90, orient="top", labelOverlap=False, labelFontSize=13, labelBaseline="middle"),
        ),
        y=alt.Y("voter:N", title=_("Voter"), sort=order),
    )
    cells = base.mark_rect(cornerRadius=3).encode(
        color=alt.Color("votes:Q", title=_("Votes"), scale=alt.Scale(scheme="orangered"), legend=None),
        tooltip=[
            alt.Tooltip("voter:N", title=_("Voter")),
            alt.Tooltip("owner:N", title=_("Fooled by")),
            alt.Tooltip("votes:Q", title=_("Votes")),
        ],
    )
    text = base.mark_text(fontSize=14, fontWeight="bold").encode(
        text="votes:Q",
        color=alt.condition(
            alt.datum.votes > data["votes"].max() * 0.55 if len(data) else alt.datum.votes > 0,
            alt.value("white"),
            alt.value(INK),
        ),
    )
    # A height counts the axes too, and the upright names above take most of it with few players:
    # a step gives each row its own 34 px, whatever the names.
    return style(alt.layer(cells, text, data=data), alt.Step(34))


def _cards(cards: pd.DataFrame) -> alt.Chart:
    top = cards.head(TOP_CARDS).melt(
        id_vars=["card", "votes"], value_vars=["as_story", "as_decoy"], var_name="kind", value_name="count"
    )
    # The legend's labels are the data's: the kinds in the reader's language, story first.
    kinds = {"as_story": _("as the storyteller's card"), "as_decoy": _("as a decoy")}
    top["kind"] = top["kind"].map(kinds)
    chart = (
        alt.Chart(top)
        .mark_bar()
        .encode(
            x=alt.X("count:Q", title=_("Votes"), stack="zero", axis=alt.Axis(format="d", tickMinStep=1)),
            y=alt.Y("card:N", sort=alt.EncodingSortField("votes", order="descending"), title=None),
            color=alt.Color(
                "kind:N",
                title=None,
                sort=list(kinds.values()),
                scale=alt.Scale(domain=list(kinds.values()), range=[ACCENT, "#E8A968"]),
            ),
            order=alt.Order("kind:N", sort="descending"),
            tooltip=[
                alt.Tooltip("card:N", title=_("Card")),
                alt.Tooltip("kind:N", title=_("Voted for")),
                alt.Tooltip("count:Q", title=_("Votes")),
                alt.Tooltip("votes:Q", title=_("All votes")),
            ],
        )
    )
    return bars(chart)


def charts(summary: dict) -> list[Figure]:
    out = []
    if not summary["fooled"].empty:
        out.append(
            Figure(
                "fooled",
                _("Who fools whom"),
                _(
                    "Votes for a decoy card: each row a voter, each column the player whose card they "
                    "fell for. Votes for the storyteller's card are not counted here."
                ),
                _heatmap(summary["fooled"]),
            )
        )
    st = summary["storytellers"]
    if not st.empty:
        out.append(
            bar_figure(
                "storytellers",
                _("Storytellers: how often some, but not all, found the card"),
                _("The storyteller scores only then. Party turns have no storyteller's card."),
                player_shares(
                    st.head(MAX_ROWS),
                    "rate",
                    _("Success rate"),
                    [
                        alt.Tooltip("turns:Q", title=_("Turns told")),
                        alt.Tooltip("successes:Q", title=_("Successes")),
                        alt.Tooltip("nobody:Q", title=_("Nobody found it")),
                        alt.Tooltip("everybody:Q", title=_("Everybody found it")),
                    ],
                    ACCENT,
                ),
            )
        )
    fr = summary["finders"]
    if not fr.empty:
        out.append(
            bar_figure(
                "finders",
                _("Finding the storyteller's card"),
                _("Share of turns in which a player's vote went to the storyteller's card."),
                player_shares(
                    fr.head(MAX_ROWS),
                    "rate",
                    _("Find rate"),
                    [alt.Tooltip("turns:Q", title=_("Turns voted")), alt.Tooltip("found:Q", title=_("Found"))],
                    "#D8703F",
                ),
            )
        )
    if not summary["cards"].empty:
        out.append(
            Figure(
                "cards",
                _("The cards that draw the most votes"),
                _("Votes a picture received, whoever played it."),
                _cards(summary["cards"]),
            )
        )
    return out


def show(summary: dict) -> None:
    import streamlit as st

    from pages.cards import card_grid
    from pages.stats_charts.render import counted, figure

    turns = n_("{n} turn", "{n} turns", summary["turns_count"])
    st.caption(counted(turns, n_("{n} vote", "{n} votes", summary["votes_count"])))
    figures = {f.key: f for f in charts(summary)}
    if "fooled" in figures:
        figure(figures["fooled"])
    left, right = st.columns(2, gap="large")
    with left:
        if "storytellers" in figures:
            figure(figures["storytellers"])
    with right:
        if "finders" in figures:
            figure(figures["finders"])
    if "cards" in figures:
        figure(figures["cards"])
        top = summary["cards"].head(TOP_CARDS)
        card_grid(
            [
                {
                    "id": r.card,
                    "label": f"#{i + 1}",
                    "badge": n_(
                        "{n} vote ({story} as the story)", "{n} votes ({story} as the story)", r.votes, story=r.as_story
                    ),
                }
                for i, r in enumerate(top.itertuples())
            ],
            key="stats-top-cards",
            min_width=120,
        )


def show_turn(record: dict, index: int, names: list[str]) -> None:
    """One turn of a replay: the storyteller, the phrase, the cards on the table, every vote."""
    import streamlit as st

    from pages import ui
    from pages.cards import card_grid

    turn = record["turns"][index]
    name = lambda s: names[s] if s is not None and 0 <= s < len(names) else "?"
    teller = ui.esc(name(turn["storyteller"]))
    if turn.get("phrase"):
        # The quotation marks are the language's; the markup stays out of the catalogue.
        phrase = _("“{text}”", text=ui.esc(turn["phrase"]))
        st.markdown(
            _(
                "**{name}** told: {phrase}",
                name=teller,
                phrase=f"<span class='sm-phrase' style='font-size:1.3rem'>{phrase}</span>",
            ),
            unsafe_allow_html=True,
        )
    else:
        st.markdown(_("**{name}** told (the phrase was said aloud)", name=teller), unsafe_allow_html=True)
    party = record.get("options", {}).get("variant") == "party"
    received = {}
    for picks in turn.get("votes", {}).values():
        for p in picks:
            received[p] = received.get(p, 0) + 1
    story = {p["position"] for p in turn["table"] if p["owner"] == turn["storyteller"]}
    cards = [
        {
            "id": p["card"],
            "label": str(p["position"]),
            "badge": " · ".join(
                [name(p["owner"]), n_("{n} vote", "{n} votes", received.get(p["position"], 0))]
                # TRANSLATORS: on a card of a replay: the red vote was put on it.
                + ([_("red")] if turn.get("red_vote") == p["position"] else [])
            ),
            "glow": p["position"] in story and not party,
        }
        for p in turn["table"]
    ]
    card_grid(cards, key=f"replay-{record.get('room')}-{record.get('game_no')}-{index}", min_width=110)
    owner = {p["position"]: p["owner"] for p in turn["table"]}
    found = {True: _("yes"), False: _("no")}
    rows = [
        {
            _("Voter"): name(int(v)),
            _("Voted for"): ", ".join(_("card {card} ({name}'s)", card=p, name=name(owner[p])) for p in picks),
            _("Found the story"): "—" if party else found[bool(set(picks) & story)],
            _("Points"): turn["scores"].get(v, 0),
        }
        for v, picks in turn.get("votes", {}).items()
    ]
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if turn.get("red_vote") is not None:
        st.caption(_("Red vote: card {card}: who voted for it scores nothing this turn.", card=turn["red_vote"]))
    if turn.get("team_scores"):
        teams = ", ".join(_("team {team}: {points}", team=int(t) + 1, points=p) for t, p in turn["team_scores"].items())
        st.caption(_("Team points this turn: {teams}", teams=teams))
