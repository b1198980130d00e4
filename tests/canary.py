"""Helpers for the guard's tests: a canary address and a resolver a test controls.

The canary is a listening socket at an address readreceipt must never connect to. It
counts every connection it accepts and answers each with a tiny HTTP page, so a test that
exempts it (the positive control) sees traffic arrive, and a test that does not can assert
that nothing did.
"""

from __future__ import annotations

import socket

from listener import LoopbackListener
from readreceipt.errors import FetchError
from readreceipt.fetching.addresses import AllowHosts
from readreceipt.fetching.netguard import AddressGuard

PAGE = b"<html><body><p>CANARY</p></body></html>"


class Canary(LoopbackListener):
    def __init__(self, host: str = "127.0.0.2") -> None:
        self.connections = 0
        try:
            super().__init__(host)
        except OSError:  # a system without the whole of 127/8 on lo
            super().__init__("127.0.0.1")

    def url(self, path: str = "/") -> str:
        return f"http://{self.host}:{self.port}{path}"

    def handle(self, conn: socket.socket) -> None:
        self.connections += 1
        try:
            conn.settimeout(2)
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close"
                         b"\r\nContent-Length: %d\r\n\r\n%s" % (len(PAGE), PAGE))
        except OSError:
            pass


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
