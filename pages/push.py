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

import streamlit as st

from engine.push import live
from pages import ui
from pages.i18n import _

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
    signature matches moves the tab on to the new version without a rerun.  Not inside an ``st.form``: Streamlit ignores triggers there.
    """
    # What this render saw is news to any tab still behind (and seeds the
    # server's memory after a restart, so reconnecting tabs get a real version).
    live.notify(code, int(version))
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
        },
        on_changed_change=_ignore,
        width="stretch",
        height="content",
    )
