"""Maudit Mot Dit's statistics family: its frames survive the packed rows, its figures follow from
the records alone, its charts validate, and the Statistics page shows its tab and its replays."""

from collections import Counter

import pandas as pd
import pytest

from engine import stats, tables
from engine.stats import maudit_mot_dit as family
from pages.games import charts
from pages.stats_charts import common
from tests.engine.games.test_new_game_records import play_to_the_end
from tests.helpers import archive_once, copy_archive
from tests.pages.test_pages_stats import open_tab, run as run_stats, texts


def _three_games() -> None:
    for seed, players in ((1, 3), (2, 4), (3, 6)):
        play_to_the_end("maudit_mot_dit", {}, players, seed=seed)
    tables.settle()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return archive_once(tmp_path_factory, "maudit-archive", _three_games)


@pytest.fixture
def archive(played, data_dir):
    """Each test's own copy of the played games."""
    copy_archive(played, data_dir)
    return stats.from_rows(tables.stat_rows(), {})


def test_the_packed_rows_give_the_frames_the_records_give(archive):
    records = tables.records()
    direct = family.frames(records, list(range(len(records))))
    for name, frame in direct.items():
        pd.testing.assert_frame_equal(archive.frames["maudit_mot_dit"][name], frame)
    assert len(direct["rounds"]) == sum(len(r["turns"]) for r in records) > 0


def test_the_figures_follow_from_the_records_alone(archive):
    summary = stats.summaries(archive, stats.select(archive))["maudit_mot_dit"]
    found, answers, held, kept, promised = Counter(), Counter(), Counter(), Counter(), Counter()
    for r in tables.records():
        names = {p["seat"]: p["name"] for p in r["players"]}
        for rnd in r["turns"]:
            for seat in rnd["guessers"]:  # the record's own word for who found it
                found[names[seat]] += 1
            for clue in rnd["clues"]:
                for a in clue["answers"]:
                    answers[names[a["seat"]]] += 1
            if rnd.get("abandoned"):
                continue
            held[names[rnd["box_holder"]]] += 1
            promised[rnd["chosen"]["count"]] += 1
            # The holder scores only when the promise is kept (the record's scores say so).
            kept[names[rnd["box_holder"]]] += rnd["scores"].get(str(rnd["box_holder"]), 0) > 0
    finders = summary["finders"].set_index("player")
    assert finders["found"].to_dict() == {p: found[p] for p in answers}
    assert finders["answers"].to_dict() == dict(answers)
    holders = summary["holders"].set_index("player")
    assert holders["rounds"].to_dict() == dict(held) and holders["kept"].to_dict() == {p: kept[p] for p in held}
    assert summary["promises"].set_index("count")["rounds"].to_dict() == dict(promised)


def test_every_chart_validates(archive):
    summary = stats.summaries(archive, stats.select(archive))["maudit_mot_dit"]
    figures = charts("maudit_mot_dit").charts(summary)
    assert [f.key for f in figures] == ["finders", "holders", "promises"]
    for fig in figures:
        assert common.unvalidated(fig.chart).to_dict() == type(fig.chart).to_dict(fig.chart, validate=True)


def test_the_statistics_page_shows_the_tab_and_replays_every_round(archive):
    at = run_stats()
    open_tab(at, "📦 Maudit Mot Dit")
    assert "Who finds the word" in texts(at) and len(at.get("vega_lite_chart")) == 3
    open_tab(at, "🎬 Replay")
    record = tables.records()[0]
    at.selectbox(key="replay-game").set_value(0).run()
    for at_round in range(1, len(record["turns"]) + 1):
        at.slider(key="replay-turn-0").set_value(at_round).run()
        assert not at.exception, [e.message for e in at.exception]
        shown = texts(at) + "\n".join(h.proto.body for h in at.get("html"))
        assert "promised" in shown or "passed without a round" in shown
