"""How often the server wakes up with nothing to do: Streamlit's look at its config and secrets
files, and uvicorn's own tick.

How often Streamlit looks at its config and secrets files. It polls them five times a second
whatever `server.fileWatcherType` says (its config watcher is always the polling one): 1.5 to 2 ms
of CPU a second on an idle server (../shared/perf/README.md), a third of its idle. Files a host
edits by hand are seen within `FILE_POLL_SECONDS` instead. tests/engine/test_serving.py fails if an
upgrade stops reading the period this sets."""

from __future__ import annotations

FILE_POLL_SECONDS = 5.0
# uvicorn's server loop wakes 10 times a second to refresh its Date header (once a second) and to see
# whether it should stop: a tenth of a core's millisecond each time, a third of the idle server's CPU
# with seven tabs open. Once a second does both (a stop waits up to that long).
TICK_SECONDS = 1.0


def slower() -> None:
    """Streamlit's polling watchers sleep `_POLLING_PERIOD_SECS` between two looks, read at each
    look: set before the server starts, or at any time after."""
    from streamlit.watcher import polling_path_watcher

    polling_path_watcher._POLLING_PERIOD_SECS = FILE_POLL_SECONDS  # type: ignore[misc]
    from uvicorn.server import Server

    global UVICORNS
    if Server.main_loop is not _main_loop:
        UVICORNS = Server.main_loop
        Server.main_loop = _main_loop  # type: ignore[method-assign]


UVICORNS = None  # uvicorn's own main_loop, once replaced (tests/engine/test_serving.py reads it)


async def _main_loop(self) -> None:
    """uvicorn's `Server.main_loop` (0.54), ticking every TICK_SECONDS: each tick counts as ten of its
    0.1 s ones, so its once-a-second work (the Date header) runs at every tick."""
    import asyncio

    counter = 0
    should_exit = await self.on_tick(counter)
    while not should_exit:
        counter = (counter + 10) % 864000
        await asyncio.sleep(TICK_SECONDS)
        should_exit = await self.on_tick(counter)
