"""The host's key kept in the browser (pages/assets/hostkey.js), not only in the tab's session: when
the server process that served the tab dies (or restarts), the tab reconnects to another process
with a new session, and takes its controls back from the browser's storage. The key never goes in
an address: the shared screen's address bar is projected to the room."""

from __future__ import annotations

import json

import streamlit as st

from pages import ui

_component = st.components.v2.component("sobremesa_hostkey", html="<span></span>", js=ui.module("hostkey.js"))


def _ignore() -> None:
    """The value is read where it is needed; the rerun it starts is the point."""


def sync(keep: dict[str, str] | None = None, forget: list[str] | None = None, ask: bool = False) -> dict[str, str]:
    """Write `keep` ({room code: host key}) into the browser, drop `forget`, and, with `ask`, return
    the keys the browser holds (empty at the first run: the browser answers with one rerun)."""
    known = st.session_state.get("_stored_host_keys")
    value = _component(
        key="hostkey",
        data={
            "keep": keep or {},
            "forget": forget or [],
            "ask": ask,
            "known": json.dumps(known, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
            if known is not None
            else None,
        },
        default={"keys": None},
        on_keys_change=_ignore,
        height="content",
    )
    found = value.get("keys") if hasattr(value, "get") else None
    if isinstance(found, dict):
        clean = {str(k): str(v) for k, v in found.items() if isinstance(k, str) and isinstance(v, str)}
        st.session_state["_stored_host_keys"] = clean
        return clean
    return known or {}
