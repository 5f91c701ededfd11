"""The stage on a Streamlit page: one `st.components.v2` component that holds the room's stage socket
(pages/assets/stage.js) and the screen it draws: a tab's one socket of the app's own. Its data is
fixed for the tab (the room, who is looking, the language), so no move reruns the page: the screen
changes in place. A page with a Streamlit part of its own (the host's controls, the drawing pad, a
phone waiting for the host) names the fields of its view that part read (`page`): the socket says
what they are now with each screen, and the page reruns only when they moved."""

from __future__ import annotations

import hashlib

import streamlit as st

from engine.push.live import BOOT
from pages import ui
from pages.i18n import _, lang

_CSS_VERSION = hashlib.sha1((ui.ASSETS / "stage.css").read_bytes()).hexdigest()[:12]
_HTML = (
    f'<link rel="stylesheet" href="/assets/stage.css?v={_CSS_VERSION}">'
    '<div class="sm-stage-root"></div><div class="sm-pill" hidden>…</div>'
    '<div class="sm-unreachable" role="alert" data-testid="unreachable" hidden></div>'
    '<div class="sm-toast" role="status" aria-live="polite"></div>'
)
_component = st.components.v2.component("sobremesa_stage", html=_HTML, js=ui.module("stage.js"), isolate_styles=False)


def _ignore() -> None:
    """The rerun is the point; the trigger's value is not used."""


def mount(
    code: str,
    kind: str,
    token: str | None = None,
    member: str | None = None,
    page: tuple[tuple[str, ...], str] | None = None,
    quiet: bool = False,
    host: str | None = None,
) -> None:
    """The stage of room `code` for the wall (`kind="wall"`), a seat (its token) or a member (id and
    token). The token reaches the socket in its first message, never in a URL. `page`: (the fields
    of its view the page's own part read, `reading.page_key` of them as drawn). `quiet`: no screen,
    only the page's key (a phone waiting for the host). `host`: the room's host key, proved in the
    socket's first message: `kind="remote"` draws the host's remote; the wall takes the host's keys
    (N, H, P, M, Esc: pages/assets/stage.js)."""
    key = f"stage-{kind}{'-quiet' if quiet else ''}"
    _component(
        key=key,
        on_rerun_change=_ignore,
        data={
            "host": host,
            "sound": {"click": _("Click for sound")} if kind == "wall" else None,
            "page": list(page[0]) if page else None,
            "page_key": page[1] if page else None,
            "quiet": quiet,
            "code": code,
            "kind": kind,
            "token": token,
            "member": member,
            "lang": lang(),
            "boot": BOOT,  # the process that drew this page: its Streamlit session lives there
            "sending": _("sending…"),
            "reconnecting": _("reconnecting…"),
            # A page whose socket the server refuses (another address of the laptop, a proxy that
            # mangles it) says so, with this page's link at the address the shared screen shows.
            "unreachable": _("This phone cannot reach the game. Open the link on the shared screen again:"),
            "base": ui.base_url(),
            "link": ui.short_link(code),
        },
        width="stretch",
        height="content",
    )
