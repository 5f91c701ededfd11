"""HTTP and WebSocket routes the pages need besides Streamlit's own: mounted by app.py (and by test
apps)."""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from urllib.parse import urlencode

from starlette.convertors import Convertor, register_url_convertor
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute

from engine.tables import CODE_LETTERS, normalise_code


@functools.lru_cache(maxsize=256)
def _builtin_card(path) -> bytes:
    return path.read_bytes()


def warm_cards() -> None:
    """Read the built-in deck into memory at start (about 6 MB, 108 cards): a card's first fetch
    read its file on the event loop, in the move that showed it."""
    from engine import pictures

    for path in sorted(pictures.BUILTIN_DIR.glob("dream-*.jpg"))[: _builtin_card.cache_info().maxsize]:
        _builtin_card(path)


def card_answer(card_id: str) -> tuple[int, dict[str, str], bytes]:
    """A card's picture by id: (status, headers, body). Ids are not secrets; who holds which card
    is, and that is never here. A built-in card's bytes are kept in memory (the deck is about 6 MB):
    every phone fetches the cards on the table each turn, and a file response costs a thread hop
    and a stat each time. `guard.Guard` answers with it straight away for a browser it knows."""
    from engine import pictures

    try:
        picture = pictures.card_image(card_id)
    except (pictures.CardNotFound, ValueError):
        return 404, {"content-type": "text/plain; charset=utf-8"}, b"no such card"
    body = picture if isinstance(picture, bytes) else _builtin_card(picture)  # bytes: an uploaded deck's
    return 200, {"content-type": "image/jpeg", "cache-control": "public, max-age=86400"}, body


@functools.cache
def _static_files() -> dict[str, Path]:
    """Streamlit's own built assets (its `static/` folder, content-hashed names), by the path the
    browser asks for: only files found here are ever answered from memory."""
    from streamlit import file_util

    root = Path(file_util.get_static_dir())
    return {"/" + p.relative_to(root / "static").as_posix(): p for p in (root / "static").rglob("*") if p.is_file()}


@functools.lru_cache(maxsize=512)
def _static_body(path: Path) -> bytes:
    return path.read_bytes()


def static_answer(rest: str) -> tuple[int, dict[str, str], bytes] | None:
    """One of Streamlit's built assets (`/static/<rest>`), from memory, or None for Streamlit to
    answer. A new browser fetches about a hundred of them (3 MB) with its first page; through
    Streamlit's static files each took 1.7 ms of the server's CPU (a file read in 64 KB chunks, each
    a trip to a thread): 0.18 s a phone, half a minute for a hall joining. Their names change with
    their content, so they are kept for a year, as Streamlit keeps them."""
    import mimetypes

    path = _static_files().get("/" + rest)
    if path is None:
        return None
    kind = mimetypes.guess_type(path.name)[0] or "text/plain"  # as Starlette's file answer says it
    if kind.startswith("text/"):
        kind += "; charset=utf-8"
    return 200, {"content-type": kind, "cache-control": "public, immutable, max-age=31536000"}, _static_body(path)


async def card_image(request):
    status, headers, body = card_answer(request.path_params["card_id"])
    return Response(body, status_code=status, headers=headers)


async def script_asset(request):
    """The components' JavaScript and the emoji font (pages/assets), under a versioned URL the browser
    keeps."""
    from pages.ui import ASSETS

    name = request.path_params["name"]
    kinds = {".js": "text/javascript", ".woff2": "font/woff2", ".css": "text/css"}
    if name not in {p.name for p in ASSETS.iterdir() if p.suffix in kinds}:
        return PlainTextResponse("no such file", status_code=404)
    kept = {"Cache-Control": "public, max-age=31536000, immutable"}
    if name.endswith(".js"):  # its imports under their versions (pages/scripts.py)
        from pages import scripts

        return Response(scripts.served(name), media_type=kinds[".js"], headers=kept)
    return FileResponse(ASSETS / name, media_type=kinds[Path(name).suffix], headers=kept)


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


async def keepsake(request):
    """A phone's "Save the drawings" (Pictomania, on the stage): its own drawing of a scored round,
    animated, or the round's contact sheet. The seat's token proves the phone, as its page's link
    does; a wrong link, a round not scored and a file that is not there get the same answer."""
    from engine import tables
    from engine.core import SobremesaError
    from pages import keepsakes

    q, code = request.query_params, request.path_params["code"]
    try:
        seat, game_no, round_no = int(q.get("seat", "")), int(q.get("game", "")), int(q.get("round", ""))
        view = await asyncio.to_thread(tables.view, code, seat, q.get("token") or "")
        files = await keepsakes.files_soon(code, game_no, round_no)
    except (ValueError, SobremesaError):
        return PlainTextResponse("no such keepsake", status_code=404)
    mine = q.get("file") == "mine"
    body = keepsakes.drawing_of(files, round_no, seat) if mine else keepsakes.sheet_of(files)
    if body is None or q.get("file") not in ("mine", "sheet"):
        return PlainTextResponse("no such keepsake", status_code=404)
    saved = keepsakes.saved_as(view["game"], code, game_no, round_no, seat if mine else None)
    return Response(
        body,
        media_type="image/gif" if mine else "image/png",
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
