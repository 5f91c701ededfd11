"""Sobremesa: the Streamlit app and its extra routes.

`streamlit run app.py` serves both. The server imports this file once outside any script run (to
find `app`), so the pages are built only inside a run.
"""

from __future__ import annotations

from datetime import UTC

from starlette.middleware import Middleware
from starlette.routing import Route
from streamlit.starlette import App

from engine import connections
from pages import guard, polling
from pages.routes import (
    ASSET_ROUTE,
    KEEPSAKE_ROUTE,
    PICTURE_ROUTE,
    SHORT_ROUTE,
    STAGE_ROUTE,
    card_answer,
    card_image,
    static_answer,
)


def _watch() -> None:
    from engine import laptop, presence, tables

    laptop.key()  # made before the first page asks: the start command's link carries it

    tables.watch_other_processes()
    presence.watch()


def _warm_up() -> None:
    """Import what the Statistics page needs (pandas, Altair) while the server is idle, so the
    first person to open it does not wait for the imports (about 0.6 s here), nor for what each
    process works out once: the families' layouts (an empty archive), the languages' month
    names (Babel's locale data, read at the first date written) and every screen's template."""
    import threading

    def load() -> None:
        from datetime import datetime

        from babel.dates import format_datetime

        import engine.stats
        import pages.archive_table  # noqa: F401
        import pages.stats_charts  # noqa: F401
        import pages.stats_erase  # noqa: F401
        from engine import i18n
        from pages import routes
        from pages.stage import render

        render.warm()  # compiled before the first screen asks (a hall's first vote waited on it)
        routes.warm_cards()
        engine.stats.from_rows([], {})
        for language in i18n.NAMES:
            format_datetime(datetime.now(UTC), "d MMM yyyy HH:mm", locale=language)
        import gc

        # What the server holds for good (its modules, Streamlit, the templates) is left out of the
        # garbage collector's full passes: one took about 110 ms with a hall's 300 sockets open, a
        # pause on every screen; about 50 ms after this.
        gc.freeze()
        # And fewer passes: a move makes and drops thousands of small dicts (views, screens), and at
        # Python's default thresholds the collector ran 700 times in a hall bench's minute, 7-8 % of
        # the server's CPU (0.39-0.53 s against 0.10-0.12 s, alternated, `bench/classroom.py
        # --audience 300`). Cycles are rare here: reference counting frees nearly everything.
        gc.set_threshold(50_000, 20, 100)

    threading.Thread(target=load, name="sobremesa-warm-up", daemon=True).start()


def _computer_players() -> None:
    from engine import pacer
    from engine.bots import runner

    runner.start()
    pacer.start()  # the pace clock runs on the process that leads a room, as its computer players do


connections.install()  # before uvicorn loads its protocols: caps per address, timeouts (engine/connections.py)
polling.slower()  # Streamlit's config and secrets files looked at every 5 s, not 5 times a second
_watch()
_warm_up()
_computer_players()
guard.start_sweeping()
app = App(
    "app.py",
    routes=[
        STAGE_ROUTE,
        Route("/cards/{card_id:path}", card_image),  # a browser with no device id yet (guard.Guard's fast)
        ASSET_ROUTE,
        PICTURE_ROUTE,
        KEEPSAKE_ROUTE,  # a phone's "Save the drawings"
        SHORT_ROUTE,  # /KGPBX: the join link as the wall shows it
    ],
    middleware=[Middleware(guard.Guard, fast={"/cards/": card_answer, "/static/": static_answer})],
)


def main() -> None:
    import streamlit as st

    from pages.i18n import _, forget

    forget()  # a full run: the tab's language is worked out again (its reader may have chosen)
    guard.withdraw()  # and uploads are taken again only if this run draws an uploader
    st.set_page_config(page_title="Sobremesa", page_icon="🎴", layout="wide", initial_sidebar_state="collapsed")
    pages = [  # the titles are the browser tab's, in the tab's language
        st.Page("pages/home.py", title="Sobremesa", icon="🎴", default=True),
        st.Page("pages/table.py", title=_("Shared screen"), icon="📽️", url_path="table"),
        st.Page("pages/play.py", title=_("Player"), icon="📱", url_path="play"),
        st.Page("pages/remote.py", title=_("Host's remote"), icon="🎛", url_path="remote"),
        st.Page("pages/rules.py", title=_("Rules"), icon="📜", url_path="rules"),
        st.Page("pages/stats.py", title=_("Statistics"), icon="📊", url_path="stats"),
    ]
    st.navigation(pages, position="hidden").run()


def _in_script_run() -> bool:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return get_script_run_ctx(suppress_warning=True) is not None


if _in_script_run():
    main()
