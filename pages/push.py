"""Push listener: rerun the page (or the enclosing fragment) when its room moves.

``listen(code, version)`` mounts an invisible ``st.components.v2`` component.
Its JavaScript keeps ONE WebSocket per room code per browser tab, on
``/events/<code>`` (see ``engine.push.live``), reused across Streamlit reruns (the
registry lives on ``globalThis``, the component module is evaluated once).
When the server pushes a version newer than the one this page rendered, it
calls ``setTriggerValue`` and Streamlit reruns:

* mounted inside an ``@st.fragment``: only that fragment reruns;
* mounted at top level: the whole page reruns.

The socket is opened with the page's ticket (``engine.gate``). If the server refuses
it (4401: expired, say, after a phone slept), the listener falls back to polling
reruns, and the first render that brings a new ticket reconnects.

If the socket drops it reconnects with backoff (0.5 s .. 10 s, jittered) and,
after a drop, reruns once on reconnect unless the server proves nothing moved.
After 3 failed attempts in a row (or without WebSocket at all) it falls back to
a rerun every ``poll_seconds`` until a socket opens again.  While disconnected
it shows a small fixed "reconnecting…" pill; otherwise it takes no space.

Mounted last in its fragment, the listener is also the fragment's mark: its render means the whole
fragment has rendered that version. Observable for tests: ``window.__sobremesaPush`` ->
``{code, connected, state, version, rendered, connects, reruns, unchanged, shownAt}`` for the last
room that changed, and ``window.__sobremesaPushRooms[code]`` for each room (``shownAt``: version ->
when it was first on screen).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from engine import presence, tables
from engine.push import live, spots
from engine.push.glance import Watched
from pages import ui
from pages.i18n import _, lang, speaking

_HTML = '<div class="sobremesa-push" data-state="connecting">reconnecting…</div>'

_CSS = """
.sobremesa-push { display: none; }
.sobremesa-push[data-hint="1"] {
  display: block; position: fixed; right: 0.75rem; bottom: 0.75rem; z-index: 1000;
  padding: 0.15rem 0.6rem; border-radius: 1rem; font-size: 0.75rem;
  background: var(--st-secondary-background-color, #eee);
  color: var(--st-text-color, #333); opacity: 0.85; pointer-events: none;
}
"""

_JS = ui.module("push.js")  # pages/assets/push.js, fetched once per browser, cached

_component = st.components.v2.component("sobremesa_push", html=_HTML, css=_CSS, js=_JS)


def spot(view, name: str, draw: Callable[..., str], *args, tag: str = "span") -> str:
    """A live spot of this screen: `draw(view, *args)` -> HTML (escaped by `draw`), returned inside
    its mark for the caller to place in an `st.html` (not `st.markdown`: React keeps markdown's own
    text nodes and would write over the spot's newer text at the next rerun). `draw` sees only the
    view's header and the game's live fields (`Live.fields`, `engine.push.spots.live_view`). Each push
    draws it again from the viewer's new view in this tab's language, so a move that changes only
    spots reruns nothing. `name` is unique on the page; `args` are fixed for this render."""
    raw = view.unwatched() if isinstance(view, Watched) else view
    live_fields = tables.games()[raw["game"]].live.fields
    html = draw(spots.live_view(raw, live_fields, lambda: presence.recent(raw["code"])), *args)
    _drawn().append((name, draw, args, live_fields))
    return f'<{tag} class="sm-spot" data-sm-spot="{ui.esc(raw["code"])}:{ui.esc(name)}">{html}</{tag}>'


def _drawn() -> list:
    """The spots drawn in this run so far; `listen`, mounted last, takes them."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return []
    if getattr(ctx, "sobremesa_spots", None) is None:
        ctx.sobremesa_spots = []
    return ctx.sobremesa_spots


def _taken() -> list:
    ctx = get_script_run_ctx(suppress_warning=True)
    drawn = getattr(ctx, "sobremesa_spots", None) or []
    if ctx is not None:
        ctx.sobremesa_spots = []
    return drawn


def _board(code: str, seat: int | None, drawn: list, language: str) -> spots.Board:
    def draw(view: dict) -> dict[str, str]:
        connected: list = []

        def present() -> list:  # asked once per push, whatever the number of spots
            if not connected:
                connected.append(presence.recent(code))
            return connected[0]

        with speaking(language):
            return {name: fn(spots.live_view(view, fields, present), *args) for name, fn, args, fields in drawn}

    return spots.Board(code, seat, draw)


def _ignore() -> None:
    """The rerun is the point; the trigger value itself is not used."""


def listen(
    code: str,
    version: int,
    key: str = "push",
    *,
    seat: int | None = None,
    ticket: str | None = None,
    awake: bool | None = None,
    poll_seconds: float = 2.0,
    rerun_in: float | None = None,
    watch: tuple[list[str], str] | None = None,
    quiet: bool = False,
) -> None:
    """Rerun when room ``code`` moves past ``version`` (the version just rendered).

    Call it inside the ``@st.fragment`` that renders the room to rerun only that
    fragment, or at top level to rerun the whole page.  ``key`` must be unique
    per page (one listener per room is enough).  ``ticket`` (from
    ``tables.push_ticket``) is what the socket shows the server: ``/events/<code>?t=<ticket>``; a
    seat's ticket also marks the seat as connected. ``seat`` only keeps a seat's socket apart from
    the wall's in one browser.  ``awake``: keep the phone's screen on (a wake lock) while
    the table waits on this player, and let it sleep otherwise.  ``rerun_in``: rerun once after that
    many seconds even without news (a screen's own timer, see ``ui.rerun_in``). ``watch``: (the
    fields of the seat's view this render read, their signature; see ``engine.push.glance``): a push whose
    signature matches moves the tab on to the new version without a rerun. ``quiet``: this listener
    only reruns the page (the stage, pages/stage, reports the room in ``__sobremesaPushRooms``).  Not inside an ``st.form``: Streamlit ignores triggers there.
    """
    # What this render saw is news to any tab still behind (and seeds the
    # server's memory after a restart, so reconnecting tabs get a real version).
    live.notify(code, int(version))
    drawn = _taken()
    board = None
    if drawn:
        board = st.session_state.setdefault("_boards", {}).setdefault(key, secrets.token_urlsafe(15))
        spots.keep(board, _board(code, seat, drawn, lang()))
    _component(
        key=key,
        data={
            "code": code,
            "version": int(version),
            "seat": None if seat is None else int(seat),
            "ticket": ticket,
            "awake": awake,
            "reconnecting": _("reconnecting…"),
            "poll_ms": int(poll_seconds * 1000),
            "rerun_in_ms": None if rerun_in is None else max(50, int(rerun_in * 1000)),
            "watch": None if watch is None else {"keys": list(watch[0]), "sig": watch[1]},
            "board": board,
            "quiet": quiet,
            "boot": live.BOOT,  # the process that drew this page: its Streamlit session lives there
        },
        on_changed_change=_ignore,
        width="stretch",
        height="content",
    )
