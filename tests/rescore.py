"""Final scores recomputed from a saved record alone, for every game: the rules tests' own
independent recomputations (none of them imports the engine's scoring), gathered in one place so
that any record a test makes, with or without the pace clock, gets the same checks."""

from __future__ import annotations

from collections import Counter

from tests.engine.games.test_dixit_rules import recompute_dixit
from tests.engine.games.test_maudit_rules import rescored
from tests.engine.games.test_odyssey_rules import recompute_scores
from tests.engine.games.test_pictomania_rules import recompute_round


def _maudit(turns: list, seats: int) -> list[int]:
    return rescored({"players": seats, "history": turns})


def _summed(turns: list, seats: int) -> list[int]:
    total: Counter = Counter()
    for turn in turns:
        total.update({int(s): p for s, p in turn["scores"].items()})
    return [total[s] for s in range(seats)]


def final_scores(record: dict) -> dict[str, int]:
    """The record's final scores as an outside tool recomputes them from its turns."""
    turns, seats, options = record["turns"], len(record["players"]), record["options"]
    game = record["game"]
    if game == "dixit":
        totals = recompute_dixit(turns, bool(options.get("contando")))
        scores = [totals.get(s, 0) for s in range(seats)]
    elif game == "odyssey":
        scores = recompute_scores(turns, options["variant"], seats)
    elif game == "maudit_mot_dit":
        scores = _maudit(turns, seats)
    else:
        if game == "pictomania":
            for r in turns:
                expected = recompute_round(r)
                assert r["scores"] == {str(s): expected.get(s, 0) for s in range(seats)}
        scores = _summed(turns, seats)  # Trading Faces, Pictomania and the tests' toy game
    return {str(s): p for s, p in enumerate(scores)}


def audience_turn(game: str, entry: dict, picks: dict[str, list[dict]], options: dict) -> tuple[dict[str, int], dict]:
    """A closed turn's audience points and counts (DESIGN.md's `audience_picks`), from the record's
    turn, its options and each member's last pick per slot, as an outside tool recomputes them
    (RULES.md §6)."""
    points: dict[str, int] = {}
    counts: Counter = Counter()
    if game in ("dixit", "odyssey"):
        if options.get("variant") == "party":  # the card the storyteller votes red, their own or not
            wanted = [] if entry.get("red_vote") is None else [entry["red_vote"]]
        else:
            wanted = [p["position"] for p in entry["table"] if p["owner"] == entry["storyteller"]]
        for member, mine in picks.items():
            points[member] = int(mine[0]["position"] in wanted)
            counts[str(mine[0]["position"])] += 1
        return points, dict(counts)
    if game == "trading_faces":
        for member, mine in picks.items():
            points[member] = int(mine[0]["emotion"] == entry["emotion"])
            counts[mine[0]["emotion"]] += 1
        return points, dict(counts)
    if game == "pictomania":
        nested: dict = {}
        for member, mine in picks.items():
            points[member] = 0
            for p in mine:
                drawer = str(p["drawer"])
                if p["drawer"] not in entry["wrong_word"] and entry["assignments"][drawer]["number"] == p["number"]:
                    points[member] += 1
                nested.setdefault(drawer, Counter())[str(p["number"])] += 1
        return points, {d: dict(c) for d, c in nested.items()}
    if game == "maudit_mot_dit":
        import unicodedata

        def plain(text: str) -> str:
            text = unicodedata.normalize("NFKD", text.strip().casefold())
            return "".join(c for c in text if not unicodedata.combining(c))

        word = (entry.get("chosen") or {}).get("word")
        for member, mine in picks.items():
            right = sorted(p["clue"] for p in mine if word and plain(p["answer"]) == plain(word))
            points[member] = int(bool(right))
            if right:
                counts[str(right[0] - 1)] += 1
        return points, dict(counts)
    raise AssertionError(f"no audience rescoring for {game}")
