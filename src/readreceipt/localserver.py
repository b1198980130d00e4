"""A small HTTP server on a loopback address: the demo's pages, the tests' and the benchmarks'.

Each route maps a path to a fixed answer (status, headers, body) or to a handler that answers
by hand; any other path is a 404 page. A request's path is looked up as sent, then without
its query, then percent-decoded. The server notes what reached it (each request's path, time
and headers, and how many connections were opened), so a test can say what was asked.

Invariants: it binds a loopback address only (anything else is a ValueError), so nothing
served here is reachable from another machine; it runs in daemon threads and stops, freeing
its port, on :meth:`LocalServer.close` or at the end of a ``with`` block; it logs nothing.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

Handler = Callable[[BaseHTTPRequestHandler], None]

NOT_FOUND_PAGE = b"<html><body><h1>Not found</h1></body></html>"
DEFAULT_CONTENT_TYPE = "text/html; charset=utf-8"


def reply(handler: BaseHTTPRequestHandler, body: bytes, *, status: int = 200,
          content_type: str = DEFAULT_CONTENT_TYPE) -> None:
    """Answer one request with ``body``, its length declared."""
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@dataclass(frozen=True)
class Route:
    """A fixed answer (``Content-Type`` defaults to HTML; ``Content-Length`` is added unless
    the headers frame the body otherwise), or a ``handler`` that answers by hand."""

    status: int = 200
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    handler: Handler | None = None


_NOT_FOUND = Route(404, NOT_FOUND_PAGE, {"Content-Type": "text/html"})


class LocalServer:
    """An HTTP server on ``host`` (loopback) whose routes its owner sets."""

    def __init__(self, routes: Mapping[str, Route] | None = None, *, host: str = "127.0.0.1",
                 port: int = 0, name: str = "readreceipt-local",
                 protocol: str = "HTTP/1.1") -> None:
        if not ipaddress.ip_address(host).is_loopback:
            raise ValueError(f"a local server binds a loopback address, not {host}")
        self.routes: dict[str, Route] = dict(routes or {})
        #: Every request seen: ``{"path", "time", "headers"}`` (header names lower-cased).
        self.requests: list[dict[str, Any]] = []
        self.connections = 0
        self.httpd = ThreadingHTTPServer((host, port), _handler_class(self, name, protocol))
        self.httpd.daemon_threads = True
        self.host = host
        self.port = int(self.httpd.server_address[1])
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True,
                                       name=f"local-server-{self.port}")
        self.thread.start()

    @property
    def pair(self) -> str:
        """``host:port``, as READRECEIPT_ALLOW_HOSTS names it."""
        return f"{self.host}:{self.port}"

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.base + path

    def route(self, path: str, body: bytes | str = b"", status: int = 200,
              headers: Mapping[str, str] | None = None, handler: Handler | None = None) -> str:
        """Answer ``path`` so from now on; its URL."""
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.routes[path] = Route(status, data, dict(headers or {}), handler)
        return self.url(path)

    def find(self, raw_path: str) -> Route:
        """The route for a request's path (as sent, without its query, percent-decoded)."""
        bare = raw_path.split("?", 1)[0]
        for candidate in (raw_path, bare, unquote(bare)):
            route = self.routes.get(candidate)
            if route is not None:
                return route
        return _NOT_FOUND

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _handler_class(server: LocalServer, name: str,
                   protocol: str) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        protocol_version = protocol
        server_version = name

        def setup(self) -> None:
            server.connections += 1
            super().setup()

        def do_GET(self) -> None:
            server.requests.append({"path": self.path, "time": time.time(),
                                    "headers": {k.lower(): v for k, v in self.headers.items()}})
            route = server.find(self.path)
            if route.handler is not None:
                route.handler(self)
                return
            named = {key.lower() for key in route.headers}
            self.send_response(route.status)
            if "content-type" not in named:
                self.send_header("Content-Type", DEFAULT_CONTENT_TYPE)
            for key, value in route.headers.items():
                self.send_header(key, value)
            if not named & {"content-length", "transfer-encoding"}:
                self.send_header("Content-Length", str(len(route.body)))
            self.end_headers()
            self.wfile.write(route.body)

        def log_message(self, format: str, *args: object) -> None:
            return

    return _Handler
