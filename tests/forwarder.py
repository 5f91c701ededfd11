"""A bare TCP forwarder on this computer, as `socat`, `ssh -L` or a `proxy_pass` without
X-Forwarded-For would be: every connection it passes on reaches the server from 127.0.0.1."""

from __future__ import annotations

import socket
import threading
from contextlib import contextmanager


def pipe(a: socket.socket, b: socket.socket) -> None:
    """Bytes from `a` to `b` until either end closes; then both are shut."""
    try:
        while data := a.recv(65536):
            b.sendall(data)
    except OSError:
        pass
    finally:
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


@contextmanager
def forwarder(target_port: int, listen: str = "127.0.0.1"):
    """Listens on `listen` (a free port, yielded) and passes every connection to 127.0.0.1:target_port."""
    server = socket.socket()
    server.bind((listen, 0))
    server.listen(64)
    open_sockets: list[socket.socket] = [server]

    def accept() -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", target_port))
            open_sockets.extend((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=pipe, args=(a, b), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        for s in open_sockets:
            s.close()
