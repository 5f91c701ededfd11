"""The host's remote (pages/stage/remote.py) on its own page: the teacher's phone, or a second
window of the laptop. The key comes from this browser's storage (the laptop's own windows share it,
pages/hostkey.py), or once through the one-time QR the laptop shows on request: the phone that
scans it waits here until the laptop allows it (engine/tables/remote.py). The key never goes in an
address; the QR's one-time value is taken out of it at once."""

from __future__ import annotations

import streamlit as st

from engine import tables
from engine.core import SobremesaError
from pages import host_console, ui
from pages.i18n import _, language_menu
from pages.stage.mount import mount

ui.style()
code = tables.normalise_code(st.query_params.get("room", ""))
nonce = st.query_params.get("pair")
if nonce is not None:
    del st.query_params["pair"]

if not code:
    st.error(_("This page needs a room code: create a room on the start page."), icon="🚪")
    st.stop()

NO_KEY = _(
    "This host QR code no longer works: it works once, for one minute. On the laptop, press Esc on the "
    "shared screen and choose “Host from your phone” again."
)

if nonce is not None:
    try:
        secret = tables.pair_ask(code, nonce, ui.device().kind, device=ui.device())
        st.session_state["pairing"] = {"code": code, "secret": secret}
    except SobremesaError:
        st.error(NO_KEY, icon="🚪")
        st.stop()

host_console.recall(code, ui.host_token(code))  # a key this tab holds is written into the browser
console = host_console.quiet_held(code)
pairing = st.session_state.get("pairing")


@st.fragment(run_every=1.0)
def wait() -> None:
    """This phone waits for the laptop's yes: then it keeps the key, as the laptop's tab does."""
    try:
        key = tables.pair_claim(code, pairing["secret"])
    except SobremesaError:
        st.session_state.pop("pairing", None)
        st.error(NO_KEY, icon="🚪")
        return
    if key is None:
        st.info("⏳ " + _("Waiting for the laptop to allow this phone…"))
        return
    st.session_state.pop("pairing", None)
    ui.keep_host(code, key)  # the page's next run writes it into the browser too (`recall`)
    st.rerun(scope="app")


if console is not None:
    mount(code, "remote", host=console.host_token)
    language_menu(key="remote-language")
elif pairing and pairing.get("code") == code:
    wait()
else:
    host_console.held(code)
    host_console.lost(code)  # says why, when this browser's key was renewed since
    st.error(
        _(
            "This page is the host's remote. On the laptop, press Esc on the shared screen and choose "
            "“Host from your phone”, then scan its QR code."
        ),
        icon="🎛",
    )
