"""Voting patterns of Dixit and Dixit Odyssey, from the turns of the saved-game records.

Frames (one per archive version):
- `votes`: one row per green vote: game_id, turn, voter, owner (of the card voted for),
  storyteller, card, story (the vote found the storyteller's card), classic (not a Party turn).
- `ballots`: one row per voter and turn: game_id, turn, voter, storyteller, found, classic.
- `turns`: one row per turn: game_id, turn, storyteller, voters, found (how many found), classic.

Definitions the page states:
- "fooled": a vote for a card that is not the storyteller's and not the voter's own; in Party,
  where no card is the storyteller's, every vote for someone else's card.
- A storyteller's turn is a success when some but not all voters found the card (classic turns
  with at least one voter). Party turns have no storyteller's card: they count for neither rate.
- A player found the card in a turn when one of their votes went to it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from engine.stats.flat import frame as _frame, text as _text

NAME = "dixit_family"
TITLE = "Dixit & Odyssey"


def variant(record: dict) -> str:
    options = record.get("options", {})
    if record["game"] == "dixit":
        return "Contando" if options.get("contando") else "Classic"
    kind = options.get("variant", "base")
    if kind == "base":
        return "Base"
    laps = options.get("laps", 1)
    return f"{kind.title()}, {laps} lap{'s' if laps != 1 else ''}"


def _is_party(record: dict) -> bool:
    return record["game"] == "odyssey" and record.get("options", {}).get("variant") == "party"


VOTE_COLUMNS = ("game_id", "turn", "voter", "owner", "storyteller", "story", "classic")
BALLOT_COLUMNS = ("game_id", "turn", "voter", "storyteller", "found", "classic")
TURN_COLUMNS = ("game_id", "turn", "storyteller", "voters", "found", "classic")


def frames(records: list[dict], game_ids: list[int]) -> dict:
    # One flat list of integers per frame, made an array in one step: ten thousand games flatten in
    # well under a second.
    votes: list[int]
    ballots: list[int]
    turns: list[int]
    votes, cards, ballots, turns = [], [], [], []
    for gid, rec in zip(game_ids, records, strict=True):
        classic = not _is_party(rec)
        for number, turn in enumerate(rec.get("turns", ()), start=1):
            st = turn["storyteller"]
            table = {p["position"]: (p["card"], p["owner"]) for p in turn["table"]}
            found_count = 0
            votes_ = turn.get("votes", {})
            for voter, picks in votes_.items():
                voter = int(voter)
                found = False
                for position in picks:
                    card, owner = table[position]
                    story = classic and owner == st
                    found = found or story
                    votes.extend((gid, number, voter, owner, st, story, classic))
                    cards.append(card)
                found_count += found
                ballots.extend((gid, number, voter, st, found, classic))
            turns.extend((gid, number, st, len(votes_), found_count, classic))
    out = {
        "votes": _frame(votes, VOTE_COLUMNS, ("story", "classic")),
        "ballots": _frame(ballots, BALLOT_COLUMNS, ("classic",)),
        "turns": _frame(turns, TURN_COLUMNS, ("classic",)),
    }
    out["votes"]["card"] = pd.Categorical(cards)
    out["ballots"]["found"] = out["ballots"]["found"].astype(bool)
    return out


def _pick(frame: pd.DataFrame, ids) -> pd.DataFrame:
    return frame[frame["game_id"].isin(np.asarray(ids))]


def summaries(fr: dict, ids, players) -> dict:
    """The aggregates for the selected games. `players` (archive.SeatPlayers) numbers the people in
    seats (`number(game_id, seat)`): grouped by number, they are named once grouped (`named`)."""
    votes, ballots, turns = _pick(fr["votes"], ids), _pick(fr["ballots"], ids), _pick(fr["turns"], ids)
    gv = votes["game_id"].to_numpy()
    voter = players.number(gv, votes["voter"].to_numpy())
    owner = players.number(gv, votes["owner"].to_numpy())
    decoy = ~votes["story"].to_numpy() & (votes["voter"].to_numpy() != votes["owner"].to_numpy())
    fooled = (
        pd.DataFrame({"voter": voter[decoy], "owner": owner[decoy]})
        .groupby(["voter", "owner"])
        .size()
        .rename("votes")
        .reset_index()
    )
    fooled["voter"], fooled["owner"] = players.named(fooled["voter"]), players.named(fooled["owner"])

    classic_turns = turns[turns["classic"].to_numpy() & (turns["voters"].to_numpy() > 0)]
    success = (classic_turns["found"] > 0) & (classic_turns["found"] < classic_turns["voters"])
    teller = players.number(classic_turns["game_id"].to_numpy(), classic_turns["storyteller"].to_numpy())
    storytellers = (
        pd.DataFrame(
            {
                "player": teller,
                "success": success.to_numpy(),
                "nobody": (classic_turns["found"] == 0).to_numpy(),
                "everybody": (classic_turns["found"] == classic_turns["voters"]).to_numpy(),
            }
        )
        .groupby("player")
        .agg(
            turns=("success", "size"),
            successes=("success", "sum"),
            nobody=("nobody", "sum"),
            everybody=("everybody", "sum"),
        )
        .reset_index()
    )
    storytellers["player"] = players.named(storytellers["player"])
    storytellers["rate"] = storytellers["successes"] / storytellers["turns"]

    cb = ballots[ballots["classic"].to_numpy()]
    finder = players.number(cb["game_id"].to_numpy(), cb["voter"].to_numpy())
    finders = (
        pd.DataFrame({"player": finder, "found": cb["found"].to_numpy()})
        .groupby("player")
        .agg(turns=("found", "size"), found=("found", "sum"))
        .reset_index()
    )
    finders["player"] = players.named(finders["player"])
    finders["rate"] = finders["found"] / finders["turns"]

    cards = (
        pd.DataFrame({"card": _text(votes["card"]), "story": votes["story"].to_numpy()})
        .groupby("card")
        .agg(votes=("story", "size"), as_story=("story", "sum"))
        .reset_index()
    )
    cards["as_decoy"] = cards["votes"] - cards["as_story"]
    cards = cards.sort_values(["votes", "card"], ascending=[False, True], ignore_index=True)
    for frame in (storytellers, finders):
        for col in ("successes", "nobody", "everybody", "found", "turns"):
            if col in frame:
                frame[col] = frame[col].astype(int)
    return {
        "fooled": fooled,
        "storytellers": storytellers.sort_values("rate", ascending=False, ignore_index=True),
        "finders": finders.sort_values("rate", ascending=False, ignore_index=True),
        "cards": cards,
        "votes_count": int(len(votes)),
        "turns_count": int(len(turns)),
    }
