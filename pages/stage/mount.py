"""The stage on a Streamlit page: one `st.components.v2` component that holds the room's stage socket
(pages/assets/stage.js) and the screen it draws. Its data is fixed for the tab (the room, who is
looking, the language), so no push reruns the page: the screen changes in place."""

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
)
_component = st.components.v2.component("sobremesa_stage", html=_HTML, js=ui.module("stage.js"), isolate_styles=False)


def mount(code: str, kind: str, token: str | None = None, member: str | None = None) -> None:
    """The stage of room `code` for the wall (`kind="wall"`), a seat (its token) or a member (id and
    token). The token reaches the socket in its first message, never in a URL."""
    _component(
        key=f"stage-{kind}",
        data={
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
