"""The archive as tables: one row per game, one row per game and seat, and each family's frames.

Players across games are one person per `player_key` (case and spaces ignored), after the host's
merges (`aliases`: key -> the key it was merged into). A person is shown under the spelling they
use most often.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from datetime import date
from itertools import compress

import numpy as np
import pandas as pd

from engine.core.ranking import places
from engine.games import GAMES
from engine.stats import rows

GAME_TITLES = {name: game.title for name, game in GAMES.items()}


def player_key(name: str) -> str:
    """The same identity as `tables.player_key` (kept here so the statistics need no store)."""
    return "".join(str(name).split()).casefold()


def canonical_keys(keys, aliases: dict) -> dict:
    """key -> the person's key once every merge is followed (chains too, cycles cut)."""
    out = {}
    for key in keys:
        seen, target = {key}, key
        while target in aliases and aliases[target] not in seen:
            target = aliases[target]
            seen.add(target)
        out[key] = target
    return out


@dataclass
class SeatPlayers:
    """The person in a seat of a game, vectorised: results are stored game by game, seat by seat."""

    offset: np.ndarray  # by game_id: the row of its seat 0 in `results`
    player: np.ndarray  # by results row: the person's display name
    person: np.ndarray  # by results row: the person's number in `people`
    people: pd.api.extensions.ExtensionArray  # the display names in order, as a pandas text array

    def __call__(self, game_id, seat):
        """The display names."""
        return self.named(self.number(game_id, seat))

    def number(self, game_id, seat) -> np.ndarray:
        """The persons' numbers: people are numbered in the order of their names, so grouping by
        number groups and sorts as by name, without a text per row (taking 200,000 names as text
        and grouping by them again was most of a family's figures)."""
        return self.person[self.offset[np.asarray(game_id)] + np.asarray(seat)]

    def named(self, numbers):
        """The display names of persons' numbers, as a pandas text array (none: Python objects, as
        ever, so an empty figure's columns stay as they were)."""
        numbers = np.asarray(numbers, dtype=np.int64)
        return self.people.take(numbers) if len(numbers) else np.array([], dtype=object)


@dataclass
class Archive:
    games: pd.DataFrame  # index game_id (= position in the records list)
    results: pd.DataFrame  # one row per game and seat
    frames: dict  # family name -> {frame name: DataFrame}
    seat_players: SeatPlayers
    raw_names: list = field(default_factory=list)  # by game_id: the names by seat, as typed
    audience: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["game_id", "member", "points"]))

    def names_of(self, game_id: int) -> list[str]:
        """The persons in a game, by seat (display names after merges)."""
        start = self.seat_players.offset[game_id]
        return list(self.seat_players.player[start : start + int(self.games.at[game_id, "players_count"])])


def prepare(records: list[dict], aliases: dict | None = None) -> Archive:
    """Flatten the saved-game records (in the order given; game_id is the position)."""
    return from_rows([rows.pack(record) for record in records], aliases)


def from_rows(blobs: list[bytes], aliases: dict | None = None) -> Archive:
    """The archive from each game's packed flat rows (engine/stats/rows.py), in archive order.

    Python's cyclic garbage collector is paused meanwhile: parsing the 10,000 headers makes
    hundreds of thousands of lists and dicts, each batch of which sets off a collection that walks
    every object the process holds (the server's own, and here the new ones), a third of the work
    for nothing: none of them is in a cycle, and they are freed as usual once unpacked."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _from_rows(blobs, aliases or {})
    finally:
        if paused:
            gc.enable()


def _from_rows(blobs: list[bytes], aliases: dict) -> Archive:
    columns, r, frames = rows.unpack(blobs)
    games = pd.DataFrame(columns, columns=list(rows.GAME_FIELDS))
    games.index.name = "game_id"
    games["started_at"] = pd.to_datetime(games["started_at"], utc=True, format="ISO8601")
    games["ended_at"] = pd.to_datetime(games["ended_at"], utc=True, format="ISO8601")
    games["date"] = games["started_at"].dt.date
    games["duration_min"] = ((games["ended_at"] - games["started_at"]).dt.total_seconds() / 60).round(1)
    games["title"] = games["game"].map({g: GAME_TITLES.get(g, g) for g in games["game"].unique()})
    counts = games["players_count"].to_numpy(dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64) if len(counts) else np.zeros(0, np.int64)

    results = pd.DataFrame(
        {
            "game_id": r["game_id"],
            "seat": r["seat"],
            "name": r["name"],
            "score": r["score"],
            "won": r["won"],
            "team": r["team"],
            "bot": r["bot"],
            "clock_skips": r["clock_skips"],
        }
    )
    results["game"] = games["game"].array.take(results["game_id"].to_numpy()) if len(results) else []
    _name_people(results, aliases)

    # Plain loops over slices of lists: a pandas groupby-join would call Python once per game anyway.
    names, won, bounds = (
        results["player"].tolist(),
        r["won"].tolist(),
        list(zip(offsets.tolist(), counts.tolist(), strict=True)),
    )
    scores = results["score"].tolist()
    results["placement"] = np.array([p for o, n in bounds for p in places(scores[o : o + n])], dtype=np.int64)
    games["players"] = [", ".join(names[o : o + n]) for o, n in bounds]
    games["winners"] = [", ".join(compress(names[o : o + n], won[o : o + n])) for o, n in bounds]
    person, people = pd.factorize(results["player"], sort=True, use_na_sentinel=False)
    seat_players = SeatPlayers(offsets, results["player"].to_numpy(dtype=object), person, people.array)
    raw_names = [r["name"][o : o + n] for o, n in bounds]
    watched = [(gid, name, points) for gid, members in enumerate(columns["audience"]) for name, points in members]
    audience = pd.DataFrame(watched, columns=["game_id", "member", "points"])
    audience["key"] = [player_key(name) for name in audience["member"]]
    return Archive(games, results, frames, seat_players, raw_names, audience)


def _name_people(results: pd.DataFrame, aliases: dict) -> None:
    """Add `key` (the person's key after merges) and `player` (their most used spelling).
    Worked out once per distinct name as typed (a few dozen), then spread to every row."""
    if results.empty:
        results["own_key"], results["key"], results["player"] = [], [], []
        return
    codes, names = pd.factorize(results["name"], use_na_sentinel=False)
    own = [player_key(name) for name in names]
    canonical = canonical_keys(dict.fromkeys(own), aliases)
    # The spelling: the most used one among the names that are this key's own; else any merged in.
    # One row per distinct name, in order of first use (as a groupby on the key, own key and name).
    counts = pd.DataFrame(
        {
            "key": [canonical[k] for k in own],
            "own_key": own,
            "name": names,
            "n": np.bincount(codes, minlength=len(names)),
        }
    )
    counts["own"] = counts["key"] == counts["own_key"]
    ranked = counts.sort_values(["key", "own", "n"], ascending=[True, False, False], kind="stable")
    display = ranked.drop_duplicates("key").set_index("key")["name"]
    for column, values in (
        ("own_key", counts["own_key"]),
        ("key", counts["key"]),
        ("player", counts["key"].map(display)),
    ):
        results[column] = values.array.take(codes)


def select(archive: Archive, games=None, start: date | None = None, end: date | None = None, players=None) -> pd.Index:
    """The game_ids that match: any of `games`, started within [start, end] (UTC dates), with
    any of `players` (display names after merges) at the table. None means no filter."""
    g = archive.games
    keep = np.ones(len(g), dtype=bool)
    if games:
        keep &= g["game"].isin(list(games)).to_numpy()
    if start is not None:
        keep &= (g["date"] >= start).to_numpy()
    if end is not None:
        keep &= (g["date"] <= end).to_numpy()
    if players:
        r = archive.results
        with_them = np.unique(r.loc[r["player"].isin(list(players)), "game_id"].to_numpy())
        keep &= np.isin(g.index.to_numpy(), with_them)
    return g.index[keep]


# clock_skips: the turns in which the pace clock skipped them (engine/tables/pace.py)
SUMMARY = ["player", "games", "wins", "win_rate", "avg_score", "avg_placement", "clock_skips"]


def player_summary(archive: Archive, ids, bots: bool = False) -> pd.DataFrame:
    """Per person over the selected games: games, wins, win rate, average score and placement.
    Computer players are left out unless `bots`."""
    r = archive.results
    r = r[r["game_id"].isin(ids) & (bots | ~r["bot"])]
    if r.empty:
        return pd.DataFrame(columns=SUMMARY)
    out = (
        r.groupby("player")
        .agg(
            games=("game_id", "size"),
            wins=("won", "sum"),
            avg_score=("score", "mean"),
            avg_placement=("placement", "mean"),
            clock_skips=("clock_skips", "sum"),
        )
        .reset_index()
    )
    out["wins"] = out["wins"].astype(int)
    out["clock_skips"] = out["clock_skips"].astype(int)
    out["win_rate"] = out["wins"] / out["games"]
    out["avg_score"] = out["avg_score"].round(2)
    out["avg_placement"] = out["avg_placement"].round(2)
    return out.sort_values(["wins", "games", "player"], ascending=[False, False, True], ignore_index=True)[SUMMARY]


AUDIENCE_SUMMARY = ["place", "member", "games", "points", "avg_points", "best"]


def audience_summary(archive: Archive, ids) -> pd.DataFrame:
    """The best audience readers over the selected games: per person (one name, whatever its case
    or spaces), their place by points in all (ties share one), the games they watched, their points
    in all, on average and at best."""
    a = archive.audience
    a = a[a["game_id"].isin(ids)]
    if a.empty:
        return pd.DataFrame(columns=AUDIENCE_SUMMARY)
    out = a.groupby("key").agg(
        member=("member", "first"), games=("game_id", "nunique"), points=("points", "sum"), best=("points", "max")
    )
    out["avg_points"] = (out["points"] / out["games"]).round(2)
    by_name = lambda column: column.str.casefold() if column.name == "member" else column  # noqa: E731
    out = out.sort_values(["points", "member"], ascending=[False, True], key=by_name, ignore_index=True)
    out["place"] = places(out["points"].tolist())
    return out[AUDIENCE_SUMMARY]


def score_history(record: dict, names: list[str]) -> pd.DataFrame:
    """One game: each seat's points and cumulative score after every turn (turn 0 = the start)."""
    seats = sorted(p["seat"] for p in record["players"])
    rows = [(0, s, 0, 0) for s in seats]
    total = dict.fromkeys(seats, 0)
    for i, turn in enumerate(record.get("turns", ()), start=1):
        for s in seats:
            points = int(turn.get("scores", {}).get(str(s), 0))
            total[s] += points
            rows.append((i, s, points, total[s]))
    out = pd.DataFrame(rows, columns=["turn", "seat", "points", "score"])
    out["player"] = [names[s] if s < len(names) else f"Seat {s + 1}" for s in out["seat"]]
    return out
