"""Helpers for the guard's tests: a canary address and a resolver a test controls.

The canary is a listening socket at an address readreceipt must never connect to. It
counts every connection it accepts and answers each with a tiny HTTP page, so a test that
exempts it (the positive control) sees traffic arrive, and a test that does not can assert
that nothing did.
"""

from __future__ import annotations

import socket
import threading

from readreceipt.errors import FetchError
from readreceipt.fetching.addresses import AllowHosts
from readreceipt.fetching.netguard import AddressGuard

PAGE = b"<html><body><p>CANARY</p></body></html>"


class Canary:
    def __init__(self, host: str = "127.0.0.2") -> None:
        try:
            self._sock = socket.create_server((host, 0))
        except OSError:  # a system without the whole of 127/8 on lo
            host = "127.0.0.1"
            self._sock = socket.create_server((host, 0))
        self.host = host
        self.port: int = self._sock.getsockname()[1]
        self.connections = 0
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    @property
    def pair(self) -> str:
        return f"{self.host}:{self.port}"

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}:{self.port}{path}"

    def _loop(self) -> None:
        self._sock.settimeout(0.2)
        while not self._closed.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            try:
                conn.settimeout(2)
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close"
                             b"\r\nContent-Length: %d\r\n\r\n%s" % (len(PAGE), PAGE))
            except OSError:
                pass
            finally:
                conn.close()

    def close(self) -> None:
        self._closed.set()
        self._thread.join(timeout=2)
        self._sock.close()


class MapResolver:
    """Names a test chose, to the addresses it chose; every question remembered."""

    def __init__(self, names: dict[str, list[str]]) -> None:
        self.names = names
        self.asked: list[str] = []

    def resolve(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        if host not in self.names:
            raise FetchError(f"the name {host} does not resolve", reason="dns")
        return self.names[host]


def guard_for(*pairs: str, resolver: MapResolver | None = None) -> AddressGuard:
    """A guard exempting exactly ``pairs``, resolving names only through ``resolver``."""
    return AddressGuard(allow=AllowHosts(frozenset(pairs)),
                        resolver=resolver or MapResolver({}))
