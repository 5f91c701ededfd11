"""The server parses requests and frames in C and runs on uvloop where the OS has them
(`uvicorn[standard]` in pyproject.toml; ../shared/perf/README.md: a card fetch 0.07-0.11 ms instead
of 0.46-0.50). Streamlit leaves uvicorn's HTTP protocol on "auto" and starts uvloop itself: this
fails if an upgrade of either stops doing so. engine/connections.py guards whichever protocol it is."""

import sys

from streamlit.web import bootstrap
from streamlit.web.server.starlette.starlette_server import _get_uvicorn_config_kwargs
from uvicorn.protocols.http.auto import AutoHTTPProtocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from engine import connections


def test_requests_are_parsed_in_c_and_the_loop_is_uvloop():
    kwargs = _get_uvicorn_config_kwargs()
    assert "http" not in kwargs and "loop" not in kwargs  # uvicorn's own choice: "auto"
    assert AutoHTTPProtocol is HttpToolsProtocol
    guarded = connections._guarded_http(AutoHTTPProtocol)
    assert issubclass(guarded, HttpToolsProtocol) and guarded.sobremesa
    if sys.platform != "win32":  # uvloop has no Windows build: asyncio's own loop there
        assert bootstrap._get_uvloop_loop_factory() is not None


def test_streamlit_looks_at_its_config_files_every_5_s():
    """The period pages/polling.py sets is the one Streamlit's polling watchers sleep between looks."""
    from streamlit.watcher import polling_path_watcher

    from pages import polling

    before = polling_path_watcher._POLLING_PERIOD_SECS
    try:
        polling.slower()
        assert polling_path_watcher._POLLING_PERIOD_SECS == polling.FILE_POLL_SECONDS == 5.0
        task = next(
            c for c in polling_path_watcher.PollingPathWatcher._schedule.__code__.co_consts if hasattr(c, "co_names")
        )
        assert "_POLLING_PERIOD_SECS" in task.co_names  # read at each look, from the module
    finally:
        polling_path_watcher._POLLING_PERIOD_SECS = before


def test_uvicorns_loop_ticks_once_a_second_and_still_does_its_once_a_second_work():
    """pages/polling.py replaces uvicorn's `Server.main_loop` (it woke 10 times a second) with one that
    ticks once a second; an upgrade that changes the loop it copied fails here."""
    import asyncio
    import inspect
    import threading

    from uvicorn.server import Server

    from pages import polling

    own = polling.UVICORNS or Server.main_loop
    polling.slower()
    assert Server.main_loop is polling._main_loop
    copied = inspect.getsource(polling.UVICORNS or own)
    assert "await asyncio.sleep(0.1)" in copied and "counter = counter % 864000" in copied
    assert "if counter % 10 == 0:" in inspect.getsource(Server.on_tick)  # its once-a-second work

    class Fake:
        ticks: list[int] = []

        async def on_tick(self, counter: int) -> bool:
            self.ticks.append(counter)
            return len(self.ticks) == 3

    polling.TICK_SECONDS, before = 0.01, polling.TICK_SECONDS
    fake = Fake()
    try:  # in a thread of its own: a browser test on this worker may hold an event loop on this one
        ran = threading.Thread(target=asyncio.run, args=(polling._main_loop(fake),))
        ran.start()
        ran.join(10)
    finally:
        polling.TICK_SECONDS = before
    assert fake.ticks == [0, 10, 20]  # every tick is a tenth: the Date header each time
