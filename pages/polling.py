"""How often Streamlit looks at its config and secrets files. It polls them five times a second
whatever `server.fileWatcherType` says (its config watcher is always the polling one): 1.5 to 2 ms
of CPU a second on an idle server (../shared/perf/README.md), a third of its idle. Files a host
edits by hand are seen within `FILE_POLL_SECONDS` instead. tests/engine/test_serving.py fails if an
upgrade stops reading the period this sets."""

from __future__ import annotations

FILE_POLL_SECONDS = 5.0


def slower() -> None:
    """Streamlit's polling watchers sleep `_POLLING_PERIOD_SECS` between two looks, read at each
    look: set before the server starts, or at any time after."""
    from streamlit.watcher import polling_path_watcher

    polling_path_watcher._POLLING_PERIOD_SECS = FILE_POLL_SECONDS  # type: ignore[misc]
