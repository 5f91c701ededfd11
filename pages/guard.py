"""What every HTTP request passes through before Streamlit sees it (app.py mounts `Guard`).

- **A device id.** A browser without the `sobremesa_device` cookie gets one with the response: a
  random id, so that limits (wrong room codes, rooms created, requests to come back in) count a
  browser and not only its address, which a school's phones often share.
- **Uploads.** Streamlit's `PUT /_stcore/upload_file/<session>/<file>` takes a file into any live
  session from anyone who sets the XSRF cookie and header alike, and keeps it in memory until the
  session is gone. Here an upload is let through only into a session whose page shows a file
  uploader right now (`offer`, called by the page that draws one, and `withdraw` at each full run),
  and only from the browser that holds that session: the same device id and address. Anything else
  gets 403 before its body is read. One session holds at most `SESSION_BYTES`, and a session whose
  socket has gone is emptied by `sweep` (Streamlit keeps a closed session's files for its TTL, and
  longer until something looks at it).
- **The laptop's key.** A request from this computer carrying `?laptop=<key>` (the start command's
  link, `engine.laptop`) gets the laptop's cookie and is sent on to the same address without it.
  Uploads need that cookie too: the address alone never proves the laptop (a forwarder on it makes
  every phone's address 127.0.0.1).
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode

from engine import gate, laptop

DEVICE_COOKIE = "sobremesa_device"
_DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{16,40}")
_UPLOAD = re.compile(r"/_stcore/upload_file/([^/]+)/[^/]+")
SESSION_BYTES = 120 * 1024 * 1024  # what one deck's upload may hold in all (engine.pictures.upload)
OFFER_SECONDS = 30 * 60  # an uploader left open on a page stays usable this long without a rerun
SWEEP_SECONDS = 15

_offers: dict[str, tuple[str | None, str, float]] = {}  # session id -> (device id, address, until)
_lock = threading.Lock()


def device_id(cookies) -> str | None:
    """The browser's device id from its cookies (a mapping), if it is one we could have made."""
    value = cookies.get(DEVICE_COOKIE) if cookies else None
    return value if isinstance(value, str) and _DEVICE_ID.fullmatch(value) else None


def _cookies(scope) -> dict[str, str]:
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            jar = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a malformed cookie header: as if none
                return {}
            return {k: m.value for k, m in jar.items()}
    return {}


def _address(scope) -> str:
    client = scope.get("client")
    return client[0] if client else ""


def _same_address(address: str | None) -> str:
    """One name for this computer: Streamlit's page side reads None for 127.0.0.1 and ::1."""
    return "loopback" if not address or gate.is_local(address) else address


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def is_laptop(scope, cookies: dict[str, str]) -> bool:
    """This computer, proven: a loopback address no untrusted proxy stands before, and the laptop's
    cookie (`engine.laptop`)."""
    here = gate.where(_address(scope) or None, _header(scope, b"x-forwarded-for"))[1]
    return here and laptop.proves(cookies.get(laptop.COOKIE))


# ---- the page's side -----------------------------------------------------------------------------


def _this_session() -> tuple[str, str | None, str] | None:
    import streamlit as st
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return None
    try:
        cookies = st.context.cookies
    except Exception:
        cookies = {}
    return ctx.session_id, device_id(cookies), _same_address(getattr(st.context, "ip_address", None))


def offer() -> None:
    """This session's page shows a file uploader now: its own browser may upload into it."""
    found = _this_session()
    if found is not None:
        session, device, address = found
        with _lock:
            _offers[session] = (device, address, time.monotonic() + OFFER_SECONDS)


def withdraw() -> None:
    """A full run starts: whatever it draws offers an uploader again if it has one."""
    found = _this_session()
    if found is not None:
        with _lock:
            _offers.pop(found[0], None)


def may_upload(session: str, device: str | None, address: str, now: float | None = None) -> bool:
    now = time.monotonic() if now is None else now
    with _lock:
        offered = _offers.get(session)
    if offered is None or offered[2] < now:
        return False
    return offered[1] == _same_address(address) and (offered[0] is None or offered[0] == device)


def _held(session: str) -> int:
    """Bytes Streamlit keeps for this session's uploads."""
    try:
        from streamlit import runtime

        files = runtime.get_instance().uploaded_file_mgr.file_storage.get(session, {})
        return sum(len(f.data) for f in list(files.values()))
    except Exception:
        return 0


def sweep() -> None:
    """Empty the uploads of every session whose socket is gone, and forget stale offers."""
    try:
        from streamlit import runtime

        if not runtime.exists():
            return
        rt = runtime.get_instance()
        manager = rt.uploaded_file_mgr
        for session in list(getattr(manager, "file_storage", {})):
            if not rt.is_active_session(session):
                manager.remove_session_files(session)
        now = time.monotonic()
        with _lock:
            for session in [s for s, o in _offers.items() if o[2] < now or not rt.is_active_session(s)]:
                del _offers[session]
    except Exception:  # the runtime is starting or stopping: next time
        pass


def start_sweeping() -> None:
    def loop() -> None:
        while True:
            time.sleep(SWEEP_SECONDS)
            sweep()

    threading.Thread(target=loop, name="sobremesa-upload-sweep", daemon=True).start()


# ---- the middleware --------------------------------------------------------------------------------


async def _refuse(send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _adopt(scope, send, query: str) -> None:
    """The start command's link: this browser becomes the laptop's if the key is right and it is on
    this computer; either way the key leaves the address bar (a projected address is read by all).
    It always leads to the start page: the link is the start page's, and a path taken from the
    request would make an open redirect (`//elsewhere.example`)."""
    pairs = parse_qsl(query, keep_blank_values=True)
    given = next((v for k, v in pairs if k == laptop.PARAMETER), "")
    rest = urlencode([(k, v) for k, v in pairs if k != laptop.PARAMETER])
    headers = [(b"location", ("/" + (f"?{rest}" if rest else "")).encode("latin-1", "replace"))]
    here = gate.where(_address(scope) or None, _header(scope, b"x-forwarded-for"))[1]
    if here and laptop.proves(given):
        cookie = f"{laptop.COOKIE}={given}; Path=/; Max-Age=31536000; SameSite=Strict; HttpOnly"
        headers.append((b"set-cookie", cookie.encode()))
    headers += [(b"content-length", b"0"), (b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": 303, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


class Guard:
    """Pure ASGI middleware (it never reads a body, so streaming and WebSockets are untouched)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        cookies = _cookies(scope)
        device = device_id(cookies)
        query = scope.get("query_string", b"").decode("latin-1")
        if scope.get("method") == "GET" and any(k == laptop.PARAMETER for k, _ in parse_qsl(query)):
            return await _adopt(scope, send, query)
        upload = _UPLOAD.fullmatch(scope.get("path", ""))
        if upload and scope.get("method") in ("PUT", "DELETE"):
            session = upload.group(1)
            if not is_laptop(scope, cookies) or not may_upload(session, device, _address(scope)):
                return await _refuse(send, 403, "Uploads are taken only from the page that offers them.")
            if scope["method"] == "PUT":
                length = dict(scope.get("headers", ())).get(b"content-length", b"")
                if not length.isdigit() or _held(session) + int(length) > SESSION_BYTES:
                    return await _refuse(send, 413, "Too much uploaded at once.")
        if device is not None:
            return await self.app(scope, receive, send)
        made = secrets.token_urlsafe(18)

        async def with_cookie(message):
            if message["type"] == "http.response.start":
                cookie = f"{DEVICE_COOKIE}={made}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly"
                message = {**message, "headers": [*message.get("headers", ()), (b"set-cookie", cookie.encode())]}
            await send(message)

        return await self.app(scope, receive, with_cookie)
