"""Statistics: the archive of finished games as tables, replays and charts.

The laptop's: on the laptop, the whole archive; on a phone, only the games its browser played in
(`played_by`, narrowed by the table service, so no table, chart, download or replay can show
another game). Only renders. The figures come from engine.stats (pandas, prepared once per archive
version and cached), the charts from each family's `charts.py` (pages/games) and the shared
pages.stats_charts. Its tabs are lazy (`st.tabs(..., on_change="rerun")`: only the open tab's
content runs and travels); the archive table is plain HTML (pages/archive_table.py: Streamlit's
grid brought 1.2 MB of JavaScript); charts are styled in place and layered with their data on the
layer, and checked by tests/pages/test_stats_charts.py rather than as they are made.
"""

from __future__ import annotations

import streamlit as st

from engine import demo, paths, stats, tables
from pages import archive_table, stats_erase, ui
from pages.games import charts as family_charts
from pages.i18n import N_, _, n_, when
from pages.stats_charts import common
from pages.stats_charts.render import figure

DEMO_GAMES = 30

# A replay's words for one turn, by the game's turn word ("turn" or "round"): whole phrases, since
# other languages inflect the word (and agree with it) differently in each. In order: the slider
# and the chart's axis, the chart's heading, the table's heading, the table's column.
TURN_TEXTS = {
    "turn": (N_("Turn"), N_("Scores, turn by turn"), N_("After turn {at}"), N_("This turn")),
    "round": (N_("Round"), N_("Scores, round by round"), N_("After round {at}"), N_("This round")),
}


# The page reads each saved game's flat rows (written when the game was saved), never the records:
# ten thousand records take seconds to parse. One record is read when a replay opens it.
# Shared, never copied (cache_resource), and keyed on the archive's version and the merges, so a
# game that ends shows up at once and nothing is read twice. Read-only for the pages.
@st.cache_resource(show_spinner=False, max_entries=3)
def _archive(database: str, version: tuple, alias_items: tuple) -> stats.Archive:
    return stats.from_rows(tables.stat_rows(), dict(alias_items))


# A phone's own games: a few each, kept apart so that phones never push the laptop's out.
@st.cache_resource(show_spinner=False, max_entries=64)
def _phone_archive(database: str, version: tuple, alias_items: tuple, played_by: str) -> stats.Archive:
    return stats.from_rows(tables.stat_rows(played_by), dict(alias_items))


def played_by() -> str | None:
    """Whose games this tab sees: None on the laptop (all of them), else this browser's device id
    ("" without one: no game)."""
    return None if ui.is_local_request() else (ui.device().id or "")


# The figures, per selection: the players' (the caption counts them) and each family's, built only
# when a family's tab opens (most of the work, and the first render shows the archive).
@st.cache_data(show_spinner=False, max_entries=16)
def _players(signature: tuple, alias_items: tuple, ids: tuple, _archive: stats.Archive, bots: bool = False):
    return stats.player_summary(_archive, list(ids), bots)


@st.cache_data(show_spinner=False, max_entries=16)
def _families(signature: tuple, alias_items: tuple, ids: tuple, _archive: stats.Archive):
    return stats.summaries(_archive, list(ids))


def _csv(frame):
    return lambda: frame.to_csv(index=False).encode("utf-8")


def _download(label: str, frame, name: str) -> None:
    st.download_button(
        label,
        data=_csv(frame),
        file_name=name,
        mime="text/csv",
        key=f"csv-{name}",
        icon=":material/download:",
        on_click="ignore",
        disabled=frame.empty,
    )


def _csv_label(family: str, key: str) -> str:
    """A family's table by its label (`CSV_LABELS`); a table the module does not name, by its key."""
    label = getattr(CHARTS[family], "CSV_LABELS", {}).get(key)
    return _(label) if label else key.replace("_", " ").capitalize()


def empty_state() -> None:
    st.info(_("No saved games yet: play one, or load demo data."), icon="🎲")
    st.caption(
        n_(
            "Demo data is {n} game of every kind, played by a simulated group of friends through the "
            "same table service as real games. They stay in this computer's archive.",
            "Demo data is {n} games of every kind, played by a simulated group of friends through the "
            "same table service as real games. They stay in this computer's archive.",
            DEMO_GAMES,
        )
    )
    if not ui.is_local_request():
        st.caption(_("Demo data can be loaded from the computer that runs Sobremesa."))
        return
    if st.button(_("Load demo data"), type="primary", icon="🎲", key="demo-load"):
        with st.spinner(n_("Playing {n} game…", "Playing {n} games…", DEMO_GAMES)):
            demo.simulate(games=DEMO_GAMES)
        st.rerun()


def filters(archive: stats.Archive):
    games = archive.games
    kinds = sorted(games["game"].unique(), key=lambda g: stats.archive.GAME_TITLES.get(g, g))
    bots = bool(st.session_state.get("f-bots"))
    results = archive.results if bots else archive.results[~archive.results["bot"]]
    people = sorted(results["player"].unique(), key=str.casefold)
    first, last = games["date"].min(), games["date"].max()
    cols = st.columns([2, 2, 3])
    chosen = cols[0].multiselect(
        _("Games"),
        kinds,
        format_func=lambda g: stats.archive.GAME_TITLES.get(g, g),
        placeholder=_("All games"),
        key="f-games",
    )
    dates = cols[1].date_input(_("Dates"), value=(first, last), min_value=first, max_value=last, key="f-dates")
    who = cols[2].multiselect(_("Players"), people, placeholder=_("Everyone"), key="f-players")
    if archive.results["bot"].any():
        cols[2].toggle("🤖 " + _("Include computer players"), key="f-bots")
    start, end = (tuple(dates) + (None, None))[:2] if isinstance(dates, (tuple, list)) else (dates, dates)
    return stats.select(archive, games=chosen, start=start, end=end or start, players=who)


def _minutes(value) -> str:
    return "" if value != value or value is None else f"{value:.0f}"  # NaN: a game with no duration


def archive_tab(archive: stats.Archive, ids) -> None:
    games = archive.games.loc[ids].sort_values("started_at", ascending=False)
    # Plain HTML, not st.dataframe: the grid's JavaScript was most of the page's first render.
    shown = games.head(archive_table.ROWS)
    rows = [
        [when(at, with_time=True), title, variant_label(variant), players, winners, _minutes(minutes), str(turns)]
        for at, title, variant, players, winners, minutes, turns in zip(
            *(shown[c] for c in ("started_at", "title", "variant", "players", "winners", "duration_min", "turns")),
            strict=True,
        )
    ]
    headings = [_("Date"), _("Game"), _("Variant"), _("Players"), _("Won"), _("Minutes"), _("Turns")]
    st.html(archive_table.html(headings, rows, numeric={5, 6}, label=_("Archive")))
    if len(games) > archive_table.ROWS:
        st.caption(
            n_(
                "The {n} most recent game of the selection; use the filters to reach older ones.",
                "The {n} most recent games of the selection; use the filters to reach older ones.",
                archive_table.ROWS,
            )
        )
    results = archive.results[archive.results["game_id"].isin(ids)].merge(
        archive.games[["room", "game_no", "started_at", "variant"]], left_on="game_id", right_index=True
    )
    with st.container(horizontal=True):
        _download(_("Games (CSV)"), games.drop(columns=["title"]).reset_index(), "sobremesa-games.csv")
        _download(
            _("Every player's result (CSV)"),
            results[
                [
                    "game_id",
                    "room",
                    "game_no",
                    "started_at",
                    "game",
                    "variant",
                    "seat",
                    "name",
                    "player",
                    "team",
                    "score",
                    "placement",
                    "won",
                ]
            ],
            "sobremesa-results.csv",
        )
    if ui.is_local_request():
        stats_erase.section(archive, lambda: _labels(archive, ids))


# The variants as the statistics rows name them (engine/stats), shown in the reader's language: each
# family names its own (its chart module's VARIANTS).
CHARTS = {name: family_charts(name) for name in stats.FAMILIES}  # each family's tab, from its game folder
VARIANT_WORDS = {word: label for module in CHARTS.values() for word, label in getattr(module, "VARIANTS", {}).items()}


def variant_label(text: str) -> str:
    """'Party, 2 laps' -> the same in the tab's language; names it does not know stay as they are."""
    kind, _comma, laps = str(text).partition(", ")
    word = _(VARIANT_WORDS[kind]) if kind in VARIANT_WORDS else kind
    count = laps.split(" ")[0]
    if laps and count.isdigit():
        return n_("{kind}, {n} lap", "{kind}, {n} laps", int(count), kind=word)
    return word if not laps else str(text)


REPLAY_CHOICES = 300  # the most recent games of the selection; filters reach older ones


def _labels(archive: stats.Archive, ids) -> dict:
    g = archive.games.loc[ids].sort_values("started_at", ascending=False).head(REPLAY_CHOICES)
    won = g["winners"].map(lambda w: " · " + _("won by {names}", names=w) if w else "")
    variant = g["variant"].map(lambda v: f" ({variant_label(v)})" if v else "")  # a game without variants: none
    text = (
        g["started_at"].map(lambda moment: when(moment, with_time=True))
        + " · "
        + g["title"]
        + variant
        + " · "
        + g["players"]
        + won
    )
    return dict(zip(g.index, text, strict=True))


def replay_tab(archive: stats.Archive, ids) -> None:
    labels = _labels(archive, ids)
    # Kept while another tab is open (only the open tab's widgets are drawn).
    gid = st.selectbox(_("Open a game"), list(labels), format_func=labels.get, key="replay-game", persist_state="page")
    if len(ids) > REPLAY_CHOICES:
        st.caption(
            n_(
                "The {n} most recent game of the selection; use the filters to reach older ones.",
                "The {n} most recent games of the selection; use the filters to reach older ones.",
                REPLAY_CHOICES,
            )
        )
    record = tables.saved_game(archive.games.at[gid, "room"], int(archive.games.at[gid, "game_no"]), played_by())
    if record is None:
        st.info(_("This game is no longer in the archive."))
        return
    names = archive.names_of(gid)
    turns = record.get("turns", [])
    known = tables.games().get(record["game"])
    label, heading, after, this_turn = TURN_TEXTS.get(known.turn_word if known else "turn", TURN_TEXTS["turn"])
    word = _(label)
    if not turns:
        st.info(_("This game ended before a single turn was played."))
        return
    at = st.slider(word, 1, len(turns), 1, key=f"replay-turn-{gid}", persist_state="page") if len(turns) > 1 else 1
    history = stats.score_history(record, names)
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.markdown("#### " + _(heading))
        st.altair_chart(
            common.unvalidated(common.style(common.score_lines(history, word, at), 320)),
            width="stretch",
            key="chart-replay-scores",
        )
    with right:
        st.markdown("#### " + _(after, at=at))
        now = history[history["turn"] == at].sort_values("score", ascending=False)
        st.dataframe(
            now[["player", "points", "score"]].rename(
                columns={"player": _("Player"), "points": _(this_turn), "score": _("Score")}
            ),
            hide_index=True,
            width="stretch",
        )
    charts = CHARTS.get(getattr(stats.family_of(record["game"]), "NAME", ""))
    if charts is not None:
        charts.show_turn(record, at - 1, names)


def players_tab(archive: stats.Archive, summary, ids) -> None:
    if summary.empty:
        st.info(_("No results in the selected games."))
        return
    figures = common.player_figures(summary)
    for column, fig in zip(st.columns(len(figures), gap="large"), figures, strict=True):
        with column:
            figure(fig)
    shown = summary.assign(win_rate=(summary["win_rate"] * 100).round())  # "33%", not "33.33%"
    labels = {
        "player": _("Player"),
        "games": _("Games"),
        "wins": _("Wins"),
        "win_rate": _("Win rate"),
        "avg_score": _("Average score"),
        "avg_placement": _("Average placement"),
        "clock_skips": _("Skipped by the clock"),
    }
    st.dataframe(
        shown.rename(columns=labels),
        hide_index=True,
        width="stretch",
        column_config={labels["win_rate"]: st.column_config.ProgressColumn(format="%d%%", min_value=0, max_value=100)},
    )
    _download(_("Players (CSV)"), summary, "sobremesa-players.csv")
    audience_table(archive, ids)
    if ui.is_local_request():
        merge_names(archive)


def audience_table(archive: stats.Archive, ids) -> None:
    """The best audience readers in the selected games (members' points never enter the players')."""
    readers = stats.audience_summary(archive, list(ids))
    if readers.empty:
        return
    st.subheader("👀 " + _("Best audience readers"))
    labels = {
        "place": _("Place"),
        "member": _("Member"),
        "games": _("Games watched"),
        "points": _("Points"),
        "avg_points": _("Points per game"),
        "best": _("Best game"),
    }
    st.dataframe(readers.rename(columns=labels), hide_index=True, width="stretch")


def merge_names(archive: stats.Archive) -> None:
    with st.expander(_("Two names, one person? Merge them"), key="merge-open"):
        st.caption(
            _(
                "Names that differ only in capitals or spaces are already one person. For the rest "
                "(“Lucia” and “Lucía”, a nickname), tell Sobremesa they are the same person."
            )
        )
        people = sorted(archive.results["player"].unique(), key=str.casefold)
        if len(people) < 2:
            return
        cols = st.columns(2)
        name = cols[0].selectbox(_("This name"), people, key="merge-name")
        into = cols[1].selectbox(_("is the same person as"), [p for p in people if p != name], key="merge-into")
        if st.button(_("Merge"), key="merge-go") and ui.attempt(tables.merge_players, name, into):
            st.session_state["flash-ok"] = _("“{name}” now counts as {into}.", name=ui.esc(name), into=ui.esc(into))
            st.rerun()
        merged = tables.player_aliases()
        if merged:
            st.caption(
                _("Merged so far: {pairs}", pairs=ui.esc("; ".join(f"{a} → {b}" for a, b in sorted(merged.items()))))
            )


def family_tab(name: str, family: dict | None) -> None:
    if family is None:
        st.info(
            _(
                "None of the selected games is a game of {games}. Clear a filter to see them.",
                games=stats.FAMILIES[name].TITLE,
            )
        )
        return
    CHARTS[name].show(family)
    tables_ = {key: frame for key, frame in family.items() if hasattr(frame, "to_csv") and not frame.empty}
    st.caption(_("The figures above as CSV:"))
    with st.container(horizontal=True):
        for key, frame in tables_.items():
            st.download_button(
                _csv_label(name, key),
                data=_csv(frame),
                file_name=f"sobremesa-{name}-{key}.csv",
                mime="text/csv",
                key=f"csv-{name}-{key}",
                icon=":material/download:",
                on_click="ignore",
            )


def main() -> None:
    ui.style()
    st.title("📊 " + _("Statistics"))
    ui.flash()
    done = st.session_state.pop("flash-ok", None)
    if done:
        st.success(done, icon="✅")
    whose = played_by()
    version = tables.archive_version(whose)
    if not version[0]:
        if whose is None:
            empty_state()
        else:
            st.info(
                _(
                    "Statistics shows the games played from this phone, and none was played from it yet. "
                    "The whole archive is on the computer that runs Sobremesa."
                ),
                icon="📱",
            )
        st.page_link("pages/home.py", label=_("Back to the start"), icon="🏠")
        return
    if whose is not None:
        st.caption(
            _("Only the games played from this phone. The whole archive is on the computer that runs Sobremesa.")
        )
    aliases = tuple(sorted(tables.player_aliases().items()))
    if whose is None:
        archive = _archive(paths.database_url(), version, aliases)
    else:
        archive = _phone_archive(paths.database_url(), version, aliases, whose)
    signature = (*version, whose)
    ids = filters(archive)
    chosen_ids = tuple(int(i) for i in ids)
    if chosen_ids:
        summary = _players(signature, aliases, chosen_ids, archive, bool(st.session_state.get("f-bots")))
        chosen = archive.games.loc[ids]
        st.caption(
            " · ".join(
                [
                    n_("{n} game", "{n} games", len(ids)),
                    n_("{n} player", "{n} players", len(summary)),
                    f"{when(chosen['date'].min())} – {when(chosen['date'].max())}",
                ]
            )
        )
    # A tab for every family the archive holds, whatever the filters: the open tab is remembered by
    # its labels, and a filter that changed them sent the reader back to the first tab.
    played = set(archive.games["game"])
    shown = [name for name in CHARTS if played & set(stats.members(stats.FAMILIES[name]))]
    # The families' tabs are named after their games: titles, not translated. Only the open tab's
    # content runs and travels (a tab change reruns the page): every chart of every tab at once
    # was most of the page's first render in the browser (bench/stats_page.py).
    tabs = st.tabs(
        ["🗂️ " + _("Archive"), "🎬 " + _("Replay"), "🏆 " + _("Players")] + [CHARTS[name].TAB for name in shown],
        key="stats-tabs",
        on_change="rerun",
    )
    sections = [
        lambda: archive_tab(archive, ids),
        lambda: replay_tab(archive, ids),
        lambda: players_tab(archive, summary, ids),
    ]  # run only when some game matches
    sections += [
        lambda name=name: family_tab(name, _families(signature, aliases, chosen_ids, archive).get(name))
        for name in shown
    ]
    for tab, section in zip(tabs, sections, strict=True):
        if tab.open:
            with tab:
                if chosen_ids:
                    section()
                else:  # the tabs stay drawn, so the open one is still open once a filter is cleared
                    st.info(_("No game matches these filters. Clear a filter to see more."))
    st.divider()
    st.page_link("pages/home.py", label=_("Back to the start"), icon="🏠")


main()
