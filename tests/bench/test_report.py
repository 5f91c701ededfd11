"""`make bench`'s table (bench/report.py): a target that names the peer's figure is that figure from
the same run, met only when ours is at or under it, each part of "median / p95"."""

from __future__ import annotations

from bench.report import against_the_peer


def test_a_target_of_the_peers_is_its_figure_from_the_same_run():
    rows = [
        ["tap, peer", "7 / 18", "peer:tap", ""],
        ["tap, ours", "17 / 14", "<= peer:tap", ""],
        ["Chromium, ours", "12.0", "<= peer:chromium", ""],
        ["Chromium, peer", "13.5", "peer:chromium", ""],
        ["slow, ours", "20 / 30", "<= peer:slow", ""],
        ["server", "1.6", "<= 1.0", "NO"],
    ]
    out = {r[0]: r for r in against_the_peer(rows)}
    assert out["tap, peer"][2:] == ["(the aim)", ""]
    assert out["tap, ours"][2:] == ["<= 7 / 18 (the peer's)", "NO"], "the median is over the peer's"
    assert out["Chromium, ours"][2:] == ["<= 13.5 (the peer's)", "yes"]
    assert out["slow, ours"][2:] == ["<= the peer's (not measured)", ""]
    assert out["server"] == rows[-1]
