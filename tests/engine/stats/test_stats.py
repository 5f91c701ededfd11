"""Every aggregate the statistics page shows equals the figure recomputed independently by
replaying the stored move logs of the same games from their seeds (not from the records' turns).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest

from engine import demo, stats, tables
from engine.core import play, roundtrip
from engine.games import GAMES
from tests.helpers import archive_once

DEMO_GAMES = 9  # at least one of each kind and variant the simulator plays (7), plus repeats


@pytest.fixture(scope="module")
def archive_dir(tmp_path_factory):
    return archive_once(tmp_path_factory, "stats-archive", lambda: demo.simulate(games=DEMO_GAMES, seed=11))


@pytest.fixture
def archive(archive_dir, monkeypatch):
    monkeypatch.setenv("SOBREMESA_DATA", str(archive_dir))
    tables.reset()
    records = tables.records()
    return records, stats.prepare(records, tables.player_aliases())


def replay(record):
    """The game rebuilt from its seed and log: per move, the state before and the move."""
    game = GAMES[record["game"]]
    n = len(record["players"])
    state = game.setup(n, record["options"], record["seed"], game.content.cards(record["options"], n))
    steps = []
    for entry in tables.move_log(record["room"], record["game_no"]):
        before = roundtrip(state)  # play() changes the state in place
        state = play(game, state, entry["move"])
        steps.append((before, entry["move"], roundtrip(state)))
    return state, steps


def names(record):
    """Seat -> person, by player_key: these archives have no merges, so the key is the person."""
    return {p["seat"]: tables.player_key(p["name"]) for p in record["players"]}


def display_to_key(arch):
    return dict(zip(arch.results["player"], arch.results["key"], strict=True))


def test_the_demo_covers_every_game_and_variant(archive):
    records, arch = archive
    kinds = {(r["game"], stats.family_of(r["game"]).variant(r)) for r in records}
    assert {g for g, _ in kinds} == {"dixit", "odyssey", "pictomania"}
    assert len(kinds) == 7
    assert len(records) == DEMO_GAMES == len(arch.games)
    assert (arch.games["duration_min"] > 0).all()


def test_scores_placements_and_wins_match_the_replayed_games(archive):
    records, arch = archive
    wins, totals = Counter(), defaultdict(list)
    for gid, record in enumerate(records):
        final, _ = replay(record)
        outcome = GAMES[record["game"]].outcome(final)
        who = names(record)
        got = arch.results[arch.results["game_id"] == gid].set_index("seat")["score"].to_dict()
        assert got == {s: final["scores"][s] for s in range(final["players"])}
        for seat in outcome["winners"]:
            wins[who[seat]] += 1
        for seat in range(final["players"]):
            totals[who[seat]].append(final["scores"][seat])
        # The per-turn history the page draws ends at the same totals.
        history = stats.score_history(record, arch.names_of(gid))
        last = history[history["turn"] == history["turn"].max()].set_index("seat")["score"].to_dict()
        assert last == {s: final["scores"][s] for s in range(final["players"])}
    key = display_to_key(arch)
    summary = stats.player_summary(arch, stats.select(arch)).set_index("player")
    assert {key[p]: int(w) for p, w in summary["wins"].items() if w} == dict(wins)
    for player, row in summary.iterrows():
        scores = totals[key[player]]
        assert row["games"] == len(scores)
        assert row["avg_score"] == pytest.approx(sum(scores) / len(scores), abs=0.005)


def dixit_family_from_logs(records):
    """Storyteller success, find rate and who-fools-whom, from vote moves applied to the replay."""
    told, success, found, voted, fooled, card_votes = Counter(), Counter(), Counter(), Counter(), Counter(), Counter()
    for record in records:
        if record["game"] not in ("dixit", "odyssey"):
            continue
        who = names(record)
        party = record["options"].get("variant") == "party"
        ballots = {}
        for before, move, after in replay(record)[1]:
            if move["type"] == "vote":
                picks = move.get("positions") or [move["position"]]
                owner = {p["position"]: p["owner"] for p in before["table"]}
                card = {p["position"]: p["card"] for p in before["table"]}
                st, voter = before["storyteller"], move["seat"]
                ballots[voter] = any(owner[p] == st for p in picks) and not party
                for p in picks:
                    card_votes[card[p]] += 1
                    is_story = owner[p] == st and not party
                    if not is_story and owner[p] != voter:
                        fooled[(who[voter], who[owner[p]])] += 1
            if len(after["history"]) > len(before["history"]):  # the turn was scored
                if not party and ballots:
                    st = before["storyteller"]
                    hits = sum(ballots.values())
                    told[who[st]] += 1
                    success[who[st]] += 0 < hits < len(ballots)
                    for voter, hit in ballots.items():
                        voted[who[voter]] += 1
                        found[who[voter]] += hit
                ballots = {}
    return told, success, found, voted, fooled, card_votes


def test_voting_patterns_match_the_vote_moves(archive):
    records, arch = archive
    told, success, found, voted, fooled, card_votes = dixit_family_from_logs(records)
    assert told and fooled and card_votes and 0 < sum(success.values()) < sum(told.values())
    summary = stats.summaries(arch, stats.select(arch))["dixit_family"]
    key = display_to_key(arch)
    st = summary["storytellers"].set_index("player")
    assert {key[p]: r["turns"] for p, r in st.iterrows()} == dict(told)
    assert {key[p]: r["successes"] for p, r in st.iterrows()} == {k: v for k, v in success.items()}
    fr = summary["finders"].set_index("player")
    assert {key[p]: r["turns"] for p, r in fr.iterrows()} == dict(voted)
    assert {key[p]: r["found"] for p, r in fr.iterrows()} == {k: v for k, v in found.items()}
    assert {(key[r.voter], key[r.owner]): r.votes for r in summary["fooled"].itertuples()} == dict(fooled)
    assert dict(zip(summary["cards"]["card"], summary["cards"]["votes"], strict=True)) == dict(card_votes)
    assert summary["votes_count"] == sum(card_votes.values())


def pictomania_from_logs(records):
    """Guess accuracy and black sheep, from guess moves checked against the dealt numbers."""
    guesses, right, sheep, drawn_right, drawn = Counter(), Counter(), Counter(), Counter(), Counter()
    for record in records:
        if record["game"] != "pictomania":
            continue
        who = names(record)
        round_guesses = []
        for before, move, after in replay(record)[1]:
            if move["type"] == "guess":
                number = before["assignments"][str(move["drawer"])]["number"]
                round_guesses.append((move["seat"], move["drawer"], move["number"] == number))
            if len(after["history"]) > len(before["history"]):  # the round was scored
                void = set(before["wrong_word"])
                errors = Counter()
                for guesser, drawer, ok in round_guesses:
                    if drawer in void:
                        continue
                    guesses[who[guesser]] += 1
                    right[who[guesser]] += ok
                    errors[guesser] += not ok
                    drawn_right[(record["room"], before["round"], drawer)] += ok
                for seat in before["assignments"]:
                    drawn[(record["room"], before["round"], int(seat))] += 0
                worst = max(errors.values(), default=0)
                top = [s for s, e in errors.items() if e == worst]
                if worst > 0 and len(top) == 1:
                    sheep[who[top[0]]] += 1
                round_guesses = []
    never = sum(1 for k in drawn if drawn_right[k] == 0)
    return guesses, right, sheep, never, len(drawn)


def test_pictomania_figures_match_the_guess_moves(archive):
    records, arch = archive
    guesses, right, sheep, never, drawn = pictomania_from_logs(records)
    assert guesses and sheep and 0 < sum(right.values()) < sum(guesses.values())
    summary = stats.summaries(arch, stats.select(arch))["pictomania"]
    key = display_to_key(arch)
    acc = summary["accuracy"].set_index("player")
    assert {key[p]: r["guesses"] for p, r in acc.iterrows()} == dict(guesses)
    assert {key[p]: r["correct"] for p, r in acc.iterrows()} == {k: v for k, v in right.items()}
    for p, r in acc.iterrows():
        assert r["accuracy"] == pytest.approx(right[key[p]] / guesses[key[p]])
    bs = summary["black_sheep"].set_index("player")
    assert {key[p]: r["black_sheep"] for p, r in bs.iterrows() if r["black_sheep"]} == dict(sheep)
    words = summary["words"]
    assert words["drawn"].sum() == drawn
    assert (words["drawn"] - words["guessed"]).sum() == never


def test_filters_select_the_right_games(archive):
    records, arch = archive
    only = stats.select(arch, games=["pictomania"])
    assert {records[i]["game"] for i in only} == {"pictomania"}
    person = arch.results["player"].iloc[0]
    with_them = stats.select(arch, players=[person])
    assert all(person in arch.names_of(i) for i in with_them)
    first = arch.games["date"].min()
    assert list(stats.select(arch, start=first, end=first)) == list(arch.games.index[arch.games["date"] == first])


def test_names_are_one_person_by_key_and_by_the_hosts_merge():
    for game, names_ in (
        ("dixit", ["Ana", "Bo", "Lucía"]),
        ("dixit", ["ana", "BO", "Lucia"]),
        ("dixit", ["A na", "Bo", "Cy"]),
    ):
        room = tables.create_room(game, seed=1)
        seats = [tables.join(room.code, n) for n in names_]
        tables.start(room.code, room.host_token)
        tables.end(room.code, room.host_token)
        assert len(seats) == 3
    arch = stats.prepare(tables.records(), tables.player_aliases())
    games = stats.player_summary(arch, stats.select(arch)).set_index("player")["games"]
    assert games["Ana"] == 3 and games["Bo"] == 3  # case and spaces never matter
    assert games["Lucía"] == 1 and games["Lucia"] == 1  # different keys: two people until merged
    tables.merge_players("Lucia", "Lucía")
    arch = stats.prepare(tables.records(), tables.player_aliases())
    games = stats.player_summary(arch, stats.select(arch)).set_index("player")["games"]
    assert games["Lucía"] == 2 and "Lucia" not in games
    assert len(stats.select(arch, players=["Lucía"])) == 2


def test_an_empty_archive_prepares_to_empty_tables():
    arch = stats.prepare([], {})
    assert arch.games.empty and arch.results.empty
    assert stats.player_summary(arch, stats.select(arch)).empty
    assert stats.summaries(arch, stats.select(arch)) == {}


def frames_equal(a: stats.Archive, b: stats.Archive) -> None:
    import pandas.testing as pdt

    pdt.assert_frame_equal(a.games, b.games)
    pdt.assert_frame_equal(a.results, b.results)
    assert a.frames.keys() == b.frames.keys()
    for family in a.frames:
        assert a.frames[family].keys() == b.frames[family].keys()
        for name in a.frames[family]:
            pdt.assert_frame_equal(a.frames[family][name], b.frames[family][name], check_categorical=False)


def test_the_rows_saved_with_each_game_give_the_same_archive_as_the_records(archive):
    from engine.stats import rows

    records, arch = archive
    stored = tables.stat_rows()
    assert stored == [rows.pack(r) for r in records], "the rows saved with a game are its record's rows"
    frames_equal(stats.from_rows(stored, tables.player_aliases()), arch)
    # And the frames the rows carry are the families' own, made from the records directly.
    import pandas.testing as pdt

    for name, module in stats.FAMILIES.items():
        ids = [i for i, r in enumerate(records) if r["game"] in stats.members(module)]
        direct = module.frames([records[i] for i in ids], ids)
        for frame, expected in direct.items():
            pdt.assert_frame_equal(
                arch.frames[name][frame].reset_index(drop=True),
                expected.reset_index(drop=True),
                check_categorical=False,
            )


def test_rows_missing_from_an_older_archive_are_rebuilt_from_the_records(archive_dir, monkeypatch):
    monkeypatch.setenv("SOBREMESA_DATA", str(archive_dir))
    tables.reset()
    before = tables.stat_rows()
    with tables.store().transaction() as conn:
        conn.execute("DELETE FROM stat_rows")
    assert tables.stat_rows() == before
    assert all(row["packed"] is not None for row in tables.store().stat_rows())


def test_places_share_ties_for_players_and_the_audience_readers(archive):
    """Standard competition ranking (1, 2, 2, 4), for each game's players and the best readers."""
    records, arch = archive
    for gid in arch.games.index:
        got = arch.results[arch.results["game_id"] == gid].sort_values("seat")
        scores = got["score"].tolist()
        assert got["placement"].tolist() == [1 + sum(o > s for o in scores) for s in scores]
    record = json.loads(json.dumps(next(r for r in records if len(r["players"]) >= 4)))
    record["final_scores"] = {
        str(p["seat"]): [5, 3, 3, 1][p["seat"]] if p["seat"] < 4 else 0 for p in record["players"]
    }
    record["audience"] = [
        {"name": "Mateo", "points": 2},
        {"name": "Zoë", "points": 1},
        {"name": "eli", "points": 1},
        {"name": "Kai", "points": 1},
        {"name": "Ana", "points": 0},
    ]
    one = stats.prepare([record], {})
    assert one.results.sort_values("seat")["placement"].tolist()[:4] == [1, 2, 2, 4]
    readers = stats.audience_summary(one, one.games.index)
    assert readers[["place", "member", "points"]].values.tolist() == [
        [1, "Mateo", 2],
        [2, "eli", 1],
        [2, "Kai", 1],
        [2, "Zoë", 1],
        [5, "Ana", 0],
    ]
