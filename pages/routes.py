"""HTTP routes the pages need besides Streamlit's own: mounted by app.py (and by test apps)."""
from __future__ import annotations

from starlette.responses import FileResponse, PlainTextResponse
from starlette.routing import Route

async def script_asset(request):
    """The components' JavaScript (pages/assets), under a versioned URL the browser keeps."""
    from pages.ui import ASSETS

    name = request.path_params["name"]
    if name not in {p.name for p in ASSETS.glob("*.js")}:
        return PlainTextResponse("no such file", status_code=404)
    return FileResponse(ASSETS / name, media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=31536000, immutable"})


ASSET_ROUTE = Route("/assets/{name}", script_asset)
