"""Trading Faces' statistics family: its frames survive the packed rows, its figures follow from the
records alone, its charts validate, and the Statistics page shows its tab and its replays."""

from collections import Counter

import pandas as pd
import pytest

from engine import stats, tables
from engine.stats import rows, trading_faces as family
from engine.tables import archive as saved_games
from pages.games import charts
from pages.stats_charts import common
from tests.engine.games.test_new_game_records import play_to_the_end
from tests.helpers import archive_once, copy_archive
from tests.pages.test_pages_stats import open_tab, run as run_stats, texts


def _four_games() -> None:
    for seed, players in ((1, 3), (2, 4), (3, 5)):
        play_to_the_end("trading_faces", {"variant": "classic"}, players, seed=seed)
    play_to_the_end("trading_faces", {"variant": "memory"}, 3, seed=4)
    tables.settle()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return archive_once(tmp_path_factory, "faces-archive", _four_games)


@pytest.fixture
def archive(played, data_dir):
    """Each test's own copy of the played games: some rebuild or break their rows."""
    copy_archive(played, data_dir)
    return stats.from_rows(tables.stat_rows(), {})


def test_the_packed_rows_give_the_frames_the_records_give(archive):
    records = tables.records()
    direct = family.frames(records, list(range(len(records))))
    for name, frame in direct.items():
        pd.testing.assert_frame_equal(archive.frames["trading_faces"][name], frame)
    faces = [t for r in records for t in r["turns"] if "face_maker" in t]
    assert len(direct["faces"]) == len(faces) > 0
    assert len(direct["guesses"]) == sum(len(t["guesses"]) for t in faces)


def test_the_figures_follow_from_the_records_alone(archive):
    records = tables.records()
    summary = stats.summaries(archive, stats.select(archive))["trading_faces"]
    guesses, right, made, read = Counter(), Counter(), Counter(), Counter()
    for r in records:
        names = {p["seat"]: p["name"] for p in r["players"]}
        for turn in r["turns"]:
            if "face_maker" not in turn:
                continue
            maker = names[turn["face_maker"]]
            made[maker] += 1
            read[maker] += turn["winner"] is not None  # the record's own word for it
            for g in turn["guesses"]:
                guesses[names[g["guesser"]]] += 1
                right[names[g["guesser"]]] += g["emotion"] == turn["emotion"]
    readers = summary["readers"].set_index("player")
    assert readers["guesses"].to_dict() == dict(guesses)
    assert readers["right"].to_dict() == {p: right[p] for p in guesses}
    makers = summary["makers"].set_index("player")
    assert makers["faces"].to_dict() == dict(made)
    assert makers["read"].to_dict() == {p: read[p] for p in made}
    assert summary["faces_count"] == sum(made.values()) and summary["emotions"]["faces"].sum() == sum(made.values())


def test_every_chart_validates(archive):
    summary = stats.summaries(archive, stats.select(archive))["trading_faces"]
    figures = charts("trading_faces").charts(summary)
    assert [f.key for f in figures] == ["readers", "makers", "emotions"]
    for fig in figures:
        assert common.unvalidated(fig.chart).to_dict() == type(fig.chart).to_dict(fig.chart, validate=True)


def test_rows_packed_before_the_family_existed_are_built_again(archive, monkeypatch):
    record = tables.records()[0]
    with monkeypatch.context() as m:
        m.setattr(rows, "family_of", lambda game: None)  # as a game was packed before this family
        old = rows.pack(record)
    assert rows.stale("trading_faces", old)
    with tables.store().transaction() as conn:
        tables.store().save_stat_rows(conn, record["room"], record["game_no"], old)
    again = stats.from_rows(tables.stat_rows(), {})
    assert len(again.frames["trading_faces"]["faces"]) == len(archive.frames["trading_faces"]["faces"])
    assert not any(rows.stale("trading_faces", b) for b in tables.stat_rows())


def test_the_statistics_page_shows_the_tab_and_replays_both_variants(archive):
    at = run_stats()
    assert "🎭 Trading Faces" in [t.label for t in at.tabs]
    open_tab(at, "🎭 Trading Faces")
    assert "Who reads faces best" in texts(at) and len(at.get("vega_lite_chart")) == 3
    open_tab(at, "🎬 Replay")
    records = tables.records()
    for gid, record in enumerate(records):
        at.selectbox(key="replay-game").set_value(gid).run()
        assert not at.exception, [e.message for e in at.exception]
        body = "\n".join(h.proto.body for h in at.get("html")) + texts(at)
        if record["options"]["variant"] == "classic":
            assert "made a face" in body and "Guesses made:" in body
        else:
            assert any(done in body for done in ("after the peek", "a matching pair", "did not match"))


def test_a_rebuild_that_fails_keeps_the_rows_the_game_had(archive, monkeypatch):
    record = tables.records()[0]
    with monkeypatch.context() as m:
        m.setattr(rows, "family_of", lambda game: None)
        old = rows.pack(record)
    with tables.store().transaction() as conn:
        tables.store().save_stat_rows(conn, record["room"], record["game_no"], old)
    monkeypatch.setattr(saved_games, "_stat_rows_of", lambda record: None)  # the record cannot be packed now
    assert old in tables.stat_rows() and len(tables.stat_rows()) == len(tables.records())
