"""A scored round's keepsakes (its drawings animated, its contact sheet; `Content.keepsake`): built
once per process and kept, whoever asks, a phone through its link (pages/routes.py, `/keepsakes`) or
a page's download button; and the names they are saved under, said in one place.

A round once scored never changes. Twenty phones asking at once for a round not yet built built it
twenty times (3.5 s each) while a move in another room waited: now the first builds it and the
others wait for it (on the event loop, holding no worker thread, for the route)."""

from __future__ import annotations

import asyncio
import threading

from engine import tables

KEPT = 8  # rounds kept (their images: a few MB each)
_kept: dict[tuple, dict[str, bytes]] = {}
_building: dict[tuple, asyncio.Future] = {}
_lock = threading.Lock()


def _key(code: str, game_no: int, round_no: int | None) -> tuple:
    return (tables.normalise_code(code), game_no, round_no)


def _keep(key: tuple, files: dict[str, bytes]) -> None:
    with _lock:
        _kept[key] = files
        while len(_kept) > KEPT:
            _kept.pop(next(iter(_kept)))


def files(code: str, game_no: int, round_no: int | None) -> dict[str, bytes]:
    """{file name: bytes} of a scored round (of the whole game with `round_no` None), built if no
    one has yet (a page's download button: it builds in its own script thread)."""
    key = _key(code, game_no, round_no)
    with _lock:
        found = _kept.get(key)
    if found is None:
        found = tables.keepsake(code, game_no, round_no)
        _keep(key, found)
    return found


async def files_soon(code: str, game_no: int, round_no: int) -> dict[str, bytes]:
    """`files`, for a route: one build however many ask at once, the others waiting for it."""
    key = _key(code, game_no, round_no)
    with _lock:
        found = _kept.get(key)
    if found is not None:
        return found
    building = _building.get(key)
    if building is None:
        building = _building[key] = asyncio.ensure_future(asyncio.to_thread(tables.keepsake, code, game_no, round_no))

        def built(done: asyncio.Future) -> None:
            _building.pop(key, None)
            if not done.cancelled() and done.exception() is None:
                _keep(key, done.result())

        building.add_done_callback(built)
    return await asyncio.shield(building)


def drawing_of(files: dict[str, bytes], round_no: int, seat: int) -> bytes | None:
    """A seat's animated drawing of the round, if it drew one."""
    tag = f"-round{round_no}-{seat + 1}-"
    return next((v for k, v in files.items() if tag in k and k.endswith(".gif")), None)


def sheet_of(files: dict[str, bytes]) -> bytes | None:
    """The round's contact sheet."""
    return next((v for k, v in files.items() if k.endswith("sheet.png")), None)


def saved_as(game: str, code: str, game_no: int, round_no: int | None = None, seat: int | None = None) -> str:
    """The name a keepsake is saved under: a seat's drawing (.gif), a round's sheet (.png), or the
    whole game (.zip)."""
    prefix = f"{game}-{tables.normalise_code(code).lower()}-{game_no}"
    if round_no is None:
        return f"{prefix}.zip"
    return f"{prefix}-round{round_no}-{seat + 1}.gif" if seat is not None else f"{prefix}-round{round_no}-sheet.png"
