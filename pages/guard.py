"""What every request and socket passes through before Streamlit sees it (app.py mounts `Guard`).

- **Sockets.** A socket opens only from the server's own pages (`origin_ok`): a foreign page's is
  refused here, before Streamlit's own check, which would look the laptop up on the internet on the
  event loop (checkip.amazonaws.com: on a Wi-Fi whose DNS is down, every socket froze for seconds).
  Behind a trusted proxy, each forwarded address holds at most `gate.per_address().connections`
  sockets (a phone straight on the Wi-Fi is counted from accept: engine/connections.py).

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
- **The laptop's key.** A request from this computer carrying `?laptop=<ticket>` (one of the start
  command's links, each working once: `engine.laptop`) gets the laptop's cookie and is sent on to
  the start page without it.
  Uploads need that cookie too: the address alone never proves the laptop (a forwarder on it makes
  every phone's address 127.0.0.1).
"""

from __future__ import annotations

import functools
import os
import re
import secrets
import threading
import time
from collections import Counter
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlencode, urlsplit

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


_jars: dict[str, dict[str, str]] = {}  # a Cookie header -> its cookies, for the browsers of the moment


def cookies_of(header: str | None) -> dict[str, str]:
    """The cookies of a Cookie header (a socket's, or a request's). A browser sends the same header
    with every request, a card's picture too: parsed once (SimpleCookie was 16% of the server's CPU
    in a game of 1 + 6 tabs)."""
    if not header:
        return {}
    found = _jars.get(header)
    if found is None:
        jar = SimpleCookie()
        try:
            jar.load(header)
        except Exception:  # a malformed cookie header: as if none
            jar = SimpleCookie()
        found = {k: m.value for k, m in jar.items()}
        if len(header) <= 4096:  # ours are a few hundred characters: a phone's huge ones are not kept
            if len(_jars) >= 1024:  # a flood of headers: forget them all, not just one
                _jars.clear()
            _jars[header] = found
    return dict(found)


def _cookies(scope) -> dict[str, str]:
    return cookies_of(_header(scope, b"cookie"))


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


# ---- sockets: whose pages may open one, and how many one address may hold ---------------------------

APP_SOCKETS = ("/stage/", "/events/")  # the app's own sockets: refused after the handshake, with a code
CLOSE_ORIGIN, CLOSE_TRY_LATER = 4403, 1013
_OWN_SECONDS = 10
_own: list = [0.0, frozenset()]  # (until, hosts): the join address is read at most every _OWN_SECONDS
_forwarded: Counter[str] = Counter()  # open sockets per address behind a trusted proxy


def _origin(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin or a base URL, the port filled in from the scheme."""
    parts = urlsplit(url if "//" in url else f"http://{url}")
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError:
        return None
    return scheme, parts.hostname.lower(), port


def _own_hosts(port: int) -> frozenset:
    """The server's own names, as today's list had them (host names alone): localhost, its loopback
    addresses and the address phones join at (the host's pick, or the interface's)."""
    now = time.monotonic()
    if _own[0] < now:
        hosts = {"localhost", "127.0.0.1", "::1"}
        try:
            from engine import tables

            hosts.add((urlsplit(tables.join_base(port)).hostname or "").lower())
        except Exception:  # the store cannot be read: the loopback names alone
            pass
        _own[:] = [now + _OWN_SECONDS, frozenset(hosts)]
    return _own[1]


def origin_ok(scope) -> bool:
    """Whether a socket may open: a browser's `Origin` (scheme, host and port) is the page's own,
    its `Host` (behind a trusted proxy `X-Forwarded-Host` and `X-Forwarded-Proto`), or
    SOBREMESA_PUBLIC_URL, or one of the server's own addresses. A page opened at another address
    of the laptop (another interface, its .local name) is its own origin, and plays. A client with
    no Origin (not a browser: a bench, a script) proves itself by its token alone."""
    origin = _header(scope, b"origin")
    if origin is None:
        return True
    seen = _origin(origin)
    if seen is None:
        return False
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    host = _header(scope, b"host")
    if _address(scope) and gate.within(_address(scope), gate.trusted_networks()):
        host = _header(scope, b"x-forwarded-host") or host
        scheme = (_header(scope, b"x-forwarded-proto") or scheme).split(",")[0].strip().lower()
    if host and seen == _origin(f"{scheme}://{host.split(',')[0].strip()}"):
        return True
    public = os.environ.get("SOBREMESA_PUBLIC_URL")
    if public and seen == _origin(public):
        return True
    server = scope.get("server") or (None, 8501)
    return seen[1] in _own_hosts(int(server[1] or 8501))


async def _refuse_socket(scope, receive, send, code: int) -> None:
    """The app's sockets are accepted, then closed with `code`: a browser cannot tell a refused
    handshake from a network failure (both close with 1006), and its page says why it cannot play.
    Streamlit's own socket is refused at the handshake (403), before Streamlit looks at it."""
    if not scope.get("path", "").startswith(APP_SOCKETS):
        await send({"type": "websocket.close", "code": code})
        return
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code})


async def _socket(app, scope, receive, send) -> None:
    if not origin_ok(scope):
        return await _refuse_socket(scope, receive, send, CLOSE_ORIGIN)
    peer = _address(scope)
    address, here = gate.where(peer or None, _header(scope, b"x-forwarded-for"))
    if here or address == peer:  # the laptop, or a phone engine/connections.py counted from accept
        return await app(scope, receive, send)
    if _forwarded[address] >= gate.per_address().connections:  # one address behind a trusted proxy
        return await _refuse_socket(scope, receive, send, CLOSE_TRY_LATER)
    _forwarded[address] += 1
    try:
        return await app(scope, receive, send)
    finally:
        _forwarded[address] -= 1
        if _forwarded[address] <= 0:
            del _forwarded[address]


# ---- the pages' HTML: their language, and where Streamlit's own routes are ----------------------------

PAGES = ("/", "/table", "/play", "/remote", "/rules", "/stats")  # app.py's pages: Streamlit serves each its index.html
LANG_COOKIE = "sobremesa_lang"  # pages/i18n.py's
# Streamlit's page tried its routes under the page's own path first (/play/_stcore/health, then
# /_stcore/health): two 404s in every phone's console. Told where they are, it asks there alone.
_BASE = b'<script>window.__streamlit={BACKEND_BASE_URL:new URL(".",location.href).href}</script>'


def page_language(scope, cookies: dict[str, str]) -> str:
    """The language a page will speak (pages/i18n.py decides it the same way, at its first run): the
    reader's choice, then the room's, then the browser's, then English."""
    from engine import i18n

    room = next((v for k, v in parse_qsl(scope.get("query_string", b"").decode("latin-1")) if k == "room"), "")
    room = room.strip().upper()
    chosen, _, only = (cookies.get(LANG_COOKIE) or "").partition(".")
    if chosen in i18n.NAMES and (not only or only == room):
        return chosen
    if room:
        try:
            from engine import tables

            found = tables.room_language(room)
            if found:
                return found
        except Exception:  # the store cannot be read: the browser's language
            pass
    return i18n.best_language(_header(scope, b"accept-language")) or i18n.SOURCE


async def _page(app, scope, receive, send, cookies: dict[str, str]) -> None:
    """A page's index.html, with its language (`<html lang>`: a screen reader reads Spanish as
    Spanish) and Streamlit's routes at the server's root. Asked for uncompressed, so it can be read."""
    scope = {**scope, "headers": [(k, v) for k, v in scope.get("headers", ()) if k != b"accept-encoding"]}
    lang = page_language(scope, cookies).encode()
    start: dict = {}
    body: list[bytes] = []

    async def rewritten(message):
        if message["type"] == "http.response.start":
            start.update(message)
            return
        if message["type"] != "http.response.body" or not start:
            return await send(message)
        body.append(message.get("body", b""))
        if message.get("more_body"):
            return
        html = b"".join(body)
        kind = dict(start.get("headers", ())).get(b"content-type", b"")
        if start.get("status") == 200 and kind.startswith(b"text/html") and b'<html lang="en">' in html:
            html = html.replace(b'<html lang="en">', b'<html lang="' + lang + b'">', 1)
            html = html.replace(b"<head>", b"<head>" + _BASE, 1)
        headers = [(k, v) for k, v in start.get("headers", ()) if k != b"content-length"]
        await send({**start, "headers": [*headers, (b"content-length", str(len(html)).encode())]})
        await send({"type": "http.response.body", "body": html})

    await app(scope, receive, rewritten)


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
    """The start command's link: this browser becomes the laptop's if the link's ticket is still good
    and it is on this computer; either way the ticket leaves the address bar (a projected address is read by all).
    It always leads to the start page: the link is the start page's, and a path taken from the
    request would make an open redirect (`//elsewhere.example`)."""
    pairs = parse_qsl(query, keep_blank_values=True)
    given = next((v for k, v in pairs if k == laptop.PARAMETER), "")
    rest = urlencode([(k, v) for k, v in pairs if k != laptop.PARAMETER])
    headers = [(b"location", ("/" + (f"?{rest}" if rest else "")).encode("latin-1", "replace"))]
    here = gate.where(_address(scope) or None, _header(scope, b"x-forwarded-for"))[1]
    if here and laptop.redeem(given):  # a start command's link: it works once
        cookie = f"{laptop.COOKIE}={laptop.key()}; Path=/; Max-Age=31536000; SameSite=Strict; HttpOnly"
        headers.append((b"set-cookie", cookie.encode()))
    headers += [(b"content-length", b"0"), (b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": 303, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


async def _answer(send, status: int, headers: dict[str, str], body: bytes, head: bool = False) -> None:
    listed = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    listed.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": listed})
    await send({"type": "http.response.body", "body": b"" if head else body})


class Guard:
    """Pure ASGI middleware (it never reads a body, so streaming and WebSockets are untouched)."""

    def __init__(self, app, fast: dict | None = None) -> None:
        self.app = app
        # path prefix -> (the rest of the path -> (status, headers, body), or None: not here):
        # answered here for a browser that has its device id, past Streamlit's session, gzip and
        # path middleware (a card's picture: a third of a millisecond through them, several times a
        # move; Streamlit's own scripts and fonts, a hundred files a new phone's first page)
        self.fast = fast or {}

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            return await _socket(self.app, scope, receive, send)
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
        if device is not None and self.fast and scope.get("method") in ("GET", "HEAD"):
            path = scope.get("path", "")
            for prefix, answer in self.fast.items():
                if path.startswith(prefix) and (found := answer(path[len(prefix) :])) is not None:
                    return await _answer(send, *found, head=scope["method"] == "HEAD")
        app = self.app
        if scope.get("method") == "GET" and scope.get("path") in PAGES:
            app = functools.partial(_page, self.app, cookies=cookies)
        if device is not None:
            return await app(scope, receive, send)
        made = secrets.token_urlsafe(18)

        async def with_cookie(message):
            if message["type"] == "http.response.start":
                cookie = f"{DEVICE_COOKIE}={made}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly"
                message = {**message, "headers": [*message.get("headers", ()), (b"set-cookie", cookie.encode())]}
            await send(message)

        return await app(scope, receive, with_cookie)
