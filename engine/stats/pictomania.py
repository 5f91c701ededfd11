"""Pictomania: guesses, black sheep and words, from the rounds of the saved-game records.

Frames (one per archive version):
- `guesses`: one row per guess: game_id, round, guesser, drawer, number, order, correct, void
  (the drawer admitted drawing the wrong word: the guess counts for nothing), share (how far into
  the round's guesses it came: 0 = the first, 1 = the last).
- `drawn`: one row per seat and round (each player draws one word): game_id, round, drawer, deck,
  word, correct (right guesses on it), guesses (not void), wrong_word, black_sheep.

Definitions the page states: accuracy is right guesses over guesses that count (void ones left
out); a word is "guessed" in a round when at least one player guessed it right.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.stats.flat import frame as _frame, text as _text

NAME = "pictomania"
TITLE = "Pictomania"


def variant(record: dict) -> str:
    return "Competitive" if record.get("options", {}).get("competitive") else "Standard"


def drawn_word(round_: dict, seat: int) -> str | None:
    assignment = round_["assignments"].get(str(seat))
    if not assignment:
        return None
    words = round_["cards"].get(assignment["letter"], [])
    n = assignment["number"]
    return words[n - 1] if 0 < n <= len(words) else None


GUESS_COLUMNS = ("game_id", "round", "guesser", "drawer", "number", "order", "correct", "void")
DRAWN_COLUMNS = ("game_id", "round", "drawer", "correct", "guesses", "wrong_word", "black_sheep")


def frames(records: list[dict], game_ids: list[int]) -> dict:
    guesses: list[int]
    drawn: list[int]
    guesses, shares, drawn, decks, words = [], [], [], [], []
    for gid, rec in zip(game_ids, records, strict=True):
        for rnd in rec.get("turns", ()):
            number = {int(s): a["number"] for s, a in rnd["assignments"].items()}
            void = set(rnd.get("wrong_word", ()))
            right, counted = dict.fromkeys(number, 0), dict.fromkeys(number, 0)
            round_guesses = rnd.get("guesses", ())
            last = max((x["order"] for x in round_guesses), default=1)
            r = rnd["round"]
            for x in round_guesses:
                drawer = x["drawer"]
                is_void = drawer in void
                ok = not is_void and x["number"] == number.get(drawer)
                guesses.extend((gid, r, x["guesser"], drawer, x["number"], x["order"], ok, is_void))
                shares.append((x["order"] - 1) / (last - 1) if last > 1 else 0.0)
                if not is_void:
                    counted[drawer] = counted.get(drawer, 0) + 1
                    right[drawer] = right.get(drawer, 0) + ok
            sheep = rnd.get("black_sheep")
            deck = rnd.get("deck", "")
            cards = rnd["cards"]
            for seat in sorted(number):
                a = rnd["assignments"][str(seat)]
                chosen = cards.get(a["letter"], ())
                words.append(chosen[a["number"] - 1] if 0 < a["number"] <= len(chosen) else "?")
                drawn.extend((gid, r, seat, right[seat], counted[seat], seat in void, sheep == seat))
                decks.append(deck)
    g = _frame(guesses, GUESS_COLUMNS, ("correct", "void"))
    g["share"] = np.asarray(shares, dtype=float)
    d = _frame(drawn, DRAWN_COLUMNS, ("wrong_word", "black_sheep"))
    d["deck"] = pd.Categorical(decks)
    d["word"] = pd.Categorical(words)
    return {"guesses": g, "drawn": d}


def summaries(fr: dict, ids, players) -> dict:
    ids = np.asarray(ids)
    guesses = fr["guesses"][fr["guesses"]["game_id"].isin(ids)]
    drawn = fr["drawn"][fr["drawn"]["game_id"].isin(ids)]
    counted = guesses[~guesses["void"].to_numpy()]
    who = players.number(counted["game_id"].to_numpy(), counted["guesser"].to_numpy())
    accuracy = (
        pd.DataFrame(
            {
                "player": who,
                "correct": counted["correct"].to_numpy(),
                "order": counted["order"].to_numpy(),
                "share": counted["share"].to_numpy(),
                "first": (counted["order"] == 1).to_numpy(),
            }
        )
        .groupby("player")
        .agg(
            guesses=("correct", "size"),
            correct=("correct", "sum"),
            mean_order=("order", "mean"),
            mean_share=("share", "mean"),
            firsts=("first", "sum"),
        )
        .reset_index()
    )
    accuracy["player"] = players.named(accuracy["player"])
    accuracy["accuracy"] = accuracy["correct"] / accuracy["guesses"]
    accuracy[["correct", "firsts"]] = accuracy[["correct", "firsts"]].astype(int)
    accuracy[["mean_order", "mean_share"]] = accuracy[["mean_order", "mean_share"]].round(2)
    # How early, guess by guess (for the distribution): the order counts per player.
    orders = (
        pd.DataFrame({"player": who, "order": counted["order"].to_numpy()})
        .groupby(["player", "order"])
        .size()
        .rename("guesses")
        .reset_index()
    )
    orders["player"] = players.named(orders["player"])

    drawer = players.number(drawn["game_id"].to_numpy(), drawn["drawer"].to_numpy())
    sheep = (
        pd.DataFrame({"player": drawer, "black_sheep": drawn["black_sheep"].to_numpy()})
        .groupby("player")
        .agg(rounds=("black_sheep", "size"), black_sheep=("black_sheep", "sum"))
        .reset_index()
    )
    sheep["player"] = players.named(sheep["player"])
    sheep["black_sheep"] = sheep["black_sheep"].astype(int)
    sheep["rate"] = sheep["black_sheep"] / sheep["rounds"]

    words = (
        pd.DataFrame(
            {
                "word": _text(drawn["word"]),
                "deck": _text(drawn["deck"]),
                "guessed": (drawn["correct"] > 0).to_numpy(),
                "correct": drawn["correct"].to_numpy(),
                "wrong_word": drawn["wrong_word"].to_numpy(),
            }
        )
        .groupby(["word", "deck"])
        .agg(drawn=("guessed", "size"), guessed=("guessed", "sum"), right_guesses=("correct", "sum"))
        .reset_index()
    )
    words["guessed"] = words["guessed"].astype(int)
    words["rate"] = words["guessed"] / words["drawn"]
    guessed = words[words["guessed"] > 0].sort_values(
        ["guessed", "rate", "word"], ascending=[False, False, True], ignore_index=True
    )
    never = words[words["guessed"] == 0].sort_values(["drawn", "word"], ascending=[False, True], ignore_index=True)
    return {
        "accuracy": accuracy.sort_values("accuracy", ascending=False, ignore_index=True),
        "orders": orders,
        "black_sheep": sheep.sort_values(["black_sheep", "player"], ascending=[False, True], ignore_index=True),
        "words": words,
        "guessed_words": guessed,
        "never_guessed": never,
        "guesses_count": int(len(counted)),
        "rounds_count": int(drawn[["game_id", "round"]].drop_duplicates().shape[0]),
    }
