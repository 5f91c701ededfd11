"""What every page shares: the style, the links, the QR code, and how refusals are shown."""

from __future__ import annotations

import functools
import hashlib
import time
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

from engine import gate, laptop, tables
from engine.core import SobremesaError
from pages import guard, scripts
from pages.i18n import _, n_, refusal, room_language  # noqa: F401  (refusal: the pages show refusals through ui)

GAME_TITLES = {name: game.title for name, game in tables.games().items()}  # as published, never translated


def _emoji_face() -> str:
    """The emoji the pages use, from our own small font (engine/pictures/glyphs.py), declared under
    the family Streamlit's text already uses and limited to those code points: they show on a
    machine with no emoji font, and every element picks them up without a rule of its own."""
    font = ASSETS / "emoji.woff2"
    version = hashlib.sha1(font.read_bytes()).hexdigest()[:12]
    covered = (ASSETS / "emoji.range").read_text(encoding="utf-8").strip()
    return (
        f'@font-face {{ font-family: "Source Sans"; font-weight: 100 900; font-style: normal; '
        f'src: url("/assets/emoji.woff2?v={version}") format("woff2"); unicode-range: {covered}; }}'
    )


ASSETS = scripts.ASSETS  # the components' JavaScript, the emoji font and the stage's CSS

CSS = """
<style>
  EMOJI_FACE
  /* Always the wide layout: page config alone sometimes arrives after the first paint. */
  [data-testid="stMainBlockContainer"] { max-width: none; padding: 1.2rem 2.5rem 2rem; }
  @media (max-width: 640px) { [data-testid="stMainBlockContainer"] { padding: 1rem 1rem 2rem; } }
  .sm-code { font: 800 2.4rem/1 ui-monospace, monospace; letter-spacing: .18em; color: #B03A2E; }
  .sm-phase { font-size: 1.35rem; font-weight: 700; margin: .2rem 0 .4rem; }
  .sm-waiting { font-size: 1.05rem; color: #6b5a4e; }
  /* Captions: Streamlit fades the text colour to 60 % opacity, 4.2:1 on this paper (WCAG AA wants 4.5). */
  [data-testid="stCaptionContainer"] { opacity: 1; color: #6b5a4e; }
  /* A note on a phone (whom the table waits for), in a live spot: hidden while it says nothing. */
  .sm-note { padding: .8rem 1rem; border-radius: .5rem; background: rgba(61, 157, 243, .1); color: #0b4d8c; }
  .sm-note:has(.sm-spot:empty) { display: none; }
  .sm-phrase { font-size: 1.8rem; font-style: italic; margin: .3rem 0 .8rem; }
  .sm-seat { display: flex; align-items: center; gap: .5rem; font-size: 1.1rem; padding: .15rem 0; }
  .sm-dot { width: .7rem; height: .7rem; border-radius: 50%; display: inline-block; background: #C9BBAE; }
  .sm-seat.on .sm-dot { background: #3F9E5A; }
  .sm-seat.out { opacity: .5; text-decoration: line-through; }
  .sm-lobby-names { list-style: none; margin: 0; padding: 0; }
  .sm-big .sm-phase { font-size: 2rem; }
  .sm-big .sm-seat { font-size: 1.45rem; }
  .sm-big .sm-waiting { font-size: 1.4rem; }
  /* Beside the table, in the waiting line's type: why the clock skipped someone, the audience. */
  .sm-aside { font-size: 1.05rem; color: #6b5a4e; }
  .sm-big .sm-aside { font-size: 1.4rem; }
  .sm-score { font-weight: 800; margin-left: auto; }
  /* The pace clock (pages/clock.py): large on the wall, red in its last seconds. */
  .sm-clock { font-size: 1.6rem; font-weight: 800; line-height: 1.3; font-variant-numeric: tabular-nums; color: #3d3027; }
  .sm-clock.sm-hurry { color: #B03A2E; }
  .sm-big .sm-clock { font-size: 2.6rem; }
  .sm-clockbox:has(.sm-spot:empty):not(:has(.sm-spot:not(:empty))) { display: none; }
  .stButton button { min-height: 3rem; font-size: 1.05rem; }
  .sm-qr { display: block; height: auto; image-rendering: pixelated; }
  .sm-scores { border-collapse: collapse; font-size: 1.1rem; margin: .6rem 0; }
  .sm-scores th, .sm-scores td { padding: .15rem .7rem; text-align: center; border-bottom: 1px solid #E6D9C9; }
  .sm-scores .sm-who { text-align: left; font-weight: 700; }
  .sm-scores thead th { color: #6b5a4e; font-weight: 600; font-size: .85em; }
  .sm-scores .sm-total { font-weight: 800; color: #B03A2E; }
  .sm-hint { font-size: 1.6rem; line-height: 1.4; margin: 1.2rem 0; padding: 1rem 1.4rem; border-radius: 1rem;
    background: #F3E9DC; max-width: 40em; }
  .sm-join { container-type: inline-size; }
  .sm-url { white-space: nowrap; font-weight: 700; line-height: 1.25; color: #6b5a4e; }
  /* The chosen or hovered segment of a segmented control (the language just tapped): Streamlit's
     red on its pink was 4.1:1 (axe-core; WCAG AA wants 4.5). */
  button[data-variant="segmented_control"][data-selected="true"] p,
  button[data-variant="segmented_control"][data-hovered="true"] p { color: #8E1F14; }
  /* A teacher who plays: the remote, in a tab of its own beside the seat (pages/play.py). */
  .sm-host-tab { display: block; margin: 1rem 0; padding: .7rem 1rem; border-radius: 10px; background: #2A1F1A;
    color: #FBF5EC !important; text-align: center; font-weight: 700; text-decoration: none; }
  /* Headings are not places to link to here: no anchor icon beside "You win!". */
  [data-testid="stHeaderActionElements"] { display: none; }
  /* Streamlit's "Press Enter to submit form" is English whatever the page's language; Enter still sends. */
  [data-testid="InputInstructions"] { display: none; }
</style>
""".replace("EMOJI_FACE", _emoji_face())


@functools.cache
def module(name: str) -> str:
    """A component's JavaScript as a few lines that import the real module from /assets/<name>.

    Inline JavaScript travels with every mount of a component, on every rerun of every tab (8 KB
    for the push listener alone). The browser fetches a versioned URL once and keeps it."""
    version = scripts.version(name)  # covers the modules it imports
    # The component's own module is loaded from a blob: URL, so the address must be absolute.
    return (
        f'const ready = import(new URL("/assets/{name}?v={version}", globalThis.location.href).href);\n'
        "export default function (component) {\n"
        "  let cleanup = null, gone = false;\n"
        "  ready.then((m) => { if (!gone) cleanup = m.default(component) || null; });\n"
        "  return () => { gone = true; if (cleanup) cleanup(); };\n"
        "}\n"
    )


def style() -> None:
    st.html(CSS)


@functools.cache
def _go_component():
    return st.components.v2.component("sobremesa_go", html="<span></span>", js=module("go.js"))


def go(href: str) -> None:
    """Send this tab to `href`, a path of this server (a one-time link of the laptop's)."""
    _go_component()(key="go", data={"href": href}, height="content")


def base_url() -> str:
    """Where phones reach this server: SOBREMESA_PUBLIC_URL, SOBREMESA_HOST, the host's pick, or the
    address of the interface with the default route (engine/address.py)."""
    return tables.join_base(st.get_option("server.port") or 8501)


def link(page: str, **params) -> str:
    return f"{base_url()}/{page}?{urlencode(params)}"


def short_link(code: str) -> str:
    """The join link as a person types it from the wall: the server's host and port, then the room
    code (`192.168.1.20:8501/KGPB`; pages/routes.py sends /KGPB on to /play?room=KGPB)."""
    return f"{urlsplit(base_url()).netloc}/{code}"


# How wide each character of the join link is, in em of the wall's bold sans-serif (Source Sans),
# a little generous: the link is sized to fill its column without wrapping (`fit_size`).
_EM = {**dict.fromkeys("0123456789", 0.52), **dict.fromkeys(".:", 0.26), "/": 0.38, "-": 0.34}


def fit_size(text: str, most: str) -> str:
    """A font size that fits `text` on one line of its container (one with `container-type:
    inline-size`), at most `most`: the container's width shared out over the text's width in em."""
    ems = sum(_EM.get(c, 0.64 if c.isupper() else 0.54) for c in text) * 1.06
    return f"min({most}, {100 / max(ems, 1):.2f}cqi)"


@functools.lru_cache(maxsize=32)
def qr_svg(url: str, width: int, alt: str) -> str:
    """The join QR code as inline SVG: drawn once per address (and language), and sent as text with
    the page instead of an image Streamlit would decode, hash and store again on every rerun."""
    uri = segno.make(url, error="m").svg_data_uri(dark="#2A1F1A", light="#FBF5EC", border=2, omitsize=True)
    return f"<img class='sm-qr' alt='{esc(alt)}' src='{uri}' style='width:{int(width)}px;max-width:100%'>"


# Everything that HTML or markdown could read as markup, as numeric character references: the text
# then shows as typed in st.html, st.markdown and every element that renders markdown (st.error,
# captions...), and no player's text can make a browser fetch an image or open a link.
_MARKUP = {ord(c): f"&#{ord(c)};" for c in "&<>\"'\\`*_{}[]()#+-.!|~:$=^%@/"}


def esc(text) -> str:
    """Player text (a name, a phrase, a refusal that quotes one) as literal text in HTML or markdown."""
    return str(text).translate(_MARKUP)


def points(n: int) -> str:
    """ "1 point", "2 points", in the tab's language."""
    return n_("{n} point", "{n} points", n)


def names_of(view: dict, seats) -> str:
    names = view["names"]
    return ", ".join(names[s] for s in seats if 0 <= s < len(names))


def attempt(action, *args) -> bool:
    """Run a table action; a refusal becomes a message on the page, never a traceback."""
    try:
        action(*args)
        return True
    except SobremesaError as exc:
        st.session_state["flash"] = refusal(exc)
        return False


FLASH_SECONDS = 4  # a refusal stays this long through the reruns that follow it (a key restored, a move)


def flash() -> bool:
    """Show the refusal an action of this tab left. It stays through the reruns of the next few
    seconds (a rerun right after it, as a host key restored from the browser makes, took it away
    before anyone could read it). True if there was one."""
    message = st.session_state.get("flash")
    if not message:
        return False
    shown = st.session_state.setdefault("flash_shown", {})
    first = shown.setdefault(message, time.monotonic())
    if time.monotonic() - first > FLASH_SECONDS:
        st.session_state.pop("flash", None)
        shown.clear()
        return False
    st.error(esc(message), icon="✋")
    return True


def keep_host(code: str, token: str) -> None:
    """The host token lives in this tab's session, never in the shared screen's address: that
    page is projected to the whole room."""
    st.session_state.setdefault("hosting", {})[code] = token


def forget_host(code: str) -> None:
    st.session_state.setdefault("hosting", {}).pop(code, None)


def host_token(code: str) -> str | None:
    """This tab's host token for the room. A `host=` in the address (an old link) is taken into the
    session and removed from the address at once."""
    given = st.query_params.get("host")
    if given is not None:
        del st.query_params["host"]
        try:  # a key is kept (and so written into the browser's storage) only once the room takes it
            if code and isinstance(given, str):
                tables.check_host(code, given)
                keep_host(code, given)
        except SobremesaError:
            st.session_state["flash"] = _("That host link is not valid for this room any more: nothing was changed.")
    return st.session_state.get("hosting", {}).get(code)


def client() -> tuple[str, bool]:
    """(this tab's address, whether it is the laptop that runs the server), proxies considered
    (`gate.where`: X-Forwarded-For only from SOBREMESA_TRUSTED_PROXIES). The laptop is proven by
    its cookie as well (`engine.laptop`): a forwarder on the laptop makes every address loopback."""
    peer = getattr(st.context, "ip_address", None)
    try:
        headers = st.context.headers
        forwarded, cookie = headers.get("X-Forwarded-For"), st.context.cookies.get(laptop.COOKIE)
    except Exception:  # outside a browser's session (AppTest): this computer's own script run
        headers, forwarded, cookie = None, None, None
    address, here = gate.where(
        peer if isinstance(peer, str) and peer else None, forwarded if isinstance(forwarded, str) else None
    )
    # A browser's session: the key decides. AppTest's script runs have no headers and count as the
    # laptop; so would a session whose socket dropped mid-run, but Streamlit stops that run at its
    # next element, before any page acts on this (home, stats, decks and the host console draw first).
    if here and headers:
        here = laptop.proves(cookie)
    return address, here


def is_local_request() -> bool:
    """The laptop that runs the server is the host's: only it may recover a room's host link."""
    return client()[1]


def unproven_laptop() -> bool:
    """A browser on this computer's address that has not opened the start command's link (or a
    phone behind a forwarder on the laptop, which cannot tell them apart)."""
    return getattr(st.context, "ip_address", None) is None and not is_local_request()


def device() -> gate.Device:
    """Who is asking, for the limits on wrong room codes, rooms created and requests to come back
    in: the browser's own id (a cookie `pages.guard` gives it), its address and what kind it is."""
    try:
        cookies, agent = st.context.cookies, st.context.headers.get("User-Agent")
    except Exception:  # outside a browser's session (AppTest): this computer
        cookies, agent = {}, None
    address, local = client()
    return gate.Device(
        guard.device_id(cookies), address, gate.device_kind(agent if isinstance(agent, str) else None), local
    )


def uploader(label: str, **kwargs):
    """`st.file_uploader`, and this tab may upload into it (`pages.guard` refuses every other upload)."""
    files = st.file_uploader(label, **kwargs)
    guard.offer()
    return files


def asker(code: str):
    """The device to count a lookup of `code` against, or None: a tab that has opened this room
    already is not guessing its code (`tables.view`'s limit on wrong codes)."""
    return None if code in st.session_state.get("_opened", ()) else device()


def load(code: str, seat=None, token=None, host_token=None) -> dict | None:
    """A view, or a clear message when the room or the link is wrong."""
    try:
        view = tables.view(code, seat, token, device=asker(code), host_token=host_token)
        st.session_state.setdefault("_opened", set()).add(view["code"])
        room_language(view["language"])
        return view
    except SobremesaError as exc:
        st.error(esc(refusal(exc)), icon="🚪")
        st.page_link("pages/home.py", label=_("Back to the start"), icon="🏠")
        return None
