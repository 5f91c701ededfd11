"""Maudit Mot Dit: who finds the word, which box holders keep their promise, and how bold a promise
can be, from the rounds of the saved-game records.

Frames (one per archive version):
- `rounds`: one row per round: game_id, round (its index in the game), holder, count (the clues
  promised; 0 when the holder's turn passed before choosing), clues (given), found_on (clues given
  when the word was found; 0 if it was not), exact (found on exactly the count), abandoned (the
  turn passed without a round), slow_spells (spells taken for slowness in it), cursed (the holder
  took the curse); word (the chosen word, "" if none).
- `answers`: one row per answer: game_id, round, clue (1 = the first clue), seat, correct.

Definitions the page states: a promise is kept when the word is found on exactly the number of
clues promised (the holder scores only then); abandoned rounds are left out of the holders' and
promises' figures.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.stats.flat import frame as _frame

NAME = "maudit_mot_dit"
TITLE = "Maudit Mot Dit"

ROUND_COLUMNS = (
    "game_id",
    "round",
    "holder",
    "count",
    "clues",
    "found_on",
    "exact",
    "abandoned",
    "slow_spells",
    "cursed",
)
ANSWER_COLUMNS = ("game_id", "round", "clue", "seat", "correct")


def variant(record: dict) -> str:
    return ""  # one way to play


def frames(records: list[dict], game_ids: list[int]) -> dict:
    rounds: list[int]
    answers: list[int]
    rounds, words, answers = [], [], []
    for gid, rec in zip(game_ids, records, strict=True):
        for index, r in enumerate(rec.get("turns", ())):
            chosen = r.get("chosen") or {}
            count, found = chosen.get("count", 0), r.get("guessed_on") or 0
            rounds.extend(
                (
                    gid,
                    index,
                    r["box_holder"],
                    count,
                    len(r.get("clues", ())),
                    found,
                    bool(found) and found == count,
                    bool(r.get("abandoned")),
                    len(r.get("slow_spells", ())),
                    r.get("curse_to") is not None,
                )
            )
            words.append(chosen.get("word", ""))
            for number, clue in enumerate(r.get("clues", ()), start=1):
                for a in clue.get("answers", ()):
                    answers.extend((gid, index, number, a["seat"], bool(a.get("correct"))))
    rf = _frame(rounds, ROUND_COLUMNS, ("exact", "abandoned", "cursed"))
    rf["word"] = pd.Categorical(words)
    return {"rounds": rf, "answers": _frame(answers, ANSWER_COLUMNS, ("correct",))}


def summaries(fr: dict, ids, players) -> dict:
    ids = np.asarray(ids)
    rounds = fr["rounds"][fr["rounds"]["game_id"].isin(ids)]
    answers = fr["answers"][fr["answers"]["game_id"].isin(ids)]
    played = rounds[~rounds["abandoned"].to_numpy()]

    who = players.number(answers["game_id"].to_numpy(), answers["seat"].to_numpy())
    finders = (
        pd.DataFrame({"player": who, "correct": answers["correct"].to_numpy()})
        .groupby("player")
        .agg(answers=("correct", "size"), found=("correct", "sum"))
        .reset_index()
    )
    finders["player"] = players.named(finders["player"])
    finders["found"] = finders["found"].astype(int)
    finders["rate"] = finders["found"] / finders["answers"]

    holder = players.number(played["game_id"].to_numpy(), played["holder"].to_numpy())
    holders = (
        pd.DataFrame(
            {
                "player": holder,
                "found": (played["found_on"] > 0).to_numpy(),
                "exact": played["exact"].to_numpy(),
                "count": played["count"].to_numpy(),
            }
        )
        .groupby("player")
        .agg(rounds=("exact", "size"), found=("found", "sum"), kept=("exact", "sum"), mean_count=("count", "mean"))
        .reset_index()
    )
    holders["player"] = players.named(holders["player"])
    holders[["found", "kept"]] = holders[["found", "kept"]].astype(int)
    holders["rate"] = holders["kept"] / holders["rounds"]
    holders["mean_count"] = holders["mean_count"].round(1)

    promises = (
        pd.DataFrame(
            {
                "count": played["count"].to_numpy(),
                "found": (played["found_on"] > 0).to_numpy(),
                "exact": played["exact"].to_numpy(),
            }
        )
        .groupby("count")
        .agg(rounds=("exact", "size"), found=("found", "sum"), kept=("exact", "sum"))
        .reset_index()
    )
    promises[["found", "kept"]] = promises[["found", "kept"]].astype(int)
    promises["rate"] = promises["kept"] / promises["rounds"]
    return {
        "finders": finders.sort_values(["found", "rate", "player"], ascending=[False, False, True], ignore_index=True),
        "holders": holders.sort_values(["rate", "player"], ascending=[False, True], ignore_index=True),
        "promises": promises.sort_values("count", ignore_index=True),
        "rounds_count": int(len(played)),
        "answers_count": int(len(answers)),
    }
