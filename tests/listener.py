"""A raw TCP listener on loopback for the tests' hand-made servers.

:class:`LoopbackListener` binds, accepts in a thread of its own until closed, and hands each
connection to :meth:`handle`; the servers that speak on purpose badly or oddly (a trickling
HTTP server, a canary address, a PostgreSQL server that asks for a password in the clear)
differ only in what they do with a connection.
"""

from __future__ import annotations

import socket
import threading


class LoopbackListener:
    """Accepts on ``host`` (any free port) until :meth:`close`; each connection goes to
    :meth:`handle`, in a thread of its own when ``threaded``, closed afterwards."""

    threaded = False

    def __init__(self, host: str = "127.0.0.1") -> None:
        self._sock = socket.create_server((host, 0))
        self._sock.settimeout(0.2)
        self.host = host
        self.port: int = self._sock.getsockname()[1]
        self.stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    @property
    def pair(self) -> str:
        return f"{self.host}:{self.port}"

    def handle(self, conn: socket.socket) -> None:
        raise NotImplementedError

    def _loop(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self.threaded:
                threading.Thread(target=self._handle_then_close, args=(conn,),
                                 daemon=True).start()
            else:
                self._handle_then_close(conn)

    def _handle_then_close(self, conn: socket.socket) -> None:
        with conn:
            self.handle(conn)

    def close(self) -> None:
        self.stop.set()
        self._thread.join(timeout=2)
        self._sock.close()
