"""The statistics page runs under AppTest on an empty archive, on a simulated one, and with one
game's replay open, through the real entry point (app.py and its navigation)."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine import demo, stats, tables
from pages import archive_table, ui
from tests.helpers import archive_once

TIMEOUT = 60
ROOT = Path(__file__).resolve().parents[2]


def run(at=None):
    at = at or AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.switch_page("pages/stats.py").run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def open_tab(at, label):
    """What a click on a tab does: only the open tab's content runs (the page reruns)."""
    at.session_state["stats-tabs"] = label
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def archive_html(at) -> str:
    return "".join(h.proto.body for h in at.get("html") if "sm-archive" in h.proto.body)


def archive_rows(at) -> int:
    """Games in the archive's table (plain HTML, pages/archive_table.py): its rows less the headings."""
    return archive_html(at).count("<tr>") - 1


def n_games(n: int) -> str:
    return f"{n} game" + ("" if n == 1 else "s") + " ·"


def texts(at):
    return "\n".join(str(x.value) for x in [*at.info, *at.caption, *at.markdown, *at.success])


@pytest.fixture(autouse=True)
def on_the_host_laptop(monkeypatch):
    """AppTest has no client address; the page is opened on the server's own machine."""
    monkeypatch.setattr(ui, "is_local_request", lambda: True)


@pytest.fixture(scope="module")
def archive_dir(tmp_path_factory):
    return archive_once(tmp_path_factory, "stats-pages", lambda: demo.simulate(games=8, seed=5))


@pytest.fixture
def simulated(archive_dir, monkeypatch):
    monkeypatch.setenv("SOBREMESA_DATA", str(archive_dir))
    tables.reset()


def test_an_empty_archive_says_how_to_get_games():
    at = run()
    assert "No saved games yet" in texts(at)
    assert any(b.label == "Load demo data" for b in at.button)


def test_the_demo_button_fills_the_archive(monkeypatch):
    played = []
    monkeypatch.setattr(demo, "simulate", lambda games: played.append(games))
    at = run()
    next(b for b in at.button if b.label == "Load demo data").click().run()
    assert not at.exception and played == [30]


def test_a_simulated_archive_shows_every_tab(simulated):
    at = run()
    assert [t.label for t in at.tabs] == ["🗂️ Archive", "🎬 Replay", "🏆 Players", "🃏 Dixit & Odyssey", "✏️ Pictomania"]
    assert "8 games" in texts(at)
    assert archive_rows(at) == 8 and not at.get("vega_lite_chart")  # the archive; no other tab's charts
    open_tab(at, "🃏 Dixit & Odyssey")
    assert "Who fools whom" in texts(at) and "Black sheep" not in texts(at)
    dixit_charts = len(at.get("vega_lite_chart"))
    open_tab(at, "✏️ Pictomania")
    assert "Black sheep" in texts(at) and "Who fools whom" not in texts(at)
    assert dixit_charts + len(at.get("vega_lite_chart")) >= 8
    open_tab(at, "🏆 Players")
    assert at.get("vega_lite_chart") and "Player" in at.dataframe[0].value.columns


def test_filters_narrow_the_games_and_keep_the_open_tab(simulated):
    at = open_tab(run(), "✏️ Pictomania")
    charts = len(at.get("vega_lite_chart"))
    at.multiselect(key="f-games").set_value(["pictomania"]).run()
    assert not at.exception
    assert at.session_state["stats-tabs"] == "✏️ Pictomania" and len(at.get("vega_lite_chart")) == charts
    drawn = sum(r["game"] == "pictomania" for r in tables.records())
    assert n_games(drawn) in texts(at)
    open_tab(at, "🃏 Dixit & Odyssey")  # still there: the tabs do not follow the filters
    assert "None of the selected games is a game of Dixit & Odyssey" in texts(at)


def test_a_filter_that_matches_nothing_says_so_and_keeps_the_open_tab(simulated):
    at = open_tab(run(), "🏆 Players")
    results = stats.prepare(tables.records(), {}).results
    played = set(zip(results["player"], results["game"], strict=True))
    person, game = next(
        (p, g)
        for p in at.multiselect(key="f-players").options
        for g in ("dixit", "odyssey", "pictomania")
        if (p, g) not in played
    )
    at.multiselect(key="f-players").set_value([person]).run()
    at.multiselect(key="f-games").set_value([game]).run()
    assert "No game matches these filters" in texts(at) and at.session_state["stats-tabs"] == "🏆 Players"
    at.multiselect(key="f-games").set_value([]).run()
    assert at.session_state["stats-tabs"] == "🏆 Players" and at.get("vega_lite_chart")


def test_the_replay_keeps_its_game_and_turn_while_another_tab_is_open(simulated):
    at = open_tab(run(), "🎬 Replay")
    at.selectbox(key="replay-game").set_value(2).run()
    at.slider(key="replay-turn-2").set_value(2).run()
    open_tab(at, "🏆 Players")
    open_tab(at, "🎬 Replay")
    assert at.selectbox(key="replay-game").value == 2 and at.slider(key="replay-turn-2").value == 2


def test_each_game_opens_as_a_replay(simulated):
    at = open_tab(run(), "🎬 Replay")
    seen = set()
    records = tables.records()
    for gid, record in enumerate(records):
        if record["game"] in seen:
            continue
        seen.add(record["game"])
        at.selectbox(key="replay-game").set_value(gid).run()
        assert not at.exception, [e.message for e in at.exception]
        slider = at.slider(key=f"replay-turn-{gid}")
        slider.set_value(len(record["turns"])).run()
        assert not at.exception, [e.message for e in at.exception]
        if record["game"] == "pictomania":
            # the drawings in the sheets component, replayable on demand (play, pause, speed)
            assert any('"plan"' in c.proto.json and '"player"' in c.proto.json for c in at.get("bidi_component"))
    assert seen == {"dixit", "odyssey", "pictomania"}


def test_the_host_merges_two_names(simulated):
    at = open_tab(run(), "🏆 Players")
    people = at.selectbox(key="merge-name").options
    name = "Lucia" if "Lucia" in people else people[-1]
    at.selectbox(key="merge-name").set_value(name).run()
    into = at.selectbox(key="merge-into").options[0]
    at.selectbox(key="merge-into").set_value(into).run()
    at.button(key="merge-go").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert name not in at.selectbox(key="merge-name").options


def test_the_archive_table_is_newest_first_and_shows_the_most_recent_games(simulated, monkeypatch):
    monkeypatch.setattr(archive_table, "ROWS", 3)
    at = run()
    assert archive_rows(at) == 3 and "The 3 most recent games of the selection" in texts(at)
    newest = max(tables.records(), key=lambda r: r["started_at"])
    first_row = archive_html(at).split("<tbody><tr>")[1].split("</tr>")[0]
    assert ui.GAME_TITLES[newest["game"]] in first_row


def test_the_archive_table_shows_player_text_as_text():
    table = archive_table.html(["Players"], [["<img src=x onerror=alert(1)> & **Zoë**"]], set(), "Archive")
    assert "<img" not in table and "&lt;img src=x onerror=alert(1)&gt; &amp; **Zoë**" in table
