"""HTTP and WebSocket routes the pages need besides Streamlit's own: mounted by app.py (and by test
apps)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlencode

from starlette.convertors import Convertor, register_url_convertor
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute

from engine.tables import CODE_LETTERS, normalise_code


async def script_asset(request):
    """The components' JavaScript and the emoji font (pages/assets), under a versioned URL the browser
    keeps."""
    from pages.ui import ASSETS

    name = request.path_params["name"]
    kinds = {".js": "text/javascript", ".woff2": "font/woff2", ".css": "text/css"}
    if name not in {p.name for p in ASSETS.iterdir() if p.suffix in kinds}:
        return PlainTextResponse("no such file", status_code=404)
    return FileResponse(
        ASSETS / name,
        media_type=kinds[Path(name).suffix],
        headers={"Cache-Control": "public, max-age=31536000, immutable"},
    )


async def game_picture(request):
    """A game's own picture (`Content.pictures`: Trading Faces' emotion cards), drawn once and kept by
    the browser: a hand of cards is then a few short <img> tags on every rerun, not kilobytes of SVG."""
    from engine import tables

    game = tables.games().get(request.path_params["game"])
    try:
        if game is None or game.content.pictures is None:
            raise ValueError("no such game")
        body, media = game.content.pictures(request.path_params["name"])
    except ValueError:
        return PlainTextResponse("no such picture", status_code=404)
    return Response(body, media_type=media, headers={"Cache-Control": "public, max-age=31536000, immutable"})


_kept_keepsakes: dict[tuple, dict] = {}
_building: dict[tuple, asyncio.Future] = {}


async def _keepsake_files(code: str, game_no: int, round_no: int) -> dict[str, bytes]:
    """A scored round never changes: its images are built once (a few per process), however many
    phones ask at once (twenty asking for a round not yet built built it twenty times, 3.5 s each,
    and a move in another room waited for the cores). Those who ask while it is built wait for it
    on the event loop, holding no worker thread."""
    from engine import tables

    key = (normalise_code(code), game_no, round_no)
    if key in _kept_keepsakes:
        return _kept_keepsakes[key]
    building = _building.get(key)
    if building is None:
        building = _building[key] = asyncio.ensure_future(asyncio.to_thread(tables.keepsake, code, game_no, round_no))

        def built(done: asyncio.Future) -> None:
            _building.pop(key, None)
            if not done.cancelled() and done.exception() is None:
                _kept_keepsakes[key] = done.result()
                while len(_kept_keepsakes) > 8:
                    _kept_keepsakes.pop(next(iter(_kept_keepsakes)))

        building.add_done_callback(built)
    return await asyncio.shield(building)


async def keepsake(request):
    """A phone's "Save the drawings" (Pictomania, on the stage): its own drawing of a scored round,
    animated, or the round's contact sheet. The seat's token proves the phone, as its page's link
    does; a wrong link, a round not scored and a file that is not there get the same answer."""
    from engine import tables
    from engine.core import SobremesaError

    q, code = request.query_params, request.path_params["code"]
    try:
        seat, game_no, round_no = int(q.get("seat", "")), int(q.get("game", "")), int(q.get("round", ""))
        await asyncio.to_thread(tables.view, code, seat, q.get("token") or "")
        files = await _keepsake_files(code, game_no, round_no)
    except (ValueError, SobremesaError):
        return PlainTextResponse("no such keepsake", status_code=404)
    tag = f"-round{round_no}-{seat + 1}-"
    wanted = {"mine": lambda k: tag in k and k.endswith(".gif"), "sheet": lambda k: k.endswith("sheet.png")}
    pick = wanted.get(q.get("file") or "")
    name = next((k for k in files if pick(k)), None) if pick else None
    if name is None:
        return PlainTextResponse("no such keepsake", status_code=404)
    prefix = f"pictomania-{normalise_code(code).lower()}-{game_no}-round{round_no}"
    saved = f"{prefix}-{seat + 1}.gif" if q.get("file") == "mine" else f"{prefix}-sheet.png"
    return Response(
        files[name],
        media_type="image/gif" if saved.endswith(".gif") else "image/png",
        headers={"Content-Disposition": f'attachment; filename="{saved}"', "Cache-Control": "private, max-age=3600"},
    )


class RoomCode(Convertor):
    """A path that can only be a room code: 4 to 6 of the code letters, in any case. They are
    consonants, so no Streamlit page (/table, /play, /rules, /stats) and none of its own routes
    (/_stcore, /static, /component, /media) ever matches."""

    regex = f"[{CODE_LETTERS}{CODE_LETTERS.lower()}]{{4,6}}"

    def convert(self, value: str) -> str:
        return normalise_code(value)

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("room_code", RoomCode())


async def short_link(request):
    """`/KGPB`, the join link as a person types it from the wall, on to the join page. The same
    answer whether or not the room exists: the join page looks the code up (and counts wrong ones)."""
    return RedirectResponse("/play?" + urlencode({"room": request.path_params["code"]}), status_code=307)


async def stage_events(websocket):
    """A game screen drawn from the socket (pages/stage): the viewer proves who it is in its first
    message (engine/push/stage.py), never in the URL."""
    from engine.push.stage import endpoint
    from pages.stage.serve import SERVE

    await endpoint(websocket, SERVE)


ASSET_ROUTE = Route("/assets/{name}", script_asset)
PICTURE_ROUTE = Route("/pictures/{game}/{name}", game_picture)
KEEPSAKE_ROUTE = Route("/keepsakes/{code}", keepsake)
SHORT_ROUTE = Route("/{code:room_code}", short_link)
STAGE_ROUTE = WebSocketRoute("/stage/{code}", stage_events)
