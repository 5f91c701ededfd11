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

import numpy as np
import pandas as pd

from engine.stats.registry import FAMILIES, family_of

FORMAT = 1
GAME_FIELDS = ("room", "game_no", "game", "variant", "started_at", "ended_at", "players_count", "turns",
               "ended_by_host")


def pack(record: dict) -> bytes:
    """One game's flat rows."""
    players = sorted(record["players"], key=lambda p: p["seat"])
    for i, p in enumerate(players):
        if p["seat"] != i:
            raise ValueError(f"record {record.get('room')}/{record.get('game_no')}: seats are not 0..n-1")
    module = family_of(record["game"])
    game = {
        "room": record.get("room", ""), "game_no": record.get("game_no", 1), "game": record["game"],
        "variant": module.variant(record) if module else str(record.get("options", {}).get("variant") or "").title(),
        "started_at": record.get("started_at") or record.get("ended_at"), "ended_at": record.get("ended_at"),
        "players_count": len(players), "turns": len(record.get("turns", ())),
        "ended_by_host": bool(record.get("ended_by_host")),
    }
    winners, scores = set(record.get("winners", ())), record.get("final_scores", {})
    results = {"name": [p["name"] for p in players], "score": [scores.get(str(i), 0) for i in range(len(players))],
               "won": [i in winners for i in range(len(players))], "team": [p.get("team") for p in players],
               "bot": [bool(p.get("bot")) for p in players]}
    frames, chunks, offset = {}, [], 0
    if module is not None:
        layouts = layout(module.NAME)
        for name, frame in module.frames([record], [0]).items():
            ints, others = layouts[name][0], layouts[name][1]
            data = frame[ints].to_numpy(dtype=np.int64).tobytes() if ints else b""
            frames[name] = [len(frame), offset, len(data), {c: _plain(frame[c]) for c in others}]
            chunks.append(data)
            offset += len(data)
    header = json.dumps({"format": FORMAT, "family": module.NAME if module else None, "game": game,
                         "results": results, "frames": frames}, separators=(",", ":")).encode()
    return len(header).to_bytes(4, "big") + header + b"".join(chunks)


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
        _LAYOUTS[family] = {name: ([c for c in f.columns if c != "game_id" and _whole(f[c])],
                                   [c for c in f.columns if c != "game_id" and not _whole(f[c])], f)
                            for name, f in empty.items()}
    return _LAYOUTS[family]


def _plain(column: pd.Series) -> list:
    values = column.astype(object) if isinstance(column.dtype, pd.CategoricalDtype) else column
    return [v.item() if hasattr(v, "item") else v for v in values.tolist()]


def unpack(blobs: list[bytes]) -> tuple[list[dict], dict, dict]:
    """Many games' rows, in order (game_id = position): (games, results columns, {family: frames})."""
    games, results = [], {"game_id": [], "seat": [], "name": [], "score": [], "won": [], "team": [], "bot": []}
    parts: dict[str, dict[str, list]] = {name: {} for name in FAMILIES}
    blobs = [bytes(blob) for blob in blobs]
    sizes = [int.from_bytes(blob[:4], "big") for blob in blobs]
    # Every header in one parse: 10,000 small json.loads calls cost twice as much as one big one.
    headers = json.loads(b"[" + b",".join(blob[4:4 + size] for blob, size in zip(blobs, sizes)) + b"]")
    for gid, (blob, size, header) in enumerate(zip(blobs, sizes, headers)):
        body = memoryview(blob)[4 + size:]
        games.append(header["game"])
        r = header["results"]
        n = len(r["name"])
        results["game_id"] += [gid] * n
        results["seat"] += list(range(n))
        for key in ("name", "score", "won", "team"):
            results[key] += r[key]
        results["bot"] += r.get("bot") or [False] * n  # games saved before computer players: none
        found = parts.get(header["family"])
        if found is not None:
            for name, (count, at, size, others) in header["frames"].items():
                found.setdefault(name, []).append((gid, count, body[at:at + size], others))
    frames = {family: {name: _frame(layout(family)[name], found.get(name, []))
                       for name in layout(family)} for family, found in parts.items()}
    return games, results, frames


def _frame(spec: tuple, pieces: list) -> pd.DataFrame:
    """One frame of many games, with the columns and types the family gives it."""
    ints, others, empty = spec
    counts = [p[1] for p in pieces]
    block = np.frombuffer(b"".join(p[2] for p in pieces), dtype=np.int64).reshape(-1, len(ints)) if ints else None
    columns = {"game_id": np.repeat(np.asarray([p[0] for p in pieces], dtype=np.int64), counts)}
    for i, column in enumerate(ints):
        columns[column] = block[:, i] if block is not None else np.zeros(0, np.int64)
    for column in others:
        columns[column] = [v for p in pieces for v in p[3][column]]
    frame = pd.DataFrame(columns)[list(empty.columns)]
    for column in empty.columns:
        kind = empty[column].dtype
        if isinstance(kind, pd.CategoricalDtype):
            frame[column] = pd.Categorical(frame[column])
        elif frame[column].dtype != kind:
            frame[column] = frame[column].astype(kind)
    return frame
