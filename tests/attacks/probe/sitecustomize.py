"""A probe in the server under attack (tests/attacks): put on the server's PYTHONPATH, it writes a
line to $SOBREMESA_PROBE for every host name the process looks up and every keepsake it builds,
so a test can say that something was never done, or done once. It changes nothing else: the calls
go on to the real functions. Python imports `sitecustomize` at start; the app never imports it."""

import importlib.abc
import importlib.util
import json
import os
import socket
import sys
import threading

_LOG = os.environ.get("SOBREMESA_PROBE")
_lock = threading.Lock()


def _note(**what) -> None:
    with _lock, open(_LOG, "a", encoding="utf-8") as out:
        out.write(json.dumps(what) + "\n")


if _LOG:
    _getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        _note(lookup=host if isinstance(host, str) else repr(host))
        return _getaddrinfo(host, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo

    # Keepsakes: a round's files are made by one call.
    _WATCHED = {"engine.pictures.pictomania_keepsake": "round_files"}

    class _Wrap(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name not in _WATCHED:
                return None
            sys.meta_path.remove(self)
            try:
                spec = importlib.util.find_spec(name)
            finally:
                sys.meta_path.insert(0, self)
            if spec is None or spec.loader is None:
                return None
            loader = spec.loader
            original = loader.exec_module

            def exec_module(module):
                original(module)
                attr = _WATCHED[name]
                real = getattr(module, attr)

                def counted(*args, **kwargs):
                    _note(built=f"{name}.{attr}")
                    return real(*args, **kwargs)

                setattr(module, attr, counted)

            loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _Wrap())
