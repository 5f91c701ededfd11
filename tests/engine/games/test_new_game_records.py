"""Trading Faces and Maudit Mot Dit, played through the table service to the end: the saved
record has DESIGN.md's shapes, its final scores are recomputed from its turns alone (no engine),
and the statistics page shows the games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import tables
from tests import kit
from tests.helpers import submit
from tests.pages.test_pages import run

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
FACE_KEYS = {"face_maker", "emotion", "pass_no", "guesses", "winner", "scores"}
MEMORY_KEYS = {"active", "peek", "flip", "scores"}
ROUND_KEYS = {
    "box_holder",
    "choices",
    "chosen",
    "effect",
    "clues",
    "guessed_on",
    "guessers",
    "spell_to",
    "slow_spells",
    "curse_to",
    "curse_wipe",
    "scores",
}


def play_to_the_end(game: str, options: dict, players: int, seed: int) -> dict:
    r = tables.create_room(game, options=options, seed=seed, language="it" if game == "maudit_mot_dit" else "en")
    seats = [tables.join(r.code, n) for n in NAMES[:players]]
    tables.start(r.code, r.host_token)
    rnd = random.Random(seed)
    for _ in range(kit.MAX_MOVES):
        if tables.view(r.code)["status"] != "playing":
            break
        state = tables.state_of(r.code)
        move = kit.random_move(tables.games()[game], state, rnd)
        seat = move.pop("seat")
        submit(r.code, seat, seats[seat].token, move)
    record = tables.record(r.code)
    assert record is not None, "the game did not end"
    return record


@pytest.mark.parametrize("players", [3, 5])
def test_a_trading_faces_record_has_the_designed_shape_and_its_scores_add_up(players):
    record = play_to_the_end("trading_faces", {"variant": "classic"}, players, seed=players)
    assert record["turns"] and all(FACE_KEYS <= set(t) for t in record["turns"])
    total = Counter()
    for face in record["turns"]:
        order = [g["guesser"] for g in face["guesses"]]
        maker = face["face_maker"]
        assert maker not in order and order == sorted(order, key=lambda s: (s - maker) % players)
        right = [g["guesser"] for g in face["guesses"] if g["emotion"] == face["emotion"]]
        assert face["winner"] == (right[0] if right else None)
        total[str(maker)] += 2 if right else 1
        if right:
            total[str(right[0])] += 1
    assert record["final_scores"] == {str(s): total[str(s)] for s in range(players)}


def test_a_memory_record_has_the_designed_shape():
    record = play_to_the_end("trading_faces", {"variant": "memory"}, 3, seed=4)
    assert record["options"]["variant"] == "memory"
    assert all(MEMORY_KEYS <= set(t) for t in record["turns"])
    total = Counter()
    for turn in record["turns"]:
        assert turn["peek"]["viewer"] == (turn["active"] + 1) % 3
        for seat, points in turn["scores"].items():
            total[seat] += points
        if turn["flip"] and turn["flip"]["match"]:
            assert turn["scores"][str(turn["active"])] == 2
    assert record["final_scores"] == {str(s): total[str(s)] for s in range(3)}


@pytest.mark.parametrize("players", [3, 6])
def test_a_maudit_record_has_the_designed_shape_and_its_final_scores_follow_from_it(players):
    record = play_to_the_end("maudit_mot_dit", {}, players, seed=10 + players)
    rounds = record["turns"]
    assert len(rounds) >= 2 * players and all(ROUND_KEYS <= set(r) for r in rounds)
    assert any(r["guessed_on"] for r in rounds), "no round was won: the conformance answers never hit"
    points, spells, curse = Counter(), Counter(), None
    for r in rounds:
        count, found = r["chosen"]["count"], r["guessed_on"]
        expected = Counter()
        if found is not None:
            for seat in r["guessers"]:
                expected[str(seat)] += count if found == count else found
            if found == count:
                expected[str(r["box_holder"])] += count
        assert {s: p for s, p in r["scores"].items() if p} == dict(+expected)
        points.update(r["scores"])
        for seat in r["slow_spells"] + ([r["spell_to"]] if r["spell_to"] is not None else []):
            spells[str(seat)] += 1
        if r["curse_to"] is not None:
            if r["curse_wipe"]:
                points[str(r["curse_to"])] = 0
            curse = r["curse_to"]
        if players >= 5:
            assert all(len(c["answers"]) <= 3 for c in r["clues"])
    final = {str(s): points[str(s)] - spells[str(s)] - (4 if curse == s else 0) for s in range(players)}
    assert record["final_scores"] == final


def test_the_statistics_page_shows_the_new_games():
    play_to_the_end("trading_faces", {"variant": "classic"}, 3, seed=1)
    play_to_the_end("maudit_mot_dit", {}, 3, seed=2)
    tables.settle()
    at = run("stats")
    at.session_state["stats-tabs"] = "🎬 Replay"  # only the open tab's content is built
    at.run()
    games = " | ".join(at.selectbox(key="replay-game").options)
    assert "Trading Faces (Classic)" in games and "Maudit Mot Dit · Ana" in games
