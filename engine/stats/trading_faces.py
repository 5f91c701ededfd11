"""Trading Faces: who reads faces, whose faces are read, and which emotions, from the faces of the
saved-game records. The memory variant's turns (a peek and a flip) have no faces to read: they
count in the players' records only.

Frames (one per archive version):
- `guesses`: one row per guess: game_id, face (its index among the game's turns), guesser,
  face_maker, order (1 = the first guess on that face), correct; emotion (the face's) and
  guessed (the guess's).
- `faces`: one row per face: game_id, face, face_maker, guesses, read (someone guessed it right);
  emotion.

Definitions the page states: a player's reading is right guesses over guesses; a face is read when
one of its guesses is right (guesses are final, one each, so at most one is).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.stats.flat import frame as _frame, text as _text

NAME = "trading_faces"
TITLE = "Trading Faces"

GUESS_COLUMNS = ("game_id", "face", "guesser", "face_maker", "order", "correct")
FACE_COLUMNS = ("game_id", "face", "face_maker", "guesses", "read")


def variant(record: dict) -> str:
    return "Memory" if record.get("options", {}).get("variant") == "memory" else "Classic"


def frames(records: list[dict], game_ids: list[int]) -> dict:
    guesses: list[int]
    faces: list[int]
    guesses, guess_emotions, guessed, faces, face_emotions = [], [], [], [], []
    for gid, rec in zip(game_ids, records, strict=True):
        for index, turn in enumerate(rec.get("turns", ())):
            if "face_maker" not in turn:  # a memory turn
                continue
            emotion, maker = turn["emotion"], turn["face_maker"]
            read = False
            for order, guess in enumerate(turn.get("guesses", ()), start=1):
                right = guess["emotion"] == emotion
                read = read or right
                guesses.extend((gid, index, guess["guesser"], maker, order, right))
                guess_emotions.append(emotion)
                guessed.append(guess["emotion"])
            faces.extend((gid, index, maker, len(turn.get("guesses", ())), read))
            face_emotions.append(emotion)
    g = _frame(guesses, GUESS_COLUMNS, ("correct",))
    g["emotion"] = pd.Categorical(guess_emotions)
    g["guessed"] = pd.Categorical(guessed)
    f = _frame(faces, FACE_COLUMNS, ("read",))
    f["emotion"] = pd.Categorical(face_emotions)
    return {"guesses": g, "faces": f}


def summaries(fr: dict, ids, players) -> dict:
    ids = np.asarray(ids)
    guesses = fr["guesses"][fr["guesses"]["game_id"].isin(ids)]
    faces = fr["faces"][fr["faces"]["game_id"].isin(ids)]

    reader = players.number(guesses["game_id"].to_numpy(), guesses["guesser"].to_numpy())
    readers = (
        pd.DataFrame({"player": reader, "correct": guesses["correct"].to_numpy()})
        .groupby("player")
        .agg(guesses=("correct", "size"), right=("correct", "sum"))
        .reset_index()
    )
    readers["player"] = players.named(readers["player"])
    readers["right"] = readers["right"].astype(int)
    readers["accuracy"] = readers["right"] / readers["guesses"]

    maker = players.number(faces["game_id"].to_numpy(), faces["face_maker"].to_numpy())
    makers = (
        pd.DataFrame({"player": maker, "read": faces["read"].to_numpy()})
        .groupby("player")
        .agg(faces=("read", "size"), read=("read", "sum"))
        .reset_index()
    )
    makers["player"] = players.named(makers["player"])
    makers["read"] = makers["read"].astype(int)
    makers["rate"] = makers["read"] / makers["faces"]

    emotions = (
        pd.DataFrame({"emotion": _text(faces["emotion"]), "read": faces["read"].to_numpy()})
        .groupby("emotion")
        .agg(faces=("read", "size"), read=("read", "sum"))
        .reset_index()
    )
    emotions["read"] = emotions["read"].astype(int)
    emotions["rate"] = emotions["read"] / emotions["faces"]
    # What each emotion was taken for: its most frequent wrong guess ("" when never mistaken).
    wrong = guesses[~guesses["correct"].to_numpy()]
    mistaken = (
        pd.DataFrame({"emotion": _text(wrong["emotion"]), "guessed": _text(wrong["guessed"])})
        .groupby(["emotion", "guessed"])
        .size()
        .rename("times")
        .reset_index()
        .sort_values(["times", "guessed"], ascending=[False, True])
        .drop_duplicates("emotion")
    )
    emotions = emotions.merge(mistaken.rename(columns={"guessed": "taken_for"}), on="emotion", how="left")
    emotions["taken_for"] = emotions["taken_for"].fillna("")
    emotions["times"] = emotions["times"].fillna(0).astype(int)
    return {
        "readers": readers.sort_values(["accuracy", "player"], ascending=[False, True], ignore_index=True),
        "makers": makers.sort_values(["rate", "player"], ascending=[False, True], ignore_index=True),
        "emotions": emotions.sort_values(["rate", "emotion"], ascending=[False, True], ignore_index=True),
        "faces_count": int(len(faces)),
        "guesses_count": int(len(guesses)),
    }
