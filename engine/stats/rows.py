"""The flat rows of one saved game, packed: what the statistics read instead of the record.

When a game is saved, `pack(record)` flattens it into the rows the statistics need (the game, one
row per seat, and each family's frames: per turn, per vote, per guess) and packs them into one
blob stored beside the record. The page loads every game's blob with one query and `unpack`s them
into frames: whole-number columns travel as raw int64 arrays (`numpy.frombuffer`, no parsing),
the few text columns as small JSON lists. The record stays the export and the source of truth:
the rows can always be rebuilt from it with `pack`.

Blob: 4 bytes (big-endian header length), the JSON header, then the arrays' bytes.
"""

from __future__ import annotations

import json
from itertools import chain
from typing import Any

import numpy as np
import pandas as pd

from engine.stats.registry import FAMILIES, family_of

FORMAT = 1
_chained = chain.from_iterable
GAME_FIELDS = (
    "room",
    "game_no",
    "game",
    "variant",
    "started_at",
    "ended_at",
    "players_count",
    "turns",
    "ended_by_host",
)


def pack(record: dict) -> bytes:
    """One game's flat rows."""
    players = sorted(record["players"], key=lambda p: p["seat"])
    for i, p in enumerate(players):
        if p["seat"] != i:
            raise ValueError(f"record {record.get('room')}/{record.get('game_no')}: seats are not 0..n-1")
    module = family_of(record["game"])
    game = {
        "room": record.get("room", ""),
        "game_no": record.get("game_no", 1),
        "game": record["game"],
        "variant": module.variant(record) if module else str(record.get("options", {}).get("variant") or "").title(),
        "started_at": record.get("started_at") or record.get("ended_at"),
        "ended_at": record.get("ended_at"),
        "players_count": len(players),
        "turns": len(record.get("turns", ())),
        "ended_by_host": bool(record.get("ended_by_host")),
    }
    winners, scores = set(record.get("winners", ())), record.get("final_scores", {})
    results = {
        "name": [p["name"] for p in players],
        "score": [scores.get(str(i), 0) for i in range(len(players))],
        "won": [i in winners for i in range(len(players))],
        "team": [p.get("team") for p in players],
        "bot": [bool(p.get("bot")) for p in players],
        "clock_skips": _clock_skips(record, len(players)),
    }
    frames, chunks, offset = {}, [], 0
    if module is not None:
        layouts = layout(module.NAME)
        for name, frame in module.frames([record], [0]).items():
            ints, others = layouts[name][0], layouts[name][1]
            data = frame[ints].to_numpy(dtype=np.int64).tobytes() if ints else b""
            frames[name] = [len(frame), offset, len(data), {c: _plain(frame[c]) for c in others}]
            chunks.append(data)
            offset += len(data)
    header = json.dumps(
        {
            "format": FORMAT,
            "family": module.NAME if module else None,
            "game": game,
            "results": results,
            "frames": frames,
            # the audience's names and points (games saved before it, or nobody watching: none)
            **({"audience": [[m["name"], m["points"]] for m in record["audience"]]} if record.get("audience") else {}),
        },
        separators=(",", ":"),
    ).encode()
    return len(header).to_bytes(4, "big") + header + b"".join(chunks)


def _clock_skips(record: dict, seats: int) -> list[int]:
    """Per seat, the turns in which the pace clock (or the quiet-player rule) skipped it."""
    counts = [0] * seats
    for turn in record.get("turns", ()):
        for seat in turn.get("clock_skips", ()):
            if 0 <= seat < seats:
                counts[seat] += 1
    return counts


def stale(game: str, packed: bytes) -> bool:
    """Rows packed before the game had a statistics family (Trading Faces' before it got one): they
    lack its frames. The header's start is enough to tell, without parsing it (`pack` writes
    "format" and then "family" first)."""
    return family_of(game) is not None and b'"family":null' in bytes(packed[4:48])


def _whole(column: pd.Series) -> bool:
    return pd.api.types.is_integer_dtype(column) or pd.api.types.is_bool_dtype(column)


_LAYOUTS: dict = {}


def layout(family: str) -> dict:
    """{frame: (whole-number columns, other columns, the empty frame)} of a family, from the frames
    it makes of no games: the same for every game, so no blob repeats it."""
    if family not in _LAYOUTS:
        empty = FAMILIES[family].frames([], [])
        _LAYOUTS[family] = {
            name: (
                [c for c in f.columns if c != "game_id" and _whole(f[c])],
                [c for c in f.columns if c != "game_id" and not _whole(f[c])],
                f,
            )
            for name, f in empty.items()
        }
    return _LAYOUTS[family]


def _plain(column: pd.Series) -> list:
    values = column.astype(object) if isinstance(column.dtype, pd.CategoricalDtype) else column
    return [v.item() if hasattr(v, "item") else v for v in values.tolist()]


def unpack(blobs: list[bytes]) -> tuple[dict, dict, dict]:
    """Many games' rows, in order (game_id = position): (games columns, results columns, {family:
    frames}). Column by column, not game by game: each column is one pass over the parsed headers
    in C (`chain.from_iterable`, `numpy.fromiter`), so 10,000 games cost a few Python steps each."""
    blobs = [bytes(blob) for blob in blobs]
    sizes = [int.from_bytes(blob[:4], "big") for blob in blobs]
    # Every header in one parse: 10,000 small json.loads calls cost twice as much as one big one.
    headers = json.loads(b"[" + b",".join([blob[4 : 4 + size] for blob, size in zip(blobs, sizes, strict=True)]) + b"]")
    game_rows = [h["game"] for h in headers]
    games = {key: [g.get(key) for g in game_rows] for key in GAME_FIELDS}
    games["audience"] = [h.get("audience", []) for h in headers]
    r = [h["results"] for h in headers]
    counts = np.fromiter(map(len, (x["name"] for x in r)), dtype=np.int64, count=len(r))
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    results = {
        "game_id": np.repeat(np.arange(len(r), dtype=np.int64), counts),
        "seat": np.arange(total, dtype=np.int64) - np.repeat(starts, counts),
        "name": list(_chained(x["name"] for x in r)),
        "score": np.fromiter(_chained(x["score"] for x in r), dtype=np.int64, count=total),
        "won": np.fromiter(_chained(x["won"] for x in r), dtype=bool, count=total),
        "team": list(_chained(x["team"] for x in r)),
        # games saved before computer players: none
        "bot": np.fromiter(_chained(x.get("bot") or [False] * len(x["name"]) for x in r), dtype=bool, count=total),
        # games saved before the pace clock: none
        "clock_skips": np.fromiter(
            _chained(x.get("clock_skips") or [0] * len(x["name"]) for x in r), dtype=np.int64, count=total
        ),
    }
    frames = {}
    for family in FAMILIES:
        mine = [gid for gid, h in enumerate(headers) if h["family"] == family]
        spec = layout(family)
        frames[family] = {
            name: _frame(spec[name], [(gid, headers[gid]["frames"].get(name)) for gid in mine], blobs, sizes)
            for name in spec
        }
    return games, results, frames


def _frame(spec: tuple, pieces: list, blobs: list, sizes: list) -> pd.DataFrame:
    """One frame of many games, with the columns and types the family gives it. `pieces`: (game_id,
    the frame's entry in that game's header: [rows, offset, bytes, {column: values}] or None)."""
    ints, others, empty = spec
    pieces = [(gid, entry) for gid, entry in pieces if entry is not None]
    counts = np.fromiter((entry[0] for _, entry in pieces), dtype=np.int64, count=len(pieces))
    block = None
    if ints:
        views = [
            memoryview(blobs[gid])[4 + sizes[gid] + entry[1] : 4 + sizes[gid] + entry[1] + entry[2]]
            for gid, entry in pieces
        ]
        block = np.frombuffer(b"".join(views), dtype=np.int64).reshape(-1, len(ints))
    where = {column: i for i, column in enumerate(ints)}
    data = {}
    value: Any  # an array, or a list (made a Categorical) for a column of texts
    for column in empty.columns:
        kind = empty[column].dtype
        if column == "game_id":
            value = np.repeat(np.fromiter((gid for gid, _ in pieces), dtype=np.int64, count=len(pieces)), counts)
        elif column in where:
            value = block[:, where[column]] if block is not None else np.zeros(0, np.int64)
            value = value.astype(kind) if value.dtype != kind else np.ascontiguousarray(value)
        else:
            value = list(_chained(entry[3][column] for _, entry in pieces))
            if isinstance(kind, pd.CategoricalDtype):
                value = categorical(value)
        data[column] = value
    frame = pd.DataFrame(data, columns=list(empty.columns))
    for column in empty.columns:  # what the family's frames have that inference did not give
        kind = empty[column].dtype
        if frame[column].dtype != kind and not isinstance(kind, pd.CategoricalDtype):
            frame[column] = frame[column].astype(kind)
    return frame


def categorical(values: list) -> pd.Categorical:
    """`pd.Categorical(values)` of a list of texts, the same categories in the same order, but
    factorised as Python objects: pandas made the 200,000 texts of a column text (Arrow) values
    first, one by one, to then keep only the few dozen distinct ones."""
    if not values:
        return pd.Categorical(values)
    try:
        codes, uniques = pd.factorize(np.asarray(values, dtype=object), sort=True)
    except TypeError:  # texts and numbers together: pandas' own way
        return pd.Categorical(values)
    if not all(isinstance(u, str) for u in uniques):
        return pd.Categorical(values)
    return pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype(pd.Index(uniques, dtype="str")))
