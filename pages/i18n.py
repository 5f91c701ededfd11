"""Each tab's language, and the page-side words for the message catalogue (engine/i18n.py).

    from pages.i18n import _, n_, N_
    st.button(_("Join"))
    st.caption(n_("{n} player", "{n} players", count))
    PHASES = {"claim": N_("Who has a phrase?")}   # marked here, translated where shown: _(PHASES[p])

A tab's language: the one its reader chose (the language menu; kept by the browser in a cookie,
so it comes back after a reload or a server restart), else its room's (the page says which room it
shows with `room_language`), else the browser's, else English.
"""

from __future__ import annotations

import string

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from engine import i18n
from engine.core import SobremesaError

LANGUAGES = tuple(i18n.NAMES)
# The reader's choice, kept by the browser: a cookie, sent with the session's first request, so a
# reloaded tab reads it at its first run (no round trip through the page, no rerun, no flicker).
COOKIE = "sobremesa_lang"
# A Template, not an f-string: the script's own braces stay as they are.
_KEEPER_JS = string.Template(
    """
export default function ({ data, parentElement }) {
  const box = (parentElement.host ?? parentElement).closest?.('[data-testid="stElementContainer"]');
  if (box) box.style.display = "none";  // it shows nothing: no gap in the layout either
  document.cookie = "${cookie}=" + encodeURIComponent(data.lang) + "; Path=/; Max-Age=31536000; SameSite=Lax";
  document.documentElement.lang = data.lang.split(".")[0];  // the page speaks it now (pages/guard.py set the first)
}
"""
).substitute(cookie=COOKIE)
_keeper = st.components.v2.component("sobremesa_lang", html="<span></span>", js=_KEEPER_JS)


def lang() -> str:
    """Every message on every rerun asks: the answer is kept on the session's run context until
    something changes it (`forget`: a full run, the room's language, the reader's choice)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:  # a bench or a script, not a page: English
        return i18n.SOURCE
    kept = getattr(ctx, "sobremesa_lang", None)
    if kept is None:
        ss = st.session_state
        chosen = ss.get("lang") or _kept() or ss.get("room_lang") or _browser_language()
        kept = chosen if chosen in LANGUAGES else i18n.SOURCE
        ctx.sobremesa_lang = kept
    return kept


def forget() -> None:
    """The tab's language may have changed: work it out again at the next message."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        ctx.sobremesa_lang = None


def _where() -> str:
    """The room this page shows, as its address names it ("" for none)."""
    room = st.query_params.get("room", "")
    return room.strip().upper() if isinstance(room, str) else ""


def _kept() -> str | None:
    """The language this browser's reader chose before (the cookie `language_menu` writes). A choice
    made on a room's page holds for that room: the next room's wall opens in its own language."""
    try:
        kept = st.context.cookies.get(COOKIE)
    except Exception:  # outside a browser's session: none
        return None
    if not isinstance(kept, str):  # AppTest's context answers with a mock
        return None
    language, _, room = kept.partition(".")
    if room and room != _where():
        return None
    return language if language in LANGUAGES else None


def _browser_language() -> str | None:
    context = st.context
    return i18n.best_language(getattr(context, "locale", None)) or i18n.best_language(
        (getattr(context, "headers", None) or {}).get("Accept-Language")
    )


def room_language(language: str) -> None:
    """The room this tab shows speaks `language`: its default, unless its reader chose another."""
    if language in LANGUAGES and st.session_state.get("room_lang") != language:
        st.session_state["room_lang"] = language
        forget()


def _(message: str, **params) -> str:
    return i18n.translate(lang(), message, **params)


def n_(singular: str, plural: str, n: int, **params) -> str:
    return i18n.translate_plural(lang(), singular, plural, n, **params)


def when(moment, with_time: bool = False) -> str:
    """A date (and time) written the way the tab's language writes it: "22 nov 2026"."""
    from babel.dates import format_date, format_datetime

    if with_time:
        return format_datetime(moment, "d MMM yyyy HH:mm", locale=lang())
    return format_date(moment, "d MMM yyyy", locale=lang())


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is defined; `_` translates it where it is shown."""
    return message


def refusal(exc: SobremesaError) -> str:
    """A refusal from the engine in the reader's language (`i18n.refusal`)."""
    return i18n.refusal(lang(), exc)


def language_menu(key: str = "lang-menu") -> None:
    """The reader's own language for this tab (the room's stays the default for everyone else)."""
    current = lang()
    chosen = st.segmented_control(
        _("Language"), LANGUAGES, default=current, format_func=i18n.NAMES.get, key=key, label_visibility="collapsed"
    )
    if chosen and chosen != current:
        st.session_state["lang"] = chosen
        forget()
        st.rerun()
    keep = st.session_state.get("lang")
    if keep in LANGUAGES and keep != _kept() and st.session_state.get("_lang_kept") != (keep, _where()):
        value = f"{keep}.{_where()}" if _where() else keep
        _keeper(key=f"{key}-kept", data={"lang": value}, height="content")  # once a choice: the cookie
        st.session_state["_lang_kept"] = (keep, _where())
